// The seat map in a real browser: it renders 10,000 seats from the server,
// hydrates, and a click selects a seat; holding it marks it on the map.
const { test, expect } = require('@playwright/test');

test('the event list links to the seat maps', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: /Northern Lights Live/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /MS Aurora/ })).toBeVisible();
});

test('the arena map loads, hydrates, and a click selects a seat', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const started = Date.now();
  await page.goto('/events/1');
  await expect(page.locator('svg .seat')).toHaveCount(10000);
  // Hydration is done when the wasm has attached the click handler: retry
  // clicking until the selection panel reacts.
  const seat = page.locator('svg .seat.available').nth(120);
  const id = await seat.getAttribute('data-id');
  await expect(async () => {
    await page.locator(`#seat-${id}`).dispatchEvent('click');
    await expect(page.locator(`#seat-${id}`)).toHaveClass(/selected/, { timeout: 500 });
  }).toPass({ timeout: 20_000 });
  const interactiveMs = Date.now() - started;
  console.log(`time to interactive (10,000 seats): ${interactiveMs} ms`);
  await expect(page.getByTestId('selection').locator('li')).toHaveCount(1);
  await expect(page.locator('.total')).toContainText('€');
  await page.screenshot({ path: 'test-results/seat-map-selected.png', fullPage: true });

  await page.getByRole('button', { name: /^Hold (seats|cabins)$/ }).click();
  await expect(page.locator('.held-note')).toContainText('Held 1 seat');
  await expect(page.locator(`#seat-${id}`)).toHaveClass(/held/);
  // The panel is about the hold now: the seat by name, no second selection.
  await expect(page.getByTestId('held-seats')).toContainText(/Section .+, row .+, seat \d+/);
  await expect(page.getByRole('button', { name: /^Hold (seats|cabins)$/ })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/seat-map-held.png', fullPage: true });
  expect(errors).toEqual([]);
});

test('a seat held by someone else cannot be selected', async ({ page, request }) => {
  await page.goto('/events/2');
  const seat = page.locator('svg .seat.available').first();
  const id = await seat.getAttribute('data-id');
  const held = await request.post(`/api/events/2/seats/${id}/hold`, { headers: { 'Idempotency-Key': `e2e-${Date.now()}` } });
  expect(held.status()).toBe(200);
  await page.reload();
  await expect(page.locator(`#seat-${id}`)).toHaveClass(/held/);
  await page.locator(`#seat-${id}`).dispatchEvent('click');
  await expect(page.locator(`#seat-${id}`)).not.toHaveClass(/selected/);
});

test('a hold by another buyer shows up live, without reloading', async ({ browser }) => {
  const baseURL = process.env.HOLDFAST_URL || 'http://127.0.0.1:3000';
  const watcher = await (await browser.newContext({ baseURL })).newPage();
  const other = await browser.newContext({ baseURL });
  await watcher.goto('/events/2');
  await expect(watcher.getByTestId('live')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
  const id = await watcher.locator('svg .seat.available').nth(150).getAttribute('data-id');
  const held = await other.request.post(`/api/events/2/seats/${id}/hold`, {
    headers: { 'Idempotency-Key': `live-${Date.now()}` },
  });
  expect(held.status()).toBe(200);
  await expect(watcher.locator(`#seat-${id}`)).toHaveClass(/held/, { timeout: 1000 });
});

test('the map zooms with the buttons and the wheel, and a drag pans it', async ({ page }) => {
  await page.goto('/events/1');
  await expect(page.getByTestId('live')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
  const svg = page.locator('.seat-map svg');
  const width = async () => Number((await svg.getAttribute('viewBox')).split(' ')[2]);
  const whole = await width();
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(width).toBeLessThan(whole);
  const box = await svg.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const before = await width();
  await page.mouse.wheel(0, -200);
  await expect.poll(width).toBeLessThan(before);
  const x = async () => Number((await svg.getAttribute('viewBox')).split(' ')[0]);
  const x0 = await x();
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(x).toBeLessThan(x0);
  await page.screenshot({ path: 'test-results/seat-map-zoomed.png' });
  await page.getByRole('button', { name: 'Show the whole map' }).click();
  await expect.poll(width).toBe(whole);
});

test('the event page says when, and every page has an icon', async ({ page, request }) => {
  await page.goto('/events/1');
  // In the event's own zone, named (Oslo: CET in March).
  await expect(page.getByTestId('event-when')).toContainText(/\d{4}, \d\d:\d\d (CET|CEST)/);
  const icon = await request.get('/favicon.ico');
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('icon');
});

test('the selection stops at the per-booking limit, and says so', async ({ page }) => {
  await page.goto('/events/1');
  await expect(page.getByTestId('live')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
  const ids = await page.locator('svg .seat.available').evaluateAll(
    (els) => els.slice(3000, 3011).map((e) => e.getAttribute('data-id')));
  await expect(page.getByText('Up to 10 seats per booking.')).toBeVisible();
  for (const id of ids.slice(0, 10)) await page.locator(`#seat-${id}`).dispatchEvent('click');
  await expect(page.getByTestId('selection').locator('li')).toHaveCount(10);
  await page.locator(`#seat-${ids[10]}`).dispatchEvent('click');
  await expect(page.getByRole('alert')).toContainText('up to 10 seats per booking');
  await expect(page.getByTestId('selection').locator('li')).toHaveCount(10);
  await expect(page.locator(`#seat-${ids[10]}`)).not.toHaveClass(/selected/);
});

test('a selected seat someone else takes leaves the selection, and the buyer is told', async ({ browser }) => {
  const baseURL = process.env.HOLDFAST_URL || 'http://127.0.0.1:3000';
  const page = await (await browser.newContext({ baseURL })).newPage();
  const other = await browser.newContext({ baseURL });
  await page.goto('/events/2');
  await expect(page.getByTestId('live')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
  const id = await page.locator('svg .seat.available').nth(270).getAttribute('data-id');
  await page.locator(`#seat-${id}`).dispatchEvent('click');
  await expect(page.getByTestId('selection').locator('li')).toHaveCount(1);
  const held = await other.request.post(`/api/events/2/seats/${id}/hold`, {
    headers: { 'Idempotency-Key': `lost-${Date.now()}` },
  });
  expect(held.status()).toBe(200);
  await expect(page.getByRole('alert')).toContainText('was just taken by someone else');
  await expect(page.getByTestId('selection').locator('li')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/seat-lost.png' });
});
