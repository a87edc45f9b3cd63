// The organizer's team, as its people use it: an owner invites a door
// volunteer from the Team page; the volunteer joins on a phone, where the
// console opens on the scanner and nothing else; removing the volunteer
// on one instance signs them out on the other within a second. A
// box-office account finds bookings but cannot refund; a read-only account
// reads; each sees only the controls their role may use.
const { test, expect } = require('@playwright/test');
const { signInToConsole } = require('./helpers');

const SECOND = process.env.HOLDFAST_SECOND_URL;

// The newest team link (`join` or `sign-in`) mailed to `email`.
async function teamLink(request, email, kind) {
  let link = null;
  await expect(async () => {
    const mail = await request.get(`/api/admin/mailbox?recipient=${encodeURIComponent(email)}`);
    expect(mail.status()).toBe(200);
    const rows = await mail.json();
    const found = rows.length ? rows[0].body.match(new RegExp(`/admin/${kind}/[0-9a-f]{32,}`)) : null;
    expect(found).not.toBeNull();
    link = found[0];
  }).toPass({ timeout: 15_000 });
  return link;
}

async function invite(page, email, role, eventName) {
  await page.goto('/admin/team');
  const form = page.locator('form.invite');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption(role);
  if (eventName) {
    await form.getByLabel('only these:').check();
    await form.locator('label.event-choice', { hasText: eventName }).locator('input').check();
  }
  await form.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(page.getByRole('status')).toContainText(`Invitation sent to ${email}`);
}

test('a door volunteer joins on a phone, can only scan, and is signed out everywhere when removed', async ({ page, browser }) => {
  test.skip(!SECOND, 'run by the test command once it has started a second instance');
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInToConsole(page);
  const email = `door-${Date.now()}@example.com`;
  await invite(page, email, 'door', 'Northern Lights Live — Arena Tour');
  await expect(page.locator('ul.invitations')).toContainText(email);
  await page.screenshot({ path: 'test-results/team-page-desktop.png', fullPage: true });
  const link = await teamLink(page.request, email, 'join');

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const volunteer = await phone.newPage();
  await volunteer.goto(link);
  await expect(volunteer.getByTestId('team-offer')).toContainText(email);
  await expect(volunteer.getByTestId('team-offer')).toContainText('door');
  await volunteer.getByRole('button', { name: 'Join and open the console' }).click();
  await expect(volunteer).toHaveURL(/\/admin\/scan$/);
  await expect(volunteer.getByRole('heading', { name: 'Door' })).toBeVisible();
  await volunteer.waitForLoadState('networkidle');
  // The door of their event only.
  const doors = volunteer.getByLabel('Event at this door').locator('option');
  await expect(doors.filter({ hasText: 'Northern Lights Live' })).toHaveCount(1);
  await expect(doors.filter({ hasText: 'Aurora' })).toHaveCount(0);
  await volunteer.screenshot({ path: 'test-results/team-door-phone.png', fullPage: true });

  // Nothing else: the console's pages open on the scanner, the API refuses.
  for (const elsewhere of ['/admin', '/admin/events/1', '/admin/team', '/admin/jobs']) {
    await volunteer.goto(elsewhere);
    await expect(volunteer).toHaveURL(/\/admin\/scan$/);
  }
  expect((await phone.request.get('/api/admin/events/1/dashboard')).status()).toBe(403);
  expect((await phone.request.get('/api/admin/team')).status()).toBe(403);
  // A code that is no ticket is refused on the screen.
  await volunteer.getByLabel('Event at this door').selectOption('1');
  await volunteer.getByLabel('Ticket').fill('not-a-ticket');
  await volunteer.getByLabel('Ticket').press('Enter');
  await expect(volunteer.getByTestId('scan-result')).toHaveClass(/refused/);

  // The other instance knows them: one session, one database.
  const there = await phone.request.get(`${SECOND}/api/admin/session`);
  expect((await there.json()).admin).toBe(true);

  // Removed on this instance: the other refuses them within a second.
  await page.goto('/admin/team');
  const row = page.locator('tr', { hasText: email });
  await expect(row).toContainText('Northern Lights Live');
  await row.getByRole('button', { name: 'Remove from the team' }).click();
  await expect(page.locator('tr', { hasText: email })).toHaveCount(0);
  const removedAt = Date.now();
  await expect(async () => {
    const session = await (await phone.request.get(`${SECOND}/api/admin/session`)).json();
    expect(session.admin).toBe(false);
  }).toPass({ timeout: 1_000, intervals: [50] });
  expect(Date.now() - removedAt).toBeLessThan(1_000);
  const scan = await phone.request.post(`${SECOND}/api/admin/tickets/not-a-ticket/check-in`);
  expect(scan.status()).toBe(401);
  await phone.close();
});

