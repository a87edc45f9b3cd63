// Steps several specs share (not a spec itself: Playwright runs *.spec.js).
const crypto = require('crypto');
const { expect } = require('@playwright/test');

// The webhook secret scripts/test.sh starts the servers with (unset, each
// deployment would make its own).
const WEBHOOK_SECRET = 'whsec_holdfast_development';
const ADMIN_PASSWORD = process.env.HOLDFAST_ADMIN_PASSWORD || 'playwright-admin';

// Headers for a webhook body signed as Stripe signs it.
function signed(body) {
  const t = Math.floor(Date.now() / 1000);
  const v1 = crypto.createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${body}`).digest('hex');
  return { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${v1}` };
}

// The newest sign-in link mailed to `email` (the outbox sends within a
// second or two), other than those in `used`; `admin` is signed in to the API.
async function mailedLink(admin, email, used = []) {
  let link = null;
  await expect(async () => {
    const mail = await admin.get(`/api/admin/mailbox?recipient=${encodeURIComponent(email)}`);
    expect(mail.status()).toBe(200);
    const rows = await mail.json();
    const found = rows.length ? rows[0].body.match(/\/auth\/[0-9a-f]{64}/) : null;
    expect(found).not.toBeNull();
    expect(used).not.toContain(found[0]);
    link = found[0];
  }).toPass({ timeout: 15_000 });
  return link;
}

// Signs in to the console (after hydration: typing before it is lost).
async function signInToConsole(page) {
  await page.goto('/admin');
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();
}

// Selects one seat on the map and holds it. Clicks before hydration are
// lost, so the click is repeated until the seat shows as selected.
async function holdSeat(page, id) {
  await expect(async () => {
    await page.locator(`#seat-${id}`).dispatchEvent('click');
    await expect(page.locator(`#seat-${id}`)).toHaveClass(/selected/, { timeout: 500 });
  }).toPass({ timeout: 20_000 });
  await page.getByRole('button', { name: /^Hold (seats|cabins)$/ }).click();
  await expect(page.getByTestId('countdown')).toContainText(/\d:\d\d/);
}

// Pays a running hold from the event page: "Pay now", or on a cruise
// "Name the guests and pay" — every guest named and born on the guests
// page, which then goes to the checkout.
async function payHeld(page) {
  const guests = page.getByRole('link', { name: 'Name the guests and pay' });
  if (await guests.count()) {
    await guests.click();
    await nameGuests(page);
    return;
  }
  await page.getByRole('button', { name: 'Pay now' }).click();
}

// Fills the guests page (one name and date of birth per guest) and sends it.
async function nameGuests(page, names = []) {
  await expect(page.getByTestId('guests-form')).toBeVisible();
  const inputs = page.locator('input[name$="-name"]');
  const count = await inputs.count();
  for (let i = 0; i < count; i++) {
    await inputs.nth(i).fill(names[i] || `Guest ${i + 1} Tester`);
    await page.locator('input[name$="-born"]').nth(i).fill(`19${70 + i}-0${1 + (i % 9)}-1${i % 10}`);
  }
  await page.getByRole('button', { name: /^Save the guests/ }).click();
}

// An event made from the console's form (rows × seats per row) and
// published: its row in the events table and its id.
async function publishedEvent(page, name, rows, perRow) {
  await page.getByLabel('Name').first().fill(name);
  await page.getByLabel('Venue').fill('The Hall');
  await page.getByLabel('Rows').fill(String(rows));
  await page.getByLabel('Seats per row').fill(String(perRow));
  await page.getByRole('button', { name: 'Create event' }).click();
  const row = page.locator('table.events tr', { hasText: name });
  await row.getByRole('button', { name: 'Publish' }).click();
  await expect(row).toContainText('published');
  return { row, eventId: (await row.getByRole('link').getAttribute('href')).split('/').pop() };
}

// A buyer in a browser of their own holds the event's `nth` free seat.
async function holdOn(browser, eventId, nth) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/events/${eventId}`);
  const seat = page.locator('svg .seat.available').nth(nth);
  const id = await seat.getAttribute('data-id');
  await holdSeat(page, id);
  return { context, page, id };
}

// Pays on the sandbox checkout as a buyer does: the address for the
// confirmation (it is required, as on Stripe's page), then Pay.
async function payOnCheckout(page, email = `buyer-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`) {
  await page.locator('input[name=email]').fill(email);
  await page.locator('button.pay').click();
}

module.exports = { holdOn, holdSeat, mailedLink, nameGuests, payHeld, payOnCheckout, publishedEvent, signed, signInToConsole };
