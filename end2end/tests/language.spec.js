// The pages in Vietnamese (a browser set to vi-VN) and in English: the
// home page, the Hà Nội night priced in đồng, a hold with its countdown,
// and a purchase through the checkout to the booking, at desktop and phone
// width. On every one of those screens no English sentence of the
// catalogue (read from crates/holdfast-model/src/i18n/messages.rs) is left, in the text or
// in the accessible names. The organizer's console in Vietnamese. The
// header's switch is remembered over the browser's language.
const fs = require('fs');
const path = require('path');
const { test, expect } = require('@playwright/test');
const { payOnCheckout } = require('./helpers');

const sizes = [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]];

// [key, English, Vietnamese] for every message of the catalogue.
function catalogue() {
  const text = fs.readFileSync(path.join(__dirname, '../../crates/holdfast-model/src/i18n/messages.rs'), 'utf8');
  const out = [];
  for (const m of text.matchAll(/^\s*(\w+) => "((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)";/gm)) {
    out.push([m[1], m[2], m[3]]);
  }
  return out;
}

// The pieces of a language's sentences between placeholders, long enough
// to be words of that language only.
function pieces(column) {
  const all = catalogue();
  expect(all.length).toBeGreaterThan(150);
  const out = new Set();
  for (const row of all) {
    for (const part of row[column].split(/\{\w+\}/)) {
      const p = part.trim().replace(/^[\s·:;,.…●○()—-]+|[\s·:;,.…●○()—-]+$/g, '');
      if (p.length >= 4 && /[A-Za-zÀ-ỹ]{3}/.test(p)) out.add(p);
    }
  }
  return [...out];
}
const english = pieces(1);

