//! Money in the currencies Holdfast sells in. Amounts are integers in the
//! currency's minor unit (ISO 4217's exponent: cents for EUR, whole đồng
//! for VND, fils for BHD); this table knows each currency's exponent, what
//! Stripe wants for it, and the smallest charge Stripe accepts. A currency
//! not in it is refused at event setup, never guessed.

/// One currency Holdfast can sell in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CurrencyInfo {
    /// ISO 4217, upper case.
    pub code: &'static str,
    /// Digits after the decimal point (ISO 4217).
    pub exponent: u32,
    /// Stripe's smallest charge, in minor units (its table; elsewhere the
    /// equivalent of USD 0.50, rounded up).
    pub min_charge: i64,
}

const fn c(code: &'static str, exponent: u32, min_charge: i64) -> CurrencyInfo {
    CurrencyInfo {
        code,
        exponent,
        min_charge,
    }
}

/// The currencies, by code.
pub const CURRENCIES: &[CurrencyInfo] = &[
    c("AED", 2, 200),
    c("AUD", 2, 50),
    c("BGN", 2, 100),
    c("BHD", 3, 200),
    c("BRL", 2, 50),
    c("CAD", 2, 50),
    c("CHF", 2, 50),
    c("CZK", 2, 1_500),
    c("DKK", 2, 250),
    c("EUR", 2, 50),
    c("GBP", 2, 30),
    c("HKD", 2, 400),
    c("HUF", 2, 17_500),
    c("IDR", 2, 1_000_000),
    c("INR", 2, 50),
    c("JOD", 3, 400),
    c("JPY", 0, 50),
    c("KRW", 0, 700),
    c("KWD", 3, 200),
    c("MXN", 2, 1_000),
    c("MYR", 2, 200),
    c("NOK", 2, 300),
    c("NZD", 2, 50),
    c("OMR", 3, 200),
    c("PHP", 2, 3_000),
    c("PLN", 2, 200),
    c("RON", 2, 200),
    c("SEK", 2, 300),
    c("SGD", 2, 50),
    c("THB", 2, 1_000),
    c("TND", 3, 2_000),
    c("TWD", 2, 1_600),
    c("USD", 2, 50),
    c("VND", 0, 15_000),
    c("ZAR", 2, 1_000),
];

/// The currency of this code (upper case), if Holdfast sells in it.
pub fn currency(code: &str) -> Option<&'static CurrencyInfo> {
    CURRENCIES.iter().find(|c| c.code == code)
}

/// Digits after the decimal point; 2 for a code not in the table (only
/// rows written before the table existed can carry one).
pub fn exponent(code: &str) -> u32 {
    currency(code).map_or(2, |c| c.exponent)
}

/// Stripe's smallest charge in this currency, in minor units.
pub fn min_charge(code: &str) -> i64 {
    currency(code).map_or(50, |c| c.min_charge)
}

/// Stripe takes three-decimal currencies only in steps of ten (the last
/// digit 0), forints and Taiwan dollars only in whole units (steps of a
/// hundred minor units); every other currency in steps of one minor unit.
pub fn charge_step(code: &str) -> i64 {
    match (code, exponent(code)) {
        ("HUF" | "TWD", _) => 100,
        (_, 3) => 10,
        _ => 1,
    }
}

/// A currency Holdfast sells in: only the table's codes can be one, so a
/// `Currency` always knows its exponent, Stripe's minimum and its steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Currency(&'static CurrencyInfo);

impl Currency {
    /// The currency of this code (upper case), if Holdfast sells in it.
    pub fn of(code: &str) -> Option<Currency> {
        currency(code).map(Currency)
    }

    pub fn code(self) -> &'static str {
        self.0.code
    }

    /// Digits after the decimal point (ISO 4217).
    pub fn exponent(self) -> u32 {
        self.0.exponent
    }

    /// Stripe's smallest charge.
    pub fn min_charge(self) -> Money {
        Money::new(self.0.min_charge, self)
    }

    /// The steps Stripe charges in, in minor units (`charge_step`).
    pub fn charge_step(self) -> i64 {
        charge_step(self.0.code)
    }
}

/// An amount of money: whole minor units of a currency Holdfast sells in
/// (cents, whole đồng, fils). Stored and sent as the integer and the code;
/// read, written, parsed and discounted as a `Money`, which knows its
/// currency's digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Money {
    minor: i64,
    currency: Currency,
}

impl Money {
    pub fn new(minor: i64, currency: Currency) -> Money {
        Money { minor, currency }
    }

