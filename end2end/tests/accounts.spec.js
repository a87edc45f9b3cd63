// Buyers who come back: a booking made on a phone is found on a laptop by
// signing in with the email link (read from the mailbox through the admin
// API), shown with its QR code, cancelled within the event's refund policy
// from its page — REFUNDED, and the seat free on the map again.
const { test, expect, request, devices } = require('@playwright/test');
const { holdSeat, mailedLink, payHeld, signInToConsole } = require('./helpers');

const PASSWORD = process.env.HOLDFAST_ADMIN_PASSWORD || 'playwright-admin';

test('book on a phone, sign in on a laptop with the emailed link, cancel within the policy', async ({ browser, baseURL }) => {
  const email = `phone-${Date.now()}@example.com`;
  const admin = await request.newContext({ baseURL });
  expect((await admin.post('/api/admin/login', { data: { password: PASSWORD } })).status()).toBe(200);
  // The organizer sets the policy in the console: in full until 14 days
  // before, half until 2 (a half without its window is refused first).
  const organizerContext = await browser.newContext();
  const organizer = await organizerContext.newPage();
  await signInToConsole(organizer);
  await organizer.getByRole('link', { name: 'Jobs' }).click();
  await organizer.getByRole('link', { name: 'Refund policies' }).click();
  const form = organizer.locator('section.refund-policy[data-event="2"]');
  await expect(form).toContainText('buyers cannot cancel');
  await form.getByLabel('Part (%)').fill('50');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(organizer.locator('section.refund-policy[data-event="2"] [role=alert]')).toContainText('needs its window');
  const retry = organizer.locator('section.refund-policy[data-event="2"]');
  await retry.getByLabel('In full until (days before)').fill('14');
  await retry.getByLabel('Part until (days before)').fill('2');
  await retry.getByLabel('Part (%)').fill('50');
  await retry.getByRole('button', { name: 'Save' }).click();
  await expect(organizer.getByRole('status')).toContainText('Saved');
  await expect(organizer.locator('section.refund-policy[data-event="2"]')).toContainText('in full until 14 days before the start; 50 % until 2 days before');
  await organizer.setViewportSize({ width: 390, height: 844 });
  await organizer.screenshot({ path: 'test-results/refund-policies-phone.png', fullPage: true });

  // On the phone: a guest books one seat and pays with an address.
  const phoneContext = await browser.newContext({ ...devices['Pixel 5'] });
  const phone = await phoneContext.newPage();
  await phone.goto('/events/2');
  // The policy is said before anyone pays: on the page, and beside Pay.
  await expect(phone.getByTestId('refund-terms')).toContainText('all your money back until');
  await expect(phone.getByTestId('refund-terms')).toContainText('50 % back until');
  const seat = await phone.locator('svg .seat.available').nth(230).getAttribute('data-id');
  await holdSeat(phone, seat);
  await expect(phone.locator('.held-note .refund-terms')).toContainText('all your money back until');
  await phone.screenshot({ path: 'test-results/refund-terms-before-pay-phone.png', fullPage: true });
  await payHeld(phone);
  await expect(phone).toHaveURL(/\/sandbox\/checkout\//);
  await phone.locator('input[name=email]').fill(email);
  await phone.getByRole('button', { name: /^Pay / }).click();
  await expect(phone).toHaveURL(/\/bookings\//);
  await expect(phone.getByTestId('booking-status')).toHaveText('BOOKED', { timeout: 15_000 });
  const bookingUrl = phone.url().split('?')[0];

  // On the laptop: a stranger until the link is opened.
  const laptopContext = await browser.newContext();
  const laptop = await laptopContext.newPage();
  await laptop.goto(bookingUrl);
  await expect(laptop.getByText('There is no such booking')).toBeVisible();
  await laptop.goto('/');
  await laptop.getByRole('link', { name: 'Sign in' }).click();
  await expect(laptop).toHaveURL(/\/sign-in$/);
  await laptop.getByLabel('Email address').fill(email);
  await laptop.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(laptop.getByRole('status')).toContainText('sign-in link is on its way');
  await expect(laptop.getByRole('status')).toContainText(email);
  await laptop.screenshot({ path: 'test-results/sign-in-sent.png', fullPage: true });

  const link = await mailedLink(admin, email);
  await laptop.goto(link);
  // The link only asks; the person confirms.
  await expect(laptop.getByTestId('confirm-sign-in')).toContainText('•••@example.com');
  await laptop.getByRole('button', { name: 'Sign in' }).click();
  await expect(laptop).toHaveURL(/\/bookings$/);
  // The header says so: no "Sign in" once signed in.
  const account = laptop.locator('header a.signed-in');
  await expect(account).toHaveText('Account');
  await expect(account).toHaveAttribute('title', `Signed in as ${email}.`);
  await expect(laptop.locator('header').getByRole('link', { name: 'Sign in' })).toHaveCount(0);
  await expect(laptop.locator('.event-card')).toHaveCount(1);
  await expect(laptop.locator('.event-card .kind')).toHaveText('BOOKED');
  await laptop.locator('.event-card a').click();
  await expect(laptop.getByTestId('booking-status')).toHaveText('BOOKED');
  await expect(laptop.getByTestId('ticket').first().locator('svg')).toBeVisible();
  // The link worked once.
  const again = await (await browser.newContext()).newPage();
  const reopened = await again.goto(link);
  expect(reopened.status()).toBe(410);
  await expect(again.getByText('already used')).toBeVisible();

  // Cancel, confirming the amount the policy gives back (the event is weeks away: all of it).
  await laptop.getByText('Cancel this booking').click();
  await expect(laptop.locator('.cancel-booking')).toContainText('gives back €');
  await laptop.screenshot({ path: 'test-results/cancel-confirm.png', fullPage: true });
  await laptop.getByRole('button', { name: /^Cancel and refund €/ }).click();
  await expect(laptop.getByTestId('booking-status')).toHaveText('REFUNDED', { timeout: 20_000 });
  await laptop.screenshot({ path: 'test-results/cancelled-refunded.png', fullPage: true });

  // The phone's page says so too, and the seat is free on every map.
  await phone.goto(bookingUrl);
  await expect(phone.getByTestId('booking-status')).toHaveText('REFUNDED');
  await phone.screenshot({ path: 'test-results/refunded-phone.png', fullPage: true });
  await laptop.goto('/events/2');
  await expect(laptop.locator(`#seat-${seat}`)).toHaveClass(/available/);

  // The mail said what came back.
  const mail = await (await admin.get(`/api/admin/mailbox?recipient=${encodeURIComponent(email)}`)).json();
  expect(mail.some((m) => m.body.includes('You cancelled this booking'))).toBe(true);

  // Signing out on the laptop: its bookings page is a stranger's again.
  await laptop.goto('/sign-in');
  await expect(laptop.getByTestId('signed-in-as')).toContainText(email);
  await laptop.getByRole('button', { name: 'Sign out' }).click();
  await laptop.goto('/bookings');
  await expect(laptop.locator('.event-card')).toHaveCount(0);
  await admin.put('/api/admin/events/2/refund-policy', { data: {} });
});

test('a buyer releases their own hold from the booking page', async ({ page }) => {
  await page.goto('/events/2');
  const seat = await page.locator('svg .seat.available').nth(240).getAttribute('data-id');
  await holdSeat(page, seat);
  await page.goto('/bookings');
  await page.locator('.event-card a').first().click();
  await expect(page.getByTestId('booking-status')).toHaveText('HELD');
  await page.getByRole('button', { name: 'Release these places' }).click();
  await expect(page.getByTestId('booking-status')).toHaveText('CANCELLED');
  await page.goto('/events/2');
  await expect(page.locator(`#seat-${seat}`)).toHaveClass(/available/);
});
