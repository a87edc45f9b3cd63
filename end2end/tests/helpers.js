// Steps several specs share (not a spec itself: Playwright runs *.spec.js).
const { expect } = require('@playwright/test');

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

module.exports = { holdSeat };