// A booking of event 1 paid by `buyerEmail` through the sandbox checkout
// (`from` picks which free seat, counted from the end of the list).
async function paidBooking(browser, buyerEmail, from) {
  const buyer = await browser.newContext();
  const seats = (await (await buyer.request.get('/api/events/1/seats')).json()).seats
    .filter((s) => s.status === 'AVAILABLE').slice(from).slice(0, 1).map((s) => s.id);
  const held = await buyer.request.post('/api/events/1/holds', {
    headers: { 'Idempotency-Key': `hold-${buyerEmail}` }, data: { seatIds: seats },
  });
  expect(held.status()).toBe(200);
  const { bookingId } = await held.json();
  const paid = await buyer.request.post(`/api/bookings/${bookingId}/pay`, {
    headers: { 'Idempotency-Key': `pay-${buyerEmail}` },
  });
  const { checkoutSessionId } = await paid.json();
  await buyer.request.post(`/sandbox/checkout/${checkoutSessionId}/complete`, {
    form: { outcome: 'paid', delivery: 'once', email: buyerEmail },
  });
  await expect(async () => {
    const booking = await (await buyer.request.get(`/api/bookings/${bookingId}`)).json();
    expect(booking.status).toBe('BOOKED');
  }).toPass({ timeout: 15_000 });
  await buyer.close();
  return bookingId;
}

// A new member of `role` (for every event), signed in in a browser of its own.
async function member(page, browser, role, viewport) {
  const email = `${role.replace('_', '-')}-${Date.now()}@example.com`;
  await invite(page, email, role);
  const link = await teamLink(page.request, email, 'join');
  const context = await browser.newContext(viewport ? { viewport, isMobile: true, hasTouch: true } : {});
  const tab = await context.newPage();
  await tab.goto(link);
  await tab.getByRole('button', { name: 'Join and open the console' }).click();
  await expect(tab).toHaveURL(/\/admin$/);
  await expect(tab.getByRole('heading', { name: 'Events' })).toBeVisible();
  return { email, context, tab };
}

test('a box-office account looks bookings up but cannot refund', async ({ page, browser }) => {
  await signInToConsole(page);
  const buyerEmail = `till-buyer-${Date.now()}@example.com`;
  const bookingId = await paidBooking(browser, buyerEmail, -1);
  const { email, context: till, tab: desk } = await member(page, browser, 'box_office', { width: 390, height: 844 });

  // The console draws only what the role may use: no publishing, no new
  // event, no revenue; the door and the booking lookup, not the team.
  await desk.waitForLoadState('networkidle');
  const row = desk.locator('tr[data-event="1"]');
  await expect(row).toBeVisible();
  await expect(row.locator('button')).toHaveCount(0);
  await expect(desk.locator('td.revenue')).toHaveCount(0);
  await expect(desk.locator('form.new-event')).toHaveCount(0);
  await expect(desk.locator('a.door-link')).toBeVisible();
  await expect(desk.locator('a.history-link')).toBeVisible();
  await expect(desk.locator('a.team-link, a.jobs-link, a.sailings-link, a.policies-link')).toHaveCount(0);
  await desk.screenshot({ path: 'test-results/team-box-office-home-phone.png', fullPage: true });

  // The event opens on the bookings desk: find the buyer, mail again, no refund.
  await row.getByRole('link').click();
  await expect(desk).toHaveURL(/\/admin\/events\/1$/);
  await desk.waitForLoadState('networkidle');
  await expect(desk.getByRole('heading', { level: 1 })).toContainText('Northern Lights');
  await expect(desk.locator('.tiles')).toHaveCount(0);
  await desk.getByRole('searchbox').fill(buyerEmail);
  const found = desk.locator(`tr[data-booking="${bookingId}"]`);
  await expect(found).toBeVisible();
  await expect(found.locator('button.resend')).toBeVisible();
  await expect(found.getByRole('link', { name: 'History' })).toHaveAttribute('href', `/admin/bookings/${bookingId}/history`);
  await expect(found.locator('button.refund, button.refund-part')).toHaveCount(0);
  await expect(desk.getByRole('link', { name: /Export attendees/ })).toHaveCount(0);
  await desk.screenshot({ path: 'test-results/team-box-office-desk-phone.png', fullPage: true });

  // Asked anyway, the server refuses, and the owner reads who tried.
  const history = await till.request.get(`/api/admin/bookings/${bookingId}/history`);
  expect(history.status()).toBe(200);
  const refund = await till.request.post(`/api/admin/bookings/${bookingId}/refund`);
  expect(refund.status()).toBe(403);
  expect((await refund.json()).error.code).toBe('FORBIDDEN');
  const part = await till.request.post(`/api/admin/bookings/${bookingId}/refunds`, {
    data: { amountCents: 100, reason: 'goodwill' },
  });
  expect(part.status()).toBe(403);
  const audit = await (await page.request.get('/api/admin/audit')).json();
  expect(audit.some((a) => a.action === 'refused' && a.actor === email)).toBe(true);
  await till.close();
});

