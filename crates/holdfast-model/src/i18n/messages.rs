//! Every sentence a buyer or an organizer reads, in English and in
//! Vietnamese side by side: `shared` (the pages: also in the browser's
//! wasm), `console` (the console's own pages: its wasm, not the buyer's)
//! and `server` (mail, refusals, the sandbox's page: server only).
//! One line per message: its key, then the English, then the Vietnamese; a
//! message without both does not compile, and `{name}` placeholders must be
//! the same in both (a unit test reads them). Long by nature: a catalogue,
//! not logic. Plurals: English has "one" and "other" (`…One` / `…Many`
//! keys, chosen by `Locale::plural`); Vietnamese has one form, written
//! twice.

use super::Locale;

macro_rules! messages {
    (
        shared { $($key:ident => $en:literal, $vi:literal;)* }
        console { $($ckey:ident => $cen:literal, $cvi:literal;)* }
        server { $($skey:ident => $sen:literal, $svi:literal;)* }
    ) => {
        /// A message of the catalogue.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Msg {
            $($key,)*
            $(#[cfg(any(feature = "ssr", feature = "console"))] $ckey,)*
            $(#[cfg(feature = "ssr")] $skey,)*
        }

        impl Msg {
            /// The messages pages use (also in the browser's wasm).
            pub const SHARED: &'static [Msg] = &[$(Msg::$key),*];

            /// The messages only the console's pages use: kept out of the
            /// buyer's wasm.
            #[cfg(any(feature = "ssr", feature = "console"))]
            pub const CONSOLE: &'static [Msg] = &[$(Msg::$ckey),*];

            /// The messages only the server writes (mail, refusals, the
            /// sandbox's page): kept out of the wasm.
            #[cfg(feature = "ssr")]
            pub const SERVER: &'static [Msg] = &[$(Msg::$skey),*];

            /// The message in a language, placeholders unfilled.
            pub fn text(self, locale: Locale) -> &'static str {
                match (self, locale) {
                    $((Msg::$key, Locale::En) => $en, (Msg::$key, Locale::Vi) => $vi,)*
                    $(
                        #[cfg(any(feature = "ssr", feature = "console"))]
                        (Msg::$ckey, Locale::En) => $cen,
                        #[cfg(any(feature = "ssr", feature = "console"))]
                        (Msg::$ckey, Locale::Vi) => $cvi,
                    )*
                    $(
                        #[cfg(feature = "ssr")]
                        (Msg::$skey, Locale::En) => $sen,
                        #[cfg(feature = "ssr")]
                        (Msg::$skey, Locale::Vi) => $svi,
                    )*
                }
            }
        }
    };
}

