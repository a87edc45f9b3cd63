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
  await page.getByRole('button', { name: 'Hold seats' }).click();
  await expect(page.getByTestId('countdown')).toContainText(/\d:\d\d/);
}

module.exports = { holdSeat, signed, signInToConsole };
