// What an attacker's page can and cannot make a buyer's browser do.
// A sign-in link someone else asked for, reached from another site (an
// image, an auto-submitted form, a link), signs nobody in without the
// person's click, and never moves the buyer's bookings into that account.
const { test, expect, request } = require('@playwright/test');
const { holdSeat } = require('./helpers');

const PASSWORD = process.env.HOLDFAST_ADMIN_PASSWORD || 'playwright-admin';
const EVIL = 'https://evil.example';

// The newest sign-in link mailed to `email` (other than `before`: the
// outbox sends within a second or two).
async function mailedLink(admin, email, before = null) {
  let link = null;
  await expect(async () => {
    const mail = await admin.get(`/api/admin/mailbox?recipient=${encodeURIComponent(email)}`);
    const rows = await mail.json();
    const found = rows.length ? rows[0].body.match(/\/auth\/[0-9a-f]{64}/) : null;
    expect(found).not.toBeNull();
    expect(found[0]).not.toBe(before);
    link = found[0];
  }).toPass({ timeout: 15_000 });
  return link;
}

test('a sign-in link sent from another site neither signs in without a click nor moves bookings', async ({ browser, baseURL }) => {
  const admin = await request.newContext({ baseURL });
  expect((await admin.post('/api/admin/login', { data: { password: PASSWORD } })).status()).toBe(200);
  const mallory = `mallory-${Date.now()}@example.com`;

  // The attacker asks for a link to their own address from their own device.
  const attacker = await request.newContext({ baseURL });
  expect((await attacker.post('/api/auth/email-link', { data: { email: mallory } })).status()).toBe(202);
  const link = await mailedLink(admin, mallory);

  // The victim, a guest, holds a seat.
  const victimContext = await browser.newContext();
  const victim = await victimContext.newPage();
  await victim.goto('/events/2');
  const seat = await victim.locator('svg .seat.available').nth(260).getAttribute('data-id');
  await holdSeat(victim, seat);
  const before = await (await victim.request.get('/api/bookings')).json();
  expect(before).toHaveLength(1);

  // The attacker's pages: one shows an image of the link and posts it at
  // once, another only links to it.
  await victimContext.route(`${EVIL}/**`, (route) => route.fulfill({
    contentType: 'text/html',
    body: route.request().url().endsWith('/prize')
      ? `<!DOCTYPE html><html><body>
          <img src="${baseURL}${link}" alt="">
          <form id="f" method="post" action="${baseURL}${link}"><input name="bring" value="1"></form>
          <script>setTimeout(() => document.getElementById('f').submit(), 300)</script>
        </body></html>`
      : `<!DOCTYPE html><html><body><a id="go" href="${baseURL}${link}">See your tickets</a></body></html>`,
  }));
  const posted = victim.waitForResponse((r) => r.url().endsWith(link) && r.request().method() === 'POST');
  await victim.goto(`${EVIL}/prize`);
  expect((await posted).status()).toBe(403);
  // The refused form post is the tab's navigation: let it land before the
  // next one (else that one is interrupted).
  await victim.waitForURL(/\/auth\//);
  await victim.waitForLoadState('load');
  let session = await (await victim.request.get('/api/auth/session')).json();
  expect(session.signedIn).toBe(false);

  // Following the attacker's link only asks, with the address masked and
  // the bookings box unticked.
  await victim.goto(`${EVIL}/tickets`);
  await victim.locator('#go').click();
  await expect(victim.getByTestId('confirm-sign-in')).toContainText('m•••@example.com');
  await expect(victim.getByRole('checkbox')).not.toBeChecked();
  await victim.screenshot({ path: 'test-results/sign-in-confirm.png', fullPage: true });
  await victim.setViewportSize({ width: 390, height: 844 });
  await victim.screenshot({ path: 'test-results/sign-in-confirm-phone.png', fullPage: true });
  session = await (await victim.request.get('/api/auth/session')).json();
  expect(session.signedIn).toBe(false);

  // The attacker's own device, signed in with a fresh link, sees nothing of the victim's.
  const attackerContext = await browser.newContext();
  const attackerPage = await attackerContext.newPage();
  await attackerPage.goto('/sign-in');
  await attackerPage.getByLabel('Email address').fill(mallory);
  await attackerPage.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(attackerPage.getByRole('status')).toContainText('sign-in link is on its way');
  const own = await mailedLink(admin, mallory, link);
  await attackerPage.goto(own);
  // Asked in this browser: its own bookings (none) would come along.
  await attackerPage.getByRole('button', { name: 'Sign in' }).click();
  await expect(attackerPage).toHaveURL(/\/bookings$/);
  const theirs = await (await attackerPage.request.get('/api/bookings')).json();
  expect(theirs).toHaveLength(0);
  // And the victim still has their hold.
  const after = await (await victim.request.get('/api/bookings')).json();
  expect(after.map((b) => b.id)).toEqual(before.map((b) => b.id));
});

test('the pages let a form go to Stripe Checkout, and nowhere else', async ({ page }) => {
  // Chromium applies form-action to a form's target and to the redirect
  // after a post (the cruise guests' form answers with one to Stripe).
  await page.route('https://checkout.stripe.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<p>stripe</p>' }));
  await page.route(`${EVIL}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<p>evil</p>' }));
  await page.goto('/');
  const sendTo = (url) => page.evaluate((action) => {
    const f = document.createElement('form');
    f.method = 'post';
    f.action = action;
    document.body.appendChild(f);
    f.submit();
  }, url);
  const violations = [];
  page.on('console', (m) => { if (/form-action/.test(m.text())) violations.push(m.text()); });
  await sendTo(`${EVIL}/steal`);
  await page.waitForTimeout(500);
  expect(page.url()).not.toContain('evil.example');
  expect(violations.length).toBeGreaterThan(0);
  await sendTo('https://checkout.stripe.com/c/pay/cs_test_1');
  await expect(page).toHaveURL(/checkout\.stripe\.com/);
});
