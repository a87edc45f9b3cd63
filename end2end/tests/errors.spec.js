// When a step cannot be answered, the buyer is told what happened and what
// did not: the network is down, the server failed, or too many attempts.
// Nothing fails silently, and the selection stays for another try.
const { test, expect } = require('@playwright/test');

async function selectOne(page) {
  await page.goto('/events/1');
  await expect(page.getByTestId('live')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
  const id = await page.locator('svg .seat.available').nth(300).getAttribute('data-id');
  await page.locator(`#seat-${id}`).dispatchEvent('click');
  await expect(page.getByTestId('selection').locator('li')).toHaveCount(1);
}

test('the network down: the page says so and keeps the selection', async ({ page }) => {
  await selectOne(page);
  await page.route('**/api/hold_seats*', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: /^Hold (seats|cabins)$/ }).click();
  await expect(page.getByRole('alert')).toContainText('could not reach Holdfast');
  await expect(page.getByRole('alert')).toContainText('your seats were not held');
  await expect(page.getByTestId('selection').locator('li')).toHaveCount(1);
  await page.screenshot({ path: 'test-results/error-network.png' });
});

test('a server failure and a rate limit get messages of their own', async ({ page }) => {
  await selectOne(page);
  await page.route('**/api/hold_seats*', (route) => route.fulfill({ status: 500, body: 'boom' }));
  await page.getByRole('button', { name: /^Hold (seats|cabins)$/ }).click();
  await expect(page.getByRole('alert')).toContainText('went wrong on our side');

  await page.unroute('**/api/hold_seats*');
  await page.route('**/api/hold_seats*', (route) => route.fulfill({
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': '3' },
    body: JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'Too many requests' } }),
  }));
  await page.getByRole('button', { name: /^Hold (seats|cabins)$/ }).click();
  await expect(page.getByRole('alert')).toContainText('Too many attempts');
});
