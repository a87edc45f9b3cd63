// A live stream the server refuses (503 TOO_MANY_STREAMS at the height of
// an on-sale) is opened again after a pause: the browser's EventSource
// would otherwise give up for good and the map never go live.
const { test, expect } = require('@playwright/test');

test('a refused live stream is opened again and the map goes live', async ({ page }) => {
  let refused = 0;
  await page.route('**/seats/stream**', async (route) => {
    if (refused === 0) {
      refused += 1;
      return route.fulfill({
        status: 503,
        headers: { 'content-type': 'application/json', 'retry-after': '5' },
        body: JSON.stringify({ error: { code: 'TOO_MANY_STREAMS', message: 'too many live updates' } }),
      });
    }
    return route.continue();
  });
  await page.goto('/events/2');
  await expect(page.getByTestId('live')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
  expect(refused).toBe(1);
});