// What a person reads or hears on the page: its text and accessible names.
async function shown(page) {
  return page.evaluate(() => {
    const labels = [...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label'));
    return [document.body.innerText, ...labels].join('\n');
  });
}

// The pieces found in a text as whole words ("Hold" is not in "Holdfast").
function found(pieces, text) {
  const escape = (p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return pieces.filter((p) => new RegExp(`(?<!\\p{L})${escape(p)}(?!\\p{L})`, 'u').test(text));
}

async function expectNoEnglish(page, screen) {
  expect(found(english, await shown(page)), `English left on ${screen}`).toEqual([]);
}

async function hydrated(page) {
  await expect(page.getByTestId('live')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
}

// Two free seats side by side of the map, selected (repeated until
// hydration took the click).
async function pickTwo(page) {
  const ids = await page.locator('svg .seat.available').evaluateAll((els) => {
    for (let i = 0; i + 1 < els.length; i++) {
      const [a, b] = [els[i], els[i + 1]];
      if (!a.classList.contains('held') && !b.classList.contains('held')) {
        return [a.getAttribute('data-id'), b.getAttribute('data-id')];
      }
    }
    return [];
  });
  expect(ids).toHaveLength(2);
  for (const id of ids) {
    await expect(async () => {
      await page.locator(`#seat-${id}`).dispatchEvent('click');
      await expect(page.locator(`#seat-${id}`)).toHaveClass(/selected/, { timeout: 500 });
    }).toPass({ timeout: 20_000 });
  }
  return ids;
}

test.describe('in Vietnamese', () => {
  test.use({ locale: 'vi-VN' });

  for (const [size, viewport] of sizes) {
    test(`home, the Hà Nội night in đồng, a hold and a purchase (${size})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', 'vi');
      await expect(page.getByRole('heading', { name: 'Đang mở bán' })).toBeVisible();
      const hanoi = page.locator('.event-card', { hasText: 'Đêm nhạc Hà Nội' });
      await expect(hanoi).toContainText('20:00 UTC+07, Thứ Bảy 18/09/2027');
      await expect(hanoi).toContainText(/Còn [\d.]+ \/ 556 chỗ/);
      await expectNoEnglish(page, 'the home page');
      await page.screenshot({ path: `test-results/vi-home-${size}.png`, fullPage: true });

      await page.getByRole('link', { name: /Đêm nhạc Hà Nội/ }).click();
      await hydrated(page);
      await expect(page.locator('.legend')).toContainText('2.500.000 ₫');
      await expect(page.locator('.legend')).toContainText('850.000 ₫');
      const seatName = await page.locator('svg .seat title').first().textContent();
      expect(seatName).toMatch(/^Khu [12], hàng [A-M], ghế \d+, [\d.]+ ₫, (còn trống|đã bán|người khác đang giữ)$/);
      await expectNoEnglish(page, 'the event page');
      await page.screenshot({ path: `test-results/vi-event-${size}.png`, fullPage: true });

      await pickTwo(page);
      await expect(page.getByTestId('selection').locator('li')).toHaveCount(2);
      await expect(page.getByTestId('selection-bar')).toContainText('2 ghế');
      await expectNoEnglish(page, 'the selection');
      await page.getByRole('button', { name: 'Giữ chỗ', exact: true }).click();
      await expect(page.getByTestId('countdown')).toContainText(/Thời gian còn lại: \d+:\d\d/);
      await expect(page.locator('.held-note')).toContainText(/Đang giữ 2 ghế, tổng [\d.]+ ₫\./);
      await expectNoEnglish(page, 'the hold');
      await page.screenshot({ path: `test-results/vi-hold-${size}.png`, fullPage: true });

      await page.getByRole('button', { name: 'Thanh toán ngay' }).click();
      await expect(page).toHaveURL(/\/sandbox\/checkout\//);
      await expect(page.locator('html')).toHaveAttribute('lang', 'vi');
      await expect(page.locator('.amount')).toContainText(/Số tiền cần trả: [\d.]+ ₫/);
      await expectNoEnglish(page, 'the checkout');
      await page.screenshot({ path: `test-results/vi-checkout-${size}.png`, fullPage: true });
      await payOnCheckout(page);

      await expect(page).toHaveURL(/\/bookings\//);
      await expect(page.getByTestId('booking-status')).toHaveText('ĐÃ ĐẶT', { timeout: 15_000 });
      await expect(page.locator('.explain')).toHaveText('Đã thanh toán và xác nhận. Chúc bạn xem biểu diễn vui vẻ!');
      await expect(page.getByTestId('booking-event')).toContainText('Thứ Bảy 18/09/2027');
      await expect(page.locator('.booking-seats li').first()).toContainText(/^Khu [12], hàng [A-M], ghế \d+ · [\d.]+ ₫$/);
      await expect(page.getByTestId('ticket').first().locator('svg')).toBeVisible();
      await expectNoEnglish(page, 'the booking');
      await page.screenshot({ path: `test-results/vi-booked-${size}.png`, fullPage: true });

      await page.getByRole('link', { name: 'Tất cả vé của tôi' }).click();
      await expect(page.getByRole('heading', { name: 'Vé của tôi' })).toBeVisible();
      await expect(page.locator('.event-card .kind').first()).toHaveText('ĐÃ ĐẶT');
      await expectNoEnglish(page, 'my bookings');
    });
  }

  test('the organizer\'s console in Vietnamese', async ({ page }) => {
    await page.goto('/admin');
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('heading', { name: 'Bảng điều khiển quản trị' })).toBeVisible();
    await expectNoEnglish(page, 'the sign-in');
    await page.getByLabel('Mật khẩu').fill(process.env.HOLDFAST_ADMIN_PASSWORD || 'playwright-admin');
    await page.getByRole('button', { name: 'Đăng nhập' }).click();
    await expect(page.getByRole('heading', { name: 'Sự kiện', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Sự kiện mới' })).toBeVisible();
    await expect(page.locator('table.events')).toContainText('Hòa nhạc');
    await expectNoEnglish(page, 'the console');
    await page.screenshot({ path: 'test-results/vi-console.png', fullPage: true });

    // A refused form explains each field in Vietnamese.
    await page.getByLabel('Số hàng').fill('0');
    await page.getByRole('button', { name: 'Tạo sự kiện' }).click();
    await expect(page.locator('label', { hasText: 'Số hàng' }).locator('.field-error')).toHaveText('từ 1 đến 200 hàng');
    await expect(page.locator('form.new-event > .error')).toHaveText('Vui lòng sửa các trường được đánh dấu.');
    await expectNoEnglish(page, 'the refused form');
    await page.screenshot({ path: 'test-results/vi-console-refused.png', fullPage: true });

    await page.getByRole('link', { name: /Đêm nhạc Hà Nội/ }).click();
    await expect(page.getByRole('heading', { name: 'Các lượt giữ chỗ đang chạy' })).toBeVisible();
    await expect(page.locator('.tiles').first()).toContainText('doanh thu');
    await expect(page.locator('.tiles').first()).toContainText('₫');
    await expect(page.locator('.time-zone')).toContainText('Asia/Ho_Chi_Minh');

    // A promo of 50,000 đồng off, typed and shown in đồng (not cents).
    const campaign = `Khách quen ${Date.now()}`;
    await page.locator('input[name="promoName"]').fill(campaign);
    await page.locator('select[name="discountKind"]').selectOption('amount');
    await page.locator('input[name="amountOff"]').fill('50000');
    await page.getByRole('button', { name: 'Tạo khuyến mãi' }).click();
    await expect(page.locator('.promo-ok')).toContainText(campaign);
    await expect(page.locator('table.promos tr', { hasText: campaign })).toContainText('giảm 50.000 ₫');
    // The audit log in Vietnamese: the room opened from the panel.
    await page.locator('input[name="admitPerMinute"]').fill('30');
    // "Open" on a fresh server; "save the rate" if a run before left it open.
    await page.locator('.on-sale button').first().click();
    await expect(page.locator('table.audit')).toContainText('bật phòng chờ, 30 người mỗi phút');
    await expect(page.locator('table.audit')).toContainText('phòng chờ');
    await expectNoEnglish(page, 'the dashboard');
    await page.screenshot({ path: 'test-results/vi-dashboard.png', fullPage: true });
    await page.getByRole('button', { name: 'Đóng phòng chờ' }).click();
  });

  test('the switch in the header is remembered over the browser\'s language', async ({ page }) => {
    await page.goto('/events/3');
    await hydrated(page);
    await expect(page.getByTestId('language-vi')).toHaveAttribute('aria-current', 'true');
    await page.getByTestId('language-en').click();
    await expect(page).toHaveURL(/\/events\/3$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.locator('.legend')).toContainText('₫2,500,000');
    await expect(page.getByRole('heading', { name: 'Your selection' })).toBeVisible();
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'On sale' })).toBeVisible();
    await page.getByTestId('language-vi').click();
    await expect(page.getByRole('heading', { name: 'Đang mở bán' })).toBeVisible();
  });
});

test.describe('in English', () => {
  test.use({ locale: 'en-US' });
  const vietnamese = pieces(2).filter((p) => !english.includes(p));

  test('the same flow in English, with no Vietnamese sentence of the catalogue', async ({ page }) => {
    const expectNoVietnamese = async (screen) => {
      expect(found(vietnamese, await shown(page)), `Vietnamese left on ${screen}`).toEqual([]);
    };
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    const hanoi = page.locator('.event-card', { hasText: 'Hanoi Jazz Night' });
    await expect(hanoi).toContainText('Sat 18 September 2027, 20:00 UTC+07');
    await expect(hanoi).toContainText(/\d+ of 556 available/);
    await expectNoVietnamese('the home page');
    await page.getByRole('link', { name: /Hanoi Jazz Night/ }).click();
    await hydrated(page);
    await expect(page.locator('.legend')).toContainText('₫2,500,000');
    await pickTwo(page);
    await page.getByRole('button', { name: /^Hold (seats|cabins)$/ }).click();
    await expect(page.locator('.held-note')).toContainText(/Held 2 seats for ₫[\d,]+\./);
    await expectNoVietnamese('the hold');
    await page.screenshot({ path: 'test-results/en-hanoi-hold.png', fullPage: true });
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.locator('.amount')).toContainText(/Amount due: ₫[\d,]+/);
    await payOnCheckout(page);
    await expect(page.getByTestId('booking-status')).toHaveText('BOOKED', { timeout: 15_000 });
    await expect(page.locator('.explain')).toHaveText('Paid and confirmed. Enjoy the show!');
    await expectNoVietnamese('the booking');
  });
});
