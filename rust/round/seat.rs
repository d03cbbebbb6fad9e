//! One seat's tiles ([`SeatState`]) with the running summaries that make most win tests
//! cheap to fail.

use super::scoring;
use crate::hand::{Meld, MeldKind};
use crate::tile::{Counts, Tile};

const NO_MELD: Meld = Meld {
    kind: MeldKind::Chow,
    tile: 0,
};

/// One seat's tiles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatState {
    /// Concealed tiles (flowers never).
    pub hand: Counts,
    /// How many concealed tiles.
    pub n_hand: u8,
    /// Declared melds; the first `n_melds` are used.
    pub melds: [Meld; 4],
    /// The seat each meld was claimed from (the seat itself for concealed and added kongs
    /// of its own pungs keep the pung's source).
    pub meld_from: [u8; 4],
    /// How many melds.
    pub n_melds: u8,
    /// Flowers set aside; the first `n_flowers` are used.
    pub flowers: [Tile; 8],
    /// How many flowers.
    pub n_flowers: u8,
    /// Declared ready (报听): the hand is locked.
    pub ready: bool,
    /// Barred from winning this hand after a penalised false declaration (G-7).
    pub barred: bool,
    /// Running summaries of `hand` for the fast completeness filter.
    pub(crate) stats: scoring::ShapeStats,
    /// A lower bound on the shanten of `hand` beside the current melds, as
    /// [`scoring::shanten_ignoring_melds`] counts it, or [`NO_BOUND`]. Kept up to date
    /// without asking the oracle: drawing a tile lowers a replacement number by at most
    /// one and giving one up never lowers it, so a tile added lowers the bound by one (a tile
    /// apart from the hand beside two melds or more keeps it: [`SeatState::apart`]) and a
    /// tile removed keeps it; a new meld forgets it. Where the completing kinds are asked
    /// for, the floor the counts prove ([`scoring::ShapeStats::shanten_floor`]), or 1 when
    /// no kind completes, raises it, as does the shanten of the hand with a discard that
    /// the win test finds ([`SeatState::completed_by`]). A win needs shanten -1, so a seat
    /// whose bound rules that out skips the win test.
    pub(crate) bound: i8,
    /// The kinds one more copy of which passes the completeness filter
    /// ([`scoring::ShapeStats::completing`]), when `completing_known`.
    pub(crate) completing: u64,
    /// `completing` describes the current tiles and melds.
    pub(crate) completing_known: bool,
    /// The kinds of the seat's pungs among its melds (a bit set): an added kong needs one of
    /// them held.
    pub(crate) pungs: u64,
}

/// [`SeatState::bound`] when nothing is known (no test may be skipped).
pub(super) const NO_BOUND: i8 = -2;

impl Default for SeatState {
    fn default() -> Self {
        SeatState {
            hand: [0; 34],
            n_hand: 0,
            melds: [NO_MELD; 4],
            meld_from: [0; 4],
            n_melds: 0,
            flowers: [0; 8],
            n_flowers: 0,
            ready: false,
            barred: false,
            stats: scoring::ShapeStats::default(),
            bound: NO_BOUND,
            completing: 0,
            completing_known: false,
            pungs: 0,
        }
    }
}

impl SeatState {
    /// The declared melds.
    #[inline]
    pub fn melds(&self) -> &[Meld] {
        &self.melds[..self.n_melds as usize]
    }
    /// The flowers set aside.
    #[inline]
    pub fn flowers(&self) -> &[Tile] {
        &self.flowers[..self.n_flowers as usize]
    }
    #[inline(always)]
    pub(super) fn add(&mut self, t: Tile) {
        let c = self.hand[t as usize];
        // Both tests read (they are a few bit operations), so that the bound is a choice
        // of value rather than a branch.
        let apart = (self.n_melds >= 2) & self.apart(t);
        self.stats.add_one(t, c);
        self.hand[t as usize] = c + 1;
        self.n_hand += 1;
        let lowered = (self.bound - 1).max(NO_BOUND);
        self.bound = if apart { self.bound } else { lowered };
        self.completing_known = false;
    }