test('a read-only account reads the dashboard and its logs but acts on nothing', async ({ page, browser }) => {
  await signInToConsole(page);
  const { email, context, tab } = await member(page, browser, 'read_only');
  await expect(tab.locator('td.revenue').first()).toBeVisible();
  await expect(tab.locator('tr[data-event="1"] button')).toHaveCount(0);
  // Trying to withdraw the event anyway: refused, and written down.
  expect((await context.request.post('/api/admin/events/1/unpublish')).status()).toBe(403);
  await tab.goto('/admin/events/1');
  // The live dashboard: hydrated once its stream says it is live.
  await expect(tab.locator('p.live-state')).toHaveText('● live', { timeout: 15_000 });
  await expect(tab.locator('.tiles')).toBeVisible();
  // Counts grouped as English writes them ("11,998"), like every other number.
  await expect(tab.locator('.tiles .n.available')).toHaveText(/^\d{1,3}(,\d{3})+$/);
  await expect(tab.locator('button.extend, button.release')).toHaveCount(0);
  await tab.getByRole('tab', { name: 'Bookings' }).click();
  await expect(tab.getByRole('searchbox')).toHaveCount(0);
  await expect(tab.locator('button.refund, button.refund-part, button.resend')).toHaveCount(0);
  // Setting up the sale is not theirs either.
  await expect(tab.locator('section.on-sale')).toHaveCount(0);
  // The logs say who did what, and from which address.
  await tab.getByRole('tab', { name: 'Logs' }).click();
  await expect(tab.locator('table.audit th', { hasText: 'From address' })).toBeVisible();
  const refusal = tab.locator('table.audit tr', { hasText: email }).first();
  await expect(refusal.locator('td.client')).toHaveText('127.0.0.1');
  await tab.screenshot({ path: 'test-results/team-read-only-logs.png', fullPage: true });
  await context.close();
});

// An authenticator app: RFC 6238's code for a base32 secret, now.
function totp(secret, at = Date.now()) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secret.replace(/=+$/, '')) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = require('crypto').createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  const number = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(number).padStart(6, '0');
}

test('a manager sets two-step sign-in on a phone, then refunds', async ({ page, browser }) => {
  await signInToConsole(page);
  const email = `mona-${Date.now()}@example.com`;
  await invite(page, email, 'manager');
  const link = await teamLink(page.request, email, 'join');

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const manager = await phone.newPage();
  await manager.goto(link);
  await manager.getByRole('button', { name: 'Join and open the console' }).click();
  // Not in yet: the second step first, whatever console page is asked for.
  await expect(manager).toHaveURL(/\/admin\/two-factor$/);
  expect((await phone.request.get('/api/admin/events')).status()).toBe(401);
  await expect(manager.locator('figure.totp-qr svg')).toBeVisible();
  await manager.screenshot({ path: 'test-results/two-factor-enrol-phone.png', fullPage: true });
  const secret = (await manager.getByTestId('totp-secret').textContent()).trim();
  await manager.getByLabel(/Choose a password/).fill('a long manager password');
  await manager.getByLabel('Code from the app').fill('000000' === totp(secret) ? '111111' : '000000');
  await manager.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  await expect(manager.getByRole('alert')).toContainText('not right');
  await manager.getByLabel(/Choose a password/).fill('a long manager password');
  await manager.getByLabel('Code from the app').fill(totp(secret));
  await manager.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  await expect(manager.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
  await manager.screenshot({ path: 'test-results/two-factor-codes-phone.png', fullPage: true });
  await manager.getByRole('link', { name: 'Open the console' }).click();
  await expect(manager.getByRole('heading', { name: 'Events' })).toBeVisible();

  // A paid booking, refunded by the manager.
  const bookingId = await paidBooking(browser, `mona-buyer-${Date.now()}@example.com`, -2);
  const refund = await phone.request.post(`/api/admin/bookings/${bookingId}/refund`);
  expect(refund.status()).toBe(200);
  const audit = await (await page.request.get('/api/admin/audit')).json();
  expect(audit.some((a) => a.action === 'team_join' && a.actor === email)).toBe(true);
  await phone.close();
});
