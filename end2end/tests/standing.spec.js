// Standing places bought from the page: the floor drawn on the map, a
// stepper per standing area with the places left, held in one tap, paid,
// booked.
const { test, expect } = require('@playwright/test');
const { payOnCheckout } = require('./helpers');

for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
  test(`a buyer buys 3 standing places from the page (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/events/1');
    await expect(page.getByTestId('live')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
    // The floor is drawn in front of the stage, in its colour; pressing it
    // brings its stepper to hand.
    const floor = page.locator('.standing-floor .floor-area', { hasText: 'Standing floor' });
    await expect(floor).toBeVisible();
    const stage = await page.locator('svg rect.stage').boundingBox();
    const drawn = await floor.boundingBox();
    expect(drawn.y).toBeGreaterThan(stage.y + stage.height);
    await page.screenshot({ path: `test-results/standing-floor-${name}.png` });
    await floor.click();
    await expect(page.getByRole('button', { name: 'Hold 1 place' })).toBeFocused();
    const standing = page.getByTestId('standing');
    await expect(standing).toContainText('Standing floor');
    await expect(standing).toContainText(/\d+ places left/);
    // The places left change live, and a screen reader is told.
    await expect(standing.getByTestId('standing-left')).toHaveAttribute('aria-live', 'polite');
    const more = standing.getByRole('button', { name: 'One place more' });
    await more.click();
    await more.click();
    await expect(standing.getByTestId('standing-count')).toHaveText('3');
    await standing.getByRole('button', { name: 'One place fewer' }).click();
    await more.click();
    await standing.getByRole('button', { name: 'Hold 3 places' }).click();
    await expect(page.getByTestId('countdown')).toBeVisible();
    await expect(page.locator('.held-note')).toContainText('Held 3 standing places for €195.00');
    await page.screenshot({ path: `test-results/standing-held-${name}.png`, fullPage: true });

    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\//);
    await payOnCheckout(page);
    await expect(page).toHaveURL(/\/bookings\//);
    await expect(page.getByTestId('booking-status')).toHaveText('BOOKED', { timeout: 15_000 });
  });
}