    /// Whether one more tile of kind `t` leaves the shanten of the concealed tiles beside
    /// two melds or more as it is (so that the bound stays): no kind within two of `t` in
    /// its suit (`t` itself for an honor) is held, and no kind is held three times or more.
    ///
    /// Beside two melds only the regular form is possible, and its replacement number is
    /// the fewest tiles a complete shape (sets and a pair) has that the hand lacks. A tile
    /// added lowers it only when some fewest-lacking shape for the hand before uses the
    /// tile; with nothing held near `t`, the set or pair holding `t` would lack all its
    /// tiles. Such a shape leaves at least one held tile `y` unused (it lacks at least two
    /// tiles, and the hand is one tile short of a shape), and since `y` is held at most
    /// twice, swapping that set for a pung of `y` (or that pair for a pair of `y`) stays
    /// within four copies and lacks fewer tiles: so no fewest-lacking shape uses `t`.
    #[inline(always)]
    fn apart(&self, t: Tile) -> bool {
        (self.stats.present() & NEAR.get(t as usize).copied().unwrap_or(u64::MAX) == 0)
            & (self.n_hand as u32 == self.stats.distinct() + self.stats.repeated() as u32)
    }
    /// Deals `t` into the hand: its summaries as [`SeatState::add`] keeps them, the bound
    /// as it is (nothing is known before the deal).
    #[inline(always)]
    pub(super) fn deal(&mut self, t: Tile) {
        let c = self.hand[t as usize];
        self.stats.add_one(t, c);
        self.hand[t as usize] = c + 1;
        self.n_hand += 1;
        self.completing_known = false;
    }

    #[inline(always)]
    pub(super) fn remove(&mut self, t: Tile, n: u8) {
        let c = self.hand[t as usize];
        if n == 1 {
            self.stats.remove_one(t, c);
        } else {
            self.stats.change(t, c, c - n);
        }
        self.hand[t as usize] = c - n;
        self.n_hand -= n;
        self.completing_known = false;
    }

    /// Whether the hand, plus `extra` when given, passes the completeness filter. With a
    /// tile to add the answers for every kind are found at once and kept until the tiles
    /// change (each discard of the others asks again).
    #[inline(always)]
    pub(super) fn may_complete(&mut self, extra: Option<Tile>) -> bool {
        match extra {
            None => self.stats.may_be_complete(self.n_melds as usize),
            Some(t) => {
                if !self.completing_known && !self.find_completing() {
                    return false;
                }
                self.completing >> t & 1 == 1
            }
        }
    }

    /// Finds the completing kinds of the waiting hand ([`SeatState::completing`]), unless
    /// its counts tell it two tiles or more from complete
    /// ([`scoring::ShapeStats::shanten_floor`], as most are): then it raises the bound to
    /// that floor and returns false (no kind completes it; the kinds stay unknown).
    #[inline(never)]
    fn find_completing(&mut self) -> bool {
        // The floor's argument counts a waiting hand's tiles.
        debug_assert_eq!(self.n_hand as usize + 3 * self.n_melds as usize, 13);
        let floor = self.stats.shanten_floor(&self.hand, self.n_melds as usize);
        if floor > 0 {
            self.bound = self.bound.max(floor);
            return false;
        }
        self.completing = self.stats.completing(&self.hand, self.n_melds as usize);
        self.completing_known = true;
        if self.completing == 0 && self.stats.quads() == 0 {
            // No kind completes the tiles: they are not ready (shanten at least 1), so the
            // next draw cannot make a win either.
            self.bound = self.bound.max(1);
        }
        true
    }

    /// True when the seat can neither win on the discard `t` nor claim it (a chow only
    /// when `chow`), told from the summaries alone: a pung or kong needs two copies of `t`,
    /// a chow two neighbours of it, and a win (of plain shapes:
    /// [`super::ruleset::RuleSet::wins_are_plain_shapes`]) the shanten bound at most 0 and
    /// `t` among the completing kinds (found here when not known). `false` asks for the
    /// full test.
    #[inline(always)]
    pub(super) fn quiet_on(&mut self, t: Tile, chow: bool) -> bool {
        if self.hand[t as usize] >= 2 || (chow && chow_neighbours(self.stats.present(), t)) {
            return false;
        }
        // Both read at once: most seats are ruled out here or by the completing kinds.
        (self.barred | !self.may_win(Some(t))) || !self.may_complete(Some(t))
    }

    #[inline]
    pub(super) fn push_meld(&mut self, m: Meld, from: u8) {
        self.melds[self.n_melds as usize] = m;
        self.meld_from[self.n_melds as usize] = from;
        self.n_melds += 1;
        if m.kind == MeldKind::Pung {
            self.pungs |= 1 << m.tile;
        }
        self.bound = NO_BOUND;
        self.completing_known = false;
    }

    /// Whether the waiting hand plus a discard (or robbed tile), `with` (its 14 - 3k
    /// tiles), is complete, meld copies ignored (as [`scoring::complete`] tells): its
    /// shanten is -1, found in one pass over the forms (the completeness test would try
    /// the regular form alone first, then every form again). That shanten also bounds the
    /// shanten of the tiles held (one tile fewer is never closer to complete), so a hand
    /// it finds a tile or more from ready is not asked again until its tiles change.
    #[inline]
    pub(super) fn completed_by(&mut self, with: &Counts) -> bool {
        let s = scoring::shanten_ignoring_melds(with, self.n_melds);
        self.bound = self.bound.max(s);
        s == -1
    }

