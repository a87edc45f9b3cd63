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

module.exports = { holdSeat, nameGuests, payHeld, signed, signInToConsole };
