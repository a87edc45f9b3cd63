// A hold belongs to the buyer, not to the tab: a buyer who reloads, or
// leaves and comes back, finds the running hold on its booking page (from
// "My bookings") with the time it has left, counting down, and Pay; paying
// from there books it. At desktop and phone width; the phone's Pay is in
// reach without scrolling.
const { test, expect } = require('@playwright/test');
const { holdSeat, payOnCheckout } = require('./helpers');

const sizes = [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]];

for (const [name, viewport] of sizes) {
  test(`a hold is paid from its booking page after a reload (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/events/1');
    const seat = await page.locator('svg .seat.available').nth(name === 'phone' ? 7 : 5).getAttribute('data-id');
    await holdSeat(page, seat);

    await page.reload();
    await page.goto('/bookings');
    await expect(page.locator('.event-card .kind').first()).toHaveText('HELD');
    await page.locator('.event-card a').first().click();
    await expect(page.getByTestId('booking-status')).toHaveText('HELD');
    const countdown = page.getByTestId('countdown');
    await expect(countdown).toContainText(/Time left: \d+:\d\d/);
    // It counts down (the server's time left, ticking in the page).
    const first = await countdown.locator('strong').textContent();
    await expect(async () => {
      expect(await countdown.locator('strong').textContent()).not.toBe(first);
    }).toPass({ timeout: 5_000 });
    // The page itself reloaded (drawn by the server, then hydrated): the
    // same hold, still counting.
    await page.reload();
    await expect(page.getByTestId('booking-status')).toHaveText('HELD');
    await expect(countdown).toContainText(/Time left: \d+:\d\d/);
    const pay = page.getByTestId('pay-held');
    await expect(pay).toBeVisible();
    await expect(pay).toBeInViewport();
    // Readable: a filled button, its words in another colour than its face.
    const [ink, face] = await pay.evaluate((e) => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]);
    expect(ink).not.toBe(face);
    expect(face).not.toBe('rgb(255, 255, 255)');
    await expect(page.getByRole('button', { name: 'Release these places' })).toBeVisible();
    await page.screenshot({ path: `test-results/held-booking-page-${name}.png`, fullPage: true });

    await pay.click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\//);
    await payOnCheckout(page);
    await expect(page).toHaveURL(/\/bookings\//);
    await expect(page.getByTestId('booking-status')).toHaveText('BOOKED', { timeout: 15_000 });
    await expect(page.getByTestId('pay-held')).toHaveCount(0);
    await expect(page.getByTestId('countdown')).toHaveCount(0);
  });
}
