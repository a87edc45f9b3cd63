// The other ways into the seat map: the seat list (an alternative to the
// map for screen readers and small screens), the cruise's deck tabs, a
// two-finger pinch, and a phone-sized screen.
const { test, expect } = require('@playwright/test');

async function hydrated(page) {
  await expect(page.getByTestId('live')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
}

function viewBoxWidth(page) {
  return page.locator('.seat-map svg').getAttribute('viewBox').then((v) => Number(v.split(' ')[2]));
}

function viewBoxHeight(page) {
  return page.locator('.seat-map svg').getAttribute('viewBox').then((v) => Number(v.split(' ')[3]));
}

test('seats can be chosen from a list, and the list and the map agree', async ({ page }) => {
  await page.goto('/events/1');
  await hydrated(page);
  await page.getByText('Available seats as a list').click();
  const list = page.locator('.seat-list');
  await list.getByLabel('Section').selectOption({ index: 2 });
  const first = list.locator('li button').first();
  await expect(first).toHaveText(/^Section .+, row .+, seat \d+, €.+, available$/);
  const name = await first.textContent();
  await first.click();
  await expect(first).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('selection').locator('li')).toHaveCount(1);
  await expect(page.getByTestId('selection')).toContainText(name.split(', ').slice(0, 3).join(', '));
  // The same seat is selected on the map, and its name there says so.
  const id = await page.locator('svg .seat.selected').getAttribute('data-id');
  await expect(page.locator(`#seat-${id}`)).toHaveText(name.replace(/available$/, 'selected'));
  await page.screenshot({ path: 'test-results/seat-list.png', fullPage: true });
  // Unselected from the map, it is unselected in the list.
  await page.locator(`#seat-${id}`).dispatchEvent('click');
  await expect(first).toHaveAttribute('aria-pressed', 'false');
});

test('the cruise plan has a tab per deck', async ({ page }) => {
  await page.goto('/events/2');
  await hydrated(page);
  const tabs = page.getByRole('tablist', { name: 'Decks' }).getByRole('tab');
  await expect(tabs).toHaveCount(4);
  // The whole ship's numbers would be too small to read: it starts on its
  // first deck; every deck at once is a tab away.
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  const first = await page.locator('.seat-map svg').getAttribute('viewBox');
  await tabs.nth(0).click();
  await expect.poll(() => page.locator('.seat-map svg').getAttribute('viewBox')).not.toBe(first);
  const whole = await viewBoxHeight(page);
  await tabs.nth(1).click();
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  // One deck of three: a third of the plan or so.
  await expect.poll(() => viewBoxHeight(page)).toBeLessThan(whole * 0.6);
  const deck = await page.locator('.seat-map svg').getAttribute('viewBox');
  await page.screenshot({ path: 'test-results/cruise-deck.png' });
  await tabs.nth(2).click();
  await expect.poll(() => page.locator('.seat-map svg').getAttribute('viewBox')).not.toBe(deck);
  // Zooming out stops at the deck's edges.
  await page.getByRole('button', { name: 'Zoom out' }).click();
  await expect.poll(() => viewBoxHeight(page)).toBeLessThan(whole * 0.6);
  await tabs.nth(0).click();
  await expect.poll(() => viewBoxHeight(page)).toBe(whole);
});

test('two fingers spreading on the map zoom in', async ({ page }) => {
  await page.goto('/events/1');
  await hydrated(page);
  const box = await page.locator('.seat-map svg').boundingBox();
  const before = await viewBoxWidth(page);
  const cdp = await page.context().newCDPSession(page);
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const points = (d) => [{ x: cx - d, y: cy, id: 1 }, { x: cx + d, y: cy, id: 2 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(30) });
  for (let d = 40; d <= 150; d += 10) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: points(d) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await expect.poll(() => viewBoxWidth(page)).toBeLessThan(before * 0.6);
  // A pinch is not a click: nothing got selected.
  await expect(page.getByTestId('selection').locator('li')).toHaveCount(0);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the seat map, the panel and the booking flow fit the screen', async ({ page }) => {
    for (const path of ['/', '/events/1', '/events/2']) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    }
    await hydrated(page);
    const seat = await page.locator('svg .seat.available').nth(10).getAttribute('data-id');
    await page.locator(`#seat-${seat}`).dispatchEvent('click');
    const hold = page.getByRole('button', { name: /^Hold (seats|cabins)$/ });
    await hold.scrollIntoViewIfNeeded();
    await expect(hold).toBeInViewport();
    const size = await hold.boundingBox();
    expect(size.height).toBeGreaterThanOrEqual(40);
    await page.screenshot({ path: 'test-results/phone-seat-map.png', fullPage: true });
  });
});
