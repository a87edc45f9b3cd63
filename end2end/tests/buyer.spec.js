// The buyer's page at desktop and phone width:
// best seats under a price in one tap, a lost seat said and replaced in one
// tap, × and Clear, a seat's details on hover, standing places left live,
// Pay from the bar at the bottom of a phone, taps that zoom before they pick.
const { test, expect } = require('@playwright/test');
const { payHeld } = require('./helpers');

const baseURL = process.env.HOLDFAST_URL || 'http://127.0.0.1:3000';
const sizes = [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]];

async function hydrated(page) {
  await expect(page.getByTestId('live')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
}

// Selects a seat by clicking it (repeated until hydration took it).
async function pick(page, id) {
  await expect(async () => {
    await page.locator(`#seat-${id}`).dispatchEvent('click');
    await expect(page.locator(`#seat-${id}`)).toHaveClass(/selected/, { timeout: 500 });
  }).toPass({ timeout: 20_000 });
}

const seatNumbers = (page) => page.locator('svg .seat.mine').evaluateAll((els) =>
  els.map((e) => ({ cls: e.getAttribute('class'), name: e.textContent })));

for (const [name, viewport] of sizes) {
  test(`4 best seats under €60 in one tap (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/events/1');
    await hydrated(page);
    await page.getByTestId('best-quantity').selectOption('4');
    await page.getByTestId('best-price').selectOption({ label: 'up to €55.00' });
    await page.screenshot({ path: `test-results/buyer-best-asked-${name}.png`, fullPage: true });
    await page.getByTestId('find-best').click();
    await expect(page.getByTestId('countdown')).toBeVisible();
    await expect(page.locator('.held-note')).toContainText('Held 4 seats');
    const mine = await seatNumbers(page);
    expect(mine).toHaveLength(4);
    // Categories C (55.00) or D (35.00) only, one row, numbers in a run.
    const parsed = mine.map(({ cls, name }) => {
      const m = name.match(/Section (\S+), row (\S+), seat (\d+), €([\d.]+)/);
      return { cat: cls.match(/cat-(\w+)/)[1], section: m[1], row: m[2], seat: Number(m[3]), price: Number(m[4]) };
    });
    for (const s of parsed) {
      expect(['C', 'D']).toContain(s.cat);
      expect(s.price).toBeLessThan(60);
    }
    expect(new Set(parsed.map((s) => `${s.section}/${s.row}`)).size).toBe(1);
    const numbers = parsed.map((s) => s.seat).sort((a, b) => a - b);
    expect(numbers[3] - numbers[0]).toBe(3);
    await page.screenshot({ path: `test-results/buyer-best-held-${name}.png`, fullPage: true });
  });

  test(`a seat lost to someone else is said, and N together nearby is one tap (${name})`, async ({ page, browser }) => {
    await page.setViewportSize(viewport);
    await page.goto('/events/1');
    await hydrated(page);
    const ids = await page.locator('svg .seat.available').evaluateAll((els) =>
      els.slice(3000, 3002).map((e) => e.getAttribute('data-id')));
    await pick(page, ids[0]);
    await pick(page, ids[1]);
    await expect(page.getByTestId('selection').locator('li')).toHaveCount(2);
    const other = await browser.newContext({ baseURL });
    const taken = await other.request.post(`/api/events/1/seats/${ids[1]}/hold`, {
      headers: { 'Idempotency-Key': `lost-${name}-${Date.now()}` },
    });
    expect(taken.status()).toBe(200);
    await expect(page.getByRole('alert')).toContainText('was just taken by someone else');
    await expect(page.getByTestId('selection').locator('li')).toHaveCount(1);
    const nearby = page.getByTestId('find-nearby');
    await expect(nearby).toHaveText('Find 2 seats together nearby');
    await page.screenshot({ path: `test-results/buyer-lost-${name}.png`, fullPage: true });
    await nearby.click();
    await expect(page.getByTestId('countdown')).toBeVisible();
    await expect(page.locator('.held-note')).toContainText('Held 2 seats');
    await expect(page.locator('svg .seat.mine')).toHaveCount(2);
    await other.close();
  });

  test(`× takes one seat out, Clear empties the selection (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/events/2');
    await hydrated(page);
    const ids = await page.locator('svg .seat.available').evaluateAll((els) =>
      els.slice(100, 103).map((e) => e.getAttribute('data-id')));
    for (const id of ids) await pick(page, id);
    const list = page.getByTestId('selection').locator('li');
    await expect(list).toHaveCount(3);
    await list.first().getByRole('button', { name: /^Remove / }).click();
    await expect(list).toHaveCount(2);
    await expect(page.locator(`#seat-${ids[0]}`)).not.toHaveClass(/selected/);
    await page.getByTestId('clear-selection').click();
    await expect(list).toHaveCount(0);
    await expect(page.locator('svg .seat.selected')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Hold (seats|cabins)$/ })).toBeDisabled();
  });
}

