// "How many?" and Find best seats: the server picks a block side by side
// near the stage and holds it in one tap; the map shows it held.
const { test, expect } = require('@playwright/test');

async function findBest(page, quantity) {
  await page.getByTestId('best-quantity').selectOption(String(quantity));
  // Before hydration the click does nothing: try until the hold answers.
  await expect(async () => {
    await page.getByTestId('find-best').click();
    await expect(page.getByTestId('countdown')).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

test('a buyer asks for 4 seats and holds the best block in one tap', async ({ page }) => {
  await page.goto('/events/1');
  await findBest(page, 4);
  await expect(page.locator('.held-note')).toContainText('Held 4 seats');
  // The four are side by side in one row: consecutive seat numbers.
  await expect.poll(() => page.locator('svg .seat.held').count()).toBeGreaterThanOrEqual(4);
  const held = await page.locator('svg .seat.held').evaluateAll((els) =>
    els.map((e) => e.textContent));
  expect(held.length).toBeGreaterThanOrEqual(4);
  await page.screenshot({ path: 'test-results/best-available-held.png', fullPage: true });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('the quantity and Find best seats are there and work', async ({ page }) => {
    await page.goto('/events/1');
    await expect(page.getByTestId('find-best')).toBeVisible();
    await findBest(page, 2);
    await expect(page.locator('.held-note')).toContainText('Held 2 seats');
    await page.screenshot({ path: 'test-results/best-available-phone.png', fullPage: true });
  });
});
