// The organizer's team, as its people use it: an owner invites a door
// volunteer from the Team page; the volunteer joins on a phone, where the
// console opens on the scanner and nothing else; removing the volunteer
// on one instance signs them out on the other within a second. A
// box-office account cannot refund.
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

test('a box-office account looks bookings up but cannot refund', async ({ page, browser }) => {
  await signInToConsole(page);
  const email = `till-${Date.now()}@example.com`;
  await invite(page, email, 'box_office');
  const link = await teamLink(page.request, email, 'join');

  // A booking to refund: held by a buyer.
  const buyer = await browser.newContext();
  const seats = (await (await buyer.request.get('/api/events/1/seats')).json()).seats
    .filter((s) => s.status === 'AVAILABLE').slice(-1).map((s) => s.id);
  const held = await buyer.request.post('/api/events/1/holds', {
    headers: { 'Idempotency-Key': `till-${Date.now()}` }, data: { seatIds: seats },
  });
  expect(held.status()).toBe(200);
  const { bookingId } = await held.json();
  await buyer.close();

  const till = await browser.newContext();
  const desk = await till.newPage();
  await desk.goto(link);
  await desk.getByRole('button', { name: 'Join and open the console' }).click();
  await expect(desk).toHaveURL(/\/admin$/);
  const history = await till.request.get(`/api/admin/bookings/${bookingId}/history`);
  expect(history.status()).toBe(200);
  const refund = await till.request.post(`/api/admin/bookings/${bookingId}/refund`);
  expect(refund.status()).toBe(403);
  expect((await refund.json()).error.code).toBe('FORBIDDEN');
  const part = await till.request.post(`/api/admin/bookings/${bookingId}/refunds`, {
    data: { amountCents: 100, reason: 'goodwill' },
  });
  expect(part.status()).toBe(403);
  // The owner reads who tried, in the audit log.
  const audit = await (await page.request.get('/api/admin/audit')).json();
  expect(audit.some((a) => a.action === 'refused' && a.actor === email)).toBe(true);
  await till.close();
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
  const buyer = await browser.newContext();
  const seats = (await (await buyer.request.get('/api/events/1/seats')).json()).seats
    .filter((s) => s.status === 'AVAILABLE').slice(-2, -1).map((s) => s.id);
  const held = await buyer.request.post('/api/events/1/holds', {
    headers: { 'Idempotency-Key': `mona-${Date.now()}` }, data: { seatIds: seats },
  });
  expect(held.status()).toBe(200);
  const { bookingId } = await held.json();
  const paid = await buyer.request.post(`/api/bookings/${bookingId}/pay`, {
    headers: { 'Idempotency-Key': `mona-pay-${Date.now()}` },
  });
  const { checkoutSessionId } = await paid.json();
  await buyer.request.post(`/sandbox/checkout/${checkoutSessionId}/complete`, {
    form: { outcome: 'paid', delivery: 'once', email: 'mona-buyer@example.com' },
  });
  await expect(async () => {
    const booking = await (await buyer.request.get(`/api/bookings/${bookingId}`)).json();
    expect(booking.status).toBe('BOOKED');
  }).toPass({ timeout: 15_000 });
  await buyer.close();
  const refund = await phone.request.post(`/api/admin/bookings/${bookingId}/refund`);
  expect(refund.status()).toBe(200);
  const audit = await (await page.request.get('/api/admin/audit')).json();
  expect(audit.some((a) => a.action === 'team_join' && a.actor === email)).toBe(true);
  await phone.close();
});
