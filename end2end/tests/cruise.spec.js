// A cruise as a buyer books it: a sailing chosen by date on its route's
// page, a cabin picked on the deck plan (drawn as a ship: cabins in the
// hull, numbered, categories by colour and pattern), a party of three,
// every guest named at checkout, paid, and the booking listing its guests.
// Then the line cancels that sailing from the console: the booking moves
// to the next sailing by itself, and the buyer takes a full refund.
// The deck plan is screenshot at desktop and phone width.
const { test, expect } = require('@playwright/test');
const { nameGuests, payOnCheckout, signInToConsole } = require('./helpers');

async function hydrated(page) {
  await expect(page.getByTestId('seat-map')).toHaveAttribute('data-drawn', 'true', { timeout: 20_000 });
  await expect(page.getByTestId('live')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
}

test('a buyer books a cabin for three guests on a sailing chosen by date, and takes a refund when the line cancels it', async ({ page, browser }) => {
  await page.goto('/');
  await page.getByRole('link', { name: /MS Aurora — Norwegian Fjords/ }).first().click();
  await expect(page).toHaveURL(/\/sailings\?route=NORWAY-7N/);
  const sailings = page.getByTestId('sailing');
  await expect(sailings).toHaveCount(4);
  await expect(sailings.nth(2)).toContainText('Sat 19 June 2027, 18:00 CEST');
  await expect(sailings.nth(2)).toContainText('7 nights');
  await expect(sailings.nth(2)).toContainText('from €790.00');
  await page.screenshot({ path: 'test-results/cruise-sailings.png', fullPage: true });
  await sailings.nth(2).getByRole('link', { name: 'Choose your cabins' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/MS Aurora/);
  await expect(page.getByTestId('event-when')).toHaveText('Sat 19 June 2027, 18:00 CEST');
  await hydrated(page);
  // Drawn as a ship: a hull with its bow, numbered cabins, no dots.
  await expect(page.locator('.hull-outline')).toHaveCount(3);
  await expect(page.locator('svg .seat.cabin')).toHaveCount(300);
  await expect(page.locator('.cabin-number', { hasText: /^6012$/ })).toHaveCount(1);
  await page.getByTestId('itinerary').locator('summary').click();
  await expect(page.getByTestId('itinerary')).toContainText('Geiranger');
  await page.screenshot({ path: 'test-results/cruise-deck-plan-desktop.png' });

  // A cabin for up to four, for three: the price for two plus one supplement.
  const cabin = page.locator('svg .seat.cabin.available.cat-BALCONY[data-guests="1-4"]').first();
  const id = await cabin.getAttribute('data-id');
  await expect(async () => {
    await page.locator(`#seat-${id}`).dispatchEvent('click');
    await expect(page.locator(`#seat-${id}`)).toHaveClass(/selected/, { timeout: 500 });
  }).toPass({ timeout: 20_000 });
  const party = page.getByTestId('guests');
  await expect(party).toHaveValue('2');
  await party.selectOption('3');
  await expect(page.locator('.total')).toContainText('€1,840.00');
  // A ship's wording: cabins, not seats.
  await expect(page.getByRole('button', { name: 'Hold seats' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Hold cabins' }).click();
  await expect(page.getByTestId('countdown')).toContainText(/\d:\d\d/);
  await expect(page.getByTestId('held-seats')).toContainText(/cabin \d+/);

  // Checkout: every guest by name and date of birth, then the payment.
  await page.getByRole('link', { name: 'Name the guests and pay' }).click();
  await expect(page.locator('input[name$="-name"]')).toHaveCount(3);
  await page.screenshot({ path: 'test-results/cruise-guests-form.png', fullPage: true });
  await nameGuests(page, ['Kari Nordmann', 'Ola Nordmann', 'Emma Nordmann']);
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expect(page.locator('.amount')).toContainText(/1,?840\.00/);
  await payOnCheckout(page);

  await expect(page).toHaveURL(/\/bookings\//);
  await expect(page.getByTestId('booking-status')).toHaveText('BOOKED', { timeout: 15_000 });
  await expect(page.getByTestId('guest-list').locator('li')).toHaveCount(3);
  await expect(page.getByTestId('guest-list')).toContainText('Emma Nordmann');
  await expect(page.locator('.booking-seats')).toContainText('3 guests');
  await page.screenshot({ path: 'test-results/cruise-booked.png', fullPage: true });
  const bookingUrl = page.url();

  // Storm: the line cancels that sailing from the console, with a reason
  // and a confirmation; the rebooking's progress comes in live.
  const office = await browser.newContext();
  const admin = await office.newPage();
  await signInToConsole(admin);
  await admin.goto('/admin/sailings');
  await admin.screenshot({ path: 'test-results/console-sailings.png', fullPage: true });
  const row = admin.locator('tr', { hasText: 'Sat 19 June 2027' });
  await row.locator('summary').click();
  await row.getByLabel(/^Why/).fill('Storm warning: force 10 winds off the coast');
  await row.getByRole('checkbox').check();
  await row.getByRole('button', { name: 'Cancel the sailing and rebook' }).click();
  await expect(admin).toHaveURL(/\/admin\/sailings\/\d+\/rebooking/);
  await expect(admin.getByTestId('progress-left')).toHaveText('0', { timeout: 15_000 });
  await expect(admin.getByTestId('progress-moved')).not.toHaveText('0');
  await expect(admin.getByTestId('rebooking-to')).toContainText('Sat 26 June 2027');
  await admin.screenshot({ path: 'test-results/cruise-rebooking-progress.png', fullPage: true });
  await office.close();

  // The buyer's booking moved by itself to the next sailing.
  await page.goto(bookingUrl);
  const rebooking = page.getByTestId('rebooking');
  await expect(rebooking).toContainText('Your sailing was cancelled');
  await expect(rebooking).toContainText('Storm warning');
  await expect(page.getByTestId('rebooking-moved')).toContainText('Sat 26 June 2027');
  await expect(page.getByTestId('booking-event')).toContainText('Sat 26 June 2027');
  await expect(page.getByTestId('guest-list')).toContainText('Emma Nordmann');
  await page.screenshot({ path: 'test-results/cruise-rebooked.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/cruise-rebooked-phone.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  await rebooking.getByRole('button', { name: /^Cancel and refund €1,840\.00 in full/ }).click();
  await expect(page.getByTestId('booking-status')).toHaveText('REFUNDED', { timeout: 20_000 });
  await expect(page.getByTestId('rebooking-answer')).toHaveText('You chose a full refund.');
});

// How tall the cabin numbers in view are drawn, in CSS pixels.
async function numberHeights(page) {
  return page.locator('.cabin-number').evaluateAll((texts) => {
    const map = document.querySelector('.seat-map svg').getBoundingClientRect();
    return texts
      .map((t) => t.getBoundingClientRect())
      .filter((r) => r.right > map.left && r.left < map.right && r.bottom > map.top && r.top < map.bottom)
      .map((r) => r.height);
  });
}

test('the deck plan at phone width', async ({ browser }) => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await phone.newPage();
  await page.goto('/events/2');
  await hydrated(page);
  await expect(page.locator('.hull-outline')).toHaveCount(3);
  // At the default zoom, with nothing touched: a phone starts on the first
  // deck, close enough to read the cabins' numbers.
  await expect(page.getByRole('tab', { selected: true })).toHaveText(/^Deck /);
  const heights = await numberHeights(page);
  expect(heights.length).toBeGreaterThan(3);
  expect(Math.min(...heights)).toBeGreaterThanOrEqual(10);
  await page.screenshot({ path: 'test-results/cruise-deck-plan-phone.png' });
  // Another deck's tab keeps a phone's reading zoom.
  await page.getByRole('tab', { name: 'Deck 6' }).click();
  expect(Math.min(...(await numberHeights(page)))).toBeGreaterThanOrEqual(10);
  await page.screenshot({ path: 'test-results/cruise-deck-plan-phone-deck6.png' });
  // Every deck at once is one tap away.
  await page.getByRole('tab', { name: 'All decks' }).click();
  await expect(page.getByRole('tab', { name: 'All decks' })).toHaveAttribute('aria-selected', 'true');
  await phone.close();
});
