// A hold belongs to the buyer, not to the tab, on the event page too: after
// a reload the map draws the buyer's held seat as theirs (not "held by
// someone else"), and the panel has the countdown and Pay; Back from the
// provider's checkout finds the hold again, and Pay goes on with the same
// checkout, which books it. Another device signed in to the same account
// sees the hold as well. At desktop and phone width.
const { test, expect, request } = require('@playwright/test');
const { holdSeat, mailedLink, payOnCheckout } = require('./helpers');

const PASSWORD = process.env.HOLDFAST_ADMIN_PASSWORD || 'playwright-admin';
const sizes = [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]];

async function expectHoldShown(page, seat) {
  await expect(page.locator('.seat-map')).toHaveAttribute('data-drawn', 'true');
  await expect(page.locator(`#seat-${seat}`)).toHaveClass(/mine/);
  await expect(page.getByTestId('held-seats')).toBeVisible();
  const countdown = page.getByTestId('countdown');
  await expect(countdown).toContainText(/\d+:\d\d/);
  // Counting (the server's time left, ticking in the page).
  const first = await countdown.locator('strong').textContent();
  await expect(async () => {
    expect(await countdown.locator('strong').textContent()).not.toBe(first);
  }).toPass({ timeout: 5_000 });
  await expect(page.getByRole('button', { name: 'Pay now' })).toBeVisible();
}

for (const [name, viewport] of sizes) {
  test(`a hold survives a reload and Back from the checkout on the event page (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/events/1');
    const seat = await page.locator('svg .seat.available').nth(name === 'phone' ? 17 : 15).getAttribute('data-id');
    await holdSeat(page, seat);

    await page.reload();
    await expectHoldShown(page, seat);
    await page.screenshot({ path: `test-results/hold-after-reload-${name}.png`, fullPage: true });

    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\//);
    const checkout = page.url();
    // Back from the provider's page: the hold (now paying) is still there.
    await page.goBack();
    await expect(page).toHaveURL(/\/events\/1/);
    await expectHoldShown(page, seat);
    await page.screenshot({ path: `test-results/hold-back-from-checkout-${name}.png`, fullPage: true });
    // Pay goes on with the same checkout, not a second one.
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\//);
    expect(page.url()).toBe(checkout);
    await payOnCheckout(page);
    await expect(page).toHaveURL(/\/bookings\//);
    await expect(page.getByTestId('booking-status')).toHaveText('BOOKED', { timeout: 15_000 });

    // Paid: the event page has no running hold to show any more.
    await page.goto('/events/1');
    await expect(page.locator('.seat-map')).toHaveAttribute('data-drawn', 'true');
    await expect(page.locator(`#seat-${seat}`)).toHaveClass(/booked/);
    await expect(page.getByTestId('countdown')).toHaveCount(0);
  });
}

const usedLinks = [];

async function signIn(page, admin, email) {
  await page.goto('/sign-in');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByRole('status')).toContainText('sign-in link is on its way');
  const link = await mailedLink(admin, email, usedLinks);
  usedLinks.push(link);
  await page.goto(link);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/bookings$/);
}

test('a hold made on one device is shown, counting and payable, on another of the account', async ({ browser, baseURL }) => {
  const email = `two-devices-${Date.now()}@example.com`;
  const admin = await request.newContext({ baseURL });
  expect((await admin.post('/api/admin/login', { data: { password: PASSWORD } })).status()).toBe(200);

  const laptop = await (await browser.newContext()).newPage();
  await signIn(laptop, admin, email);
  await laptop.goto('/events/1');
  const seat = await laptop.locator('svg .seat.available').nth(25).getAttribute('data-id');
  await holdSeat(laptop, seat);

  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true })).newPage();
  // A stranger's phone sees someone else's hold.
  await phone.goto('/events/1');
  await expect(phone.locator('.seat-map')).toHaveAttribute('data-drawn', 'true');
  await expect(phone.locator(`#seat-${seat}`)).toHaveClass(/held/);
  await expect(phone.locator(`#seat-${seat}`)).not.toHaveClass(/mine/);
  await expect(phone.getByTestId('countdown')).toHaveCount(0);
  // Signed in to the same account: the hold is theirs, with Pay.
  await signIn(phone, admin, email);
  await phone.goto('/events/1');
  await expectHoldShown(phone, seat);
  await phone.screenshot({ path: 'test-results/hold-on-second-device-phone.png', fullPage: true });
  // Let go from the phone: the laptop's map frees the seat.
  await phone.getByRole('button', { name: 'Release these places' }).click();
  await expect(phone.getByTestId('countdown')).toHaveCount(0);
  await expect(laptop.locator(`#seat-${seat}`)).toHaveClass(/available/, { timeout: 10_000 });
});
