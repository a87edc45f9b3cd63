// What an on-call engineer opens: the console's Jobs page (every periodic
// job, where it runs, its last runs, Run now) and a booking's history from
// the event's dashboard (every status, why and when). Both are plain
// server-rendered pages.
const { test, expect } = require('@playwright/test');
const { signInToConsole } = require('./helpers');

async function bookOneSeat(request) {
  const seat = (await (await request.get('/api/events/2/seats')).json()).seats
    .filter((s) => s.status === 'AVAILABLE')[140].id;
  const held = await request.post('/api/events/2/holds', {
    headers: { 'Idempotency-Key': `ops-hold-${Date.now()}` }, data: { seatIds: [seat] },
  });
  expect(held.status()).toBe(200);
  const { bookingId } = await held.json();
  const paid = await request.post(`/api/bookings/${bookingId}/pay`, {
    headers: { 'Idempotency-Key': `ops-pay-${Date.now()}` },
  });
  const { checkoutSessionId } = await paid.json();
  await request.post(`/sandbox/checkout/${checkoutSessionId}/complete`, {
    form: { outcome: 'paid', delivery: 'once', email: 'ops@example.com' },
  });
  await expect(async () => {
    const booking = await (await request.get(`/api/bookings/${bookingId}`)).json();
    expect(booking.status).toBe('BOOKED');
  }).toPass({ timeout: 15_000 });
  return bookingId;
}

test('the Jobs page lists every job with its runs, and Run now runs one', async ({ page }) => {
  await signInToConsole(page);
  await page.getByRole('link', { name: 'Jobs' }).click();
  await expect(page.getByRole('heading', { name: 'Jobs' })).toBeVisible();
  for (const job of ['sweep', 'reconcile', 'outbox', 'sandbox-deliveries', 'waiting-rooms', 'canary', 'purge', 'statistics']) {
    await expect(page.getByRole('rowheader', { name: job, exact: true })).toBeVisible();
  }
  // The outbox runs every second: it has finished runs, each saying how it went.
  await expect(page.locator('tr[data-job="outbox"] li.run.ok').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/jobs.png', fullPage: true });

  // The canary runs once a minute; Run now makes it run at the next poll.
  const canaryRuns = page.locator('tr[data-job="canary"] li.run');
  const before = await canaryRuns.count();
  await page.locator('tr[data-job="canary"]').getByRole('button', { name: 'Run now' }).click();
  await expect(page.getByRole('status')).toContainText('canary runs at the next poll.');
  await expect(async () => {
    await page.reload();
    expect(await canaryRuns.count()).toBeGreaterThan(before);
  }).toPass({ timeout: 15_000 });
  await expect(canaryRuns.first()).toHaveClass(/ok/);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/jobs-phone.png', fullPage: true });
});

test("a booking's history shows every status, why and when", async ({ page, browser }) => {
  const buyer = await browser.newContext();
  const bookingId = await bookOneSeat(buyer.request);
  await buyer.close();

  await signInToConsole(page);
  // The dashboard shows the booking's first 8 characters; the Jobs page
  // finds its history by them.
  await page.goto('/admin/events/2');
  await page.getByRole('tab', { name: 'Bookings' }).click();
  await expect(page.locator('table.recent tr', { hasText: bookingId.slice(0, 8) })).toBeVisible({ timeout: 10_000 });
  await page.goto('/admin/jobs');
  await page.getByLabel("A booking's history").fill(bookingId.slice(0, 8));
  await page.getByRole('button', { name: 'History' }).click();
  const panel = page.locator('section.booking-history');
  await expect(panel.getByRole('heading')).toContainText(`History of booking ${bookingId.slice(0, 8)}`);
  const steps = panel.locator('li');
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(0)).toContainText('buyer');
  await expect(steps.nth(1)).toContainText('buyer');
  await expect(steps.nth(2)).toContainText('webhook (evt_');
  await page.screenshot({ path: 'test-results/booking-history.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/booking-history-phone.png', fullPage: true });
});

test('the history lookup says when nothing or too much matches', async ({ page }) => {
  await signInToConsole(page);
  await page.goto('/admin/bookings/history?booking=ffffffff-ffff');
  await expect(page.getByRole('status')).toContainText('No booking starts with ffffffff-ffff.');
  await page.goto('/admin/bookings/history?booking=<script>');
  await expect(page.getByRole('status')).toContainText('No booking starts with');
  expect(await page.content()).not.toContain('<script>alert');
});
