// On-sale day in the browser: the organizer opens a waiting room for a new
// event (12 buyers a minute) and a promo code; three buyers are already in
// line. A fourth opens the event page, waits in the room and watches the
// number of people ahead fall, is let in by itself, holds a seat, applies
// the promo code and pays the discounted amount.
const { test, expect, request } = require('@playwright/test');
const AxeBuilder = require('@axe-core/playwright').default;
const { holdSeat, payOnCheckout } = require('./helpers');

const PASSWORD = process.env.HOLDFAST_ADMIN_PASSWORD || 'playwright-admin';

test('a buyer waits in the room, sees the place fall, is admitted and buys with a promo', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const admin = await request.newContext({ baseURL });
  expect((await admin.post('/api/admin/login', { data: { password: PASSWORD } })).status()).toBe(200);
  const created = await admin.post('/api/admin/events', {
    data: {
      name: 'Queue night', kind: 'concert', venue: 'Hall Q', startsAt: '2027-09-01T20:00:00Z', currency: 'EUR',
      categories: [{ code: 'A', name: 'Stalls', priceCents: 4000, color: '#c0392b' }],
      sections: [{ name: 'Stalls', category: 'A', rows: 2, seatsPerRow: 10, x: 0, y: 0 }],
    },
  });
  expect(created.status()).toBe(201);
  const eventId = (await created.json()).eventId;
  expect((await admin.post(`/api/admin/events/${eventId}/publish`)).status()).toBe(200);
  const promo = await admin.post('/api/admin/promos', {
    data: { name: 'Queue night friends', kind: 'single', code: `QUEUE-${eventId}`, percentOff: 25, eventId },
  });
  expect(promo.status()).toBe(201);
  const room = await admin.put(`/api/admin/events/${eventId}/queue`, { data: { enabled: true, admitPerMinute: 12 } });
  expect(room.status()).toBe(200);

  // The map is closed to anyone without an admission.
  const stranger = await request.newContext({ baseURL });
  const closed = await stranger.get(`/api/events/${eventId}/seats`);
  expect(closed.status()).toBe(403);
  expect((await closed.json()).error.code).toBe('ADMISSION_REQUIRED');

  // Three buyers are in line first.
  const ahead = [];
  for (let i = 0; i < 3; i++) {
    const other = await request.newContext({ baseURL });
    expect((await other.post(`/api/events/${eventId}/queue`)).status()).toBe(200);
    ahead.push(other);
  }

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/events/${eventId}`);
  await expect(page.getByRole('heading', { name: 'You are in the queue' })).toBeVisible();
  const position = page.getByTestId('queue-position');
  await expect(position).toBeVisible({ timeout: 15_000 });
  const first = Number(await position.textContent());
  expect(first).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('queue-wait')).toContainText(/minute/);
  await expect(page.locator('.live-state')).toContainText('live', { timeout: 10_000 });
  await page.screenshot({ path: 'test-results/waiting-room.png', fullPage: true });
  const scan = await new AxeBuilder({ page }).analyze();
  const serious = scan.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  // The place falls, live.
  await expect(async () => {
    expect(Number(await position.textContent())).toBeLessThan(first);
  }).toPass({ timeout: 20_000 });
  await page.screenshot({ path: 'test-results/waiting-room-moved.png', fullPage: true });

  // Admitted: the page turns into the seat map by itself.
  const seats = page.locator('svg .seat.available');
  await expect(seats.first()).toBeVisible({ timeout: 45_000 });
  await holdSeat(page, await seats.nth(3).getAttribute('data-id'));

  // A wrong code, then the right one: 25% off €40.00.
  await page.getByLabel('Promo code').fill('NOT-A-CODE');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('promo-message')).toContainText('no such promo code');
  await page.getByLabel('Promo code').fill(`queue-${eventId}`);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('promo-message')).toContainText('€10.00 off');
  await expect(page.locator('.held-note')).toContainText('€30.00');
  await page.screenshot({ path: 'test-results/waiting-room-admitted-promo.png', fullPage: true });

  await page.getByRole('button', { name: 'Pay now' }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expect(page.locator('.amount')).toContainText('30.00');
  await payOnCheckout(page);
  await expect(page).toHaveURL(/\/bookings\//);
  await expect(page.getByTestId('booking-status')).toHaveText('BOOKED', { timeout: 15_000 });

  // The organizer's numbers agree: four joined, the code used once.
  const summary = await (await admin.get(`/api/admin/events/${eventId}/queue`)).json();
  expect(summary.joined).toBe(4);
  expect(summary.admitted).toBeGreaterThanOrEqual(4);
  const campaigns = await (await admin.get('/api/admin/promos')).json();
  expect(campaigns.find((c) => c.codes.includes(`QUEUE-${eventId}`)).redeemed).toBe(1);

  // The console shows the room and the promo codes, and creates a capped code.
  const consoleContext = await browser.newContext();
  expect((await consoleContext.request.post('/api/admin/login', { data: { password: PASSWORD } })).status()).toBe(200);
  const consolePage = await consoleContext.newPage();
  await consolePage.goto(`/admin/events/${eventId}`);
  // Hydrated once the dashboard's stream is live (it never goes idle).
  await expect(consolePage.locator('.live-state').first()).toHaveText(/● live/, { timeout: 15_000 });
  await expect(consolePage.getByTestId('room-joined')).toHaveText('4');
  await expect(consolePage.getByTestId('waiting-room-admin')).toHaveAttribute('data-enabled', 'true');
  await expect(consolePage.locator('table.promos')).toContainText('Queue night friends');
  await expect(consolePage.getByTestId('promo-used').first()).toHaveText('1 of 1');
  await consolePage.locator('input[name=promoName]').fill('Press');
  await consolePage.locator('select[name=promoKind]').selectOption('capped');
  await consolePage.locator('input[name=promoCode]').fill(`press-${eventId}`);
  await consolePage.locator('input[name=maxUses]').fill('20');
  await consolePage.getByRole('button', { name: 'Create promo' }).click();
  await expect(consolePage.locator('.new-promo')).toContainText('Created "Press"');
  await expect(consolePage.locator('table.promos')).toContainText(`PRESS-${eventId}`);
  await expect(consolePage.locator('table.promos')).toContainText('0 of 20');
  await consolePage.screenshot({ path: 'test-results/console-on-sale.png', fullPage: true });
  await consoleContext.close();
  for (const other of ahead) await other.dispose();
  await stranger.dispose();
  await admin.dispose();
  await context.close();
});
