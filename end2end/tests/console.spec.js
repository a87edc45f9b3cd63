// The organizer's console on show day, beside buyers in other browser
// contexts: a new event published from the form, the seat map by sale
// turning a buyer's hold amber, rows that keep their order after "+1 min",
// a release and a refund that each ask first (and a "Keep as is" that
// changes nothing), a booking found by the buyer's email, and the attendee
// list read back as CSV. Desktop and phone, screenshots of each step, and
// axe on the console's views.
const { test, expect } = require('@playwright/test');
const AxeBuilder = require('@axe-core/playwright').default;
const { holdOn, payHeld, publishedEvent, signInToConsole } = require('./helpers');

async function serious(page) {
  return (await new AxeBuilder({ page }).analyze()).violations
    .filter((v) => ['serious', 'critical'].includes(v.impact))
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
}

test('show day: sales, the map by sale, confirmations, stable rows, the attendee list', async ({ browser }) => {
  test.setTimeout(120_000);
  const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const admin = await adminContext.newPage();
  await signInToConsole(admin);
  await admin.waitForLoadState('networkidle');
  const { eventId } = await publishedEvent(admin, `Show day ${Date.now()}`, 4, 6);

  await admin.goto(`/admin/events/${eventId}`);
  await expect(admin.locator('.live-state')).toHaveText(/live/, { timeout: 15_000 });
  await expect(admin.getByText('No holds right now.')).toBeVisible();
  await expect(admin.locator('.heat-view')).toHaveAttribute('data-drawn', 'true', { timeout: 15_000 });
  await expect(admin.locator('.heat-view .seat')).toHaveCount(24);
  await expect(admin.locator('table.sales tfoot')).toContainText('24');
  expect(await serious(admin)).toEqual([]);

  // Two buyers hold a seat each: the rows appear, the map turns amber.
  const first = await holdOn(browser, eventId, 2);
  const second = await holdOn(browser, eventId, 9);
  await expect(admin.locator('tr.hold')).toHaveCount(2, { timeout: 5_000 });
  await expect(admin.locator(`.heat-view #seat-${first.id}`)).toHaveClass(/held/, { timeout: 5_000 });
  await expect(admin.locator(`.heat-view #seat-${second.id}`)).toHaveClass(/held/);
  await expect(admin.locator('table.sales tfoot')).toContainText('2');
  await admin.screenshot({ path: 'test-results/console-overview.png', fullPage: true });

  // "+1 min" on the first row: the rows keep their order.
  const order = () => admin.locator('tr.hold').evaluateAll((rows) => rows.map((r) => r.dataset.booking));
  const before = await order();
  await admin.locator('tr.hold').first().getByRole('button', { name: '+1 min' }).click();
  await expect(admin.locator('.action-result')).toContainText(/extend|minute|longer/i);
  await admin.waitForTimeout(1_500);
  expect(await order()).toEqual(before);

  // Release asks first; "Keep as is" changes nothing.
  const last = admin.locator('tr.hold').last();
  const lastId = await last.getAttribute('data-booking');
  await last.getByRole('button', { name: 'Release' }).click();
  const ask = admin.getByRole('alertdialog');
  await expect(ask).toContainText(/^Release buyer .+'s hold on 1 seat \(.+\)\? They go back on sale at once\./);
  await expect(ask.getByRole('button', { name: 'Release the hold' })).toBeFocused();
  await admin.screenshot({ path: 'test-results/console-confirm-release.png' });
  await ask.getByRole('button', { name: 'Keep as is' }).click();
  await expect(ask).toHaveCount(0);
  await admin.waitForTimeout(1_000);
  await expect(admin.locator(`tr.hold[data-booking="${lastId}"]`)).toHaveCount(1);
  await last.getByRole('button', { name: 'Release' }).click();
  await ask.getByRole('button', { name: 'Release the hold' }).click();
  await expect(admin.locator(`tr.hold[data-booking="${lastId}"]`)).toHaveCount(0, { timeout: 5_000 });
  await expect(admin.locator(`.heat-view #seat-${second.id}`)).toHaveClass(/available/, { timeout: 5_000 });

  // The first buyer pays, giving an email at the checkout.
  const email = `showday${Date.now()}@example.com`;
  await payHeld(first.page);
  await first.page.getByLabel('Email for the confirmation').fill(email);
  await first.page.getByRole('button', { name: /^Pay / }).click();
  await expect(first.page.getByTestId('booking-status')).toHaveText('BOOKED', { timeout: 15_000 });
  await expect(admin.locator(`.heat-view #seat-${first.id}`)).toHaveClass(/booked/, { timeout: 5_000 });

  // Bookings: found by the email; the refund says what it does first.
  await admin.getByRole('tab', { name: 'Bookings' }).click();
  await admin.getByRole('searchbox', { name: /Search bookings/ }).fill(email.slice(0, 12));
  const booked = admin.locator('table.recent tbody tr');
  await expect(booked).toHaveCount(1, { timeout: 5_000 });
  await expect(booked).toContainText(email);
  await booked.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(ask).toContainText(new RegExp(`^Refund €[\\d.]+ to ${email.replace('.', '\\.')} and release 1 seat \\(.+\\)\\?`));
  await admin.screenshot({ path: 'test-results/console-confirm-refund.png' });
  await ask.getByRole('button', { name: /^Refund €/ }).click();
  await expect(admin.locator('.action-result')).toContainText(/[Rr]efund/);
  await expect(async () => {
    await first.page.reload();
    await expect(first.page.getByTestId('booking-status')).toHaveText('REFUNDED', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await admin.getByRole('searchbox', { name: /Search bookings/ }).fill('no such booking anywhere');
  await expect(admin.getByText('No booking matches')).toBeVisible();
  expect(await serious(admin)).toEqual([]);

  // The attendee list, read back.
  const href = await admin.getByRole('link', { name: 'Export attendees (CSV)' }).getAttribute('href');
  const csv = await (await admin.request.get(href)).text();
  const lines = csv.trim().split('\r\n');
  expect(lines[0]).toBe('booking,names,email,places,tickets,checked_in,status');
  expect(lines.length).toBe(2);
  expect(lines[1]).toContain(email);
  expect(lines[1]).toMatch(/,1,0,(BOOKED|REFUNDED)$/);

  // Logs under their own tab.
  await admin.getByRole('tab', { name: 'Logs' }).click();
  await expect(admin.locator('table.audit')).toContainText('refund');
  await admin.screenshot({ path: 'test-results/console-logs.png', fullPage: true });

  // A phone: tables read as cards, the actions within reach.
  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.getByRole('tab', { name: 'Overview' }).click();
  const third = await holdOn(browser, eventId, 15);
  const card = admin.locator('tr.hold').first();
  await expect(card).toBeVisible({ timeout: 5_000 });
  const release = card.getByRole('button', { name: 'Release' });
  const box = await release.boundingBox();
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await admin.screenshot({ path: 'test-results/console-phone.png', fullPage: true });
  await release.click();
  await expect(ask).toBeVisible();
  await admin.screenshot({ path: 'test-results/console-phone-confirm.png' });
  await ask.getByRole('button', { name: 'Keep as is' }).click();
  expect(await serious(admin)).toEqual([]);

  // The console's home on the phone: the event's date, places sold of its
  // capacity, revenue, the sale's state; Withdraw within the screen.
  await admin.goto('/admin');
  const home = admin.locator(`table.events tr[data-event="${eventId}"]`);
  await expect(home).toContainText('of 24');
  await expect(home).toContainText('on sale');
  await expect(home.locator('.event-date')).toContainText(/\d{4}/);
  const withdraw = home.getByRole('button', { name: 'Withdraw' });
  const place = await withdraw.boundingBox();
  expect(place.x + place.width).toBeLessThanOrEqual(390);
  await admin.screenshot({ path: 'test-results/console-home-phone.png', fullPage: true });
  for (const c of [first.context, second.context, third.context, adminContext]) await c.close();
});

test('withdrawing an event asks first', async ({ page }) => {
  await signInToConsole(page);
  // Typing before the page has hydrated would be lost.
  await page.waitForLoadState('networkidle');
  const name = `Withdrawn ${Date.now()}`;
  const { row } = await publishedEvent(page, name, 2, 4);
  await row.getByRole('button', { name: 'Withdraw' }).click();
  await expect(page.getByRole('alertdialog')).toContainText(`Withdraw “${name}” from sale?`);
  await page.getByRole('button', { name: 'Keep as is' }).click();
  await expect(row.getByRole('button', { name: 'Withdraw' })).toBeVisible();
  await row.getByRole('button', { name: 'Withdraw' }).click();
  await page.getByRole('button', { name: 'Withdraw from sale' }).click();
  await expect(row.getByRole('button', { name: 'Publish' })).toBeVisible();
});

test('the on-sale panel: the time shown and moved, a rate suggested, places free explained', async ({ page, browser }) => {
  await signInToConsole(page);
  // Typing before the page has hydrated would be lost.
  await page.waitForLoadState('networkidle');
  const { eventId } = await publishedEvent(page, `Doors ${Date.now()}`, 2, 4);
  await page.goto(`/admin/events/${eventId}`);
  await expect(page.locator('.live-state')).toHaveText(/live/, { timeout: 15_000 });
  // Never set: the rate starts from the suggestion, not from 1.
  await expect(page.locator('input[name="admitPerMinute"]')).toHaveValue('10');
  await expect(page.locator('.on-sale')).toContainText('Suggested: 10 a minute');
  await expect(page.locator('.on-sale')).toContainText('Places free: seats and standing places nobody holds or bought');
  // No on-sale time set: the field is empty and says why (never 1970).
  await expect(page.locator('input[name="onSaleAt"]')).toHaveValue('');
  await expect(page.getByTestId('on-sale-unset')).toContainText('on sale since it was published');
  await page.locator('input[name="onSaleAt"]').fill('2031-05-01T10:00');
  await page.getByRole('button', { name: 'Move the on-sale time' }).click();
  await expect(page.locator('.on-sale-time [role="status"]')).toContainText('On sale from');
  await expect(page.locator('.on-sale-time [role="status"]')).toContainText('1 May, 10:00');
  await expect(page.locator('input[name="onSaleAt"]')).toHaveValue('2031-05-01T10:00');
  await expect(page.getByTestId('on-sale-unset')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/console-on-sale-time.png', fullPage: true });
  // Buyers cannot hold before it.
  const buyer = await browser.newContext();
  const seats = await (await buyer.request.get(`/api/events/${eventId}/seats`)).json();
  const held = await buyer.request.post(`/api/events/${eventId}/holds`, {
    headers: { 'Idempotency-Key': `on-sale-${Date.now()}` },
    data: { seatIds: [seats.seats[0].id] },
  });
  expect(held.status()).toBe(409);
  expect((await held.json()).error.code).toBe('NOT_ON_SALE');
  await buyer.close();
  await page.getByRole('tab', { name: 'Logs' }).click();
  await expect(page.locator('table.audit')).toContainText('on-sale time');
});
