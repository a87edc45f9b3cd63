// A buyer's journey through nginx over HTTPS (scripts/proxy-test.sh starts
// nginx with deploy/nginx/holdfast.conf in front of two instances and runs
// this spec against it): the event page, another buyer's hold seen on the
// live map through the proxy's stream, a hold, the payment, the ticket.
// The time from the other buyer's hold to the change on this map is
// printed: nginx buffering the stream would hold it back until its buffer
// filled, which for these few bytes is never.
const { test, expect } = require('@playwright/test');
const { holdSeat, payOnCheckout } = require('./helpers');

const proxy = process.env.HOLDFAST_PROXY_URL;

test.skip(!proxy, 'run by scripts/proxy-test.sh, which starts nginx');
test.use({ baseURL: proxy, ignoreHTTPSErrors: true });

test('page, live map, hold, pay and ticket through nginx over HTTPS', async ({ browser }) => {
  test.setTimeout(90_000);
  const watching = await browser.newContext({ ignoreHTTPSErrors: true });
  const watcher = await watching.newPage();
  const response = await watcher.goto('/events/1');
  expect(response.url()).toMatch(/^https:/);
  await expect(watcher.locator('svg .seat.available').first()).toBeVisible();

  const buying = await browser.newContext({ ignoreHTTPSErrors: true });
  const buyer = await buying.newPage();
  await buyer.goto('/events/1');
  const seat = buyer.locator('svg .seat.available').nth(120);
  const id = await seat.getAttribute('data-id');
  await expect(watcher.locator(`#seat-${id}`)).toHaveClass(/available/);
  await holdSeat(buyer, id);
  const held = Date.now();
  await expect(watcher.locator(`#seat-${id}`)).not.toHaveClass(/available/, { timeout: 10_000 });
  console.log(`live map through nginx: the hold seen ${Date.now() - held} ms after it was taken`);
  await watcher.screenshot({ path: 'test-results/proxy-live-map.png' });

  await buyer.getByRole('button', { name: 'Pay now' }).click();
  await expect(buyer).toHaveURL(/\/sandbox\/checkout\//);
  await payOnCheckout(buyer);
  await expect(buyer).toHaveURL(/\/bookings\//);
  const booking = buyer.url().split('/bookings/')[1].split(/[?#]/)[0];
  // The ticket, read through the proxy (the hosted payment page, like
  // Stripe's, is elsewhere).
  await buyer.goto(`${proxy}/bookings/${booking}`);
  await expect(buyer.getByTestId('booking-status')).toHaveText('BOOKED', { timeout: 15_000 });
  await expect(buyer.getByTestId('ticket').first().locator('svg')).toBeVisible();
  expect(buyer.url()).toMatch(/^https:/);
  await buyer.screenshot({ path: 'test-results/proxy-ticket.png', fullPage: true });
  await watching.close();
  await buying.close();
});
