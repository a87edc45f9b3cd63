// Money that goes back outside Holdfast, as the buyer and the organizer see
// it: a booked buyer's payment is partly refunded from Stripe's dashboard
// (the ticket stays, the page says how much came back), then the buyer's
// bank disputes it (the ticket is void, the seat is on sale again, the
// console says why). Desktop and phone width.
const { test, expect } = require('@playwright/test');
const { holdSeat, payHeld, payOnCheckout, signInToConsole, signed } = require('./helpers');

function event(type, object) {
  return JSON.stringify({ id: `evt_e2e_${type}_${Date.now()}`, object: 'event', type, data: { object } });
}

test('a partial refund keeps the ticket; a dispute voids it and frees the seat', async ({ page, browser }) => {
  await page.goto('/events/2');
  const seat = await page.locator('svg .seat.available').nth(80).getAttribute('data-id');
  await holdSeat(page, seat);
  await payHeld(page);
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await payOnCheckout(page);
  await expect(page).toHaveURL(/\/bookings\//);
  await expect(page.getByTestId('booking-status')).toHaveText('BOOKED', { timeout: 15_000 });
  const bookingUrl = page.url();

  const mine = await (await page.request.get('/api/bookings')).json();
  const booking = mine.find((b) => b.status === 'BOOKED' && b.seats.some((s) => String(s.id) === seat));
  const intent = booking.payment.paymentIntentId;

  // Part of the money goes back from the provider's dashboard.
  const partial = event('charge.refunded', {
    id: 'ch_e2e', object: 'charge', amount: booking.amountCents, amount_refunded: 1000,
    refunded: false, payment_intent: intent,
  });
  const first = await page.request.post('/api/payments/webhook', { headers: signed(partial), data: partial });
  expect((await first.json()).outcome).toBe('partial_refund_recorded');
  await page.goto(bookingUrl);
  await expect(page.getByTestId('booking-status')).toHaveText('BOOKED');
  await expect(page.getByTestId('refunded-part')).toContainText('€10.00');
  await expect(page.getByTestId('ticket').first().locator('svg')).toBeVisible();
  await page.screenshot({ path: 'test-results/booking-partly-refunded.png', fullPage: true });

  // The buyer's bank disputes the payment.
  const dispute = event('charge.dispute.created', {
    id: 'du_e2e', object: 'dispute', amount: booking.amountCents, payment_intent: intent,
    reason: 'fraudulent', status: 'needs_response',
  });
  const second = await page.request.post('/api/payments/webhook', { headers: signed(dispute), data: dispute });
  expect((await second.json()).outcome).toBe('ticket_voided');
  await page.goto(bookingUrl);
  await expect(page.getByTestId('booking-status')).toHaveText('DISPUTED');
  await expect(page.locator('.booking')).toContainText('no longer valid');
  await expect(page.getByTestId('ticket')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/booking-disputed.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/booking-disputed-phone.png', fullPage: true });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(wide).toBeLessThanOrEqual(390);

  // The seat is on sale again.
  const seats = await (await page.request.get('/api/events/2/seats')).json();
  expect(seats.seats.find((s) => String(s.id) === seat).status).toBe('AVAILABLE');

  // The organizer's console says what happened.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInToConsole(admin);
  await admin.goto('/admin/events/2');
  const row = admin.locator('tr', { hasText: booking.id.slice(0, 8) }).filter({ hasText: 'DISPUTED' });
  await expect(row.first()).toContainText("disputed by the buyer's bank", { timeout: 10_000 });
  await admin.screenshot({ path: 'test-results/admin-disputed.png', fullPage: true });
  await adminContext.close();
});
