// An organizer gives back part of a booking: 30 % of it with a reason at
// desktop width, then a typed amount on a phone; the buyer's page shows
// what went back while the ticket stays BOOKED, and the console's row says
// so. Screenshots of the box at both widths.
const { test, expect } = require('@playwright/test');
const { holdOn, payHeld, publishedEvent, signInToConsole } = require('./helpers');

// "€12.34" → 1234.
function cents(text) {
  return Math.round(parseFloat(text.replace(/[^\d.]/g, '')) * 100);
}

test('an organizer refunds 30 % with a reason, then a part on a phone', async ({ browser }) => {
  test.setTimeout(120_000);
  const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const admin = await adminContext.newPage();
  await signInToConsole(admin);
  await admin.waitForLoadState('networkidle');
  const { eventId } = await publishedEvent(admin, `Part refunds ${Date.now()}`, 2, 6);

  // A buyer books one seat, giving an email at the checkout.
  const buyer = await holdOn(browser, eventId, 3);
  const email = `partly${Date.now()}@example.com`;
  await payHeld(buyer.page);
  await buyer.page.getByLabel('Email for the confirmation').fill(email);
  await buyer.page.getByRole('button', { name: /^Pay / }).click();
  await expect(buyer.page.getByTestId('booking-status')).toHaveText('BOOKED', { timeout: 15_000 });

  await admin.goto(`/admin/events/${eventId}`);
  await expect(admin.locator('.live-state')).toHaveText(/live/, { timeout: 15_000 });
  await admin.getByRole('tab', { name: 'Bookings' }).click();
  const row = admin.locator('table.recent tbody tr', { hasText: email });
  await expect(row).toHaveCount(1, { timeout: 10_000 });
  const paid = cents(await row.locator('td').nth(3).innerText());

  // 30 % with a reason: the amount fills in, the button names it.
  await row.getByRole('button', { name: 'Refund part' }).click();
  const box = admin.getByRole('dialog');
  await expect(box).toContainText(`Refund part of the €`);
  await expect(box).toContainText('the tickets stay valid');
  await box.getByLabel(/share of what was paid/).fill('30');
  const part = Math.round(paid * 0.3);
  await expect(box.getByLabel(/^Amount/)).toHaveValue((part / 100).toFixed(2));
  await box.getByLabel('Reason', { exact: true }).fill('Your view of the stage was blocked by a mast');
  await expect(box.getByLabel(/Email the buyer/)).toBeChecked();
  await expect(box.getByRole('button', { name: `Refund €${(part / 100).toFixed(2)}` })).toBeVisible();
  await admin.screenshot({ path: 'test-results/part-refund-desktop.png' });
  await box.getByRole('button', { name: /^Refund €/ }).click();
  await expect(box).toHaveCount(0);
  await expect(admin.locator('.action-result')).toContainText(`is on its way back to ${email}`);

  // The outbox sends it: the buyer's page says what went back; the ticket stays.
  await expect(async () => {
    await buyer.page.reload();
    await expect(buyer.page.getByTestId('refunded-part')).toContainText(`€${(part / 100).toFixed(2)}`, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(buyer.page.getByTestId('booking-status')).toHaveText('BOOKED');
  await expect(row).toContainText('refunded, ticket kept', { timeout: 10_000 });

  // Too much is refused in the box, before anything is sent.
  await admin.setViewportSize({ width: 390, height: 844 });
  await row.getByRole('button', { name: 'Refund part' }).click();
  await box.getByLabel(/^Amount/).fill(((paid - part) / 100).toFixed(2));
  await box.getByLabel('Reason', { exact: true }).fill('Everything');
  await box.getByRole('button', { name: /^Refund €/ }).click();
  await expect(box.getByRole('alert')).toContainText('Give an amount between');
  // On a phone the box fits the screen and its button is within reach.
  await box.getByLabel(/^Amount/).fill('1.50');
  await box.getByLabel('Reason', { exact: true }).fill('Drinks voucher not honoured at the bar');
  await box.getByLabel(/Email the buyer/).uncheck();
  const submit = box.getByRole('button', { name: 'Refund €1.50' });
  const where = await submit.boundingBox();
  expect(where.x + where.width).toBeLessThanOrEqual(390);
  expect(where.y + where.height).toBeLessThanOrEqual(844);
  await admin.screenshot({ path: 'test-results/part-refund-phone.png' });
  await submit.click();
  await expect(admin.locator('.action-result')).toContainText('€1.50 is on its way back');
  await expect(async () => {
    await buyer.page.reload();
    await expect(buyer.page.getByTestId('refunded-part')).toContainText(`€${((part + 150) / 100).toFixed(2)}`, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  // The booking's history lists both, with their reasons.
  const bookingId = await row.getAttribute('data-booking');
  const history = await (await admin.request.get(`/api/admin/bookings/${bookingId}/history`)).json();
  const parts = history.filter((h) => h.refundCents);
  expect(parts.map((h) => [h.refundCents, h.note])).toEqual([
    [part, 'Your view of the stage was blocked by a mast'],
    [150, 'Drinks voucher not honoured at the bar'],
  ]);
  await buyer.context.close();
  await adminContext.close();
});
