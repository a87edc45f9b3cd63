//! What a buyer's page (or the console) says when the core refused: in English the API's
//! own message (the words integrators see), in another language the
//! catalogue's sentence for the refusal's kind. Details only the English
//! message carries (which seat, what limit) are shown on the map and in
//! the panel instead.

use super::error::ApiError;
use holdfast_model::i18n::{Locale, Msg};

impl ApiError {
    /// The refusal as the buyer reads it, in their language.
    pub fn for_buyer(&self, l: Locale) -> String {
        if l == Locale::En {
            return self.to_string();
        }
        let m = match self {
            ApiError::SeatTaken { .. } => Msg::RefusedSeatTaken,
            ApiError::HoldExpired => Msg::RefusedHoldExpired,
            ApiError::InvalidState(_) => Msg::RefusedNotNow,
            ApiError::Validation { .. } | ApiError::FieldErrors(_) => Msg::RefusedInvalid,
            ApiError::LimitExceeded(_) => Msg::RefusedLimit,
            ApiError::NotFound(_) => Msg::RefusedNotFound,
            ApiError::SoldOut(_) | ApiError::NothingFits { sold_out: true, .. } => {
                Msg::RefusedSoldOut
            }
            ApiError::NothingFits { suggestions, .. } if suggestions.is_empty() => {
                Msg::RefusedNothingFits
            }
            ApiError::NothingFits { .. } => Msg::RefusedNoBlock,
            ApiError::NotOnSale => Msg::RefusedNotOnSale,
            ApiError::ProviderUnavailable => Msg::RefusedProvider,
            ApiError::RateLimited { retry_after_secs } => {
                return l.fill(Msg::RefusedRateLimited, &[("seconds", retry_after_secs)]);
            }
            ApiError::AdmissionRequired => Msg::RefusedAdmission,
            ApiError::PromoUnknown => Msg::RefusedPromoUnknown,
            ApiError::PromoExhausted => Msg::RefusedPromoExhausted,
            ApiError::PromoAlreadyApplied => Msg::RefusedPromoApplied,
            ApiError::Busy | ApiError::Contended(_) | ApiError::TooManyStreams => Msg::RefusedBusy,
            ApiError::AlreadyCheckedIn { .. } => Msg::RefusedAlreadyIn,
            ApiError::TicketVoid(_) => Msg::RefusedTicketVoid,
            _ => Msg::RefusedOther,
        };
        l.t(m).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_reads_in_the_buyer_s_language() {
        let e = ApiError::PromoExhausted;
        assert_eq!(e.for_buyer(Locale::En), "this promo code has been used up");
        assert_eq!(
            e.for_buyer(Locale::Vi),
            "Mã khuyến mãi này đã hết lượt dùng."
        );
        let e = ApiError::RateLimited {
            retry_after_secs: 7,
        };
        assert_eq!(
            e.for_buyer(Locale::Vi),
            "Quá nhiều yêu cầu; vui lòng thử lại sau 7 giây."
        );
    }
}