messages! {
    shared {
        // The frame of every page.
        Tagline => "Concert and cruise seats, held fairly", "Vé hòa nhạc và du thuyền, giữ chỗ công bằng";
        NavMyBookings => "My bookings", "Vé của tôi";
        NavAccount => "Account", "Tài khoản";
        SignedInAs => "Signed in as {email}.", "Đã đăng nhập với {email}.";
        CancelBooking => "Cancel this booking", "Hủy đơn này";
        CancelRefundNote => "Cancelling now gives back {amount} under the event's refund policy. Your places go to other buyers at once; this cannot be undone.", "Hủy ngay bây giờ bạn được hoàn {amount} theo chính sách hoàn tiền của sự kiện. Chỗ của bạn sẽ được mở cho người khác ngay; không thể hoàn tác.";
        CancelAndRefund => "Cancel and refund {amount}", "Hủy và hoàn {amount}";
        ReleaseHold => "Release these places", "Trả lại các chỗ này";
        HoldNotReleased => "your places were not released", "các chỗ của bạn chưa được trả lại";
        Language => "Language", "Ngôn ngữ";
        PageNotFound => "Page not found.", "Không tìm thấy trang.";

        // The home page.
        OnSale => "On sale", "Đang mở bán";
        LoadingEvents => "Loading events…", "Đang tải các sự kiện…";
        EventsFailed => "Events could not be loaded. Please try again in a moment.", "Không tải được các sự kiện. Vui lòng thử lại sau giây lát.";
        KindConcert => "Concert", "Hòa nhạc";
        KindCruise => "Cruise", "Du thuyền";
        AvailableOf => "{available} of {total} available", "Còn {available} / {total} chỗ";

        // Sailings: the home page's routes, a route's sailings by date, a
        // sailing's ports, a cabin's party.
        SailingsHeading => "Sailings", "Các chuyến tàu";
        SailingCount => "{n} sailings, next {when}", "{n} chuyến, chuyến tới {when}";
        FromPrice => "from {price}", "từ {price}";
        ChooseDate => "Choose a date", "Chọn ngày";
        NightsOne => "{n} night", "{n} đêm";
        NightsMany => "{n} nights", "{n} đêm";
        Crossing => "{hours} h {minutes} min crossing", "{hours} giờ {minutes} phút";
        SailingStatusCancelled => "Cancelled: {reason}", "Đã hủy: {reason}";
        SailingStatusDeparted => "Departed", "Đã khởi hành";
        SoldOutWord => "Sold out", "Hết chỗ";
        ChoosePlaces => "Choose your {places}", "Chọn {places}";
        NoSailings => "No sailings to show.", "Không có chuyến nào.";
        LoadingSailings => "Loading sailings…", "Đang tải các chuyến…";
        SailingsFailed => "Sailings could not be loaded. Please try again in a moment.", "Không tải được các chuyến. Vui lòng thử lại sau giây lát.";
        Itinerary => "Itinerary", "Lịch trình";
        PortArrives => "arrives {when}", "đến {when}";
        PortDeparts => "departs {when}", "rời {when}";
        OtherDates => "Other dates on this route", "Ngày khác trên tuyến này";
        ShipPort => "Port side", "Mạn trái";
        ShipStarboard => "Starboard side", "Mạn phải";
        ShipBow => "Bow", "Mũi tàu";
        ShipStern => "Stern", "Đuôi tàu";
        Sleeps => "sleeps {min}–{max}", "{min}–{max} khách";
        StepFree => "step-free access", "lối đi không bậc thềm";
        GuestsTitle => "Guests", "Danh sách khách";
        GuestsExplain => "Name every guest as on their passport, with their date of birth: the line needs them before boarding.", "Ghi tên từng khách như trên hộ chiếu, kèm ngày sinh: hãng tàu cần thông tin này trước khi lên tàu.";
        GuestNumber => "Guest {n}", "Khách {n}";
        HeldMinutesLeft => "Held for you for {minutes} more minutes: name the guests and pay before then.", "Chỗ được giữ cho bạn thêm {minutes} phút: hãy ghi tên khách và thanh toán trước khi hết giờ.";
        GuestName => "Full name", "Họ và tên";
        GuestBorn => "Date of birth", "Ngày sinh";
        SaveGuestsAndPay => "Save the guests and pay", "Lưu danh sách khách và thanh toán";
        SaveGuests => "Save the guests", "Lưu danh sách khách";
        NameGuestsAndPay => "Name the guests and pay", "Ghi tên khách và thanh toán";
        RebookTitle => "Your sailing was cancelled", "Chuyến tàu của bạn đã bị hủy";
        RebookWhy => "The line cancelled {sailing}, {when}: {reason}", "Hãng tàu đã hủy {sailing}, {when}: {reason}";
        RebookMoved => "Your booking moved to {sailing}, {when}, at no extra charge: its places are listed above.", "Đơn đặt chỗ của bạn đã được chuyển sang {sailing}, {when}, không mất thêm phí: các chỗ được liệt kê ở trên.";
        RebookNoRoom => "The next sailing has no room for your party: choose another sailing or take a full refund.", "Chuyến kế tiếp không còn chỗ cho nhóm của bạn: hãy chọn chuyến khác hoặc nhận hoàn tiền toàn bộ.";
        RebookAnswerBy => "Choose by {when}; if you do not, the new sailing stays yours.", "Hãy chọn trước {when}; nếu không, chuyến mới vẫn là của bạn.";
        RebookKeep => "Keep the new sailing", "Giữ chuyến mới";
        RebookOther => "Move to another sailing", "Chuyển sang chuyến khác";
        RebookRefund => "Cancel and refund {amount} in full", "Hủy và hoàn toàn bộ {amount}";
        RebookKept => "You kept the new sailing.", "Bạn đã giữ chuyến mới.";
        RebookChanged => "You moved to this sailing.", "Bạn đã chuyển sang chuyến này.";
        RebookRefunded => "You chose a full refund.", "Bạn đã chọn hoàn tiền toàn bộ.";
        GuestsMissing => "Guests not named yet: the line needs them before boarding.", "Chưa ghi tên khách: hãng tàu cần thông tin này trước khi lên tàu.";
        EditGuests => "Name or change the guests", "Ghi hoặc sửa tên khách";
        GuestOne => "{n} guest", "{n} khách";
        GuestMany => "{n} guests", "{n} khách";
        GuestsIn => "Guests in {name}", "Số khách ở {name}";
        CabinPricing => "A cabin's price is for 1 or 2 guests; each guest beyond two adds the category's supplement.", "Giá phòng dành cho 1 hoặc 2 khách; mỗi khách thêm tính phụ phí theo hạng phòng.";

        // Places, by the kind of event.
        SeatOne => "{n} seat", "{n} ghế";
        SeatMany => "{n} seats", "{n} ghế";
        CabinOne => "{n} cabin", "{n} phòng";
        CabinMany => "{n} cabins", "{n} phòng";
        SeatWord => "seat", "ghế";
        SeatsWord => "seats", "ghế";
        CabinWord => "cabin", "phòng";
        CabinsWord => "cabins", "phòng";
        SectionWord => "Section", "Khu";
        DeckWord => "Deck", "Boong";
        SectionName => "Section {section}", "Khu {section}";
        SeatPlace => "{section}, row {row}, seat {number}", "{section}, hàng {row}, ghế {number}";
        CabinPlace => "{section}, {row}, cabin {number}", "{section}, {row}, phòng {number}";
        StandingOne => "{n} standing place", "{n} chỗ đứng";
        StandingMany => "{n} standing places", "{n} chỗ đứng";
        PlaceOne => "{n} place", "{n} chỗ";
        PlaceMany => "{n} places", "{n} chỗ";
        FarewellConcert => "Enjoy the show!", "Chúc bạn xem biểu diễn vui vẻ!";
        FarewellCruise => "Bon voyage!", "Chúc bạn thượng lộ bình an!";

        // A seat's state, as its accessible name and the tooltip end.
        LookAvailable => "available", "còn trống";
        LookSelected => "selected", "đang chọn";
        LookYours => "held by you", "bạn đang giữ";
        LookHeld => "held by someone else", "người khác đang giữ";
        LookSold => "sold", "đã bán";

        // The event page.
        LoadingMap => "Loading the seat map…", "Đang tải sơ đồ chỗ ngồi…";
        NoSuchEvent => "There is no such event.", "Không có sự kiện này.";
        MapFailed => "The seat map could not be loaded. Please try again in a moment.", "Không tải được sơ đồ chỗ ngồi. Vui lòng thử lại sau giây lát.";
        Live => "● live", "● trực tiếp";
        Reconnecting => "○ reconnecting…", "○ đang kết nối lại…";
        NeedsJavaScript => "The live seat map needs JavaScript. The prices are listed beside it.", "Sơ đồ chỗ ngồi trực tiếp cần JavaScript. Giá vé có ở bên cạnh.";
        DrawFailed => "The seats could not be drawn. Please reload the page.", "Không hiển thị được các chỗ ngồi. Vui lòng tải lại trang.";
        Decks => "Decks", "Các boong";
        AllDecks => "All decks", "Tất cả các boong";
        Zoom => "Zoom", "Thu phóng";
        ZoomIn => "Zoom in", "Phóng to";
        ZoomOut => "Zoom out", "Thu nhỏ";
        WholeMap => "Show the whole map", "Xem toàn bộ sơ đồ";
        MapLabel => "Seat map. Arrow keys move between seats, Enter or Space selects one.", "Sơ đồ chỗ ngồi. Phím mũi tên để di chuyển giữa các chỗ, Enter hoặc phím cách để chọn.";
        Stage => "STAGE", "SÂN KHẤU";
        YourSelection => "Your selection", "Lựa chọn của bạn";
        ColourKey => "What the colours mean", "Ý nghĩa các màu";
        HeldByYou => "Held by you", "Bạn đang giữ";
        HeldBySomeoneElse => "Held by someone else", "Người khác đang giữ";
        SoldLegend => "Sold", "Đã bán";
        AtLimit => "You can pick up to {limit} {places} per booking. Hold these first, or unselect one.", "Mỗi lần đặt chỉ chọn được tối đa {limit} {places}. Hãy giữ những chỗ này trước, hoặc bỏ chọn một chỗ.";
        UpToPerBooking => "Up to {limit} {places} per booking.", "Tối đa {limit} {places} mỗi lần đặt.";
        TotalLabel => "Total: ", "Tổng cộng: ";
        HoldSeats => "Hold seats", "Giữ chỗ";
        HoldCabins => "Hold cabins", "Giữ phòng";
        RemovePlace => "Remove {name}", "Bỏ {name}";
        ClearSelection => "Clear selection", "Bỏ chọn tất cả";
        FindAnotherNearby => "Find another {place} nearby", "Tìm {place} khác ở gần";
        FindTogetherNearby => "Find {n} {places} together nearby", "Tìm {n} {places} liền nhau ở gần";
        InsteadYouCouldTake => "Instead, you could take:", "Thay vào đó, bạn có thể lấy:";
        TakeOffer => "Take {offer}", "Lấy {offer}";
        BestHintConcert => "Side by side, nearest the stage; up to {limit} per booking.", "Liền nhau, gần sân khấu nhất; tối đa {limit} mỗi lần đặt.";
        BestHintCruise => "Side by side on one corridor; up to {limit} per booking.", "Liền nhau trên cùng một hành lang; tối đa {limit} mỗi lần đặt.";
        SeatTakenFromSelection => "{name} was just taken by someone else and left your selection.", "{name} vừa có người khác lấy và đã được bỏ khỏi lựa chọn của bạn.";
        SeatsNotHeld => "your seats were not held", "chỗ của bạn chưa được giữ";

        // Best seats.
        OrLetUsChoose => "…or let us choose:", "…hoặc để chúng tôi chọn:";
        HowMany => "How many? ", "Bao nhiêu? ";
        HowManySeats => "How many seats", "Số chỗ";
        CategoriesAny => "Categories (none chosen: any)", "Hạng vé (không chọn: hạng nào cũng được)";
        PricePerSeat => "Price per seat", "Giá mỗi chỗ";
        AnyPrice => "Any price", "Giá nào cũng được";
        UpToPrice => "up to {price}", "tối đa {price}";
        FindBestSeats => "Find best seats", "Tìm chỗ tốt nhất";
        NoSeatsHeld => "no seats were held", "chưa có chỗ nào được giữ";

        // Standing areas.
        Standing => "Standing", "Chỗ đứng";
        NoPlacesHeld => "no places were held", "chưa có chỗ nào được giữ";
        AreaPlaces => "{area} places", "Số chỗ ở {area}";
        PriceEach => " · {price} each", " · {price} mỗi chỗ";
        SoldOut => "Sold out", "Đã bán hết";
        PlacesLeftOne => "{n} place left", "Còn {n} chỗ";
        PlacesLeftMany => "{n} places left", "Còn {n} chỗ";
        OnePlaceFewer => "One place fewer", "Bớt một chỗ";
        OnePlaceMore => "One place more", "Thêm một chỗ";
        HoldPlacesOne => "Hold {n} place", "Giữ {n} chỗ";
        HoldPlacesMany => "Hold {n} places", "Giữ {n} chỗ";

        // A running hold.
        HeldFor => "Held {what} for {amount}.", "Đang giữ {what}, tổng {amount}.";
        PaymentNotStarted => "the payment was not started; your seats are still held", "việc thanh toán chưa bắt đầu; chỗ của bạn vẫn đang được giữ";
        HoldExpired => "Your hold has expired; they are back on sale.", "Thời gian giữ chỗ đã hết; các chỗ này đã được mở bán lại.";
        HoldTheseAgain => "Hold these seats again", "Giữ lại những chỗ này";
        ChooseOtherSeats => "Choose other seats", "Chọn chỗ khác";
        HoldTheseCabinsAgain => "Hold these cabins again", "Giữ lại những phòng này";
        ChooseOtherCabins => "Choose other cabins", "Chọn phòng khác";
        LastMinute => "Less than a minute left: pay now to keep these seats.", "Còn chưa đến một phút: hãy thanh toán ngay để giữ những chỗ này.";
        TimeLeft => "Time left: ", "Thời gian còn lại: ";
        PayNow => "Pay now", "Thanh toán ngay";
        ContinuePaying => "Go back to the payment", "Quay lại trang thanh toán";
        TooManyAttempts => "Too many attempts in a short time; {what}. Please wait a few seconds and try again.", "Bạn đã thử quá nhiều lần trong thời gian ngắn; {what}. Vui lòng đợi vài giây rồi thử lại.";
        Unreachable => "We could not reach Holdfast (is the network down?); {what}. Please try again.", "Không kết nối được với Holdfast (mạng có bị mất không?); {what}. Vui lòng thử lại.";
        OurSide => "Something went wrong on our side; {what}. Please try again.", "Đã có lỗi từ phía chúng tôi; {what}. Vui lòng thử lại.";

        // Promo codes.
        PromoCode => "Promo code", "Mã khuyến mãi";
        Apply => "Apply", "Áp dụng";
        TypePromoFirst => "Type a promo code first.", "Hãy nhập mã khuyến mãi trước.";
        PromoApplied => "Promo applied: {discount} off. You pay {amount}.", "Đã áp dụng mã: giảm {discount}. Bạn trả {amount}.";
        PromoNotChecked => "The code could not be checked just now; nothing changed. Try again.", "Chưa kiểm tra được mã lúc này; không có gì thay đổi. Vui lòng thử lại.";

        // The seats as a list.
        AsAList => "Available {places} as a list", "Danh sách {places} còn trống";
        AvailableHere => "{what} available here.", "Còn trống ở đây: {what}.";

        // The waiting room.
        InTheQueue => "You are in the queue", "Bạn đang trong hàng chờ";
        QueueWhy => "Many people want tickets right now. To keep things fair you are let in in the order you arrived; this page lets you in by itself when it is your turn.", "Rất nhiều người đang muốn mua vé lúc này. Để công bằng, mọi người được vào theo thứ tự đến trước; trang này sẽ tự đưa bạn vào khi đến lượt.";
        TakingPlace => "Taking your place in the queue…", "Đang xếp chỗ cho bạn trong hàng chờ…";
        PeopleAhead => "People ahead of you: ", "Số người phía trước bạn: ";
        EstimatedWait => "Estimated wait: ", "Thời gian chờ dự kiến: ";
        QueueSoldOut => "Sold out for now. Seats other buyers are holding may come back; keep your place and this page will move on if they do.", "Tạm thời đã hết vé. Những chỗ người khác đang giữ có thể được trả lại; hãy giữ chỗ của bạn trong hàng, trang này sẽ tự tiếp tục nếu có.";
        TurnCameAndWent => "Your turn came and went; you have been placed in the queue again.", "Đã đến lượt bạn nhưng bạn đã bỏ lỡ; bạn đã được xếp lại vào hàng chờ.";
        FollowingLive => "● following your place live", "● đang theo dõi vị trí của bạn trực tiếp";
        Connecting => "○ connecting…", "○ đang kết nối…";
        QueueUnreachable => "We could not reach the queue. Check your connection; reloading this page keeps your place.", "Không kết nối được với hàng chờ. Hãy kiểm tra kết nối mạng; tải lại trang vẫn giữ nguyên chỗ của bạn.";
        QueueKeepsPlace => "Leaving and coming back keeps your place. Please do not open several tabs: they share one place.", "Rời đi rồi quay lại vẫn giữ nguyên chỗ của bạn. Vui lòng không mở nhiều thẻ: các thẻ dùng chung một chỗ.";
        WaitUnderMinute => "less than a minute", "chưa đến một phút";
        WaitMinutes => "about {n} minutes", "khoảng {n} phút";
        WaitHours => "about {n} hours", "khoảng {n} giờ";

        // A booking.
        LoadingBooking => "Loading your booking…", "Đang tải đơn đặt chỗ…";
        NoSuchBooking => "There is no such booking in this browser session. If it is yours, sign in with the email address you paid with.", "Không có đơn đặt chỗ này trong phiên trình duyệt này. Nếu đơn là của bạn, hãy đăng nhập bằng địa chỉ email bạn đã dùng khi thanh toán.";
        BookingFailed => "Your booking could not be loaded. Please try again in a moment.", "Không tải được đơn đặt chỗ. Vui lòng thử lại sau giây lát.";
        BookingHeading => "Booking ", "Đơn đặt chỗ ";
        ConfirmingPayment => "We are confirming your payment with the payment provider; this page updates by itself.", "Chúng tôi đang xác nhận thanh toán với bên thanh toán; trang này tự cập nhật.";
        PaidConfirmed => "Paid and confirmed. {farewell}", "Đã thanh toán và xác nhận. {farewell}";
        PaidPartlyRefunded => "Paid and confirmed; part of your payment was refunded. Your tickets stay valid. {farewell}", "Đã thanh toán và xác nhận; một phần tiền đã được hoàn lại. Vé của bạn vẫn có hiệu lực. {farewell}";
        ExplainLatePayment => "Your payment arrived after your hold had ended, and the seats had gone to someone else. It is being refunded in full.", "Khoản thanh toán của bạn đến sau khi thời gian giữ chỗ đã hết và chỗ đã thuộc về người khác. Khoản tiền đang được hoàn lại toàn bộ.";
        ExplainHeld => "Your seats are held for you. Pay before the time runs out.", "Chỗ của bạn đang được giữ. Hãy thanh toán trước khi hết giờ.";
        ExplainPending => "Your payment has begun. If you left the payment page before paying, go back to it before the time runs out; if you paid, we are waiting for the payment provider to confirm it.", "Thanh toán của bạn đã bắt đầu. Nếu bạn rời trang thanh toán trước khi trả, hãy quay lại trước khi hết giờ; nếu bạn đã trả, chúng tôi đang chờ bên thanh toán xác nhận.";
        ExplainBooked => "Paid and confirmed.", "Đã thanh toán và xác nhận.";
        ExplainExpired => "The hold ended before a payment arrived; the seats went back on sale. Nothing was charged.", "Thời gian giữ chỗ đã hết trước khi có thanh toán; các chỗ đã được mở bán lại. Bạn không bị trừ tiền.";
        ExplainCancelled => "This hold was released and the seats went back on sale. Nothing was charged.", "Lượt giữ chỗ này đã được hủy và các chỗ đã được mở bán lại. Bạn không bị trừ tiền.";
        ExplainRefunded => "Your payment was refunded in full and the tickets are no longer valid: it arrived after the hold had ended and the seats had gone to someone else, or the booking was cancelled and refunded by the organizer.", "Khoản thanh toán đã được hoàn lại toàn bộ và vé không còn hiệu lực: tiền đến sau khi thời gian giữ chỗ đã hết và chỗ đã thuộc về người khác, hoặc ban tổ chức đã hủy và hoàn tiền đơn này.";
        ExplainRefundedPart => "This booking is cancelled and the amount below was refunded; its tickets are no longer valid.", "Đơn này đã bị hủy và số tiền bên dưới đã được hoàn lại; vé không còn hiệu lực.";
        ExplainDisputed => "Your bank disputed this payment, so the tickets are no longer valid and the seats went back on sale. If this is a mistake, please contact the organizer.", "Ngân hàng của bạn đã khiếu nại khoản thanh toán này nên vé không còn hiệu lực và các chỗ đã được mở bán lại. Nếu có nhầm lẫn, vui lòng liên hệ ban tổ chức.";
        StatusHeld => "HELD", "ĐANG GIỮ";
        StatusPaymentPending => "PAYMENT PENDING", "CHỜ THANH TOÁN";
        StatusBooked => "BOOKED", "ĐÃ ĐẶT";
        StatusExpired => "EXPIRED", "HẾT HẠN";
        StatusCancelled => "CANCELLED", "ĐÃ HỦY";
        StatusRefunded => "REFUNDED", "ĐÃ HOÀN TIỀN";
        StatusDisputed => "DISPUTED", "BỊ KHIẾU NẠI";
        RefundedLabel => "Refunded: ", "Đã hoàn lại: ";
        AllMyBookings => "All my bookings", "Tất cả vé của tôi";
        Loading => "Loading…", "Đang tải…";
        NoBookingsYet => "No bookings yet in this browser. Booked on another device? Sign in with your email.", "Chưa có đơn đặt chỗ nào trong trình duyệt này. Đã đặt trên thiết bị khác? Hãy đăng nhập bằng email.";
        BookingsFailed => "Your bookings could not be loaded.", "Không tải được các đơn đặt chỗ của bạn.";
        PreparingTicket => "Preparing your ticket…", "Đang chuẩn bị vé…";
        TicketQr => "Ticket QR code", "Mã QR của vé";
        RefundTermsHeading => "If you cancel", "Nếu bạn hủy";
        RefundTerms => "You can cancel a paid booking from its page: {windows}; after that it cannot be cancelled.", "Bạn có thể hủy đơn đã thanh toán từ trang của đơn: {windows}; sau đó không thể hủy.";
        RefundInFullUntil => "all your money back until {until}", "hoàn toàn bộ tiền đến {until}";
        RefundPartUntil => "{percent} % back until {until}", "hoàn {percent} % đến {until}";
        RefundNone => "Tickets cannot be cancelled once paid.", "Vé đã thanh toán không thể hủy.";
        TicketOf => "Ticket {n} of {count}", "Vé {n}/{count}";
        EachTicketOnce => "Each code is scanned once at the door: friends arriving apart can each show their own.", "Mỗi mã được quét một lần ở cửa: bạn bè đến riêng có thể trình mã của mình.";
        TicketNotYet => "Your ticket is not available yet.", "Vé của bạn chưa sẵn sàng.";

        // The organizer's console.
        ConsoleTitle => "Admin console", "Bảng điều khiển quản trị";
        ConsoleFailed => "The console could not load. Try again.", "Không tải được bảng điều khiển. Vui lòng thử lại.";
        Password => "Password", "Mật khẩu";
        SignIn => "Sign in", "Đăng nhập";
        SignInFailed => "Signing in failed; try again.", "Đăng nhập không thành công; vui lòng thử lại.";
        StatePublished => "published", "đã công bố";
        StateNotPublished => "not published", "chưa công bố";
        Withdraw => "Withdraw", "Gỡ xuống";
        Publish => "Publish", "Công bố";
        SignOut => "Sign out", "Đăng xuất";
        DoorScanner => "Door scanner", "Máy quét cửa vào";
        EventsHeading => "Events", "Sự kiện";
        ColEvent => "Event", "Sự kiện";
        ColKind => "Kind", "Loại";
        ColSeats => "Seats", "Số chỗ";
        ColState => "State", "Trạng thái";
        CreatedEvent => "Created event {id} with {seats} seats (not published yet).", "Đã tạo sự kiện {id} với {seats} chỗ (chưa công bố).";
        SavingFailed => "Saving failed; try again.", "Lưu không thành công; vui lòng thử lại.";
        CampaignCreated => "Created \"{name}\" ({codes} codes).", "Đã tạo \"{name}\" ({codes} mã).";

        // The dashboard's logs: times in the event's zone, codes in words.
        TimesIn => "Times in {zone} ({abbreviation}).", "Giờ theo {zone} ({abbreviation}).";
        ReasonPaid => "paid", "đã thanh toán";
        ReasonPartlyRefundedOutside => "paid; {amount} refunded outside Holdfast, ticket kept", "đã thanh toán; {amount} được hoàn ngoài Holdfast, vé vẫn giữ";
        ReasonRefundedInPart => "paid; {amount} refunded, ticket kept", "đã thanh toán; đã hoàn {amount}, vé vẫn giữ";
        ReasonLateRetaken => "late payment: the same seats were re-taken", "thanh toán muộn: đã giữ lại đúng các ghế cũ";
        ReasonLateRefundUnderWay => "late payment: seats gone, refund under way", "thanh toán muộn: ghế đã hết, đang hoàn tiền";
        ReasonLateRefunded => "late payment: seats gone, refunded", "thanh toán muộn: ghế đã hết, đã hoàn tiền";
        ReasonRefundedByAdmin => "refunded by an admin", "quản trị viên đã hoàn tiền";
        ReasonRefundedOutside => "refunded outside Holdfast: ticket void, seats released", "hoàn tiền ngoài Holdfast: vé bị hủy, ghế được trả lại";
        ReasonDisputed => "disputed by the buyer's bank: ticket void, seats released", "ngân hàng của người mua khiếu nại: vé bị hủy, ghế được trả lại";
        ReasonRefunded => "refunded", "đã hoàn tiền";
        OutcomeReceived => "received", "đã nhận";
        OutcomeBooked => "booked", "đã đặt";
        OutcomeLateRetaken => "late payment, same seats re-taken", "thanh toán muộn, giữ lại ghế cũ";
        OutcomeLateRefundQueued => "late payment, refund queued", "thanh toán muộn, chờ hoàn tiền";
        OutcomeAlreadySettled => "already settled", "đã xử lý trước đó";
        OutcomeUnknownBooking => "unknown booking", "không rõ đơn đặt";
        OutcomeNoBooking => "no booking named", "không ghi đơn đặt";
        OutcomeTicketVoided => "ticket void, seats released", "vé bị hủy, ghế được trả lại";
        OutcomeRefundConfirmed => "refund confirmed", "đã xác nhận hoàn tiền";
        OutcomePartialRefund => "part refunded, ticket kept", "hoàn một phần, vé vẫn giữ";
        OutcomeDuplicate => "duplicate, ignored", "trùng lặp, bỏ qua";
        OutcomeAwaitingPayment => "awaiting payment", "đang chờ thanh toán";
        OutcomeCheckoutEnded => "checkout ended", "phiên thanh toán đã kết thúc";
        OutcomeIgnored => "ignored", "bỏ qua";
        ChannelMailbox => "mailbox", "hộp thư";
        ChannelSmtp => "sent (SMTP)", "đã gửi (SMTP)";
        ChannelPending => "waiting in the outbox", "đang chờ gửi";
        ActionRelease => "release", "trả ghế";
        ActionExtend => "extend", "gia hạn";
        ActionRefund => "refund", "hoàn tiền";
        ActionRefundPart => "refund in part", "hoàn một phần";
        ActionResend => "resend email", "gửi lại email";
        ActionPublish => "publish", "công bố";
        ActionUnpublish => "withdraw", "gỡ xuống";
        ActionMoveOnSale => "on-sale time", "giờ mở bán";
        ActionCreateEvent => "create event", "tạo sự kiện";
        ActionCheckIn => "check-in", "soát vé";
        ActionPromoCreate => "create promo", "tạo khuyến mãi";
        ActionWaitingRoom => "waiting room", "phòng chờ";
        ActionDoneRelease => "Released the seats of {booking}.", "Đã trả ghế của {booking}.";
        ActionDoneExtend => "Extended the hold of {booking}.", "Đã gia hạn giữ chỗ của {booking}.";
        ActionDoneRefund => "Refund queued for {booking}; its seats are released.", "Đã xếp lệnh hoàn tiền cho {booking}; ghế được trả lại.";
        ActionDoneResend => "Confirmation queued again for {booking}.", "Đã xếp lại email xác nhận cho {booking}.";
        NewEvent => "New event", "Sự kiện mới";
        FieldName => "Name", "Tên";
        FieldVenue => "Venue", "Địa điểm";
        FieldTimeZone => "Time zone (e.g. Europe/Oslo, Asia/Ho_Chi_Minh)", "Múi giờ (ví dụ Europe/Oslo, Asia/Ho_Chi_Minh)";
        FieldStarts => "Starts (local time there)", "Bắt đầu (giờ tại nơi diễn ra)";
        FieldOnSale => "On sale from (local time there; empty: when published)", "Mở bán từ (giờ tại nơi diễn ra; để trống: khi công bố)";
        FieldCurrency => "Currency", "Tiền tệ";
        FieldPrice => "Price", "Giá";
        FieldColour => "Colour", "Màu";
        SeatsLegend => "Seats", "Chỗ ngồi";
        FieldDeck => "Deck (cruises)", "Boong (du thuyền)";
        FieldRows => "Rows", "Số hàng";
        FieldSeatsPerRow => "Seats per row", "Số ghế mỗi hàng";
        FieldCapacity => "Capacity", "Sức chứa";
        CreateEvent => "Create event", "Tạo sự kiện";
        AllEvents => "← All events", "← Tất cả sự kiện";
        SignInOnThe => "Sign in on the ", "Hãy đăng nhập vào ";
        ConsoleWord => "console", "bảng điều khiển";
        FirstDot => " first.", " trước.";
        EventFailed => "This event could not be loaded.", "Không tải được sự kiện này.";
        ActionFailed => "The action failed; try again.", "Thao tác không thành công; vui lòng thử lại.";
        InvariantViolated => "Invariant violated! ", "Vi phạm bất biến! ";
        TileAvailable => " available", " còn trống";
        TileHeld => " held", " đang giữ";
        TileInPayment => " in payment", " đang thanh toán";
        TileBooked => " booked", " đã đặt";
        TileRevenue => " revenue", " doanh thu";
        TileBacklog => " mails/refunds waiting", " thư và hoàn tiền đang chờ";
        LiveHolds => "Live holds", "Các lượt giữ chỗ đang chạy";
        ColBooking => "Booking", "Đơn";
        ColBuyer => "Buyer", "Người mua";
        BuyerNoEmailYet => "no email yet", "chưa có email";
        ColStage => "Stage", "Giai đoạn";
        ColEndsIn => "Ends in", "Còn lại";
        RecentBookings => "Recent bookings, refunds and late payments", "Đơn, hoàn tiền và thanh toán muộn gần đây";
        ColStatus => "Status", "Tình trạng";
        ColAmount => "Amount", "Số tiền";
        ColWhy => "Why", "Lý do";
        ColAt => "At", "Lúc";
        Refund => "Refund", "Hoàn tiền";
        ResendEmail => "Resend email", "Gửi lại email";
        WebhookInbox => "Webhook inbox", "Hộp webhook";
        ColType => "Type", "Kiểu";
        ColOutcome => "Outcome", "Kết quả";
        ColReceived => "Received", "Nhận lúc";
        MailHeading => "Mail", "Thư";
        ColTo => "To", "Người nhận";
        ColSubject => "Subject", "Tiêu đề";
        ColChannel => "Channel", "Kênh";
        AuditHeading => "Audit", "Nhật ký";
        ColWho => "Who", "Ai";
        ColFromAddress => "From address", "Từ địa chỉ";
        ColWhat => "What", "Việc gì";
        ColDetail => "Detail", "Chi tiết";
        ColWhen => "When", "Khi nào";
        Release => "Release", "Trả chỗ";
        PlusMinute => "+1 min", "+1 phút";
        RoomAdmitting => " · letting buyers in, fewer as places run out", " · đang cho người mua vào, ít dần khi chỗ sắp hết";
        RoomLiningUp => " · buyers line up; admission starts at the on-sale time ({at})", " · người mua xếp hàng; bắt đầu cho vào lúc mở bán ({at})";
        RoomOffHint => " · buyers go straight to the seat map", " · người mua vào thẳng sơ đồ chỗ ngồi";
        AmountOffShown => "{amount} off", "giảm {amount}";
        UsedOf => "{used} of {of}", "{used} / {of}";
        PoolUsed => "{redeemed} redeemed, {handed} handed out of {count}", "{redeemed} đã dùng, {handed} đã phát trên {count}";
        PoolCodes => "{count} codes (first: {first})", "{count} mã (mã đầu: {first})";
        HoldStanding => "{n} standing", "{n} chỗ đứng";
        OnSaleDay => "On-sale day", "Ngày mở bán";
        RoomFailed => "The waiting room could not be loaded.", "Không tải được phòng chờ.";
        PromoCodesHeading => "Promo codes", "Các mã khuyến mãi";
        PromosFailed => "Promo codes could not be loaded.", "Không tải được các mã khuyến mãi.";
        RoomNotChanged => "The waiting room could not be changed; try again.", "Không thay đổi được phòng chờ; vui lòng thử lại.";
        WaitingRoomLabel => "Waiting room: ", "Phòng chờ: ";
        RoomOn => "on", "bật";
        RoomOff => "off", "tắt";
        TileJoined => " joined", " đã vào hàng";
        TileAdmitted => " admitted", " đã được vào";
        TileWaiting => " waiting", " đang chờ";
        TilePlacesFree => " places free", " chỗ trống";
        AdmitPerMinute => "Admit per minute ", "Số người vào mỗi phút ";
        SaveRate => "Save rate", "Lưu tốc độ";
        OpenRoom => "Open the waiting room", "Mở phòng chờ";
        CloseRoom => "Close the waiting room", "Đóng phòng chờ";
        NoCampaigns => "No promo campaigns yet.", "Chưa có chiến dịch khuyến mãi nào.";
        ColDiscount => "Discount", "Giảm giá";
        ColUsed => "Used", "Đã dùng";
        ColCodes => "Codes", "Mã";
        CampaignFailed => "The campaign could not be created; try again.", "Không tạo được chiến dịch; vui lòng thử lại.";
        SingleUse => "single use", "dùng một lần";
        CappedUses => "capped uses", "giới hạn số lần";
        PoolOnePerBuyer => "pool, one per buyer", "kho mã, mỗi người một mã";
        CodeOptional => "Code (optional) ", "Mã (không bắt buộc) ";
        PercentOff => "% off ", "% giảm ";
        AmountOff => "Amount off ", "Số tiền giảm ";
        MaxUses => "Max uses ", "Số lần dùng tối đa ";
        CodesInPool => "Codes in the pool ", "Số mã trong kho ";
        CreatePromo => "Create promo", "Tạo khuyến mãi";
        DoorHeading => "Door", "Cửa vào";
        JobsHeading => "Jobs", "Tác vụ định kỳ";
        SignInConsoleFirst => "Sign in to the console first: ", "Hãy đăng nhập vào bảng điều khiển trước: ";
        SignInLink => "sign in", "đăng nhập";
        ScanNotReached => "The scan did not reach the server; scan again.", "Lượt quét chưa đến máy chủ; vui lòng quét lại.";
        Gate => "Gate", "Cổng";
        DoorEvent => "Event at this door", "Sự kiện ở cửa này";
        DoorChooseEvent => "Choose the event first", "Hãy chọn sự kiện trước";
        TicketLabel => "Ticket", "Vé";
        ScanPlaceholder => "scan or paste the ticket", "quét hoặc dán mã vé";
        CheckIn => "Check in", "Cho vào";

        // Days of the week, for dates.
        Monday => "Monday", "Thứ Hai";
        Tuesday => "Tuesday", "Thứ Ba";
        Wednesday => "Wednesday", "Thứ Tư";
        Thursday => "Thursday", "Thứ Năm";
        Friday => "Friday", "Thứ Sáu";
        Saturday => "Saturday", "Thứ Bảy";
        Sunday => "Sunday", "Chủ Nhật";
    }
    console {
        TeamSignInByEmail => "On the organizer's team? Sign in with your email", "Bạn thuộc nhóm của nhà tổ chức? Đăng nhập bằng email";
        RoleOwner => "owner", "chủ sở hữu";
        RoleManager => "manager", "quản lý";
        RoleBoxOffice => "box office", "quầy vé";
        RoleDoor => "door", "soát vé";
        RoleReadOnly => "read-only", "chỉ xem";
        // The console's event views (the console's wasm and the server).
        TabOverview => "Overview", "Tổng quan";
        TabBookings => "Bookings", "Đơn đặt";
        TabLogs => "Logs", "Nhật ký hệ thống";
        ConsoleSections => "Event views", "Các mục của sự kiện";
        SalesHeading => "Sales by category and section", "Doanh số theo hạng vé và khu";
        ColCategory => "Category", "Hạng vé";
        ColSection => "Section or area", "Khu";
        ColSold => "Sold", "Đã bán";
        ColHeld => "Held", "Đang giữ";
        ColInPayment => "In payment", "Đang thanh toán";
        ColFree => "Free", "Còn trống";
        ColValueSold => "Value sold", "Giá trị đã bán";
        SalesTotal => "Total", "Tổng";
        ValueSoldNote => "Value sold is at the places' prices, before promo codes; revenue above is what buyers paid.", "Giá trị đã bán tính theo giá chỗ, trước mã khuyến mãi; doanh thu ở trên là số tiền người mua đã trả.";
        NoSalesLines => "This event has no places yet.", "Sự kiện này chưa có chỗ nào.";
        HeatHeading => "The seat map by sale", "Sơ đồ chỗ theo tình trạng bán";
        HeatNotPublished => "The seat map appears here once the event is published.", "Sơ đồ chỗ sẽ hiện ở đây khi sự kiện được công bố.";
        HeatLabel => "Seat map coloured by sale: sold, held, free", "Sơ đồ chỗ tô màu theo tình trạng: đã bán, đang giữ, còn trống";
        NoHoldsYet => "No holds right now. A buyer's hold appears here the moment it is taken.", "Hiện không có lượt giữ chỗ nào. Lượt giữ chỗ của người mua sẽ hiện ở đây ngay khi được tạo.";
        NoSettledYet => "No bookings yet. Paid bookings, refunds and late payments appear here.", "Chưa có đơn nào. Đơn đã thanh toán, hoàn tiền và thanh toán muộn sẽ hiện ở đây.";
        NoWebhooksYet => "No payment events received yet.", "Chưa nhận được sự kiện thanh toán nào.";
        NoMailYet => "No mail sent yet.", "Chưa gửi thư nào.";
        NoAuditYet => "Nothing done by an admin yet.", "Quản trị viên chưa thực hiện thao tác nào.";
        SearchBookings => "Search bookings by email, booking id or seat", "Tìm đơn theo email, mã đơn hoặc chỗ";
        NoMatch => "No booking matches “{q}”.", "Không có đơn nào khớp với “{q}”.";
        ExportAttendees => "Export attendees (CSV)", "Xuất danh sách người tham dự (CSV)";
        ConfirmRefund => "Refund {amount} to {buyer} and release {places}?", "Hoàn {amount} cho {buyer} và trả lại {places}?";
        RefundAfterCheckIn => "Careful: {n} of its tickets were already used at the door.", "Lưu ý: {n} vé của đơn này đã được dùng ở cửa vào.";
        ConfirmRelease => "Release {buyer}'s hold on {places}? They go back on sale at once.", "Hủy lượt giữ {places} của {buyer}? Các chỗ này được mở bán lại ngay.";
        ConfirmWithdraw => "Withdraw “{name}” from sale? Buyers can no longer find it or hold its places; holds and bookings already made stay.", "Gỡ “{name}” khỏi danh sách bán? Người mua sẽ không còn thấy sự kiện hay giữ chỗ được nữa; các lượt giữ và đơn đã có vẫn giữ nguyên.";
        ConfirmRefundButton => "Refund {amount}", "Hoàn {amount}";
        RefundPart => "Refund part", "Hoàn một phần";
        PartRefundTitle => "Refund part of the {amount} {buyer} paid", "Hoàn một phần trong {amount} mà {buyer} đã trả";
        PartRefundAmount => "Amount ({currency})", "Số tiền ({currency})";
        PartRefundPercent => "or a share of what was paid (%)", "hoặc theo tỷ lệ số đã trả (%)";
        PartRefundReason => "Reason", "Lý do";
        PartRefundReasonHint => "The buyer reads it when told.", "Người mua sẽ đọc lý do này nếu được báo.";
        PartRefundNotify => "Email the buyer the amount and the reason", "Gửi email cho người mua về số tiền và lý do";
        PartRefundMostKept => "At most {amount} can go back now; the tickets stay valid.", "Hiện có thể hoàn tối đa {amount}; vé vẫn còn hiệu lực.";
        PartRefundMostEnded => "At most {amount} is left to refund.", "Còn tối đa {amount} có thể hoàn.";
        PartRefundSubmit => "Refund {amount}", "Hoàn {amount}";
        PartRefundDone => "{amount} is on its way back to {buyer}.", "{amount} đang được hoàn cho {buyer}.";
        PartRefundInvalid => "Give an amount between {min} and {max}, and a reason.", "Hãy nhập số tiền từ {min} đến {max} và lý do.";
        HistoryRefundedInPart => "refunded in part: {amount} ({reason})", "hoàn một phần: {amount} ({reason})";
        ConfirmReleaseButton => "Release the hold", "Hủy lượt giữ";
        ConfirmWithdrawButton => "Withdraw from sale", "Gỡ khỏi danh sách bán";
        KeepAsIs => "Keep as is", "Giữ nguyên";
        DiscountKind => "Discount", "Kiểu giảm giá";
        PromoStarts => "Valid from (optional)", "Có hiệu lực từ (tùy chọn)";
        PromoEnds => "Valid until (optional)", "Có hiệu lực đến (tùy chọn)";
        ColValid => "Valid", "Hiệu lực";
        ValidAlways => "any time", "mọi lúc";
        ValidFrom => "from {from}", "từ {from}";
        ValidUntil => "until {until}", "đến {until}";
        ValidBetween => "{from} to {until}", "{from} đến {until}";
        SalesOverTime => "Sales over time", "Doanh số theo thời gian";
        SalesChartLabel => "Places sold over time: {n} from {from} to {to}", "Số chỗ đã bán theo thời gian: {n} từ {from} đến {to}";
        OnSaleFrom => "On sale from", "Mở bán từ";
        OnSaleSincePublished => "No on-sale time set: on sale since it was published. Set one to start selling later.", "Chưa đặt giờ mở bán: đang bán từ khi công bố. Đặt giờ để mở bán muộn hơn.";
        ColRevenue => "Revenue", "Doanh thu";
        SoldOf => "{sold} of {capacity}", "{sold} / {capacity}";
        SaleDraft => "not on sale", "chưa bán";
        SaleScheduled => "on sale later", "sắp mở bán";
        SaleOn => "on sale", "đang bán";
        SaleSoldOut => "sold out", "đã bán hết";
        SaleOver => "over", "đã diễn ra";
        SaveOnSale => "Move the on-sale time", "Đổi giờ mở bán";
        OnSaleMoved => "On sale from {at}.", "Mở bán từ {at}.";
        SuggestedRate => "Suggested: {n} a minute, enough to sell what is free in about ten minutes.", "Gợi ý: {n} người mỗi phút, đủ để bán hết chỗ còn trống trong khoảng mười phút.";
        QueueClears => "At this rate the {n} waiting are all let in within {minutes} min.", "Với tốc độ này, {n} người đang chờ sẽ được vào hết trong {minutes} phút.";
        PlacesFreeExplained => "Places free: seats and standing places nobody holds or bought; they can exceed the seats available above by the standing places.", "Chỗ còn trống: ghế và chỗ đứng chưa ai giữ hay mua; con số có thể lớn hơn số ghế còn trống ở trên vì gồm cả chỗ đứng.";
        SomeBuyer => "buyer {id}", "người mua {id}";
        // Event setup.
        EditingEvent => "Event {id}", "Sự kiện {id}";
        EditUntilPublished => "Changes are saved to this event until it is published.", "Các thay đổi được lưu vào sự kiện này cho đến khi công bố.";
        StartBlank => "Start a new event instead", "Tạo một sự kiện mới";
        EditLayout => "Edit", "Sửa";
        SaveChanges => "Save changes", "Lưu thay đổi";
        LayoutSaved => "Saved event {id}: {seats} seats (not published yet).", "Đã lưu sự kiện {id}: {seats} chỗ (chưa công bố).";
        SetupCategories => "Price categories", "Các hạng giá";
        SetupSections => "Seated sections", "Các khu ghế ngồi";
        SetupStanding => "Standing areas", "Các khu đứng";
        CategoryCard => "Category {code}", "Hạng giá {code}";
        SectionCard => "Section {n}", "Khu {n}";
        StandingCard => "Standing area {n}", "Khu đứng {n}";
        AddCategory => "Add a category", "Thêm hạng giá";
        AddSection => "Add a section", "Thêm khu ghế";
        AddStanding => "Add a standing area", "Thêm khu đứng";
        RemoveRow => "Remove", "Xoá";
        RemoveNamed => "Remove {name}", "Xoá {name}";
        FieldCode => "Code", "Mã";
        FieldX => "Left edge (x)", "Mép trái (x)";
        FieldY => "Front row (y)", "Hàng đầu (y)";
        FieldSpacing => "Spacing", "Khoảng cách";
        FieldCurve => "Curve (degrees; 0 straight)", "Độ cong (độ; 0 là thẳng)";
        PreviewHeading => "Preview", "Xem trước";
        PreviewSummary => "Seats: {seats} · standing places: {standing} · price categories: {categories}", "Ghế: {seats} · chỗ đứng: {standing} · hạng giá: {categories}";
        PreviewEmpty => "Add a section with rows and seats to see it here.", "Thêm một khu có hàng và ghế để xem ở đây.";
        PreviewLabel => "The seats as buyers will see them: {n} seats", "Các ghế như người mua sẽ thấy: {n} ghế";
        DeckCaption => "Deck {deck}", "Boong {deck}";
        StandingPreview => "{name}: {n} standing places", "{name}: {n} chỗ đứng";
        PreviewOverlap => "“{a}” and “{b}” are drawn over each other: move one.", "“{a}” và “{b}” chồng lên nhau: hãy dời một khu.";
        LayoutJsonLegend => "Layout as JSON: export or import", "Sơ đồ dạng JSON: xuất hoặc nhập";
        DownloadLayout => "Download layout.json", "Tải layout.json";
        ImportFile => "Import a file", "Nhập từ tệp";
        PasteLayout => "Or paste a layout", "Hoặc dán sơ đồ";
        ShowLayout => "Show this layout", "Hiện sơ đồ này";
        ImportLayout => "Import", "Nhập";
        ImportFailed => "This is not a layout: {why}", "Đây không phải là sơ đồ: {why}";
        // The links between the console's pages.
        LookUpBooking => "Look up a booking", "Tra cứu đơn đặt chỗ";
        ShowHistory => "History", "Lịch sử";
        NotYourRole => "Your role on the team does not include this page. An owner of the team can change it.", "Vai trò của bạn trong nhóm không bao gồm trang này. Chủ sở hữu của nhóm có thể thay đổi.";
        DeskEmpty => "Type a buyer's email, a booking id or a seat above to find a booking.", "Nhập email người mua, mã đơn hoặc chỗ ở trên để tìm đơn.";
        TeamTitle => "Team", "Nhóm";
        RefundPolicies => "Refund policies", "Chính sách hoàn tiền";
    }
    server {
        // The console's sailings (plain HTML pages).
        SailingsConsoleTitle => "Sailings", "Các chuyến tàu";
        SailingsConsoleIntro => "Every ship's sailings and how full they are. When the weather or the sea says so, cancel a sailing: it stops selling at once and its bookings move to the route's next sailing.", "Các chuyến của từng tàu và mức lấp đầy. Khi thời tiết hoặc biển động, hãy hủy chuyến: chuyến ngừng bán ngay và các đơn được chuyển sang chuyến kế tiếp của tuyến.";
        ColSailing => "Sailing", "Chuyến";
        ColDeparts => "Departs", "Khởi hành";
        ColFill => "Sold", "Đã bán";
        SailingFill => "{sold} of {places} ({percent} %)", "{sold} / {places} ({percent} %)";
        SailingScheduled => "Scheduled", "Theo lịch";
        CancelSailing => "Cancel this sailing", "Hủy chuyến này";
        CancelSailingReason => "Why (the passengers read it)", "Lý do (hành khách sẽ đọc)";
        CancelSailingConfirm => "I understand: it stops selling now, and every booking moves to the route's next sailing or is offered a refund.", "Tôi hiểu: chuyến ngừng bán ngay, mọi đơn được chuyển sang chuyến kế tiếp hoặc được đề nghị hoàn tiền.";
        CancelSailingButton => "Cancel the sailing and rebook", "Hủy chuyến và chuyển khách";
        RebookingProgressLink => "Rebooking", "Chuyển khách";
        RebookingTitle => "Rebooking: {sailing}", "Chuyển khách: {sailing}";
        RebookingGoesTo => "Bookings move to {sailing}, {when}.", "Các đơn được chuyển sang {sailing}, {when}.";
        ProgressMoved => "Moved", "Đã chuyển";
        ProgressRefundOffered => "Refund offered", "Đề nghị hoàn tiền";
        ProgressAnswered => "Answered", "Đã trả lời";
        ProgressLeft => "Left to move", "Còn lại";
        HistoryLookup => "A booking's history: its id, or the first 8 characters the dashboard shows", "Lịch sử một đặt chỗ: mã đầy đủ, hoặc 8 ký tự đầu như trên bảng điều khiển";
        NoBookingStarts => "No booking starts with {id}.", "Không có đặt chỗ nào bắt đầu bằng {id}.";
        SeveralBookingsStart => "Several bookings start with {id}: give more of it.", "Có nhiều đặt chỗ bắt đầu bằng {id}: hãy nhập dài hơn.";
        JobsIntro => "Each job runs on one instance at a time; a run that stops beating is taken over.", "Mỗi tác vụ chạy trên một máy tại một thời điểm; lần chạy ngừng báo nhịp sẽ được máy khác tiếp quản.";
        ColJob => "Job", "Tác vụ";
        ColSchedule => "Schedule", "Lịch chạy";
        ColRunningOn => "Running on", "Đang chạy trên";
        ColNextRun => "Next run", "Lần chạy tới";
        ColLastRuns => "Last runs", "Các lần chạy gần đây";
        JobIdle => "idle", "rảnh";
        NoRunsYet => "no run yet", "chưa chạy lần nào";
        RunNow => "Run now", "Chạy ngay";
        RunAsked => "{job} runs at the next poll.", "{job} sẽ chạy ở lần kiểm tra tới.";
        HistoryOf => "History of booking {id}", "Lịch sử đặt chỗ {id}";
        FixMarkedFields => "Please correct the fields marked.", "Vui lòng sửa các trường được đánh dấu.";
        RefusedAlreadyIn => "Already checked in.", "Vé này đã được soát.";
        RefusedTicketVoid => "This ticket is void.", "Vé này không còn hiệu lực.";
        DoorLetInOne => "Let in: 1 person at gate {gate}", "Cho vào: 1 người ở cổng {gate}";
        DoorLetInMany => "Let in: {n} people at gate {gate}", "Cho vào: {n} người ở cổng {gate}";

        // The audit log's entries (English: the API's words, unchanged).
        AuditReleased => "released {places}", "đã trả {places}";
        AuditExtended => "hold extended by {n} s", "đã gia hạn giữ chỗ thêm {n} giây";
        AuditRefundQueued => "refund queued; {places} released", "đã xếp lệnh hoàn tiền; trả lại {places}";
        AuditConfirmationQueued => "confirmation queued again", "đã xếp lại email xác nhận";
        AuditEventCreated => "created \"{name}\" with {n} seats", "đã tạo \"{name}\" với {n} ghế";
        AuditLayoutEdited => "changed the layout of \"{name}\": {n} seats", "đã sửa sơ đồ của \"{name}\": {n} ghế";
        AuditPublished => "publish", "đã công bố";
        AuditOnSaleMoved => "on sale from {at}", "mở bán từ {at}";
        AuditJobRunAsked => "asked the job {job} to run now", "yêu cầu tác vụ {job} chạy ngay";
        AuditUnpublished => "unpublish", "đã gỡ xuống";
        AuditSailingCancelled => "sailing cancelled: {reason}", "đã hủy chuyến: {reason}";
        AuditPartRefunded => "{amount} refunded in part: {reason}", "đã hoàn một phần {amount}: {reason}";
        AuditCheckedIn => "checked in {places} at gate {gate}", "đã soát vé {places} ở cổng {gate}";
        AuditPromoCreated => "promo campaign {id} \"{name}\": {kind} ({n} codes)", "chiến dịch khuyến mãi {id} \"{name}\": {kind} ({n} mã)";
        AuditRoomOn => "waiting room on, {n} a minute", "bật phòng chờ, {n} người mỗi phút";
        AuditRoomOff => "waiting room off, {n} a minute", "tắt phòng chờ, {n} người mỗi phút";

        // A console form's fields, as a refusal explains them (the
        // console's server functions translate; the API stays English).
        HintEventName => "a name of 1 to 120 characters", "một tên dài từ 1 đến 120 ký tự";
        HintKind => "concert or cruise", "hòa nhạc hoặc du thuyền";
        HintVenue => "a venue of 1 to 120 characters", "một địa điểm dài từ 1 đến 120 ký tự";
        HintTimeZone => "a time zone such as Europe/Oslo or Asia/Ho_Chi_Minh (empty: UTC)", "một múi giờ như Europe/Oslo hoặc Asia/Ho_Chi_Minh (để trống: UTC)";
        HintStartsAt => "a date and time in the event's time zone", "một ngày giờ theo múi giờ của sự kiện";
        HintOnSaleAt => "empty, or a date and time", "để trống, hoặc một ngày giờ";
        HintCurrency => "a currency Holdfast can charge in, such as EUR, USD, GBP, NOK, JPY or VND", "một loại tiền Holdfast có thể thu, như EUR, USD, GBP, NOK, JPY hoặc VND";
        HintCategories => "at least one price category", "ít nhất một hạng giá";
        HintCategoryCode => "a short code, unique in the event", "một mã ngắn, không trùng trong sự kiện";
        HintAName => "a name", "một tên";
        HintPrice => "a price from 0, in the currency's own digits and steps", "một giá từ 0, theo đúng số lẻ và bước giá của loại tiền";
        HintColour => "a colour like #c0392b", "một màu như #c0392b";
        HintSections => "at least one section or standing area, at most 50,000 seats in all", "ít nhất một khu ghế hoặc khu đứng, tổng cộng không quá 50.000 ghế";
        HintSectionName => "a name, unique in the event", "một tên, không trùng trong sự kiện";
        HintDeck => "the deck this block is on", "boong của khu này";
        HintCategoryOf => "one of the categories' codes", "một trong các mã hạng giá";
        HintRows => "from 1 to 200 rows", "từ 1 đến 200 hàng";
        HintSeatsPerRow => "from 1 to 200 seats per row", "từ 1 đến 200 ghế mỗi hàng";
        HintCoordinates => "coordinates within ±100,000", "tọa độ trong khoảng ±100.000";
        HintSpacing => "from 1 to 1,000", "từ 1 đến 1.000";
        HintCurve => "from 0 (straight) to 180 degrees", "từ 0 (thẳng) đến 180 độ";
        HintSectionPlace => "drawn over another section: move it (x, y) or make it smaller", "chồng lên một khu khác: hãy dời (x, y) hoặc thu nhỏ khu này";
        HintCapacity => "from 1 to 100,000 places", "từ 1 đến 100.000 chỗ";
        HintPromoName => "a name of 1 to 100 characters", "một tên dài từ 1 đến 100 ký tự";
        HintPercentOff => "a percentage from 0 to 100; a promo needs a percentage or an amount off", "một tỷ lệ từ 0 đến 100; khuyến mãi cần tỷ lệ hoặc số tiền giảm";
        HintAmountOff => "an amount in the event's currency", "một số tiền theo loại tiền của sự kiện";
        HintPromoCode => "3 to 64 letters, digits, '-' or '_' (none for a pool)", "3 đến 64 chữ cái, chữ số, '-' hoặc '_' (để trống với kho mã)";
        HintMaxUses => "a capped code needs a limit of 1 or more", "mã giới hạn cần số lượt từ 1 trở lên";
        HintPoolCount => "a pool of 1 to 10,000 codes", "một kho từ 1 đến 10.000 mã";
        HintPromoKind => "single, capped or pooled", "dùng một lần, giới hạn lượt hoặc kho mã";

        // A ticket's name for a standing place (the booking's page and API).
        StandingPlaceNumber => "Standing place {n}", "Chỗ đứng số {n}";

        // What the server refused, as a buyer reads it (the API's own
        // messages stay English for integrators).
        RefusedSeatTaken => "Someone else has just taken a seat you chose.", "Một chỗ bạn chọn vừa có người khác lấy.";
        RefusedHoldExpired => "The hold has expired.", "Thời gian giữ chỗ đã hết.";
        RefusedNotNow => "This cannot be done for this booking any more.", "Không thể thực hiện việc này cho đơn đặt chỗ này nữa.";
        RefusedInvalid => "Something in the request is not right; nothing changed.", "Yêu cầu có thông tin chưa đúng; không có gì thay đổi.";
        RefusedLimit => "That is more than one buyer may hold at once.", "Số chỗ vượt quá giới hạn một người mua được giữ cùng lúc.";
        RefusedNotFound => "It could not be found.", "Không tìm thấy.";
        RefusedSoldOut => "Sold out: not enough places are left.", "Đã hết: không còn đủ chỗ.";
        RefusedNoBlock => "Not that many seats side by side are left; the closest offers are below.", "Không còn đủ chỗ liền nhau như vậy; các lựa chọn gần nhất ở bên dưới.";
        RefusedNothingFits => "Nothing that fits is left; the closest offers are below.", "Không còn chỗ phù hợp; các lựa chọn gần nhất ở bên dưới.";
        RefusedNotOnSale => "This event is not on sale.", "Sự kiện này chưa mở bán.";
        RefusedProvider => "The payment provider did not answer; your seats stay reserved while we find out.", "Bên thanh toán chưa phản hồi; chỗ của bạn vẫn được giữ trong lúc chúng tôi kiểm tra.";
        RefusedRateLimited => "Too many requests; try again in {seconds} s.", "Quá nhiều yêu cầu; vui lòng thử lại sau {seconds} giây.";
        RefusedAdmission => "The waiting room is open for this event: join the queue and wait to be admitted.", "Sự kiện này đang có hàng chờ: hãy vào hàng chờ và đợi đến lượt.";
        RefusedPromoUnknown => "There is no such promo code.", "Không có mã khuyến mãi này.";
        RefusedPromoExhausted => "This promo code has been used up.", "Mã khuyến mãi này đã hết lượt dùng.";
        RefusedPromoApplied => "A promo code is already applied to this booking.", "Đơn đặt chỗ này đã được áp dụng một mã khuyến mãi.";
        RefusedBusy => "We are very busy right now; nothing was done, please try again in a moment.", "Hệ thống đang rất bận; chưa có gì được thực hiện, vui lòng thử lại sau giây lát.";
        RefusedOther => "This could not be done; nothing changed.", "Không thực hiện được; không có gì thay đổi.";

        // Mail to the buyer, in the language they paid in.
        MailConfirmedSubject => "Your booking is confirmed", "Đơn đặt chỗ của bạn đã được xác nhận";
        MailPaid => "Booking {booking} is paid ({amount}). Your tickets are ready.", "Đơn đặt chỗ {booking} đã được thanh toán ({amount}). Vé của bạn đã sẵn sàng.";
        MailShowQr => "Show your tickets' QR codes at the door: each place has its own, in this email and on your booking's page.", "Hãy xuất trình mã QR của vé ở cửa vào: mỗi chỗ có một mã riêng, trong email này và trên trang đơn đặt chỗ của bạn.";
        MailSailingCancelledSubject => "Your sailing is cancelled", "Chuyến tàu của bạn đã bị hủy";
        MailRebooked => "The line cancelled your sailing ({reason}). Your booking now sails on {sailing}, {when}, in the places listed below, at no extra charge. On your booking's page you can keep them, choose another sailing or take a full refund.", "Hãng tàu đã hủy chuyến của bạn ({reason}). Đơn đặt chỗ của bạn được chuyển sang {sailing}, {when}, với các chỗ liệt kê dưới đây, không mất thêm phí. Trên trang đơn đặt chỗ, bạn có thể giữ các chỗ này, chọn chuyến khác hoặc nhận hoàn tiền toàn bộ.";
        MailRebookingRefundOffered => "The line cancelled your sailing ({reason}) and the next sailing has no room for your party. On your booking's page you can choose another sailing with room or take a full refund.", "Hãng tàu đã hủy chuyến của bạn ({reason}) và chuyến kế tiếp không còn chỗ cho nhóm của bạn. Trên trang đơn đặt chỗ, bạn có thể chọn chuyến khác còn chỗ hoặc nhận hoàn tiền toàn bộ.";
        MailSailingRefunded => "The line cancelled your sailing and you chose a refund: {amount} goes back to the card you paid with; the booking's tickets are no longer valid.", "Hãng tàu đã hủy chuyến của bạn và bạn đã chọn hoàn tiền: {amount} sẽ được hoàn về thẻ bạn đã dùng để thanh toán; vé của đơn không còn hiệu lực.";
        MailRefundedSubject => "Your payment was refunded", "Khoản thanh toán của bạn đã được hoàn lại";
        MailRefundedInFull => "Your payment was refunded in full, so your booking is cancelled and its tickets are no longer valid.", "Khoản thanh toán của bạn đã được hoàn lại toàn bộ, vì vậy đơn đặt chỗ đã bị hủy và vé không còn hiệu lực.";
        MailRefundedInPartSubject => "Part of your payment was refunded", "Một phần khoản thanh toán của bạn đã được hoàn lại";
        MailRefundedInPart => "The organizer refunded {amount} of your payment. Their reason: {reason}", "Ban tổ chức đã hoàn lại {amount} từ khoản thanh toán của bạn. Lý do: {reason}";
        MailDisputedSubject => "Your booking is cancelled: the payment is disputed", "Đơn đặt chỗ của bạn đã bị hủy: khoản thanh toán đang bị khiếu nại";
        MailDisputed => "Your bank disputed the payment for this booking, so its tickets are no longer valid. If this is a mistake, contact the organizer.", "Ngân hàng của bạn đã khiếu nại khoản thanh toán cho đơn này nên vé không còn hiệu lực. Nếu có nhầm lẫn, hãy liên hệ ban tổ chức.";
        MailLatePaymentRefunded => "Your payment arrived after the hold had ended and the seats had gone to someone else, so we refunded it in full.", "Khoản thanh toán của bạn đến sau khi thời gian giữ chỗ đã hết và chỗ đã thuộc về người khác, nên chúng tôi đã hoàn lại toàn bộ.";
        MailOrganizerRefunded => "The organizer cancelled your booking and refunded your payment in full.", "Ban tổ chức đã hủy đơn đặt chỗ của bạn và hoàn lại toàn bộ tiền.";
        MailBuyerCancelled => "You cancelled this booking. Under the event's refund policy {amount} goes back to the card you paid with; its tickets are no longer valid.", "Bạn đã hủy đơn đặt chỗ này. Theo chính sách hoàn tiền của sự kiện, {amount} sẽ được hoàn về thẻ bạn đã dùng để thanh toán; vé của đơn không còn hiệu lực.";
        AuditRefundPolicy => "refund policy: in full until {full} days before the start, {percent} % until {partial} days", "chính sách hoàn tiền: hoàn toàn bộ đến {full} ngày trước giờ bắt đầu, {percent} % đến {partial} ngày";
        AuditNoCancellation => "refund policy: buyers cannot cancel", "chính sách hoàn tiền: người mua không thể hủy";
        MailExpiredSubject => "Your reservation has ended", "Chỗ giữ của bạn đã kết thúc";
        MailExpired => "The payment was not completed in time, so the places were released. Nothing was charged.", "Thanh toán không hoàn tất kịp thời nên các chỗ đã được trả lại. Bạn không bị trừ tiền.";
        MailSeeBooking => "Your booking, on any device (elsewhere, sign in with this email address):", "Đơn đặt chỗ của bạn, trên mọi thiết bị (ở thiết bị khác, hãy đăng nhập bằng địa chỉ email này):";
        MailSignInSubject => "Your Holdfast sign-in link", "Liên kết đăng nhập Holdfast của bạn";
        MailSignInBody => "Open this link within 15 minutes to sign in and see your bookings on any device:\n{url}\n\nThe link works once. If you did not ask for it, ignore this email: nobody can sign in without it.", "Mở liên kết này trong vòng 15 phút để đăng nhập và xem vé của bạn trên mọi thiết bị:\n{url}\n\nLiên kết chỉ dùng được một lần. Nếu bạn không yêu cầu, hãy bỏ qua email này: không ai đăng nhập được nếu không có nó.";
        AuditTeamInvited => "invited {email} to the team as {role}", "đã mời {email} vào nhóm với vai trò {role}";
        AuditTeamJoined => "{email} joined the team as {role}", "{email} đã vào nhóm với vai trò {role}";
        AuditTeamRoleChanged => "{email} is now {role}", "{email} giờ có vai trò {role}";
        AuditTeamRemoved => "removed {email} from the team", "đã đưa {email} ra khỏi nhóm";
        AuditApiKeyCreated => "API key \"{name}\" made ({role})", "đã tạo khóa API \"{name}\" ({role})";
        AuditApiKeyRevoked => "API key \"{name}\" revoked", "đã thu hồi khóa API \"{name}\"";
        AuditRefused => "refused: {permission} on {target}", "bị từ chối: {permission} trên {target}";
        MailTeamInviteSubject => "You are invited to an organizer's team on Holdfast", "Bạn được mời vào nhóm của một nhà tổ chức trên Holdfast";
        MailTeamInviteBody => "{inviter} invited you to their team on Holdfast as {role}.\n\nOpen this link within 3 days to join:\n{url}\n\nThe link works once. If you did not expect it, ignore this email.", "{inviter} đã mời bạn vào nhóm của họ trên Holdfast với vai trò {role}.\n\nMở liên kết này trong vòng 3 ngày để tham gia:\n{url}\n\nLiên kết chỉ dùng được một lần. Nếu bạn không mong đợi email này, hãy bỏ qua.";
        MailTeamSignInSubject => "Your Holdfast console sign-in link", "Liên kết đăng nhập bảng điều khiển Holdfast của bạn";
        MailTeamSignInBody => "Open this link within 15 minutes to sign in to the console:\n{url}\n\nThe link works once. If you did not ask for it, ignore this email: nobody can sign in without it.", "Mở liên kết này trong vòng 15 phút để đăng nhập vào bảng điều khiển:\n{url}\n\nLiên kết chỉ dùng được một lần. Nếu bạn không yêu cầu, hãy bỏ qua email này: không ai đăng nhập được nếu không có nó.";
        TwoFactorTitle => "Two-step sign-in", "Đăng nhập hai bước";
        TwoFactorEnrolIntro => "Your role can move money, so it signs in with a password and a code from an authenticator app as well. Scan this QR code with the app (or type the key), choose a password, and enter the six digits the app shows.", "Vai trò của bạn có thể chuyển tiền, nên cần thêm mật khẩu và mã từ ứng dụng xác thực khi đăng nhập. Quét mã QR này bằng ứng dụng (hoặc nhập khóa), chọn mật khẩu và nhập sáu chữ số ứng dụng hiển thị.";
        TwoFactorKey => "Key:", "Khóa:";
        TwoFactorNewPassword => "Choose a password (at least {n} characters)", "Chọn mật khẩu (ít nhất {n} ký tự)";
        TwoFactorPassword => "Password", "Mật khẩu";
        TwoFactorCode => "Code from the app", "Mã từ ứng dụng";
        TwoFactorEnrolButton => "Turn on two-step sign-in", "Bật đăng nhập hai bước";
        TwoFactorVerifyIntro => "Your role can move money: give your password and the code your authenticator app shows now (or one of your recovery codes).", "Vai trò của bạn có thể chuyển tiền: hãy nhập mật khẩu và mã ứng dụng xác thực đang hiển thị (hoặc một mã khôi phục).";
        TwoFactorVerifyButton => "Continue", "Tiếp tục";
        TwoFactorWrong => "That password or code is not right.", "Mật khẩu hoặc mã không đúng.";
        TwoFactorCodesTitle => "Your recovery codes", "Mã khôi phục của bạn";
        TwoFactorCodesIntro => "Each works once in place of a code, if you lose your phone. Keep them somewhere safe: they are shown this once.", "Mỗi mã dùng được một lần thay cho mã ứng dụng, nếu bạn mất điện thoại. Hãy cất giữ cẩn thận: chúng chỉ hiện lần này.";
        TwoFactorToConsole => "Open the console", "Mở bảng điều khiển";
        TeamTwoStep => "Two-step sign-in", "Đăng nhập hai bước";
        TwoStepOn => "on", "đã bật";
        TwoStepOwed => "not set yet: asked at their next sign-in", "chưa thiết lập: sẽ được yêu cầu khi đăng nhập lần tới";
        TwoStepNotNeeded => "not needed for this role", "vai trò này không cần";
        TeamIntro => "Who may do what: each person signs in with their own address and has one role, for every event or the events ticked. API keys are for integrations.", "Ai được làm gì: mỗi người đăng nhập bằng địa chỉ của mình và có một vai trò, cho mọi sự kiện hoặc các sự kiện được chọn. Khóa API dành cho các tích hợp.";
        TeamInvitedNotice => "Invitation sent to {email}. The link works once, for 3 days.", "Đã gửi lời mời tới {email}. Liên kết dùng được một lần, trong 3 ngày.";
        TeamNobodyYet => "Nobody yet: invite the first person below.", "Chưa có ai: hãy mời người đầu tiên bên dưới.";
        TeamPeopleHeading => "People", "Thành viên";
        TeamPendingHeading => "Invitations not taken up yet", "Lời mời chưa được nhận";
        TeamEmail => "Email address", "Địa chỉ email";
        TeamRole => "Role", "Vai trò";
        TeamEvents => "Events", "Sự kiện";
        TeamEveryEvent => "every event", "mọi sự kiện";
        TeamTheseEvents => "only these:", "chỉ những sự kiện này:";
        TeamChange => "Change role", "Đổi vai trò";
        TeamSave => "Save", "Lưu";
        TeamRemove => "Remove from the team", "Đưa ra khỏi nhóm";
        TeamInviteHeading => "Invite someone", "Mời thêm người";
        TeamInviteButton => "Send the invitation", "Gửi lời mời";
        KeysHeading => "API keys", "Khóa API";
        KeysIntro => "For integrations: each key has a role and events like a person. Its secret is shown once, when it is made.", "Dành cho các tích hợp: mỗi khóa có vai trò và sự kiện như một người. Mã bí mật chỉ hiện một lần, khi tạo.";
        KeyName => "Name", "Tên";
        KeyMadeBy => "Made by", "Người tạo";
        KeyMake => "Make the key", "Tạo khóa";
        KeyRevoke => "Revoke", "Thu hồi";
        KeyRevokedAt => "revoked {at}", "đã thu hồi {at}";
        KeySecretOnce => "The secret of \"{name}\", shown this once: copy it now.", "Mã bí mật của \"{name}\", chỉ hiện lần này: hãy sao chép ngay.";
        TeamOwnerInviter => "The organizer's owner account", "Tài khoản chủ sở hữu của nhà tổ chức";
        TeamJoinTitle => "Join the team", "Tham gia nhóm";
        TeamJoinOffer => "{inviter} invited {email} to the organizer's team as {role}.", "{inviter} đã mời {email} vào nhóm của nhà tổ chức với vai trò {role}.";
        TeamJoinButton => "Join and open the console", "Tham gia và mở bảng điều khiển";
        TeamLinkExpired => "This link has expired. Ask an owner of the team for a new one.", "Liên kết này đã hết hạn. Hãy nhờ chủ sở hữu của nhóm gửi liên kết mới.";
        TeamSignInTitle => "Sign in to the console", "Đăng nhập bảng điều khiển";
        TeamSignInIntro => "People of the organizer's team sign in with a link mailed to their address.", "Thành viên nhóm của nhà tổ chức đăng nhập bằng liên kết gửi tới địa chỉ email của họ.";
        TeamSignInEmail => "Your email address", "Địa chỉ email của bạn";
        TeamSignInSend => "Email me a sign-in link", "Gửi cho tôi liên kết đăng nhập";
        TeamSignInWithPassword => "Sign in with the console password instead", "Đăng nhập bằng mật khẩu bảng điều khiển";
        TeamSignInSent => "If {email} is on the team, a sign-in link is on its way. It works once, within 15 minutes.", "Nếu {email} thuộc nhóm, liên kết đăng nhập đang được gửi tới. Liên kết dùng được một lần, trong vòng 15 phút.";
        TeamSignInAs => "Sign in to the console as {email}?", "Đăng nhập bảng điều khiển với tư cách {email}?";
        TeamSignInButton => "Sign in", "Đăng nhập";
        MailYourBookings => "Your bookings with this address:", "Các đơn đặt chỗ với địa chỉ này:";
        RefundPoliciesIntro => "What buyers get back when they cancel a booked booking from its page: in full until the first number of days before the start, the percentage until the second, nothing after. Leave all empty: buyers cannot cancel. A change applies to bookings already made.", "Người mua được hoàn lại bao nhiêu khi tự hủy một đơn đã thanh toán: toàn bộ cho đến số ngày thứ nhất trước giờ bắt đầu, theo tỷ lệ phần trăm cho đến số ngày thứ hai, sau đó không hoàn. Để trống tất cả: người mua không thể hủy. Thay đổi áp dụng cả cho các đơn đã đặt.";
        FullRefundDays => "In full until (days before)", "Hoàn toàn bộ đến (số ngày trước)";
        PartialRefundDays => "Part until (days before)", "Hoàn một phần đến (số ngày trước)";
        PartialRefundPercent => "Part (%)", "Phần hoàn (%)";
        SavePolicy => "Save", "Lưu";
        PolicySaved => "Saved. Buyers who cancel from now on get back what it says.", "Đã lưu. Người mua hủy từ bây giờ được hoàn theo chính sách này.";
        PolicyFull => "in full until {days} days before the start", "hoàn toàn bộ đến {days} ngày trước giờ bắt đầu";
        PolicyPartial => "{percent} % until {days} days before", "{percent} % đến {days} ngày trước";
        PolicyNone => "buyers cannot cancel", "người mua không thể hủy";
        BackToBooking => "Back to the booking", "Quay lại đơn đặt chỗ";
        SignInTitle => "Sign in or find your booking", "Đăng nhập hoặc tìm đơn đặt chỗ";
        SignInExplain => "Enter the email address you paid with. We send you a link that signs you in on this device and lists your bookings; no password needed.", "Nhập địa chỉ email bạn đã dùng khi thanh toán. Chúng tôi sẽ gửi một liên kết để đăng nhập trên thiết bị này và liệt kê các đơn của bạn; không cần mật khẩu.";
        SignInEmail => "Email address", "Địa chỉ email";
        SignInSend => "Email me a sign-in link", "Gửi liên kết đăng nhập cho tôi";
        SignInSent => "If that address can receive mail, a sign-in link is on its way. It works once, for 15 minutes.", "Nếu địa chỉ đó nhận được thư, liên kết đăng nhập đang được gửi đến. Liên kết dùng được một lần, trong 15 phút.";
        SignInSentTo => "If {email} can receive mail, a sign-in link is on its way. It works once, for 15 minutes.", "Nếu {email} nhận được thư, liên kết đăng nhập đang được gửi đến. Liên kết dùng được một lần, trong 15 phút.";
        SignedOut => "You are signed out on this device.", "Bạn đã đăng xuất trên thiết bị này.";
        LinkUsed => "This sign-in link was already used. Links work once: ask for a new one.", "Liên kết đăng nhập này đã được sử dụng. Mỗi liên kết chỉ dùng một lần: hãy yêu cầu liên kết mới.";
        LinkExpired => "This sign-in link has expired (links work for 15 minutes). Ask for a new one.", "Liên kết đăng nhập này đã hết hạn (liên kết có hiệu lực 15 phút). Hãy yêu cầu liên kết mới.";
        LinkUnknown => "This sign-in link is not valid. Check that the whole link was copied, or ask for a new one.", "Liên kết đăng nhập này không hợp lệ. Hãy kiểm tra bạn đã chép đủ liên kết, hoặc yêu cầu liên kết mới.";
        ConfirmSignInTitle => "Sign in?", "Đăng nhập?";
        ConfirmSignInAs => "Sign in on this device as {email}?", "Đăng nhập trên thiết bị này với {email}?";
        ConfirmSignInWarn => "Only continue if you asked for this link yourself. If someone sent it to you, close this page: signing in would let them see what you book here.", "Chỉ tiếp tục nếu chính bạn đã yêu cầu liên kết này. Nếu ai đó gửi nó cho bạn, hãy đóng trang này: đăng nhập sẽ cho họ thấy những gì bạn đặt ở đây.";
        ConfirmSignInButton => "Sign in", "Đăng nhập";
        BringGuestBookings => "Also move the {n} booking(s) made in this browser into this account", "Chuyển cả {n} đơn đã đặt trên trình duyệt này vào tài khoản này";
        GuestBookingsCome => "The bookings made in this browser come along.", "Các đơn đã đặt trên trình duyệt này sẽ được chuyển theo.";

        // The sandbox's hosted checkout (Stripe's page in production, which
        // follows the browser's language by itself).
        SandboxTitle => "Holdfast sandbox checkout", "Thanh toán thử nghiệm Holdfast";
        SandboxTagline => "Sandbox payment provider — no real money moves", "Cổng thanh toán thử nghiệm — không có tiền thật được chuyển";
        AmountDue => "Amount due: ", "Số tiền cần trả: ";
        EmailForConfirmation => "Email for the confirmation", "Email nhận xác nhận";
        WebhookDelivery => "Webhook delivery", "Cách gửi webhook";
        DeliveryOnce => "once", "một lần";
        DeliveryTwice => "twice", "hai lần";
        DeliveryDelayed => "delayed", "gửi trễ";
        PayAmount => "Pay {amount}", "Trả {amount}";
        Decline => "Decline", "Từ chối";
        CheckoutPaid => "This checkout is paid ({amount}).", "Phiên thanh toán này đã được trả ({amount}).";
        CheckoutEnded => "This checkout has ended; nothing can be paid here any more.", "Phiên thanh toán này đã kết thúc; không thể thanh toán ở đây nữa.";
        CheckoutEndedTitle => "Checkout ended", "Phiên thanh toán đã kết thúc";
        CheckoutCannotComplete => "This checkout can no longer be completed.", "Không thể hoàn tất phiên thanh toán này nữa.";
        UnknownCheckout => "Unknown checkout", "Không rõ phiên thanh toán";
        CheckoutMissing => "This checkout does not exist.", "Phiên thanh toán này không tồn tại.";
        Sorry => "Sorry", "Xin lỗi";
        WentWrong => "Something went wrong.", "Đã có lỗi xảy ra.";
        ChoosePayOrDecline => "Choose Pay or Decline.", "Hãy chọn Trả hoặc Từ chối.";
        ChooseDelivery => "Choose how the webhook is delivered: once, twice or delayed.", "Hãy chọn cách gửi webhook: một lần, hai lần hoặc gửi trễ.";
    }
}
