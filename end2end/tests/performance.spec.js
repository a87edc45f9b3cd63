// What the 10,000-seat arena costs a real browser, measured in Chromium:
// bytes transferred (as Chromium counts them: CDP Network.loadingFinished
// encoded lengths) on a first visit and on a revisit; time to first paint
// and to interactive (map drawn, live stream open), unthrottled and with
// the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate); and frame times
// while a buyer zooms and pans. Printed and kept in test-results/; bytes
// are held to the budgets below, times only printed (a shared machine's
// busy minute is not a regression).
const fs = require('fs');
const { test, expect } = require('@playwright/test');

const FIRST_VISIT_BYTES = 600_000;
const REVISIT_BYTES = 60_000;

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.floor(s.length * p))];
  return { frames: s.length, p50: +at(0.5).toFixed(1), p95: +at(0.95).toFixed(1), max: +s[s.length - 1].toFixed(1) };
}

// Counts what the page transfers from now on, per URL path.
async function meter(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const urls = new Map();
  const bytes = new Map();
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e) => {
    const path = new URL(urls.get(e.requestId) || 'http://x/?').pathname;
    bytes.set(path, (bytes.get(path) || 0) + e.encodedDataLength);
  });
  return {
    cdp,
    reset: () => bytes.clear(),
    total: () => [...bytes.values()].reduce((a, b) => a + b, 0),
    byPath: () => Object.fromEntries([...bytes.entries()].sort((a, b) => b[1] - a[1])),
  };
}

// Opens the arena and waits until it is interactive: the seats drawn with
// their statuses and the live stream open (both effects of the hydrated
// page). Polled inside the page: the CSP forbids string eval.
async function openArena(page) {
  const started = Date.now();
  await page.goto('/events/1');
  const interactive = await page.evaluate(() => new Promise((resolve) => {
    const check = () => (document.querySelector('[data-testid=live]')?.dataset.live === 'true'
      && document.querySelector('[data-testid=seat-map]')?.dataset.drawn === 'true'
      ? resolve(performance.now()) : setTimeout(check, 5));
    check();
  }));
  const paint = await page.evaluate(() => {
    const p = performance.getEntriesByName('first-contentful-paint')[0];
    const n = performance.getEntriesByType('navigation')[0];
    return { firstPaint: p ? p.startTime : null, responseEnd: n.responseEnd };
  });
  await expect(page.locator('svg .seat')).toHaveCount(10_000);
  // Late requests (the favicon) finish before counting; the live stream
  // stays open, so "network idle" never comes: wait for the page's load
  // event and a quiet moment instead.
  await page.waitForLoadState('load');
  await page.waitForTimeout(300);
  return {
    timeToInteractiveMs: Math.round(interactive),
    firstContentfulPaintMs: paint.firstPaint && Math.round(paint.firstPaint),
    responseEndMs: Math.round(paint.responseEnd),
    wallMs: Date.now() - started,
  };
}

test('the arena: bytes, first paint and time to interactive, cold and warm, and 4× slower', async ({ browser, request }) => {
  // The server draws a map once, on its first ask; a browser's cold cache
  // is measured, not the server's first minute.
  const page0 = await request.get('/events/1');
  const drawing = (await page0.text()).match(/\/api\/events\/1\/seats\/drawing\?v=[0-9a-f]+/);
  await request.get(drawing ? drawing[0] : '/api/events/1/seats/drawing');
  const result = {};
  // Cold cache, unthrottled.
  const context = await browser.newContext();
  const page = await context.newPage();
  const m = await meter(page);
  result.cold = await openArena(page);
  result.cold.transferredBytes = m.total();
  result.cold.byPath = m.byPath();
  // Warm cache: the same browser comes back.
  m.reset();
  result.warm = await openArena(page);
  result.warm.transferredBytes = m.total();
  result.warm.byPath = m.byPath();
  await context.close();

  // Cold cache with the CPU four times slower (a mid-range phone). Each
  // cold load is timed twice and the faster kept: a shared machine's noise
  // only ever adds time, at times a multiple of a quiet run's.
  const coldAgain = await browser.newContext();
  const again = await (await coldAgain.newPage());
  const second = await openArena(again);
  await coldAgain.close();
  result.cold.timeToInteractiveRunsMs = [result.cold.timeToInteractiveMs, second.timeToInteractiveMs];
  result.cold.timeToInteractiveMs = Math.min(...result.cold.timeToInteractiveRunsMs);
  const slowRuns = [];
  for (let i = 0; i < 2; i++) {
    const slowContext = await browser.newContext();
    const slow = await slowContext.newPage();
    const s = await meter(slow);
    await s.cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const run = await openArena(slow);
    run.transferredBytes = s.total();
    slowRuns.push(run);
    await slowContext.close();
  }
  result.cold4xCpu = slowRuns.reduce((a, b) => (b.timeToInteractiveMs < a.timeToInteractiveMs ? b : a));
  result.cold4xCpu.timeToInteractiveRunsMs = slowRuns.map((r) => r.timeToInteractiveMs);

  console.log('arena (10,000 seats):', JSON.stringify(result, null, 1));
  fs.mkdirSync('test-results', { recursive: true });
  fs.writeFileSync('test-results/map-load.json', JSON.stringify(result, null, 2));
  expect(result.cold.transferredBytes).toBeLessThanOrEqual(FIRST_VISIT_BYTES);
  expect(result.warm.transferredBytes).toBeLessThanOrEqual(REVISIT_BYTES);
  // Times are printed and kept (test-results/map-load.json), never
  // asserted: on a shared machine a busy minute is not a regression.
  // scripts/bench.sh measures them (docs/BENCHMARKS.md).
  expect(result.cold.timeToInteractiveMs).toBeGreaterThan(0);
});

