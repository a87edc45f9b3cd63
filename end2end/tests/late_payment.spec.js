// A late payment, as the buyer sees it: the provider says the checkout
// ended (so the seat goes back and another buyer takes it), then the first
// buyer's payment arrives anyway. The booking page turns REFUNDED by itself
// and says why; the other buyer keeps the seat.
const { test, expect } = require('@playwright/test');
const { holdSeat, payHeld, payOnCheckout, signed } = require('./helpers');

test('a payment that arrives after the seat went to someone else is refunded, and the page says so', async ({ page, browser }) => {
  await page.goto('/events/2');
  const seat = await page.locator('svg .seat.available').nth(60).getAttribute('data-id');
  await holdSeat(page, seat);
  await payHeld(page);
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);

  // The provider reports the checkout ended (as Stripe may, out of order).
  const mine = await (await page.request.get('/api/bookings')).json();
  const booking = mine.find((b) => b.status === 'PAYMENT_PENDING');
  const session = booking.payment.checkoutSessionId;
  const expired = JSON.stringify({
    id: `evt_e2e_${Date.now()}`,
    object: 'event',
    type: 'checkout.session.expired',
    data: { object: { id: session, object: 'checkout.session', client_reference_id: booking.id,
      payment_status: 'unpaid', status: 'expired' } },
  });
  const ended = await page.request.post('/api/payments/webhook', { headers: signed(expired), data: expired });
  expect((await ended.json()).outcome).toBe('checkout_ended');

  // Another buyer takes the seat that came back.
  const other = await browser.newContext();
  const taken = await other.request.post(`/api/events/2/seats/${seat}/hold`, {
    headers: { 'Idempotency-Key': `late-e2e-${Date.now()}` },
  });
  expect(taken.status()).toBe(200);

  // The first buyer pays anyway, on the page still open in the tab.
  await payOnCheckout(page);
  await expect(page).toHaveURL(/\/bookings\//);
  await expect(page.getByTestId('booking-status')).toHaveText('REFUNDED', { timeout: 20_000 });
  await expect(page.locator('.booking')).toContainText('refunded in full');
  await expect(page.locator('.booking')).toContainText('seats had gone to someone else');
  await page.screenshot({ path: 'test-results/late-payment-refunded.png', fullPage: true });

  // The other buyer still holds the seat.
  const theirs = await (await other.request.get('/api/bookings')).json();
  expect(theirs[0].status).toBe('HELD');
  await other.close();
});
