// An organizer sets up an event from the console's form, at desktop and
// phone width: three price categories (one colour picked), two curved
// sections and a standing area, the preview following every field; the
// layout exported (shown and downloaded) and imported; created, edited
// while unpublished, published, then refused further edits. A buyer finds
// the curved seats and the standing area on the event's page. axe on the
// form.
const fs = require('fs');
const { test, expect } = require('@playwright/test');
const AxeBuilder = require('@axe-core/playwright').default;
const { signInToConsole } = require('./helpers');

async function serious(page) {
  return (await new AxeBuilder({ page }).analyze()).violations
    .filter((v) => ['serious', 'critical'].includes(v.impact))
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
}

const card = (page, name) => page.getByRole('group', { name, exact: true });

for (const [width, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
  test(`an organizer builds an event with three categories, two curved sections and a standing area (${width})`, async ({ page, browser }) => {
    await page.setViewportSize(viewport);
    await signInToConsole(page);
    const name = `Spektrum ${width} ${Date.now()}`;
    const preview = page.locator('.setup-preview');
    await expect(preview).toContainText('Seats: 50 · standing places: 0 · price categories: 1');
    expect(await serious(page)).toEqual([]);

    await page.getByLabel('Name').first().fill(name);
    await page.getByLabel('Venue').fill('Spektrum');
    await page.getByLabel(/^Time zone/).fill('Europe/Oslo');

    // Three categories; the first one's colour picked.
    const a = card(page, 'Category A');
    await a.getByLabel('Name').fill('Front');
    await a.getByLabel('Price').fill('85.00');
    await a.getByLabel('Colour').fill('#1f6feb');
    await page.getByRole('button', { name: 'Add a category' }).click();
    const b = card(page, 'Category B');
    await b.getByLabel('Name').fill('Middle');
    await b.getByLabel('Price').fill('55.00');
    await page.getByRole('button', { name: 'Add a category' }).click();
    const c = card(page, 'Category C');
    await c.getByLabel('Name').fill('Back');
    await c.getByLabel('Price').fill('35.00');
    await expect(preview).toContainText('price categories: 3');

    // Two curved sections.
    const left = card(page, 'Section 1');
    await left.getByLabel('Name').fill('Left');
    await left.getByLabel('Rows').fill('6');
    await left.getByLabel('Seats per row').fill('14');
    await left.getByLabel(/^Curve/).fill('40');
    await page.getByRole('button', { name: 'Add a section' }).click();
    const right = card(page, 'Section 2');
    await right.getByLabel('Name').fill('Right');
    await right.getByLabel('Category').selectOption('B');
    await right.getByLabel('Rows').fill('6');
    await right.getByLabel('Seats per row').fill('14');
    await right.getByLabel(/^Left edge/).fill('200');
    await right.getByLabel(/^Front row/).fill('0');
    await right.getByLabel(/^Curve/).fill('40');
    // Too close: the blocks' fanned-out back rows touch. The preview says
    // so, and the server would refuse it.
    await expect(preview.locator('.overlap')).toContainText('“Left” and “Right” are drawn over each other');
    await right.getByLabel(/^Left edge/).fill('220');
    await expect(preview.locator('.overlap')).toHaveCount(0);

    // A standing area in the third category.
    await page.getByRole('button', { name: 'Add a standing area' }).click();
    const floor = card(page, 'Standing area 1');
    await floor.getByLabel('Name').fill('Floor');
    await floor.getByLabel('Category').selectOption('C');
    await floor.getByLabel('Capacity').fill('300');

    // The preview followed: every seat, one path per colour, the names.
    await expect(preview).toContainText('Seats: 168 · standing places: 300 · price categories: 3');
    await expect(preview.locator('svg path')).toHaveCount(2);
    await expect(preview.locator('svg path').first()).toHaveAttribute('fill', '#1f6feb');
    await expect(preview.locator('svg text')).toHaveText(['Left', 'Right']);
    await expect(preview.locator('.standing-preview')).toContainText('Floor: 300 standing places');
    await expect(preview).toBeInViewport();
    await page.screenshot({ path: `test-results/setup-preview-${width}.png`, fullPage: false });

    // Exported: shown, and downloaded as the same JSON.
    await page.getByText('Layout as JSON: export or import').click();
    await page.getByRole('button', { name: 'Show this layout' }).click();
    const shown = JSON.parse(await page.locator('textarea.layout-text').inputValue());
    expect(shown.categories.map((x) => [x.code, x.name, x.priceCents, x.color])).toEqual([
      ['A', 'Front', 8500, '#1f6feb'], ['B', 'Middle', 5500, '#2471a3'], ['C', 'Back', 3500, '#1e8449'],
    ]);
    expect(shown.sections.map((x) => [x.name, x.category, x.rows, x.seatsPerRow, x.curve])).toEqual([
      ['Left', 'A', 6, 14, 40], ['Right', 'B', 6, 14, 40],
    ]);
    expect(shown.generalAdmission).toEqual([{ name: 'Floor', category: 'C', capacity: 300 }]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download layout.json' }).click(),
    ]);
    expect(JSON.parse(fs.readFileSync(await download.path(), 'utf8'))).toEqual(shown);

    // Created; then edited while unpublished (the heading names it).
    await page.getByRole('button', { name: 'Create event' }).click();
    await expect(page.locator('.created')).toContainText('168 seats');
    const eventId = (await page.locator('.created').textContent()).match(/event (\d+)/)[1];
    await expect(page.getByRole('heading', { name: `Event ${eventId}` })).toBeVisible();
    await right.getByLabel('Rows').fill('5');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('.created')).toContainText(`Saved event ${eventId}: 154 seats`);
    const stored = await (await page.request.get(`/api/admin/events/${eventId}/layout`)).json();
    expect(stored.sections[1].rows).toBe(5);

    // Imported: a pasted layout fills the form and the preview (unsaved).
    await page.locator('textarea.layout-text').fill(JSON.stringify({ ...shown, name: `${name} (copy)`, sections: [shown.sections[0]] }));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.getByLabel('Name').first()).toHaveValue(`${name} (copy)`);
    await expect(preview).toContainText('Seats: 84 · standing places: 300');
    await page.locator('textarea.layout-text').fill('{"categories": 3}');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.locator('.layout-json .error')).toContainText('This is not a layout');
    expect(await serious(page)).toEqual([]);

    // Published from the list: no more Edit, and a save is refused.
    const row = page.locator('table.events tr', { hasText: name }).first();
    await row.getByRole('button', { name: 'Publish' }).click();
    await expect(row).toContainText('published');
    await expect(row.getByRole('button', { name: 'Edit' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('form.new-event > .error')).toContainText('can no longer change');

    // The buyer's page: 154 seats, the rows curved, the standing area.
    const buyer = await (await browser.newContext({ viewport })).newPage();
    await buyer.goto(`/events/${eventId}`);
    await expect(buyer.locator('svg .seat')).toHaveCount(154);
    await expect(buyer.getByTestId('standing')).toContainText('Floor');
    const seats = (await (await buyer.request.get(`/api/events/${eventId}/seats`)).json()).seats;
    const frontLeft = seats.filter((s) => s.section === 'Left' && s.row === 'A');
    expect(frontLeft).toHaveLength(14);
    expect(frontLeft[0].y).toBeLessThan(frontLeft[7].y);
    await buyer.screenshot({ path: `test-results/setup-buyer-${width}.png`, fullPage: false });
    await buyer.context().close();
  });
}

// The console's other pages, at both widths: no serious or critical axe
// violation.
for (const [width, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
  test(`the console's pages pass axe (${width})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signInToConsole(page);
    // (An event's dashboard: console.spec.js, on an event small enough for
    // axe; the arena's 10,000 seats take it minutes.)
    for (const path of ['/admin', '/admin/scan', '/admin/jobs', '/admin/sailings', '/admin/refund-policies']) {
      await page.goto(path);
      // (The dashboard's live stream never lets the network idle.)
      await expect(page.locator('h1').first()).toBeVisible();
      await page.waitForTimeout(1_000);
      expect(await serious(page), path).toEqual([]);
    }
  });
}
