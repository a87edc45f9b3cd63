// The admin console in the browser, beside a buyer in another browser
// context: the buyer's new hold shows up on the live dashboard within a
// second with a ticking countdown; the admin releases it and the buyer's
// own booking page says so. Then the admin creates a small event from the
// layout form (a mistake first, shown on its field), publishes it, and a
// buyer holds a seat on it.
const { test, expect } = require('@playwright/test');
const { holdSeat } = require('./helpers');

const PASSWORD = process.env.HOLDFAST_ADMIN_PASSWORD || 'playwright-admin';

// Wrong passwords count towards the sign-in throttle (5 a minute from one
// client), so only one test tries a wrong one.
async function signIn(page, { wrongFirst = false } = {}) {
  await page.goto('/admin');
  // Typing before the page has hydrated would be lost: wait for the wasm.
  await page.waitForLoadState('networkidle');
  if (wrongFirst) {
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toContainText('not right');
  }
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();
  await page.waitForLoadState('networkidle');
}

async function holdOneSeat(page, eventId, nth) {
  await page.goto(`/events/${eventId}`);
  const seat = page.locator('svg .seat.available').nth(nth);
  const id = await seat.getAttribute('data-id');
  await holdSeat(page, id);
  return id;
}

test('an admin sees a new hold live, releases it, and the buyer sees it released', async ({ browser }) => {
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, { wrongFirst: true });
  await admin.getByRole('link', { name: /Arena/ }).click();
  await expect(admin.locator('.live-state')).toHaveText(/live/, { timeout: 15_000 });
  const before = await admin.locator('tr.hold').count();

  const buyerContext = await browser.newContext();
  const buyer = await buyerContext.newPage();
  const seatId = await holdOneSeat(buyer, 1, 300);
  const heldAt = Date.now();
  await expect(admin.locator('tr.hold')).toHaveCount(before + 1, { timeout: 3_000 });
  const appeared = Date.now() - heldAt;
  console.log(`hold visible on the dashboard after ${appeared} ms`);
  expect(appeared).toBeLessThan(1_000);
  const row = admin.locator('tr.hold').filter({ hasText: 'HELD' }).last();
  const first = await row.locator('.countdown').textContent();
  expect(first).toMatch(/^[45]:\d\d$/);
  await expect(row.locator('.countdown')).not.toHaveText(first, { timeout: 3_000 });
  await admin.screenshot({ path: 'test-results/admin-dashboard-hold.png', fullPage: true });

  // The buyer watches their booking page while the admin releases.
  const bookingId = await row.getAttribute('data-booking');
  await buyer.goto(`/bookings/${bookingId}`);
  await expect(buyer.getByTestId('booking-status')).toHaveText('HELD');
  await row.getByRole('button', { name: 'Release' }).click();
  await admin.getByRole('alertdialog').getByRole('button', { name: 'Release the hold' }).click();
  await expect(admin.locator('.action-result')).toContainText('release');
  await expect(admin.locator(`tr.hold[data-booking="${bookingId}"]`)).toHaveCount(0, { timeout: 3_000 });
  await expect(buyer.getByTestId('booking-status')).toHaveText('CANCELLED', { timeout: 5_000 });
  await admin.getByRole('tab', { name: 'Logs' }).click();
  await expect(admin.locator('table.audit')).toContainText('release');
  await buyer.screenshot({ path: 'test-results/buyer-hold-released.png', fullPage: true });

  // The seat is on sale again.
  const seats = await buyer.request.get('/api/events/1/seats');
  const seat = (await seats.json()).seats.find((s) => String(s.id) === seatId);
  expect(seat.status).toBe('AVAILABLE');
  await adminContext.close();
  await buyerContext.close();
});

test('an admin creates a small event from a layout and a buyer holds a seat on it', async ({ browser }) => {
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin);
  const name = `Cellar session ${Date.now()}`;
  await admin.getByLabel('Name').first().fill(name);
  await admin.getByLabel('Venue').fill('The Cellar');
  await admin.getByLabel('Rows').fill('0');
  await admin.getByRole('button', { name: 'Create event' }).click();
  await expect(admin.locator('label', { hasText: 'Rows' }).locator('.field-error')).toContainText('rows');
  await admin.screenshot({ path: 'test-results/admin-layout-error.png', fullPage: true });

  await admin.getByLabel('Rows').fill('4');
  await admin.getByLabel('Seats per row').fill('6');
  await admin.getByRole('button', { name: 'Create event' }).click();
  await expect(admin.locator('.created')).toContainText('24 seats');
  const row = admin.locator('table.events tr', { hasText: name });
  await expect(row).toContainText('not published');
  await row.getByRole('button', { name: 'Publish' }).click();
  await expect(row).toContainText('published');
  await expect(row.getByRole('button', { name: 'Withdraw' })).toBeVisible();
  const href = await row.getByRole('link').getAttribute('href');
  const eventId = href.split('/').pop();

  const buyerContext = await browser.newContext();
  const buyer = await buyerContext.newPage();
  await buyer.goto('/');
  await expect(buyer.getByText(name)).toBeVisible();
  await holdOneSeat(buyer, eventId, 7);
  await buyer.screenshot({ path: 'test-results/buyer-holds-new-event.png', fullPage: true });
  await adminContext.close();
  await buyerContext.close();
});