    /// An amount stored as minor units and a code; `None` for a code
    /// Holdfast does not sell in.
    pub fn of(minor: i64, code: &str) -> Option<Money> {
        Currency::of(code).map(|c| Money::new(minor, c))
    }

    /// The amount in minor units (what is stored, and what Stripe is sent).
    pub fn minor(self) -> i64 {
        self.minor
    }

    pub fn currency(self) -> Currency {
        self.currency
    }

    /// Whether a provider's report of an amount and a code (Stripe writes
    /// codes in lower case) is this amount.
    pub fn is(self, minor: i64, code: &str) -> bool {
        self.minor == minor && self.currency.code().eq_ignore_ascii_case(code)
    }

    /// An amount typed by a person ("30", "30.5", "30,50", "850000") in
    /// this currency; `None` when it has more decimals than the currency
    /// or is not a number.
    pub fn parse(text: &str, currency: Currency) -> Option<Money> {
        parse_amount(text, currency.code()).map(|minor| Money::new(minor, currency))
    }

    /// A promo's discount on this amount: a percentage and/or a fixed
    /// amount off, never leaving less than Stripe's smallest charge in the
    /// currency, in steps Stripe can charge (tens of fils for a
    /// three-decimal currency).
    pub fn discount(self, percent_off: i64, amount_off: i64) -> Money {
        let wanted = (self.minor.saturating_mul(percent_off) / 100).saturating_add(amount_off);
        let step = self.currency.charge_step();
        let most = self.minor - self.currency.min_charge().minor;
        Money::new((wanted.min(most).max(0) / step) * step, self.currency)
    }
}

/// Stored as two columns: the amount in minor units and the code. A
/// `Currency` column reads only a code Holdfast sells in (a row that holds
/// another is refused as corrupt, never guessed at); a `Money` reads
/// `amount_cents` and `currency` from a row.
#[cfg(feature = "ssr")]
mod stored {
    use super::{Currency, Money};
    use sqlx::any::{Any, AnyRow, AnyTypeInfo};
    use sqlx::encode::IsNull;
    use sqlx::error::BoxDynError;
    use sqlx::{Database, Decode, Encode, Row, Type};

    impl Type<Any> for Currency {
        fn type_info() -> AnyTypeInfo {
            <str as Type<Any>>::type_info()
        }
    }

    impl<'q> Encode<'q, Any> for Currency {
        fn encode_by_ref(
            &self,
            buf: &mut <Any as Database>::ArgumentBuffer<'q>,
        ) -> Result<IsNull, BoxDynError> {
            <&str as Encode<'q, Any>>::encode(self.code(), buf)
        }
    }

    impl<'r> Decode<'r, Any> for Currency {
        fn decode(value: <Any as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
            let code = <String as Decode<'r, Any>>::decode(value)?;
            Currency::of(&code.to_ascii_uppercase())
                .ok_or_else(|| format!("a currency Holdfast does not sell in: {code:?}").into())
        }
    }

    impl<'r> sqlx::FromRow<'r, AnyRow> for Money {
        fn from_row(row: &'r AnyRow) -> Result<Self, sqlx::Error> {
            Ok(Money::new(
                row.try_get("amount_cents")?,
                row.try_get("currency")?,
            ))
        }
    }
}

/// An amount in minor units as a person types it back: (3000, EUR) →
/// "30.00", (850000, VND) → "850000" (`parse_amount` reads it again).
pub fn amount_text(minor: i64, code: &str) -> String {
    let e = exponent(code);
    if e == 0 {
        return minor.to_string();
    }
    let unit = 10_i64.pow(e);
    let sign = if minor < 0 { "-" } else { "" };
    let m = minor.unsigned_abs();
    let unit = unit as u64;
    format!("{sign}{}.{:0w$}", m / unit, m % unit, w = e as usize)
}

/// An amount typed by a person ("30", "30.5", "30,50", "850000") in the
/// currency's minor units; `None` when it has more decimals than the
/// currency or is not a number.
pub fn parse_amount(text: &str, code: &str) -> Option<i64> {
    let e = exponent(code) as usize;
    let text = text.trim().replace(',', ".");
    let (whole, part) = text.split_once('.').unwrap_or((&text, ""));
    if whole.is_empty() && part.is_empty()
        || part.len() > e
        || !whole.chars().all(|c| c.is_ascii_digit())
        || !part.chars().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let part: i64 = if part.is_empty() {
        0
    } else {
        format!("{part:0<e$}").parse().ok()?
    };
    whole.checked_mul(10_i64.pow(e as u32))?.checked_add(part)
}

#[cfg(test)]
mod tests;
