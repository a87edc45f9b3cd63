// The door, as staff use it: a buyer books two seats; at the console's
// door scanner, at another event's door the ticket is refused; at its own
// the first seat's ticket turns the screen green and names event and seat, the same
// ticket again turns it red and says when and at which gate it was used.
const { test, expect } = require('@playwright/test');
const { signInToConsole } = require('./helpers');

async function bookTwoSeats(request) {
  const seats = (await (await request.get('/api/events/2/seats')).json()).seats
    .filter((s) => s.status === 'AVAILABLE').slice(120, 122).map((s) => s.id);
  const held = await request.post('/api/events/2/holds', {
    headers: { 'Idempotency-Key': `door-hold-${Date.now()}` }, data: { seatIds: seats },
  });
  expect(held.status()).toBe(200);
  const { bookingId } = await held.json();
  const paid = await request.post(`/api/bookings/${bookingId}/pay`, {
    headers: { 'Idempotency-Key': `door-pay-${Date.now()}` },
  });
  const { checkoutSessionId } = await paid.json();
  await request.post(`/sandbox/checkout/${checkoutSessionId}/complete`, {
    form: { outcome: 'paid', delivery: 'once', email: 'door@example.com' },
  });
  let booking;
  await expect(async () => {
    booking = await (await request.get(`/api/bookings/${bookingId}`)).json();
    expect(booking.status).toBe('BOOKED');
  }).toPass({ timeout: 15_000 });
  return booking;
}

test('a ticket lets its holder in once, and the scanner says so', async ({ page, browser }) => {
  const buyer = await browser.newContext();
  const booking = await bookTwoSeats(buyer.request);
  expect(booking.tickets).toHaveLength(2);
  await buyer.close();

  await signInToConsole(page);
  await page.getByRole('link', { name: 'Door scanner' }).click();
  await expect(page.getByRole('heading', { name: 'Door' })).toBeVisible();
  await page.waitForLoadState('networkidle');

  // The door is the event's: without choosing it nothing is let in.
  await page.getByLabel('Ticket').fill(booking.tickets[0].token);
  await page.getByLabel('Ticket').press('Enter');
  await expect(page.getByTestId('scan-result')).toContainText('Choose the event first');
  await page.getByLabel('Event at this door').selectOption('1');
  await page.getByLabel('Ticket').press('Enter');
  await expect(page.getByTestId('scan-result')).toHaveClass(/refused/);
  await expect(page.getByTestId('scan-result')).toContainText('not for this event');
  await page.getByLabel('Event at this door').selectOption('2');
  await page.getByLabel('Gate').fill('B');
  await page.getByLabel('Ticket').fill(booking.tickets[0].token);
  await page.getByLabel('Ticket').press('Enter');
  await expect(page.getByTestId('scan-result')).toHaveClass(/admitted/);
  await expect(page.getByTestId('scan-result')).toContainText('Let in: 1 person at gate B');
  // It names the event, its start and the seat.
  await expect(page.getByTestId('scan-result')).toContainText(booking.event.name);
  await expect(page.getByTestId('scan-result')).toContainText(/(cabin|seat) \d+/i);
  await expect(page.getByLabel('Ticket')).toHaveValue('');
  await page.screenshot({ path: 'test-results/door-admitted.png', fullPage: true });

  await page.getByLabel('Ticket').fill(booking.tickets[0].token);
  await page.getByRole('button', { name: 'Check in' }).click();
  await expect(page.getByTestId('scan-result')).toHaveClass(/refused/);
  await expect(page.getByTestId('scan-result')).toContainText('already used');
  await expect(page.getByTestId('scan-result')).toContainText('gate B');
  await page.screenshot({ path: 'test-results/door-refused.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/door-refused-phone.png', fullPage: true });
  // One-handed on a phone: Check in is wide and in the lower half of the
  // screen, the answer above it, and the ticket field ready for the next scan.
  const button = await page.getByRole('button', { name: 'Check in' }).boundingBox();
  expect(button.width).toBeGreaterThanOrEqual(300);
  expect(button.height).toBeGreaterThanOrEqual(48);
  expect(button.y).toBeGreaterThan(844 / 2);
  expect(button.y + button.height).toBeLessThanOrEqual(844);
  const answer = await page.getByTestId('scan-result').boundingBox();
  expect(answer.y + answer.height).toBeLessThanOrEqual(button.y);
  await expect(page.getByLabel('Ticket')).toBeFocused();

  await page.getByLabel('Ticket').fill('not-a-ticket.abc');
  await page.getByRole('button', { name: 'Check in' }).click();
  await expect(page.getByTestId('scan-result')).toContainText('not found');
});
