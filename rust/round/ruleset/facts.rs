//! [`Facts`]: what a rule set may read of the hand in play.

use crate::hand::WinKind;
use crate::round::observation::DiscardEntry;
use crate::round::phase::TurnStart;
use crate::round::scoring::{self, WinInput};
use crate::round::seat::SeatState;
use crate::rules::Rules;
use crate::tile::{Counts, Tile};

/// A read-only view of the hand in play, built by the round each time it consults its
/// rule set: the table's public facts and the seats (whose concealed tiles the rules
/// must read to price a win). A rule set reads nothing of the round beyond this.
#[derive(Clone, Copy)]
pub struct Facts<'a> {
    /// The rules of the hand.
    pub rules: &'a Rules,
    /// The dealer.
    pub dealer: u8,
    /// The prevalent wind, 0-3.
    pub prevalent: u8,
    /// Every seat.
    pub seats: &'a [SeatState; 4],
    /// The discards so far, in order.
    pub discards: &'a [DiscardEntry],
    /// Copies of each kind visible to everyone (discards and exposed melds).
    pub visible: &'a Counts,
    /// How the current turn began.
    pub start: TurnStart,
    /// The current turn's tile came out of a kong's replacement sequence.
    pub kong_draw: bool,
    /// The seat whose discard or kong is under claim (or who last discarded).
    pub claim_from: u8,
    /// No tile is left for the next draw (the last-tile fans).
    pub wall_spent: bool,
}

impl Facts<'_> {
    /// One seat's state.
    #[inline]
    pub fn seat(&self, seat: u8) -> &SeatState {
        &self.seats[seat as usize & 3]
    }

    /// The seat wind of `seat`, 0-3.
    #[inline]
    pub fn seat_wind(&self, seat: u8) -> u8 {
        (seat + 4 - self.dealer) % 4
    }

    /// The fan calculator's input for a win of `seat` on `t` (`with_tile` holds its
    /// concealed tiles with `t`), the flags of the moment read from the table: 和绝张 (the
    /// other three copies visible), 杠上开花 / 抢杠和, 海底 / 妙手回春, the winds, the
    /// flowers and a declared ready that scores.
    pub fn win_input(&self, seat: u8, with_tile: Counts, t: Tile, kind: WinKind) -> WinInput {
        let st = self.seat(seat);
        let mut hand = with_tile;
        hand[t as usize] -= 1;
        // Copies of t visible elsewhere; a discard under claim is itself visible.
        let others = self.visible[t as usize].saturating_sub(u8::from(kind == WinKind::Discard));
        WinInput {
            hand,
            melds: st.melds,
            n_melds: st.n_melds,
            win_tile: t,
            self_drawn: kind == WinKind::SelfDrawn,
            fourth_tile: kind != WinKind::RobbedKong && others >= 3,
            about_kong: (kind == WinKind::SelfDrawn && self.kong_draw)
                || kind == WinKind::RobbedKong,
            // The last wall tile drawn as a kong replacement scores 杠上开花 and 妙手回春.
            wall_last: kind != WinKind::RobbedKong && self.wall_spent,
            seat_wind: self.seat_wind(seat),
            prevalent_wind: self.prevalent,
            flowers: st.n_flowers,
            declared_ready: st.ready && scoring::ready_scores(self.rules),
        }
    }
}
