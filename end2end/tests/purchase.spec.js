// A full purchase in the browser: select two seats, hold, pay on the
// sandbox's hosted page, and land on the booking page, which turns BOOKED
// by itself once the signed webhook has arrived.
const { test, expect } = require('@playwright/test');
const { payHeld, payOnCheckout } = require('./helpers');

test('select two seats, hold, pay, and see the booking confirmed', async ({ page }) => {
  await page.goto('/events/2');
  const seats = page.locator('svg .seat.available');
  const first = await seats.nth(40).getAttribute('data-id');
  const second = await seats.nth(41).getAttribute('data-id');
  await expect(async () => {
    await page.locator(`#seat-${first}`).dispatchEvent('click');
    await expect(page.locator(`#seat-${first}`)).toHaveClass(/selected/, { timeout: 500 });
  }).toPass({ timeout: 20_000 });
  await page.locator(`#seat-${second}`).dispatchEvent('click');
  await expect(page.getByTestId('selection').locator('li')).toHaveCount(2);
  await page.getByRole('button', { name: /^Hold (seats|cabins)$/ }).click();
  await expect(page.getByTestId('countdown')).toContainText(/\d:\d\d/);
  await page.screenshot({ path: 'test-results/hold-in-progress.png', fullPage: true });

  await payHeld(page);
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expect(page.locator('.amount')).toContainText('€');
  // The address for the confirmation is asked for, as Stripe asks for it:
  // a buyer cannot pay without one and then get no tickets by mail.
  await page.locator('button.pay').click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  expect(await page.locator('input[name=email]').evaluate((e) => e.validity.valueMissing)).toBe(true);
  await payOnCheckout(page);

  await expect(page).toHaveURL(/\/bookings\//);
  await expect(page.getByTestId('booking-status')).toHaveText('BOOKED', { timeout: 15_000 });
  // One ticket a seat, each with its own code (friends may arrive apart).
  await expect(page.getByTestId('ticket')).toHaveCount(2);
  await expect(page.getByTestId('ticket').nth(0).locator('svg')).toBeVisible();
  await expect(page.getByTestId('ticket').nth(1).locator('svg')).toBeAttached();
  const codes = await page.getByTestId('ticket').locator('.qr').evaluateAll((qrs) => qrs.map((q) => q.innerHTML));
  expect(codes[0]).not.toBe(codes[1]);
  await expect(page.getByTestId('ticket').nth(0)).toContainText('Ticket 1 of 2');
  await page.screenshot({ path: 'test-results/booking-confirmed.png', fullPage: true });

  await page.goto('/bookings');
  await expect(page.locator('.event-card')).toHaveCount(1);
  await expect(page.locator('.event-card .kind')).toHaveText('BOOKED');
});