    /// After a claimed meld (which forgets the bound): the bound `before` the claim, less
    /// one. The tiles left beside one more meld are at least as far from complete as the
    /// tiles before the claim plus the discard counted as a concealed set (a reading of
    /// the new hand is one of the old hand plus that set), and one tile added lowers the
    /// shanten by at most one.
    #[inline]
    pub(super) fn keep_bound_after_claim(&mut self, before: i8) {
        self.bound = (before - 1).max(NO_BOUND);
    }

    /// False when the shanten bound rules out a win on the concealed tiles plus `extra`
    /// (the tiles as they are when `None`).
    #[inline]
    pub(super) fn may_win(&self, extra: Option<Tile>) -> bool {
        // With a tile to come, a win needs shanten 0 now; without, -1.
        self.bound <= if extra.is_some() { 0 } else { -1 }
    }

    /// The shanten of the concealed tiles beside the melds, meld copies ignored
    /// ([`scoring::shanten_ignoring_melds`]), which also becomes the bound.
    #[inline]
    pub(super) fn refresh_bound(&mut self) -> i8 {
        let s = scoring::shanten_ignoring_melds(&self.hand, self.n_melds);
        self.bound = s;
        s
    }
    #[inline]
    pub(super) fn push_flower(&mut self, f: Tile) {
        if (self.n_flowers as usize) < 8 {
            self.flowers[self.n_flowers as usize] = f;
            self.n_flowers += 1;
        }
    }
}

/// `NEAR[t]`: the kinds within two of `t` in its suit, `t` included (only `t` for an
/// honor), as a bit set.
const NEAR: [u64; 34] = {
    let mut out = [0u64; 34];
    let mut t = 0;
    while t < 34 {
        if t < 27 {
            let (lo, r): (usize, usize) = (t - t % 9, t % 9);
            let mut x = r.saturating_sub(2);
            while x <= r + 2 && x <= 8 {
                out[t] |= 1 << (lo + x);
                x += 1;
            }
        } else {
            out[t] = 1 << t;
        }
        t += 1;
    }
    out
};

/// Whether the kinds held (`present`, a bit set) include two suited tiles that make a
/// chow with the suited tile `t`: `t-2 t-1`, `t-1 t+1` or `t+1 t+2` of its suit.
#[inline(always)]
pub(super) fn chow_neighbours(present: u64, t: Tile) -> bool {
    // `IN_SUIT[t]`: which of the five kinds t-2..=t+2 (bits 0..5, bit 2 is t itself) lie
    // in t's suit. `CHOW[w]`: whether the five kinds `w` (t's own bit clear) hold a pair of
    // neighbours making a chow with t.
    const IN_SUIT: [u8; 34] = {
        let mut out = [0u8; 34];
        let mut t = 0;
        while t < 27 {
            let r = t % 9;
            let mut k: i32 = 0;
            while k < 5 {
                let x = r as i32 + k - 2;
                if x >= 0 && x <= 8 && k != 2 {
                    out[t] |= 1 << k;
                }
                k += 1;
            }
            t += 1;
        }
        out
    };
    const CHOW: [bool; 32] = {
        let mut out = [false; 32];
        let mut w = 0;
        while w < 32 {
            out[w] = w & 0b00011 == 0b00011 || w & 0b01010 == 0b01010 || w & 0b11000 == 0b11000;
            w += 1;
        }
        out
    };
    let t = t as usize;
    // The five kinds t-2..=t+2 as bits 0..5 (honors have none in their suit).
    let window = (present << 2 >> t) as u8 & IN_SUIT.get(t).copied().unwrap_or(0);
    CHOW[window as usize & 31]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wall::Rng;

    /// A tile added that [`SeatState::apart`] calls apart never lowers the shanten beside
    /// two or three melds, on random hands (many holding pairs, none three copies).
    #[test]
    fn a_tile_apart_keeps_the_shanten() {
        let mut rng = Rng::new(30);
        let (mut apart, mut lowered) = (0, 0);
        for i in 0..4000 {
            let n_melds = 2 + (i % 2) as u8;
            let mut st = SeatState {
                n_melds,
                ..SeatState::default()
            };
            // A narrow range of kinds makes near tiles and pairs common.
            let span = 9 + rng.below(25) as u8;
            while (st.n_hand as usize) < 13 - 3 * n_melds as usize {
                let t = rng.below(span as u64) as u8;
                if st.hand[t as usize] < 2 {
                    st.add(t);
                }
            }
            let before = scoring::shanten_ignoring_melds(&st.hand, n_melds);
            for x in 0..34u8 {
                let mut after = st.clone();
                after.add(x);
                let s = scoring::shanten_ignoring_melds(&after.hand, n_melds);
                if st.apart(x) {
                    apart += 1;
                    assert!(s >= before, "{:?} + {x}: {s} < {before}", st.hand);
                } else {
                    lowered += usize::from(s < before);
                }
            }
        }
        assert!(apart > 10_000 && lowered > 1_000, "{apart} {lowered}");
    }
}