test('hovering a seat shows its section, row, seat, category, price and status, as it changes', async ({ page, browser }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/events/1');
  await hydrated(page);
  // Zoom in so a seat is big enough to point at.
  for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
  const box = await page.locator('.seat-map svg').boundingBox();
  const seat = await page.evaluate(({ x, y, w, h }) => {
    const el = document.elementFromPoint(x + w / 2, y + h / 2);
    const near = [...document.querySelectorAll('svg .seat.available')].find((c) => {
      const r = c.getBoundingClientRect();
      return r.left > x + 20 && r.right < x + w - 20 && r.top > y + 100 && r.bottom < y + h - 20;
    });
    return near && near.id;
  }, { x: box.x, y: box.y, w: box.width, h: box.height });
  expect(seat).toBeTruthy();
  await page.locator(`#${seat}`).hover();
  const tip = page.getByTestId('seat-tip');
  await expect(tip).toBeVisible();
  await expect(tip).toContainText(/Section \S+ · row \S+ · seat \d+/);
  await expect(tip).toContainText(/Category [A-D] · €\d+\.\d\d/);
  await expect(tip).toContainText('available');
  await page.screenshot({ path: 'test-results/buyer-tooltip.png' });
  // Someone else takes the seat while its details are shown: they follow.
  const other = await browser.newContext({ baseURL });
  const taken = await other.request.post(`/api/events/1/seats/${seat.replace('seat-', '')}/hold`, {
    headers: { 'Idempotency-Key': `tip-${Date.now()}` },
  });
  expect(taken.status()).toBe(200);
  await expect(tip.locator('.tip-status')).toHaveText('held by someone else', { timeout: 10_000 });
  await other.close();
  await page.mouse.move(5, 5);
  await expect(tip).toHaveCount(0);
});

test('standing places left follow other buyers live', async ({ page, browser }) => {
  await page.goto('/events/1');
  await hydrated(page);
  const left = page.getByTestId('standing-left');
  const before = Number((await left.textContent()).match(/([\d,]+) places? left/)[1].replace(/,/g, ''));
  const other = await browser.newContext({ baseURL });
  const area = (await (await other.request.get('/api/events/1')).json()).generalAdmission[0].id;
  const held = await other.request.post(`/api/events/1/general-admission/${area}/hold`, {
    headers: { 'Idempotency-Key': `standing-live-${Date.now()}` },
    data: { quantity: 4 },
  });
  expect(held.status()).toBe(200);
  await expect(left).toContainText(`${(before - 4).toLocaleString('en-US')} places left`, { timeout: 10_000 });
  await other.close();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the hold, its countdown and Pay stay in a bar at the bottom; paying from it works', async ({ page }) => {
    await page.goto('/events/2');
    await hydrated(page);
    const id = await page.locator('svg .seat.available').nth(150).getAttribute('data-id');
    await pick(page, id);
    // While seats are picked: count, total and Hold seats at the bottom.
    const bar = page.getByTestId('selection-bar');
    await expect(bar).toHaveCSS('position', 'fixed');
    await expect(bar).toContainText('1 cabin');
    await bar.getByRole('button', { name: /^Hold (seats|cabins)$/ }).click();
    const pay = page.getByTestId('pay-bar');
    await expect(pay).toHaveCSS('position', 'fixed');
    await expect(pay).toContainText(/1 cabin · €[\d,.]+ · Time left: \d+:\d\d/);
    await page.evaluate(() => window.scrollTo(0, 0));
    const b = await pay.locator('.pay').boundingBox();
    expect(b.y + b.height).toBeLessThanOrEqual(844);
    expect(b.y).toBeGreaterThan(600);
    await page.screenshot({ path: 'test-results/buyer-phone-pay-bar.png' });
    await payHeld(page);
    await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  });

  test('the prices stay in sight, the key to the colours opens on tap; the zoom buttons sit above the map', async ({ page }) => {
    await page.goto('/events/1');
    await hydrated(page);
    const legend = page.locator('#legend');
    await expect(legend.getByText('Category A · €120.00')).toBeVisible();
    await expect(legend.getByText('Held by someone else')).toBeHidden();
    await page.screenshot({ path: 'test-results/buyer-phone-prices.png' });
    await page.getByRole('button', { name: 'What the colours mean' }).click();
    await expect(legend.getByText('Held by someone else')).toBeVisible();
    const zoom = await page.getByRole('button', { name: 'Zoom in' }).boundingBox();
    const map = await page.locator('.seat-map svg').boundingBox();
    expect(zoom.y + zoom.height).toBeLessThanOrEqual(map.y + 1);
  });
});

test.describe('with a finger', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('a tap on tiny seats zooms in first; once seats are finger-sized a tap picks one', async ({ page }) => {
    await page.goto('/events/1');
    await hydrated(page);
    const svg = page.locator('.seat-map svg');
    const before = await svg.getAttribute('viewBox');
    const box = await svg.boundingBox();
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height * 0.7);
    await expect(svg).not.toHaveAttribute('viewBox', before);
    await expect(page.locator('svg .seat.selected')).toHaveCount(0);
    // Keep tapping the middle until a seat is picked; every seat on screen
    // is then at least 24 px across.
    let picked = 0;
    for (let i = 0; i < 6 && picked === 0; i++) {
      const c = await page.evaluate(({ x, y, w, h }) => {
        const seat = [...document.querySelectorAll('svg .seat.available')].find((el) => {
          const r = el.getBoundingClientRect();
          return r.left > x + 10 && r.right < x + w - 10 && r.top > y + 10 && r.bottom < y + h - 10;
        });
        if (!seat) return null;
        const r = seat.getBoundingClientRect();
        return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width };
      }, { x: box.x, y: box.y, w: box.width, h: box.height });
      if (!c) break;
      await page.touchscreen.tap(c.x, c.y);
      picked = await page.locator('svg .seat.selected').count();
      if (picked) expect(c.w).toBeGreaterThanOrEqual(24);
    }
    expect(picked).toBe(1);
    await page.screenshot({ path: 'test-results/buyer-finger-zoomed.png' });
  });
});
