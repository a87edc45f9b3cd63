// With 5-second holds (a second server the test command starts): the
// countdown reaches zero, the page says the hold expired, the seat is shown
// free again, and another buyer can take it at once.
const { test, expect } = require('@playwright/test');

const shortURL = process.env.HOLDFAST_SHORT_TTL_URL;

test('a hold runs out on screen and the seat is free for the next buyer', async ({ browser }) => {
  test.skip(!shortURL, 'needs HOLDFAST_SHORT_TTL_URL (set by scripts/test.sh)');
  const page = await (await browser.newContext({ baseURL: shortURL })).newPage();
  await page.goto('/events/2');
  await expect(page.getByTestId('live')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
  const id = await page.locator('svg .seat.available').nth(10).getAttribute('data-id');
  await page.locator(`#seat-${id}`).dispatchEvent('click');
  await page.getByRole('button', { name: /^Hold (seats|cabins)$/ }).click();
  await expect(page.getByTestId('countdown')).toContainText('0:0');
  await expect(page.getByTestId('countdown')).toHaveClass(/soon/);
  await expect(page.getByText('Less than a minute left: pay now to keep these seats.')).toBeVisible();
  await expect(page.getByTestId('hold-expired')).toBeVisible({ timeout: 8_000 });
  await expect(page.locator(`#seat-${id}`)).toHaveClass(/available/);
  await page.screenshot({ path: 'test-results/hold-expired.png' });
  // Its own hold never reads as "taken by someone else".
  await expect(page.getByText('was just taken by someone else')).toHaveCount(0);
  // One tap holds the same seat again.
  await page.getByTestId('hold-again').click();
  await expect(page.getByTestId('countdown')).toBeVisible();
  await expect(page.locator(`#seat-${id}`)).toHaveClass(/mine/);
  await expect(page.getByTestId('hold-expired')).toBeVisible({ timeout: 8_000 });
  const next = await browser.newContext({ baseURL: shortURL });
  const taken = await next.request.post(`/api/events/2/seats/${id}/hold`, {
    headers: { 'Idempotency-Key': `after-expiry-${Date.now()}` },
  });
  expect(taken.status()).toBe(200);
});