test('the arena map: frame times while panning and zooming', async ({ page }) => {
  await openArena(page);
  const sample = async (gesture) => {
    await page.evaluate(() => {
      window.__frames = [];
      window.__sampling = true;
      let last = performance.now();
      const tick = (t) => { window.__frames.push(t - last); last = t; if (window.__sampling) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    });
    await gesture();
    return page.evaluate(() => { window.__sampling = false; return window.__frames.slice(1); });
  };
  const box = await page.locator('.seat-map svg').boundingBox();
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  // Each gesture twice (the second back where the first began), the
  // steadier run kept: this shared machine's noise only adds time.
  const better = (a, b) => (b.p95 < a.p95 ? b : a);
  const zooms = [];
  const pans = [];
  for (const direction of [1, -1]) {
    await page.mouse.move(cx, cy);
    zooms.push(stats(await sample(async () => {
      for (let i = 0; i < 6; i++) { await page.mouse.wheel(0, -120 * direction); await page.waitForTimeout(50); }
    })));
    pans.push(stats(await sample(async () => {
      await page.mouse.down();
      for (let i = 1; i <= 40; i++) await page.mouse.move(cx - direction * i * 8, cy - direction * i * 4);
      await page.mouse.up();
    })));
  }
  const result = { zoomFrameMs: zooms.reduce(better), panFrameMs: pans.reduce(better), runs: { zooms, pans } };
  console.log('seat map frames (10,000 seats):', JSON.stringify(result));
  fs.writeFileSync('test-results/map-performance.json', JSON.stringify(result, null, 2));
  // Printed, not asserted (see above): the map did draw frames meanwhile.
  expect(result.panFrameMs.p95).toBeGreaterThan(0);
  expect(result.zoomFrameMs.p95).toBeGreaterThan(0);
});

// The console is not in the buyer's wasm: a buyer's page loads the buyer's
// bundle, a console page the console's. A link to the console followed
// inside a buyer's page (the router catches it) loads the console page
// from the server, with its own wasm, and the console works there.
test('a buyer gets the buyer wasm, the console its own, and a link between them works', async ({ page }) => {
  const wasm = [];
  page.on('request', (r) => {
    const name = new URL(r.url()).pathname.split('/').pop();
    if (name.endsWith('.wasm')) wasm.push(name);
  });
  await page.goto('/events/1');
  await expect(page.getByTestId('seat-map')).toHaveAttribute('data-drawn', 'true');
  expect(wasm).toHaveLength(1);
  expect(wasm[0]).toMatch(/^holdfast\.[0-9a-f]{16}\.wasm$/);

  // A link the buyer's router catches, as a console link on a buyer page would be.
  await page.evaluate(() => {
    const a = document.createElement('a');
    a.href = '/admin';
    a.textContent = 'to the console';
    a.id = 'console-link';
    document.querySelector('main').append(a);
  });
  await page.locator('#console-link').click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByLabel('Password')).toBeVisible();
  await expect.poll(() => wasm.some((n) => /^holdfast-console\.[0-9a-f]{16}\.wasm$/.test(n))).toBe(true);
  // Hydrated by the console's wasm: a wrong password is answered in place.
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('not right');
});
