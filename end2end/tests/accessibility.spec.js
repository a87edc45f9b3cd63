// Keyboard-only selection and hold, alternatives offered in one click, and
// an axe-core scan of the seat map and booking pages.
const { test, expect } = require('@playwright/test');
const AxeBuilder = require('@axe-core/playwright').default;

const baseURL = process.env.HOLDFAST_URL || 'http://127.0.0.1:3000';

async function waitForHydration(page) {
  // The live indicator only turns on once the wasm runs.
  await expect(page.getByTestId('live')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
}

test('a seat can be found, selected and held with the keyboard alone', async ({ page }) => {
  await page.goto('/events/2');
  await waitForHydration(page);
  await page.locator('.seat-map svg').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  const focused = page.locator('circle.seat:focus');
  await expect(focused).toHaveCount(1);
  const id = await focused.getAttribute('data-id');
  await page.keyboard.press('Enter');
  await expect(page.locator(`#seat-${id}`)).toHaveClass(/selected/);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Hold seats' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('countdown')).toBeVisible();
});

test('a buyer who loses a seat gets alternatives and takes them in one click', async ({ browser }) => {
  const other = await browser.newContext({ baseURL });
  const loser = await (await browser.newContext({ baseURL })).newPage();
  // This buyer's live stream is down, so its map does not know yet.
  await loser.route('**/seats/stream**', (route) => route.abort());
  await loser.goto('/events/2');
  const id = await loser.locator('circle.seat.available').nth(200).getAttribute('data-id');
  await expect(async () => {
    await loser.locator(`#seat-${id}`).dispatchEvent('click');
    await expect(loser.locator(`#seat-${id}`)).toHaveClass(/selected/, { timeout: 500 });
  }).toPass({ timeout: 20_000 });
  const taken = await other.request.post(`/api/events/2/seats/${id}/hold`, {
    headers: { 'Idempotency-Key': `race-${Date.now()}` },
  });
  expect(taken.status()).toBe(200);
  await loser.getByRole('button', { name: 'Hold seats' }).click();
  await expect(loser.getByRole('alert')).toContainText('no longer available');
  await expect(loser.locator(`#seat-${id}`)).toHaveClass(/held/);
  const offer = loser.getByTestId('suggestions').getByRole('button').first();
  await expect(offer).toContainText('Take Section');
  await offer.click();
  await expect(loser.getByTestId('countdown')).toBeVisible();
});

test('the seat map and the booking pages have no serious accessibility violations', async ({ page }) => {
  await page.goto('/events/2');
  await waitForHydration(page);
  const map = await new AxeBuilder({ page }).analyze();
  const serious = (r) => r.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(serious(map).map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await page.goto('/bookings');
  const list = await new AxeBuilder({ page }).analyze();
  expect(serious(list).map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});
