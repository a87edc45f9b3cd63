// Keyboard-only selection and hold, alternatives offered in one click, and
// an axe-core scan of the seat map and booking pages.
const { test, expect } = require('@playwright/test');
const AxeBuilder = require('@axe-core/playwright').default;

const baseURL = process.env.HOLDFAST_URL || 'http://127.0.0.1:3000';

async function waitForHydration(page) {
  // The live indicator only turns on once the wasm runs.
  await expect(page.getByTestId('live')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
}

test('a seat can be found, selected and held with the keyboard alone', async ({ page }) => {
  await page.goto('/events/2');
  await waitForHydration(page);
  await page.locator('.seat-map svg').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  const focused = page.locator('svg .seat:focus');
  await expect(focused).toHaveCount(1);
  const id = await focused.getAttribute('data-id');
  await page.keyboard.press('Enter');
  await expect(page.locator(`#seat-${id}`)).toHaveClass(/selected/);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: /^Hold (seats|cabins)$/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('countdown')).toBeVisible();
});

test('on the whole arena the keyboard focus is brought close enough to be seen', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/events/1');
  await waitForHydration(page);
  const first = await page.locator('svg .seat').first().boundingBox();
  expect(first.width).toBeLessThan(12);
  await page.locator('.seat-map svg').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const focused = page.locator('svg .seat:focus');
  await expect(focused).toHaveCount(1);
  // Zoomed to it (as a tap would be) and inside the view.
  await expect(async () => {
    const seat = await focused.boundingBox();
    const map = await page.locator('.seat-map svg').boundingBox();
    expect(seat.width).toBeGreaterThanOrEqual(20);
    expect(seat.x).toBeGreaterThanOrEqual(map.x);
    expect(seat.x + seat.width).toBeLessThanOrEqual(map.x + map.width);
    expect(seat.y).toBeGreaterThanOrEqual(map.y);
    expect(seat.y + seat.height).toBeLessThanOrEqual(map.y + map.height);
  }).toPass({ timeout: 5_000 });
  await page.screenshot({ path: 'test-results/keyboard-focus-arena.png' });
});

test('a buyer who loses a seat gets alternatives and takes them in one click', async ({ browser }) => {
  const other = await browser.newContext({ baseURL });
  const loser = await (await browser.newContext({ baseURL })).newPage();
  // This buyer's live stream is down, so its map does not know yet.
  await loser.route('**/seats/stream**', (route) => route.abort());
  await loser.goto('/events/2');
  const id = await loser.locator('svg .seat.available').nth(200).getAttribute('data-id');
  await expect(async () => {
    await loser.locator(`#seat-${id}`).dispatchEvent('click');
    await expect(loser.locator(`#seat-${id}`)).toHaveClass(/selected/, { timeout: 500 });
  }).toPass({ timeout: 20_000 });
  const taken = await other.request.post(`/api/events/2/seats/${id}/hold`, {
    headers: { 'Idempotency-Key': `race-${Date.now()}` },
  });
  expect(taken.status()).toBe(200);
  await loser.getByRole('button', { name: /^Hold (seats|cabins)$/ }).click();
  await expect(loser.getByRole('alert')).toContainText('no longer available');
  await expect(loser.locator(`#seat-${id}`)).toHaveClass(/held/);
  const offer = loser.getByTestId('suggestions').getByRole('button').first();
  await expect(offer).toContainText('Take Deck');
  await offer.click();
  await expect(loser.getByTestId('countdown')).toBeVisible();
});

// axe at both widths: the event page, the page during a hold, and a
// booking's own page. On the Hà Nội night's 556 seats: axe takes over a
// minute over the arena's 10,000 (each a named button), and every seat is
// drawn by the same code.
for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
  test(`no serious accessibility violations: event, hold, booking (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const serious = async () => (await new AxeBuilder({ page }).analyze()).violations
      .filter((v) => ['serious', 'critical'].includes(v.impact))
      .map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
    await page.goto('/events/3');
    await waitForHydration(page);
    expect(await serious()).toEqual([]);
    await page.getByTestId('best-quantity').selectOption('2');
    await page.getByTestId('find-best').click();
    await expect(page.getByTestId('countdown')).toBeVisible();
    expect(await serious()).toEqual([]);
    const booking = await page.evaluate(async () => (await (await fetch('/api/bookings')).json())[0].id);
    await page.goto(`/bookings/${booking}`);
    await expect(page.getByTestId('booking-status')).toBeVisible();
    expect(await serious()).toEqual([]);
  });
}

test('the seat map and the booking pages have no serious accessibility violations', async ({ page }) => {
  await page.goto('/events/2');
  await waitForHydration(page);
  const map = await new AxeBuilder({ page }).analyze();
  const serious = (r) => r.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(serious(map).map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await page.goto('/bookings');
  const list = await new AxeBuilder({ page }).analyze();
  expect(serious(list).map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

// A seat's accessible name and state follow its live status, as a screen
// reader finds seats: by role and name, never by class.
test('accessible names follow the live status: taken, selected, yours', async ({ browser }) => {
  const watcher = await (await browser.newContext({ baseURL })).newPage();
  const other = await browser.newContext({ baseURL });
  await watcher.goto('/events/2');
  await waitForHydration(watcher);
  const ids = await watcher.locator('svg .seat.available').evaluateAll(
    (els) => els.slice(240, 243).map((e) => e.getAttribute('data-id')));
  const nameOf = async (id) => (await watcher.locator(`#seat-${id} title`).textContent())
    .replace(/, available$/, '');
  const [taken, picked, mine] = await Promise.all(ids.map(nameOf));
  const seat = (name) => watcher.getByRole('button', { name, exact: true });
  await expect(seat(`${taken}, available`)).toBeVisible();

  // Someone else takes one: its name says so at once, and it is disabled.
  const held = await other.request.post(`/api/events/2/seats/${ids[0]}/hold`, {
    headers: { 'Idempotency-Key': `a11y-${Date.now()}` },
  });
  expect(held.status()).toBe(200);
  await expect(seat(`${taken}, held by someone else`)).toHaveAttribute('aria-disabled', 'true');
  await expect(seat(`${taken}, available`)).toHaveCount(0);

  // The buyer's own selection: pressed, and named so.
  await seat(`${picked}, available`).dispatchEvent('click');
  await expect(seat(`${picked}, selected`)).toHaveAttribute('aria-pressed', 'true');
  await seat(`${picked}, selected`).dispatchEvent('click');
  await expect(seat(`${picked}, available`)).toHaveAttribute('aria-pressed', 'false');

  // The buyer's own hold: "held by you", not "held by someone else".
  await seat(`${mine}, available`).dispatchEvent('click');
  await watcher.getByRole('button', { name: /^Hold (seats|cabins)$/ }).click();
  await expect(watcher.getByTestId('countdown')).toBeVisible();
  await expect(seat(`${mine}, held by you`)).toHaveAttribute('aria-disabled', 'true');
  await expect(watcher.locator(`#seat-${ids[2]}`)).toHaveClass(/mine/);

  // Let go by its buyer, the taken seat is available again, by name.
  const bookingId = (await held.json()).bookingId;
  expect((await other.request.delete(`/api/bookings/${bookingId}`)).status()).toBe(200);
  await expect(seat(`${taken}, available`)).toBeVisible();
  await expect(seat(`${taken}, available`)).not.toHaveAttribute('aria-disabled', 'true');
  await watcher.screenshot({ path: 'test-results/seat-names-follow-status.png' });
});
