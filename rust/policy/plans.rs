//! Fan plans: how far a hand is from winning shapes that carry enough fan.
//!
//! In gb a win needs 8 fan, so the shortest way to a complete hand is worthless when the
//! finished hand would be cheap. A *plan* is a family of winning shapes with a known fan
//! value: a full flush (清一色, 24), a half flush (混一色, 6 plus its honors), all pungs
//! (碰碰和, 6 plus), seven pairs (七对, 24), a pure straight (清龙, 16), a mixed straight
//! (花龙, 8), a mixed triple chow (三色三同顺, 8), the knitted forms (组合龙 / 全不靠, 12),
//! thirteen orphans (十三幺, 88), and the plain hand carried by whatever honors it holds.
//! For each plan the *distance* is the number of tiles missing from its nearest complete
//! hand (computed on counts from the shanten engine's per-group tables), and the hand's
//! value is
//!
//! ```text
//! score = max over plans p of  w(fan_p) · β^(d_p − 1)
//! ```
//!
//! where `w` is 1 for a plan that reaches the rule set's minimum (a little more for more
//! fan) and shrinks geometrically with every point missing, and `β` < 1 is the price of one
//! more missing tile. A discard that keeps a valuable plan close therefore beats one that
//! only shortens a cheap hand. With no minimum (`min_fan` 0) every plan weighs about the
//! same and the score is plain efficiency.
//!
//! Everything here works on counts, allocates nothing and ignores the four-copy limit of
//! copies in melds (a policy heuristic, not a rule: the round decides what is legal).

use crate::hand::{Meld, MeldKind};
use crate::shanten::regular::{self, combine, finish, rests, table_entry};
use crate::shanten::tables::{Entry, INF};
use crate::shanten::{knitted, special, swar};
use crate::tile::{Counts, Tile};
use std::sync::OnceLock;

mod reach;

/// The price of one more missing tile.
pub const BETA: f32 = 0.28;
/// The fan above the minimum that adds one to a plan's weight (the default of
/// [`Evaluator::with_fan_divisor`]).
pub const FAN_DIVISOR: f32 = 80.0;
/// The share of an honor's pung fan the hand expects from the copies it holds (by count,
/// 0 to 4): all of it from a pung or kong, 0.4 from a pair, none otherwise.
const HONOR_SHARE: [f32; 5] = [0.0, 0.0, 0.4, 1.0, 1.0];
/// The weight lost per fan point below the minimum.
pub const PER_MISSING_FAN: f32 = 0.45;

const NO_USED: Counts = [0; 34];

/// Which family of shapes a plan aims at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanKind {
    /// Any winning shape, valued by the honors it holds.
    Plain,
    /// 清一色 in one suit.
    FullFlush(u8),
    /// 混一色: one suit plus honors.
    HalfFlush(u8),
    /// 碰碰和.
    AllPungs,
    /// 七对.
    SevenPairs,
    /// 十三幺.
    ThirteenOrphans,
    /// 全不靠.
    HonorsKnitted,
    /// 组合龙.
    KnittedStraight,
    /// Three fixed chows (清龙, 花龙, 三色三同顺): index into [`Evaluator::chow_plans`].
    Chows(u8),
}

/// What [`Evaluator::select_chow_plans`] settled ([`Evaluator::selection`]).
pub(crate) type Selection = (u16, bool, u8, [ChowPlan; MAX_CHOW_PLANS]);

/// A plan made of three fixed chows and one more set and a pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChowPlan {
    /// The lowest tile of each of the three chows.
    pub lows: [Tile; 3],
    /// The fan the three chows are worth.
    pub fan: f32,
}

/// The value of a hand under the best plan.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Score {
    /// `w(fan) · β^(d − 1)` of the best plan (0 when no plan is possible).
    pub value: f32,
    /// The best plan.
    pub plan: PlanKind,
    /// Its distance (tiles missing).
    pub distance: u8,
    /// Kinds the best plan can use (bit `t` for kind `t`).
    pub allowed: u64,
}

const SUIT_MASK: [u64; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];
const HONORS: u64 = 0x7F << 27;
const ALL: u64 = (1 << 34) - 1;

/// Everything about a seat that the plans need besides its concealed tiles: the melds,
/// the winds and the minimum. Build it once per decision.
#[derive(Debug, Clone)]
pub struct Evaluator {
    melds: [Meld; 4],
    n_melds: u8,
    min_fan: f32,
    /// Fan above the minimum per unit of weight (see [`Evaluator::with_fan_divisor`]).
    fan_divisor: f32,
    /// Groups (0-2 suits, 3 honors) the melds use.
    meld_groups: u8,
    chow_meld: bool,
    /// The low tiles of the chow melds (bit `t` for a chow from `t`).
    chow_lows: u64,
    /// The kinds of each plan of [`THREE_CHOW_PLANS`] outside the declared chows
    /// ([`Evaluator::chow_missing`] with nothing held: all nine without melds), [`NO_ROOM`]
    /// for a plan the melds leave no room for.
    chow_open: [u64; 16],
    exposed: bool,
    /// Fan already secured by melded honor pungs.
    meld_fan: f32,
    /// Fan a pung of each honor is worth (dragons 2, seat and prevalent wind 2 each).
    honor_value: [f32; 7],
    /// The three-chow plans still reachable (at most [`MAX_CHOW_PLANS`]).
    chow_plans: [ChowPlan; MAX_CHOW_PLANS],
    n_chow_plans: u8,
    /// Some knitted straight still has at least six of its nine tiles in reach.
    knitted_alive: bool,
    /// Plans worth measuring (bits [`ALIVE_FULL`], [`ALIVE_HALF`] + suit, ...).
    alive: u16,
    powers: &'static Powers,
}

/// [`Evaluator`] plan bits: full flush in suit `s` is bit `ALIVE_FULL + s`.
const ALIVE_FULL: u16 = 0;
/// Half flush in suit `s`: bit `ALIVE_HALF + s`.
const ALIVE_HALF: u16 = 3;
const ALIVE_PUNGS: u16 = 6;
const ALIVE_PAIRS: u16 = 7;
const ALIVE_ORPHANS: u16 = 8;
const ALIVE_HONORS_KNITTED: u16 = 9;

/// The plans [`Evaluator::score`] measures, as slots in the order it measures them (a tie
/// between two plans goes to the first): the plain hand; each suit's full flush then its
/// half flush (slots 1 + 2s and 2 + 2s for suit s); all pungs; seven pairs; thirteen
/// orphans; honors and knitted; the knitted straight; the three-chow plans.
const N_SLOTS: usize = 12 + MAX_CHOW_PLANS;
/// The fan each slot is counted as worth, as factors of
/// `((base + plan fan × chow) + honors × h) + concealed × c + one` ([`Evaluator::slot_fan`]):
/// the plain hand counts its honors, the concealed share and one more; a flush 24 (full)
/// or 6 with its honors, half the concealed share and a half (half); all pungs 6 with its
/// honors and one; seven pairs 24; thirteen orphans 88; honors and knitted 12; the
/// knitted straight 12 and half the concealed share; a three-chow plan its own fan, half
/// the concealed share and one. Every product by 0 or 1 and sum with 0 is exact, so the
/// figures are those of the terms written out.
const SLOT_FAN: [[f32; 5]; N_SLOTS] = {
    let mut t = [[0.0f32; 5]; N_SLOTS];
    t[SLOT_PLAIN] = [0.0, 0.0, 1.0, 1.0, 1.0];
    let mut s = 0;
    while s < 3 {
        t[1 + 2 * s] = [24.0, 0.0, 0.0, 0.0, 0.0];
        t[2 + 2 * s] = [6.0, 0.0, 1.0, 0.5, 0.5];
        s += 1;
    }
    t[SLOT_PUNGS] = [6.0, 0.0, 1.0, 0.0, 1.0];
    t[SLOT_PAIRS] = [24.0, 0.0, 0.0, 0.0, 0.0];
    t[SLOT_ORPHANS] = [88.0, 0.0, 0.0, 0.0, 0.0];
    t[SLOT_HONORS_KNITTED] = [12.0, 0.0, 0.0, 0.0, 0.0];
    t[SLOT_KNITTED] = [12.0, 0.0, 0.0, 0.5, 0.0];
    let mut i = 0;
    while i < MAX_CHOW_PLANS {
        t[SLOT_CHOWS + i] = [0.0, 1.0, 0.0, 0.5, 1.0];
        i += 1;
    }
    t
};
const SLOT_PLAIN: usize = 0;
const SLOT_PUNGS: usize = 7;
const SLOT_PAIRS: usize = 8;
const SLOT_ORPHANS: usize = 9;
const SLOT_HONORS_KNITTED: usize = 10;
const SLOT_KNITTED: usize = 11;
const SLOT_CHOWS: usize = 12;
/// Slots whose fan counts the honors held (the plain hand, the half flushes, all pungs).
const HONOR_SLOTS: u16 = 1 << SLOT_PLAIN | 1 << 2 | 1 << 4 | 1 << 6 | 1 << SLOT_PUNGS;

/// The plan of slot `slot`.
#[inline(always)]
const fn slot_plan(slot: usize) -> PlanKind {
    match slot {
        SLOT_PLAIN => PlanKind::Plain,
        1 | 3 | 5 => PlanKind::FullFlush(((slot - 1) / 2) as u8),
        2 | 4 | 6 => PlanKind::HalfFlush(((slot - 2) / 2) as u8),
        SLOT_PUNGS => PlanKind::AllPungs,
        SLOT_PAIRS => PlanKind::SevenPairs,
        SLOT_ORPHANS => PlanKind::ThirteenOrphans,
        SLOT_HONORS_KNITTED => PlanKind::HonorsKnitted,
        SLOT_KNITTED => PlanKind::KnittedStraight,
        _ => PlanKind::Chows((slot - SLOT_CHOWS) as u8),
    }
}

/// The slot of `plan` (the last chow slot for a three-chow plan beyond them).
fn slot_of(plan: PlanKind) -> usize {
    match plan {
        PlanKind::Plain => SLOT_PLAIN,
        PlanKind::FullFlush(s) => 1 + 2 * (s as usize).min(2),
        PlanKind::HalfFlush(s) => 2 + 2 * (s as usize).min(2),
        PlanKind::AllPungs => SLOT_PUNGS,
        PlanKind::SevenPairs => SLOT_PAIRS,
        PlanKind::ThirteenOrphans => SLOT_ORPHANS,
        PlanKind::HonorsKnitted => SLOT_HONORS_KNITTED,
        PlanKind::KnittedStraight => SLOT_KNITTED,
        PlanKind::Chows(i) => SLOT_CHOWS + (i as usize).min(MAX_CHOW_PLANS - 1),
    }
}

/// The kinds slot `slot`'s plan can use.
#[inline(always)]
const fn slot_allowed(slot: usize) -> u64 {
    match slot {
        1 | 3 | 5 => SUIT_MASK[(slot - 1) / 2],
        2 | 4 | 6 => SUIT_MASK[(slot - 2) / 2] | HONORS,
        SLOT_ORPHANS => special::ORPHAN_MASK,
        _ => ALL,
    }
}

/// The powers a plan's value is made of, tabulated on first use: an [`Evaluator`] keeps a
/// reference, so that its scoring loops read them without the first-use check.
#[derive(Debug)]
struct Powers {
    /// `β^(d − 1)` for d = 0..64.
    beta: [f32; 64],
    /// `PER_MISSING_FAN^x` for x in tenths of a point, 0..=40 points.
    missing_fan: [f32; 401],
}

impl Powers {
    fn get() -> &'static Powers {
        static P: OnceLock<Powers> = OnceLock::new();
        P.get_or_init(|| Powers {
            beta: std::array::from_fn(|i| BETA.powi(i as i32 - 1)),
            missing_fan: std::array::from_fn(|i| PER_MISSING_FAN.powf(i as f32 / 10.0)),
        })
    }

    /// `β^(d − 1)`.
    #[inline(always)]
    fn beta(&self, d: u8) -> f32 {
        self.beta[(d as usize).min(63)]
    }

    /// `PER_MISSING_FAN^x`, `x` rounded to tenths (at most 40 points).
    #[inline(always)]
    fn missing_fan(&self, x: f32) -> f32 {
        self.missing_fan[rounded_tenths(x * 10.0)]
    }
}

/// `β^(d − 1)` for d = 0..64.
#[cfg(test)]
fn beta_pow(d: u8) -> f32 {
    Powers::get().beta(d)
}

/// `(v.round() as usize).min(400)` without the library call (the baseline x86-64 target
/// has no rounding instruction) and in 32-bit integers, whose conversions from and to
/// floats are single instructions: `v` is first held to 0..=401 (negative values give 0
/// as the cast does, NaN stays NaN and casts to 0, and anything above 400 gives 400 either
/// way); the fraction of the held value is exact, and a half rounds up as [`f32::round`]
/// does away from zero.
#[inline(always)]
fn rounded_tenths(v: f32) -> usize {
    let held = v.clamp(0.0, 401.0);
    let i = held as i32;
    let frac = held - i as f32;
    ((i + i32::from(frac >= 0.5)) as usize).min(400)
}

/// The orders of the three suits: the mixed straight of [`THREE_CHOW_PLANS`] at `3 + k`
/// takes its low, middle and high chows from the suits `SUIT_ORDERS[k]`.
const SUIT_ORDERS: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Every three-chow plan: the pure straights (清龙, 16), the mixed straights (花龙, 8) and
/// the mixed triple chows (三色三同顺, 8).
const THREE_CHOW_PLANS: [ChowPlan; 16] = {
    let mut out = [ChowPlan {
        lows: [0; 3],
        fan: 0.0,
    }; 16];
    let mut k = 0;
    while k < 3 {
        let s = 9 * k as u8;
        out[k] = ChowPlan {
            lows: [s, s + 3, s + 6],
            fan: 16.0,
        };
        k += 1;
    }
    while k < 9 {
        let p = SUIT_ORDERS[k - 3];
        out[k] = ChowPlan {
            lows: [9 * p[0], 9 * p[1] + 3, 9 * p[2] + 6],
            fan: 8.0,
        };
        k += 1;
    }
    while k < 16 {
        let r = (k - 9) as u8;
        out[k] = ChowPlan {
            lows: [r, 9 + r, 18 + r],
            fan: 8.0,
        };
        k += 1;
    }
    out
};

/// The kinds of each chow of each plan of [`THREE_CHOW_PLANS`] (bit `t` for kind `t`).
const THREE_CHOW_MASKS: [[u64; 3]; 16] = {
    let mut out = [[0u64; 3]; 16];
    let mut k = 0;
    while k < 16 {
        let mut i = 0;
        while i < 3 {
            out[k][i] = 0b111 << THREE_CHOW_PLANS[k].lows[i];
            i += 1;
        }
        k += 1;
    }
    out
};

/// The nine kinds of each plan of [`THREE_CHOW_PLANS`] (its three chows together).
const THREE_CHOW_ALL: [u64; 16] = {
    let mut out = [0u64; 16];
    let mut k = 0;
    while k < 16 {
        out[k] = THREE_CHOW_MASKS[k][0] | THREE_CHOW_MASKS[k][1] | THREE_CHOW_MASKS[k][2];
        k += 1;
    }
    out
};

/// The low tiles of each plan of [`THREE_CHOW_PLANS`] (bit `t` for a chow from `t`).
const THREE_CHOW_LOWS: [u64; 16] = {
    let mut out = [0u64; 16];
    let mut k = 0;
    while k < 16 {
        let l = THREE_CHOW_PLANS[k].lows;
        out[k] = 1 << l[0] | 1 << l[1] | 1 << l[2];
        k += 1;
    }
    out
};

/// True when `x` has at most `k` bits set: `k` times its lowest set bit cleared leaves
/// nothing (for the small `k` of the reach tests, cheaper than a population count on the
/// baseline x86-64 target, which lacks the instruction).
#[inline(always)]
fn at_most_bits(mut x: u64, k: u32) -> bool {
    for _ in 0..k {
        x &= x.wrapping_sub(1);
    }
    x == 0
}

/// `CHOW_LACKING[b]`: byte `r` (0-6) holds how many of the bits `r`, `r + 1` and `r + 2`
/// of the nine-bit mask `b` are set (for the kinds a suit lacks, the kinds the chow from
/// its `r`-th kind lacks).
const CHOW_LACKING: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut b = 0;
    while b < 512 {
        let mut r = 0;
        while r < 7 {
            let n = (b >> r & 1) + (b >> (r + 1) & 1) + (b >> (r + 2) & 1);
            t[b] |= (n as u64) << (8 * r);
            r += 1;
        }
        b += 1;
    }
    t
};

/// The three-chow plans of [`THREE_CHOW_PLANS`] (bit `i` for plan `i`) whose nine kinds a
/// hand without melds holding the kinds `held` lacks at most two of: each plan's count is
/// the sum of its chows' counts, read per suit from [`CHOW_LACKING`].
#[inline(always)]
fn chows_within_two(held: u64) -> u32 {
    let lack = !held;
    let w = [
        CHOW_LACKING[(lack & 0x1FF) as usize],
        CHOW_LACKING[(lack >> 9 & 0x1FF) as usize],
        CHOW_LACKING[(lack >> 18 & 0x1FF) as usize],
    ];
    // The chows from the first, fourth and seventh kind of each suit.
    let at = |s: u8, r: usize| (w[s as usize] >> (8 * r)) as u8;
    let mut near = 0u32;
    for s in 0..3u8 {
        near |= u32::from(at(s, 0) + at(s, 3) + at(s, 6) <= 2) << s;
    }
    for (k, p) in SUIT_ORDERS.iter().enumerate() {
        near |= u32::from(at(p[0], 0) + at(p[1], 3) + at(p[2], 6) <= 2) << (3 + k);
    }
    // The triple chows: the three suits' counts added byte by byte (each at most 9).
    let triple = w[0] + w[1] + w[2];
    for r in 0..7 {
        near |= u32::from((triple >> (8 * r)) as u8 <= 2) << (9 + r);
    }
    near
}

/// [`Evaluator::chow_open`] of a plan the melds leave no room for (no plan's kinds).
const NO_ROOM: u64 = u64::MAX;

/// The most three-chow plans kept alive at once.
pub const MAX_CHOW_PLANS: usize = 3;

impl Evaluator {
    /// An evaluator for a seat with `melds`, winds 0-3 and the rule set's minimum fan.
    pub fn new(melds: &[Meld], seat_wind: u8, prevalent_wind: u8, min_fan: u8) -> Evaluator {
        let mut honor_value = [0f32; 7];
        honor_value[4] = 2.0;
        honor_value[5] = 2.0;
        honor_value[6] = 2.0;
        honor_value[(seat_wind & 3) as usize] += 2.0;
        honor_value[(prevalent_wind & 3) as usize] += 2.0;
        let mut m = [Meld {
            kind: MeldKind::Chow,
            tile: 0,
        }; 4];
        let n = melds.len().min(4);
        m[..n].copy_from_slice(&melds[..n]);
        let mut e = Evaluator {
            melds: m,
            n_melds: n as u8,
            min_fan: min_fan as f32,
            fan_divisor: FAN_DIVISOR,
            meld_groups: 0,
            chow_meld: false,
            chow_lows: 0,
            exposed: false,
            meld_fan: 0.0,
            honor_value,
            chow_plans: [ChowPlan {
                lows: [0; 3],
                fan: 0.0,
            }; MAX_CHOW_PLANS],
            n_chow_plans: 0,
            knitted_alive: true,
            alive: u16::MAX,
            chow_open: THREE_CHOW_ALL,
            powers: Powers::get(),
        };
        for x in &m[..n] {
            let t = x.tile.min(33);
            e.meld_groups |= 1 << (t / 9).min(3);
            e.chow_meld |= x.kind == MeldKind::Chow;
            if x.kind == MeldKind::Chow {
                e.chow_lows |= 1 << t;
            }
            e.exposed |= x.kind != MeldKind::ConcealedKong;
            if t >= 27 && x.kind != MeldKind::Chow {
                e.meld_fan += honor_value[(t - 27) as usize];
            }
        }
        // Beside melds, the kinds each three-chow plan still needs held (none marks a
        // plan the melds leave no room for), which the melds alone settle.
        // Without chow melds no plan's chow is covered: one other meld leaves every plan
        // all nine kinds, two or more leave no room.
        if n > 0 && e.chow_lows == 0 {
            e.chow_open = if n == 1 {
                THREE_CHOW_ALL
            } else {
                [NO_ROOM; 16]
            };
        } else if n > 0 {
            e.chow_open = std::array::from_fn(|i| e.chow_missing(i, 0).unwrap_or(NO_ROOM));
        }
        e
    }

    /// The declared melds.
    pub fn melds(&self) -> &[Meld] {
        &self.melds[..self.n_melds as usize]
    }

    /// The three-chow plans kept by [`Evaluator::select_chow_plans`].
    pub fn chow_plans(&self) -> &[ChowPlan] {
        &self.chow_plans[..self.n_chow_plans as usize]
    }

    /// What [`Evaluator::select_chow_plans`] settled: the plans measured, whether the
    /// knitted straight is among them, and the three-chow plans kept (the first of the
    /// places, as many as the count).
    #[inline(always)]
    pub(crate) fn selection(&self) -> Selection {
        (
            self.alive,
            self.knitted_alive,
            self.n_chow_plans,
            self.chow_plans,
        )
    }

    /// True when this evaluator, built for the same melds, winds and minimum as one whose
    /// [`Evaluator::selection`] is `other`, measures no plan that one does not and
    /// measures `plan` (one that one measures): a hand whose best plan there is `plan`
    /// has the same score value here (each plan's value depends on the plan alone).
    pub(crate) fn measures_within(&self, other: &Selection, plan: PlanKind) -> bool {
        let (alive, knitted_alive, n, plans) = other;
        let theirs = &plans[..(*n as usize).min(MAX_CHOW_PLANS)];
        let ours = self.chow_plans();
        if self.alive & !alive != 0
            || self.knitted_alive && !knitted_alive
            || !ours.iter().all(|p| theirs.contains(p))
        {
            return false;
        }
        let bit = |b: u16| self.alive >> b & 1 == 1;
        match plan {
            PlanKind::Plain => true,
            PlanKind::FullFlush(s) => bit(ALIVE_FULL + u16::from(s.min(2))),
            PlanKind::HalfFlush(s) => bit(ALIVE_HALF + u16::from(s.min(2))),
            PlanKind::AllPungs => bit(ALIVE_PUNGS),
            PlanKind::SevenPairs => bit(ALIVE_PAIRS),
            PlanKind::ThirteenOrphans => bit(ALIVE_ORPHANS),
            PlanKind::HonorsKnitted => bit(ALIVE_HONORS_KNITTED),
            PlanKind::KnittedStraight => self.knitted_alive,
            PlanKind::Chows(i) => theirs.get(i as usize).is_some_and(|p| ours.contains(p)),
        }
    }

    /// Keeps the three-chow plans (pure straights, mixed straights, mixed triple chows)
    /// that `tiles` (the concealed tiles the decision can draw on, e.g. the hand plus a
    /// tile under claim) could still reach with at most three more tiles.
    ///
    /// Also marks which other plans are within reach of `tiles`; [`Evaluator::score`]
    /// measures only those (before this is called, every plan is measured).
    pub fn select_chow_plans(&mut self, tiles: &Counts) {
        self.select_chow_plans_of(tiles, HandKinds::of(tiles));
    }

    /// [`Evaluator::select_chow_plans`] with the kinds `tiles` holds already found.
    pub(crate) fn select_chow_plans_of(&mut self, tiles: &Counts, kinds: HandKinds) {
        self.n_chow_plans = 0;
        let held = kinds.held;
        // Kinds held are counted per suit from a table (the baseline x86-64 target has no
        // population count); the knitted straight needs six of some permutation's nine.
        let reach = reach::Reach::new(held);
        let knitted = (0..6).fold(0, |b, p| b.max(reach.knitted(p)));
        self.knitted_alive = self.n_melds <= 1 && knitted >= 6;
        // Plans out of reach (seven or more tiles away) are not measured.
        let mut alive = 0u16;
        let [w0, w1, w2, w3, w4] = swar::words(tiles);
        // Tiles held per group: kinds 0-8, 9-17, 18-26 and 27-33 (each sum below 256).
        let groups = [
            swar::byte_sum(w0) + (w1 & 0xFF),
            swar::byte_sum(w1 >> 8) + swar::byte_sum(w2 & 0xFFFF),
            swar::byte_sum(w2 >> 16) + swar::byte_sum(w3 & 0xFF_FFFF),
        ];
        let honors = (swar::byte_sum(w3 >> 24) + swar::byte_sum(w4)) as u32;
        let melded = 3 * self.n_melds as u32;
        for g in 0..3u16 {
            let n = groups[g as usize] as u32 + melded;
            if n >= 7 {
                alive |= 1 << (ALIVE_FULL + g);
            }
            if n + honors >= 8 {
                alive |= 1 << (ALIVE_HALF + g);
            }
        }
        let pairs = kinds.pairs;
        // At least 3 - melds pairs; at least 4 pairs.
        if !at_most_bits(pairs, 2u32.saturating_sub(self.n_melds as u32)) || self.n_melds >= 3 {
            alive |= 1 << ALIVE_PUNGS;
        }
        if !at_most_bits(pairs, 3) {
            alive |= 1 << ALIVE_PAIRS;
        }
        // At least 9 of the 13 orphans; at least 10 of some knitted straight's nine tiles
        // and the seven honors.
        if reach.orphans() >= 9 {
            alive |= 1 << ALIVE_ORPHANS;
        }
        if knitted + reach.honors >= 10 {
            alive |= 1 << ALIVE_HONORS_KNITTED;
        }
        self.alive = alive;
        // Keep the closest plans (fewest missing tiles, then most fan, then the order
        // above), at most MAX_CHOW_PLANS of them, by insertion into a short sorted list.
        let mut top = [(u8::MAX, 0f32, 0usize); MAX_CHOW_PLANS];
        let mut kept = 0usize;
        // The plans within two tiles first (a bit each), then those in plan order.
        // The plans' kinds outside the declared chows (all nine without melds), found with
        // the melds, less those held.
        let near = if self.n_melds == 0 {
            chows_within_two(held)
        } else {
            let mut near = 0u32;
            for (i, &open) in self.chow_open.iter().enumerate() {
                if open != NO_ROOM {
                    near |= u32::from(at_most_bits(open & !held, 2)) << i;
                }
            }
            near
        };
        let mut near = near;
        while near != 0 {
            let i = near.trailing_zeros() as usize;
            near &= near - 1;
            let (c, l) = (&THREE_CHOW_PLANS[i], self.chow_open[i] & !held);
            let missing = u8::from(l != 0) + u8::from(l & l.wrapping_sub(1) != 0);
            let better = |x: &(u8, f32, usize)| missing < x.0 || (missing == x.0 && c.fan > x.1);
            let Some(pos) = top[..kept]
                .iter()
                .position(better)
                .or((kept < MAX_CHOW_PLANS).then_some(kept))
            else {
                continue;
            };
            top.copy_within(pos..MAX_CHOW_PLANS - 1, pos + 1);
            top[pos] = (missing, c.fan, i);
            kept = (kept + 1).min(MAX_CHOW_PLANS);
        }
        for &(_, _, i) in &top[..kept] {
            self.chow_plans[self.n_chow_plans as usize] = THREE_CHOW_PLANS[i];
            self.n_chow_plans += 1;
        }
    }

    /// The kinds of three-chow plan `i` of [`THREE_CHOW_PLANS`] missing from the kinds
    /// held (`held`, bit `t` for kind `t`: a plan's nine tiles are nine different kinds) in
    /// the chows that are not declared melds; `None` when the melds leave no room for it.
    /// The same room test as [`Evaluator::chow_cover`], read from bit sets: the chows
    /// covered are the plan's low tiles among the chow melds' low tiles.
    #[inline(always)]
    fn chow_missing(&self, i: usize, held: u64) -> Option<u64> {
        if self.n_melds == 0 {
            return Some(THREE_CHOW_ALL[i] & !held);
        }
        let covered = THREE_CHOW_LOWS[i] & self.chow_lows;
        let c1 = covered & covered.wrapping_sub(1);
        let c2 = c1 & c1.wrapping_sub(1);
        let n_covered = u8::from(covered != 0) + u8::from(c1 != 0) + u8::from(c2 != 0);
        // Every other meld stands beside the plan (at most one), and the open chows and
        // the melds fit in four sets.
        if self.n_melds - n_covered > 1 || self.n_melds + (3 - n_covered) > 4 {
            return None;
        }
        // A plan's chows do not overlap: the covered chows' kinds are their low tiles and
        // the two above.
        let open = THREE_CHOW_ALL[i] & !(covered | covered << 1 | covered << 2);
        Some(open & !held)
    }

    /// Fan a pung of honor `i` (0-6: E S W N, red, green, white) is worth to this seat.
    #[inline]
    pub fn honor_value(&self, i: usize) -> f32 {
        self.honor_value[i]
    }

    /// Expected fan from honors in the concealed tiles: pungs held, and a share for pairs.
    #[inline]
    fn honor_fan(&self, hand: &Counts) -> f32 {
        let mut f = 0.0;
        for i in 0..7 {
            f += HONOR_SHARE[usize::from(hand[27 + i].min(4))] * self.honor_value[i];
        }
        f
    }

    /// The evaluator with a plan reaching the minimum weighing `1 + (fan − min) / divisor`
    /// (fan above the minimum counted up to 40; [`FAN_DIVISOR`] by default): a smaller
    /// divisor prizes high-fan plans more.
    pub fn with_fan_divisor(mut self, divisor: f32) -> Evaluator {
        self.fan_divisor = divisor.max(1.0);
        self
    }

    /// The divisor of [`Evaluator::with_fan_divisor`].
    pub fn fan_divisor(&self) -> f32 {
        self.fan_divisor
    }

    #[inline]
    fn weight(&self, fan: f32) -> f32 {
        if fan >= self.min_fan {
            1.0 + (fan - self.min_fan).min(40.0) / self.fan_divisor
        } else {
            self.powers.missing_fan(self.min_fan - fan)
        }
    }

    /// The value of a waiting hand (`13 - 3k` concealed tiles beside this seat's `k` melds).
    pub fn score(&self, hand: &Counts) -> Score {
        // The group entries at the ranks read from the counts eight at a time (equal to
        // each group's `table_entry`).
        self.score_with(hand, &regular::entries_at(&regular::ranks(hand)))
    }

    /// [`Evaluator::score`] with the hand's four group entries already looked up.
    pub fn score_with(&self, hand: &Counts, e: &[Entry; 4]) -> Score {
        let m = 4 - self.n_melds.min(4) as usize;
        let plain = finish(&combine(&e[0], &e[1]), &combine(&e[2], &e[3]), m);
        self.score_core(hand, e, plain, |_, p| self.chow_distance(p, hand, e))
    }

    /// Everything about a full hand (`14 - 3k` tiles) that the scores of its discards
    /// share: see [`Evaluator::score_discard`]. `ranks` and `full` are the hand's group
    /// ranks and entries in the limited tables (`regular::ranks`).
    pub fn discard_context(
        &self,
        full_hand: &Counts,
        ranks: &[usize; 4],
        full: &[Entry; 4],
    ) -> DiscardContext {
        let mut ctx = DiscardContext::new();
        self.fill_discard_context(&mut ctx, full_hand, ranks, full);
        ctx
    }

    /// [`Evaluator::discard_context`] written into `ctx` (a context kept from one decision
    /// to the next, so that a decision neither builds nor moves one).
    pub fn fill_discard_context(
        &self,
        ctx: &mut DiscardContext,
        full_hand: &Counts,
        ranks: &[usize; 4],
        full: &[Entry; 4],
    ) {
        let codes = regular::codes(full_hand);
        self.fill_discard_context_of(
            ctx,
            full_hand,
            HandKinds::of(full_hand),
            &codes,
            ranks,
            full,
        );
    }

    /// False only when [`DiscardContext::bound`] of the full hand `full_hand` (kinds
    /// `kinds`, group entries `full`) is at most `floor`, found without the context (true
    /// when it may be above). Each plan's weight is the context's; its full-hand distance
    /// is read only when the weight alone could beat `floor`, as the context measures it
    /// for the plain hand, the flushes and all pungs, and as a lower bound for the
    /// knitted straight (the knitted kinds the nearest straight lacks) and the three-chow
    /// plans (the tiles their open chows lack): where a lower bound does not settle it,
    /// the answer is true and the context decides.
    #[inline(never)]
    pub(crate) fn bound_above(
        &self,
        full_hand: &Counts,
        kinds: HandKinds,
        full: &[Entry; 4],
        floor: f32,
    ) -> bool {
        let m = 4 - self.n_melds.min(4) as usize;
        let honors = self.honor_fan(full_hand) + self.meld_fan;
        let concealed = self.concealed();
        let mut plain = INF;
        let mut active = self.active_slots();
        while active != 0 {
            let slot = active.trailing_zeros() as usize;
            active &= active - 1;
            let w = self.weight(self.slot_fan(slot, honors, concealed));
            // No distance is below 0.
            if w * self.powers.beta(0) <= floor {
                continue;
            }
            let d = match slot {
                // The plain hand's distance, which all pungs cannot go below (its shape is
                // one of the plain hand's).
                SLOT_PLAIN | SLOT_PUNGS => {
                    if plain == INF {
                        plain = regular_distance(full, m);
                    }
                    if slot == SLOT_PUNGS && w * self.powers.beta(plain) > floor {
                        all_pungs_distance(full_hand, m)
                    } else {
                        plain
                    }
                }
                1 | 3 | 5 => full[(slot - 1) / 2][2 * m + 1],
                2 | 4 | 6 => finish(&full[(slot - 2) / 2], &full[3], m),
                SLOT_KNITTED => knitted_lacking(kinds.held),
                SLOT_PAIRS..=SLOT_HONORS_KNITTED => return true,
                _ => {
                    let p = &self.chow_plans[(slot - SLOT_CHOWS).min(MAX_CHOW_PLANS - 1)];
                    // The open chows' kinds not held (nine different kinds in all).
                    let covered = p.lows.map(|l| self.chow_lows >> l.min(63) & 1 == 1);
                    let mut lacking = 0u8;
                    for i in (0..3).filter(|&i| !covered[i]) {
                        let open = 0b111u64 << p.lows[i];
                        let l = open & !kinds.held;
                        lacking += u8::from(l != 0)
                            + u8::from(l & l.wrapping_sub(1) != 0)
                            + u8::from(l == open);
                    }
                    lacking
                }
            };
            if d < INF && w * self.powers.beta(d) > floor {
                return true;
            }
        }
        false
    }

    /// [`Evaluator::fill_discard_context`] with the kinds the full hand holds already found.
    pub(crate) fn fill_discard_context_of(
        &self,
        ctx: &mut DiscardContext,
        full_hand: &Counts,
        kinds: HandKinds,
        codes: &[(usize, usize, usize); 4],
        ranks: &[usize; 4],
        full: &[Entry; 4],
    ) {
        // The rests are merged when first read (`DiscardContext::rest`).
        ctx.halves = regular::halves(full);
        ctx.rest = OnceLock::new();
        ctx.full = *full;
        ctx.ranks = *ranks;
        ctx.held = kinds.held;
        ctx.n_order = 0;
        ctx.honors = self.honor_fan(full_hand) + self.meld_fan;
        ctx.concealed = self.concealed();
        for pc in &mut ctx.plans {
            pc.valid = false;
        }
        // What the whole-hand forms of the discards start from, for the forms measured.
        let forms = self.active_slots();
        ctx.pairs = kinds.pairs;
        if forms >> SLOT_PAIRS & 1 == 1 {
            ctx.pair_stats = special::pair_stats(full_hand);
        }
        if forms >> SLOT_PUNGS & 1 == 1 {
            let thrice = special::threes_held(full_hand);
            let n3 = thrice.count_ones() as usize;
            let n2 = n3 + (ctx.pairs & !thrice).count_ones() as usize;
            ctx.at_least = [n2 + (ctx.held & !ctx.pairs).count_ones() as usize, n2, n3];
        }
        for (pc, p) in ctx.plans.iter_mut().zip(self.chow_plans()) {
            let Some((covered, sets_left)) = self.chow_cover(p) else {
                continue;
            };
            // The hand less one of each kind of the open chows that it holds (a plan's nine
            // kinds differ: each is taken at most once), as rank codes and kinds held.
            let mut rest = *codes;
            let mut held = ctx.held;
            let mut touched = 0u8;
            let mut missing = 0u8;
            for i in (0..3).filter(|&i| !covered[i]) {
                let g = (p.lows[i] / 9).min(2) as usize;
                touched |= 1 << g;
                for j in 0..3 {
                    let t = (p.lows[i] + j) as usize;
                    match full_hand.get(t) {
                        Some(&c) if c > 0 => {
                            rest[g] = regular::code_step(&rest[g], g, t - 9 * g, false);
                            held &= !(u64::from(c == 1) << t);
                        }
                        _ => missing += 1,
                    }
                }
            }
            let mut r = *full;
            for g in (0..3usize).filter(|&g| touched >> g & 1 == 1) {
                r[g] = *ctx.lim.entry_at(g, ctx.lim.rank_at_codes(g, &rest[g]));
            }
            pc.entries = r;
            pc.codes = rest.map(|(h, n, t)| (h as u16, n as u8, t as u16));
            pc.held = held;
            pc.rest = OnceLock::new();
            pc.settled = false;
            pc.touched = touched;
            pc.sets_left = sets_left;
            pc.missing = missing;
            pc.valid = true;
        }
        // Each slot's value for the full hand bounds its value after any discard: a
        // discard never brings a plan closer (the tiles missing from a complete hand can
        // only grow when a tile goes) and never adds honor fan.
        let m = 4 - self.n_melds.min(4) as usize;
        let plain = finish(&ctx.halves[0], &ctx.halves[1], m);
        // Written whole, one byte per plan ([`INF`] for a plan not in reach), so that no
        // read of it waits on narrower writes.
        let mut chows = [INF; MAX_CHOW_PLANS];
        for (d, pc) in chows.iter_mut().zip(&ctx.plans) {
            if pc.valid {
                *d = pc.full_distance();
            }
        }
        let mut chow = |i: usize, _: &ChowPlan| Some(chows[i.min(MAX_CHOW_PLANS - 1)]);
        let mut active = self.active_slots();
        while active != 0 {
            let slot = active.trailing_zeros() as usize;
            active &= active - 1;
            let w = self.weight(self.slot_fan(slot, ctx.honors, ctx.concealed));
            ctx.weight[slot] = w;
            let d = if slot == SLOT_KNITTED && self.n_melds == 0 {
                ctx.knit_base = knitted::missing_kinds(ctx.held);
                ctx.knit_full = knitted_fast(&ctx.knit_base, ranks, &full[3], 5);
                ctx.knit_full
            } else if slot == SLOT_KNITTED && self.n_melds == 1 {
                // Beside one meld: from the kinds held once, twice and three times, which
                // a discard changes at its kind alone (`DiscardContext::knitted_one_meld`).
                ctx.fill_knitted_one_meld(full_hand)
            } else if (SLOT_PUNGS..=SLOT_HONORS_KNITTED).contains(&slot) {
                // The whole-hand forms from the counts already gathered above.
                ctx.form_full(slot, m)
            } else {
                self.slot_distance(slot, full_hand, full, m, plain, &mut chow)
            };
            if d >= INF {
                continue;
            }
            let u = w * self.powers.beta(d);
            if u <= 0.0 {
                continue;
            }
            ctx.bound[slot] = u;
            // Insert by bound, highest first; equal bounds keep slot order.
            let n = ctx.n_order as usize;
            let mut i = n;
            while i > 0 && ctx.bound[ctx.order[i - 1] as usize] < u {
                ctx.order[i] = ctx.order[i - 1];
                i -= 1;
            }
            ctx.order[i] = slot as u8;
            ctx.n_order += 1;
        }
    }

    /// The score of the waiting hand `hand` left by discarding one `t` from the full hand
    /// of `ctx`, whose group entries are `e` (the full hand's, with `t`'s group replaced).
    /// Equal to [`Evaluator::score_with`]`(hand, e)`: the other groups' shares come from
    /// `ctx` instead of being recombined, and the plans are measured from the most
    /// valuable for the full hand down, stopping at the first whose full-hand value (which
    /// no discard exceeds) cannot beat the best found, ties going to the earlier slot as in
    /// [`Evaluator::score`].
    pub fn score_discard(
        &self,
        ctx: &DiscardContext,
        hand: &Counts,
        e: &[Entry; 4],
        t: Tile,
    ) -> Score {
        let g = (t as usize / 9).min(3);
        let d = DiscardAt::new(self, ctx, hand, &e[g], e, t, None);
        let mut best = Best::NONE;
        self.measure(ctx, &d, &ctx.order[..ctx.n_order as usize], &mut best);
        best.score()
    }

    /// The scores of the discards `kinds` (a bit set of kinds held) of the full hand
    /// `hand` of `ctx` (rank codes `codes`, see `regular::codes`), in kind order, into
    /// `out`; returns how many were written and the highest value written (0 when none
    /// is above 0). A discard is left out when its score is shown to be below `share`
    /// times the best score of the discards (without measuring it all): then it can
    /// neither be the best nor within `share` of it. Every score written equals
    /// [`Evaluator::score_discard`]'s.
    ///
    /// The plan with the highest full-hand value is measured for every discard first; its
    /// values bound the best score from below, and a discard whose value for it and the
    /// next plan's full-hand value both stay under `share` of that bound is left out.
    pub fn score_discards(
        &self,
        ctx: &DiscardContext,
        hand: &Counts,
        codes: &[(usize, usize, usize); 4],
        kinds: u64,
        share: f32,
        out: &mut [(Tile, Score); 14],
    ) -> (usize, f32) {
        let full = &ctx.full;
        let lim = ctx.lim;
        let order = &ctx.order[..ctx.n_order as usize];
        let m = 4 - self.n_melds.min(4) as usize;
        let mut h = *hand;
        let mut firsts = [Best::NONE; 14];
        let mut ranks = [0usize; 14];
        let mut tiles = [0u8; 14];
        // The first plan, unless it is the knitted straight beside a meld, is read from the
        // group entries, adjusted from the full hand's counts (the whole-hand forms and
        // the knitted straight) or from a three-chow plan's remainder: then a discard is
        // measured without building its `DiscardAt`, in a loop of its own per plan family.
        let first = order.first().map_or(N_SLOTS, |&s| s as usize);
        let from_entries = first < N_SLOTS && (first != SLOT_KNITTED || self.n_melds == 0);
        let pass = FirstPass {
            ctx,
            hand,
            codes,
            kinds,
            first,
        };
        let (n, floor) = if !from_entries {
            let mut n = 0usize;
            let mut floor = 0f32;
            let mut rest = kinds;
            while rest != 0 && n < 14 {
                let t = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let g = (t / 9).min(3);
                ranks[n] = lim.rank_without_one(&codes[g], g, t - 9 * g);
                let entry = lim.entry_at(g, ranks[n]);
                h[t] -= 1;
                let d = DiscardAt::new(self, ctx, &h, entry, full, t as Tile, Some(ranks[n]));
                self.measure(ctx, &d, &order[..order.len().min(1)], &mut firsts[n]);
                h[t] += 1;
                // Values are never NaN: a comparison keeps the larger.
                if firsts[n].value > floor {
                    floor = firsts[n].value;
                }
                tiles[n] = t as u8;
                n += 1;
            }
            (n, floor)
        } else {
            let (f, r, ti) = (&mut firsts, &mut ranks, &mut tiles);
            let all = |_: usize| true;
            match first {
                SLOT_PLAIN => {
                    let rest = ctx.rest();
                    self.first_pass(&pass, f, r, ti, all, |g, _, e, _| finish(e, &rest[g], m))
                }
                // The flushes read every discard's group entry, so that the plan's suit or
                // another is a choice of value rather than a branch.
                1 | 3 | 5 => {
                    let s = (first - 1) / 2;
                    let other = full[s.min(3)][2 * m + 1];
                    self.first_pass(&pass, f, r, ti, all, |g, _, e, _| {
                        let own = e[2 * m + 1];
                        if g == s {
                            own
                        } else {
                            other
                        }
                    })
                }
                2 | 4 | 6 => {
                    let s = (first - 2) / 2;
                    // A discard from another suit leaves the full hand's distance.
                    let other = finish(&full[s.min(3)], &full[3], m);
                    self.first_pass(&pass, f, r, ti, all, |g, _, e, _| {
                        // The suit's entry meets the honors', one of them the discard's.
                        let is_honor = usize::from(g == 3);
                        let (suit, honors) = [(e, &full[3]), (&full[s.min(3)], e)][is_honor];
                        let own = finish(suit, honors, m);
                        if (g == s) | (g == 3) {
                            own
                        } else {
                            other
                        }
                    })
                }
                SLOT_PUNGS..=SLOT_HONORS_KNITTED => self.first_pass(
                    &pass,
                    f,
                    r,
                    ti,
                    |_| false,
                    |_, t, _, _| form_after_discard(ctx, first, t, hand[t], m),
                ),
                SLOT_KNITTED => {
                    // What every discard's knitted straight shares with the full hand's.
                    let knit = knitted::KnitShares::new(&ctx.ranks, &full[3]);
                    let kept = knit.at_distance(&ctx.knit_base, ctx.knit_full);
                    self.first_pass(&pass, f, r, ti, all, |g, t, e, rank| {
                        ctx.knitted_after_in(&knit, kept, t, hand[t] == 1, g, rank, e)
                    })
                }
                // A three-chow plan reads its own remainder's ranks.
                _ => self.first_pass(
                    &pass,
                    f,
                    r,
                    ti,
                    |_| false,
                    |_, t, _, _| ctx.chow_discard_distance(first - SLOT_CHOWS, t, hand[t] == 1),
                ),
            }
        };
        let next = if order.len() > 1 {
            ctx.bound[order[1] as usize]
        } else {
            0.0
        };
        let cut = share * floor;
        // The discards kept, gathered first without a branch per discard (whether one
        // stays under the cut is as likely as not).
        let mut kept = [0u8; 14];
        let mut n_kept = 0usize;
        let all = next >= cut;
        for (i, f) in firsts[..n].iter().enumerate() {
            kept[n_kept] = i as u8;
            n_kept += usize::from(all | (f.value >= cut));
        }
        let (mut k, mut top) = (0usize, 0f32);
        for &i in &kept[..n_kept.min(14)] {
            let i = usize::from(i);
            let mut best = firsts[i];
            // The measure stops at once when the next plan's full-hand value cannot beat
            // the first plan's: then the discard's state is not built.
            let stops = |slot: usize| {
                let u = ctx.bound[slot];
                u < best.value || (u == best.value && slot > best.slot())
            };
            if order.len() > 1 && !stops(order[1] as usize) {
                let t = tiles[i] as usize;
                let g = (t / 9).min(3);
                h[t] -= 1;
                // A first plan that does not read the discard's group leaves its rank unread.
                let rank = if ranks[i] == NO_RANK {
                    lim.rank_without_one(&codes[g], g, t - 9 * g)
                } else {
                    ranks[i]
                };
                let own = lim.entry_at(g, rank);
                let d = DiscardAt::new(self, ctx, &h, own, full, t as Tile, Some(rank));
                self.measure(ctx, &d, &order[1..], &mut best);
                h[t] += 1;
            }
            out[k] = (tiles[i], best.score());
            k += 1;
            // Values are never NaN: a comparison keeps the larger.
            if best.value > top {
                top = best.value;
            }
        }
        (k, top)
    }

    /// The first pass of [`Evaluator::score_discards`] when its first plan is read without
    /// a `DiscardAt`: every discard of `pass.kinds` measured for `pass.first` by `dist`
    /// (the discard's group, kind, group entry and group rank after it), its value written
    /// into `firsts`, its group rank into `ranks` ([`NO_RANK`] when `needs` of its group is
    /// false: then `dist` is given the full hand's entry and must read neither) and its
    /// kind into `tiles`. Returns how many discards were written and the highest value.
    /// Generic in `dist`, so that each plan family runs a loop of its own.
    #[inline(always)]
    fn first_pass(
        &self,
        pass: &FirstPass,
        firsts: &mut [Best; 14],
        ranks: &mut [usize; 14],
        tiles: &mut [u8; 14],
        needs: impl Fn(usize) -> bool,
        dist: impl Fn(usize, usize, &Entry, usize) -> u8,
    ) -> (usize, f32) {
        let (ctx, first) = (pass.ctx, pass.first);
        let lim = ctx.lim;
        let mut h = *pass.hand;
        let mut n = 0usize;
        let mut floor = 0f32;
        let mut rest = pass.kinds;
        let honor_first = HONOR_SLOTS >> first & 1 == 1;
        while rest != 0 && n < 14 {
            let t = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let g = (t / 9).min(3);
            let d = if needs(g) {
                let r = lim.rank_without_one(&pass.codes[g], g, t - 9 * g);
                ranks[n] = r;
                dist(g, t, lim.entry_at(g, r), r)
            } else {
                ranks[n] = NO_RANK;
                dist(g, t, &ctx.full[g], NO_RANK)
            };
            if d < INF {
                // Only a pair or a pung of honors changes their share (see `DiscardAt::new`).
                let w = if honor_first & (g == 3) & matches!(h[t], 2 | 3) {
                    h[t] -= 1;
                    let honors = self.honor_fan(&h) + self.meld_fan;
                    h[t] += 1;
                    self.weight(self.slot_fan(first, honors, ctx.concealed))
                } else {
                    ctx.weight[first]
                };
                let v = w * self.powers.beta(d);
                if v > 0.0 {
                    firsts[n] = Best::at(v, first, d);
                }
            }
            // Values are never NaN: a comparison keeps the larger.
            if firsts[n].value > floor {
                floor = firsts[n].value;
            }
            tiles[n] = t as u8;
            n += 1;
        }
        (n, floor)
    }

    /// Measures the slots `slots` (a part of `ctx.order`) for the discard `d`, improving
    /// `best`; stops at the first slot whose full-hand value cannot beat it.
    #[inline(always)]
    fn measure(&self, ctx: &DiscardContext, d: &DiscardAt, slots: &[u8], best: &mut Best) {
        let m = 4 - self.n_melds.min(4) as usize;
        let g = d.g;
        let e = |s: usize| if s == g { d.own } else { &d.others[s.min(3)] };
        for &slot in slots {
            let slot = slot as usize;
            let u = ctx.bound[slot];
            if u < best.value || (u == best.value && slot > best.slot()) {
                break;
            }
            let dist = match slot {
                SLOT_PLAIN => finish(d.own, &ctx.rest()[g], m),
                1 | 3 | 5 => e((slot - 1) / 2)[2 * m + 1],
                2 | 4 | 6 => finish(e((slot - 2) / 2), e(3), m),
                SLOT_KNITTED if self.n_melds == 1 => {
                    ctx.knitted_one_meld_after(d.t, d.hand[d.t] + 1)
                }
                SLOT_KNITTED if self.n_melds == 0 && d.rank.is_some() => {
                    let mut ranks = ctx.ranks;
                    ranks[g] = d.rank.unwrap_or(ranks[g]);
                    ctx.knitted_after(d.t, d.held, &ranks, e(3))
                }
                SLOT_PUNGS | SLOT_PAIRS | SLOT_ORPHANS | SLOT_HONORS_KNITTED => {
                    form_after_discard(ctx, slot, d.t, d.hand[d.t] + 1, m)
                }
                _ => match self.form_distance(slot, d.hand) {
                    Some(x) => x,
                    None => ctx.chow_discard_distance(slot - SLOT_CHOWS, d.t, d.hand[d.t] == 0),
                },
            };
            if dist >= INF {
                continue;
            }
            let w = if (g == 3) & (HONOR_SLOTS >> slot & 1 == 1) {
                self.weight(self.slot_fan(slot, d.honors, ctx.concealed))
            } else {
                ctx.weight[slot]
            };
            let v = w * self.powers.beta(dist);
            if v > best.value || (v == best.value && v > 0.0 && slot < best.slot()) {
                *best = Best::at(v, slot, dist);
            }
        }
    }

    /// The plan values of a waiting hand given its regular distance `plain` and a way to
    /// measure each three-chow plan: every active slot in slot order, a plan replacing the
    /// best so far only with a higher value.
    #[inline(always)]
    fn score_core(
        &self,
        hand: &Counts,
        e: &[Entry; 4],
        plain: u8,
        mut chow: impl FnMut(usize, &ChowPlan) -> Option<u8>,
    ) -> Score {
        let m = 4 - self.n_melds.min(4) as usize;
        let honors = self.honor_fan(hand) + self.meld_fan;
        let concealed = self.concealed();
        let mut best = Score {
            value: 0.0,
            plan: PlanKind::Plain,
            distance: INF,
            allowed: ALL,
        };
        let mut active = self.active_slots();
        while active != 0 {
            let slot = active.trailing_zeros() as usize;
            active &= active - 1;
            let d = self.slot_distance(slot, hand, e, m, plain, &mut chow);
            if d >= INF {
                continue;
            }
            let v = self.weight(self.slot_fan(slot, honors, concealed)) * self.powers.beta(d);
            if v > best.value {
                best = Score {
                    value: v,
                    plan: slot_plan(slot),
                    distance: d,
                    allowed: slot_allowed(slot),
                };
            }
        }
        best
    }

    /// 2 for a concealed hand (no exposed meld), else 0: the fan the plans count for it.
    #[inline(always)]
    fn concealed(&self) -> f32 {
        if self.exposed {
            0.0
        } else {
            2.0
        }
    }

    /// The slots worth measuring for this seat (bit `s` for slot `s`): the plans its melds
    /// leave open and that [`Evaluator::select_chow_plans`] found within reach.
    #[inline(always)]
    fn active_slots(&self) -> u16 {
        let mut a = 1u16 << SLOT_PLAIN;
        for s in 0..3u16 {
            let g = 1u8 << s;
            if self.alive >> (ALIVE_FULL + s) & 1 == 1 && self.meld_groups & !g == 0 {
                a |= 1 << (1 + 2 * s);
            }
            if self.alive >> (ALIVE_HALF + s) & 1 == 1 && self.meld_groups & !(g | 8) == 0 {
                a |= 1 << (2 + 2 * s);
            }
        }
        if !self.chow_meld && self.alive >> ALIVE_PUNGS & 1 == 1 {
            a |= 1 << SLOT_PUNGS;
        }
        if self.n_melds == 0 {
            a |= (self.alive >> ALIVE_PAIRS & 1) << SLOT_PAIRS
                | (self.alive >> ALIVE_ORPHANS & 1) << SLOT_ORPHANS
                | (self.alive >> ALIVE_HONORS_KNITTED & 1) << SLOT_HONORS_KNITTED;
        }
        if self.knitted_alive && self.n_melds <= 1 {
            a |= 1 << SLOT_KNITTED;
        }
        a | ((1u16 << self.n_chow_plans) - 1) << SLOT_CHOWS
    }

    /// The fan slot `slot` is counted as worth, given the honors' share `honors` (held
    /// and melded) and the concealed share `concealed` ([`Evaluator::concealed`]).
    #[inline(always)]
    fn slot_fan(&self, slot: usize, honors: f32, concealed: f32) -> f32 {
        // Read from the table (no branch on the slot): `SLOT_FAN` gives each term's factor,
        // and a three-chow slot adds its plan's fan (the plan index is clamped for the
        // other slots, whose factor for it is 0).
        let [base, chow, h, c, one] = SLOT_FAN[slot.min(N_SLOTS - 1)];
        let plan = &self.chow_plans[slot.wrapping_sub(SLOT_CHOWS).min(MAX_CHOW_PLANS - 1)];
        ((base + plan.fan * chow) + honors * h) + concealed * c + one
    }

    /// The distance of slot `slot` for `hand` (group entries `e`, `m` sets to build, its
    /// regular distance `plain`, the three-chow plans measured by `chow`); [`INF`] when
    /// the plan is out of reach.
    #[inline(always)]
    fn slot_distance(
        &self,
        slot: usize,
        hand: &Counts,
        e: &[Entry; 4],
        m: usize,
        plain: u8,
        chow: &mut impl FnMut(usize, &ChowPlan) -> Option<u8>,
    ) -> u8 {
        match slot {
            SLOT_PLAIN => plain,
            1 | 3 | 5 => e[(slot - 1) / 2][2 * m + 1],
            2 | 4 | 6 => finish(&e[(slot - 2) / 2], &e[3], m),
            _ => self.form_distance(slot, hand).unwrap_or_else(|| {
                let i = (slot - SLOT_CHOWS).min(MAX_CHOW_PLANS - 1);
                chow(i, &self.chow_plans[i]).unwrap_or(INF)
            }),
        }
    }

    /// The distance of a slot measured on the whole hand (all pungs, the concealed special
    /// forms, the knitted straight; [`INF`] when out of reach), `None` for the other slots.
    /// Not inlined: inlined, its work is hoisted out of the scoring loops and paid for
    /// every hand, measured or not.
    #[inline(never)]
    fn form_distance(&self, slot: usize, hand: &Counts) -> Option<u8> {
        let m = 4 - self.n_melds.min(4) as usize;
        Some(match slot {
            SLOT_PUNGS => all_pungs_distance(hand, m),
            SLOT_PAIRS => special::seven_pairs(hand),
            SLOT_ORPHANS => special::thirteen_orphans(hand),
            SLOT_HONORS_KNITTED => special::honors_knitted(hand),
            SLOT_KNITTED => {
                crate::shanten::knitted::distance_below(hand, &NO_USED, self.n_melds, 0, 5)
                    .unwrap_or(INF)
            }
            _ => return None,
        })
    }

    /// The fan `plan` is counted as worth for the waiting hand `hand` (the figure
    /// [`Evaluator::score`] weighs: the plan's fans plus the honors and melds it keeps,
    /// and a little for a concealed hand). For explanations: the scoring reads the same
    /// figures, and a test checks that the two agree.
    pub fn plan_fan(&self, hand: &Counts, plan: PlanKind) -> f32 {
        if let PlanKind::Chows(i) = plan {
            if i as usize >= self.chow_plans().len() {
                return 0.0;
            }
        }
        let honors = self.honor_fan(hand) + self.meld_fan;
        self.slot_fan(slot_of(plan), honors, self.concealed())
    }

    /// A short English name of `plan` ("half flush p", "pure straight s", "plain").
    pub fn plan_name(&self, plan: PlanKind) -> String {
        const SUITS: [&str; 3] = ["m", "p", "s"];
        let suit = |s: u8| SUITS[(s as usize).min(2)];
        match plan {
            PlanKind::Plain => "plain".into(),
            PlanKind::FullFlush(s) => format!("full flush {}", suit(s)),
            PlanKind::HalfFlush(s) => format!("half flush {}", suit(s)),
            PlanKind::AllPungs => "all pungs".into(),
            PlanKind::SevenPairs => "seven pairs".into(),
            PlanKind::ThirteenOrphans => "thirteen orphans".into(),
            PlanKind::HonorsKnitted => "honors and knitted".into(),
            PlanKind::KnittedStraight => "knitted straight".into(),
            PlanKind::Chows(i) => match self.chow_plans().get(i as usize) {
                Some(p) if p.lows[0] / 9 == p.lows[1] / 9 => {
                    format!("pure straight {}", suit(p.lows[0] / 9))
                }
                Some(p) if p.lows[0] % 9 == p.lows[1] % 9 => {
                    format!("triple chow {}", p.lows[0] % 9 + 1)
                }
                Some(_) => "mixed straight".into(),
                None => "three chows".into(),
            },
        }
    }

    /// The catalog fans `plan` aims at for the waiting hand `hand`: the plan's own fan
    /// (none for the plain hand) and, for the plans that keep honors (plain, half flush,
    /// all pungs), the honor pungs the hand holds a pair of or has melded (箭刻, and 圈风刻
    /// or 门风刻 for `prevalent_wind` and `seat_wind`): the fans behind
    /// [`Evaluator::plan_fan`], named for explanations and hints.
    pub fn plan_fans(
        &self,
        hand: &Counts,
        plan: PlanKind,
        seat_wind: u8,
        prevalent_wind: u8,
    ) -> Vec<crate::fan::Fan> {
        use crate::fan::catalog as c;
        let mut out = Vec::new();
        let own = match plan {
            PlanKind::Plain => None,
            PlanKind::FullFlush(_) => Some(c::FULL_FLUSH),
            PlanKind::HalfFlush(_) => Some(c::HALF_FLUSH),
            PlanKind::AllPungs => Some(c::ALL_PUNGS),
            PlanKind::SevenPairs => Some(c::SEVEN_PAIRS),
            PlanKind::ThirteenOrphans => Some(c::THIRTEEN_ORPHANS),
            PlanKind::HonorsKnitted => Some(c::LESSER_HONORS_AND_KNITTED_TILES),
            PlanKind::KnittedStraight => Some(c::KNITTED_STRAIGHT),
            PlanKind::Chows(i) => self.chow_plans().get(i as usize).map(|p| {
                if p.lows[0] / 9 == p.lows[1] / 9 {
                    c::PURE_STRAIGHT
                } else if p.lows[0] % 9 == p.lows[1] % 9 {
                    c::MIXED_TRIPLE_CHOW
                } else {
                    c::MIXED_STRAIGHT
                }
            }),
        };
        out.extend(own);
        if matches!(
            plan,
            PlanKind::Plain | PlanKind::HalfFlush(_) | PlanKind::AllPungs
        ) {
            for i in 0..7u8 {
                let t = 27 + i;
                let melded = self
                    .melds()
                    .iter()
                    .any(|m| m.tile == t && m.kind != MeldKind::Chow);
                if hand[t as usize] < 2 && !melded {
                    continue;
                }
                if i >= 4 {
                    out.push(c::DRAGON_PUNG);
                } else {
                    if i == prevalent_wind & 3 {
                        out.push(c::PREVALENT_WIND);
                    }
                    if i == seat_wind & 3 {
                        out.push(c::SEAT_WIND);
                    }
                }
            }
        }
        out
    }

    /// Distance of a three-chow plan: its missing tiles plus the regular distance of the
    /// remaining tiles to the remaining sets and the pair.
    fn chow_distance(&self, p: &ChowPlan, hand: &Counts, e: &[Entry; 4]) -> Option<u8> {
        let (covered, sets_left) = self.chow_cover(p)?;
        let mut rest = *hand;
        let mut missing = 0u8;
        let mut touched = 0u8;
        for (i, &done) in covered.iter().enumerate() {
            if done {
                continue;
            }
            touched |= 1 << (p.lows[i] / 9);
            for j in 0..3 {
                let t = (p.lows[i] + j) as usize;
                if rest[t] > 0 {
                    rest[t] -= 1;
                } else {
                    missing += 1;
                }
            }
        }
        // Only the suits the open chows took tiles from need new entries.
        let mut r = *e;
        for g in 0..3usize {
            if touched >> g & 1 == 1 {
                r[g] = table_entry(g, &rest[g * 9..g * 9 + 9]);
            }
        }
        let d = finish(
            &combine(&r[0], &r[1]),
            &combine(&r[2], &r[3]),
            sets_left as usize,
        );
        Some(missing.saturating_add(d))
    }

    /// Which chows of a three-chow plan the melds already are, and how many sets remain
    /// to build beside the plan; `None` when the melds leave no room for it.
    #[inline(always)]
    fn chow_cover(&self, p: &ChowPlan) -> Option<([bool; 3], u8)> {
        if self.n_melds == 0 {
            return Some(([false; 3], 1));
        }
        // A plan's three chows start from different tiles: each is covered by a chow meld
        // from its low tile, and every other meld (a second copy of a chow among them)
        // stands beside the plan.
        let covered = p.lows.map(|l| self.chow_lows >> l.min(63) & 1 == 1);
        let n_covered = covered.iter().filter(|&&c| c).count() as u8;
        let other = self.n_melds - n_covered;
        if other > 1 {
            return None;
        }
        let open = 3 - n_covered;
        // Sets still to build beside the plan: 4 - melds - open chows.
        Some((covered, 4u8.checked_sub(self.n_melds + open)?))
    }
}

/// The shares of a full hand that every one of its discards reuses
/// ([`Evaluator::discard_context`]).
#[derive(Debug, Clone)]
pub struct DiscardContext {
    /// The full hand's group entries.
    full: [Entry; 4],
    /// For each group, the other three groups merged, once read ([`DiscardContext::rest`];
    /// a lock, so that a policy keeping a context stays shareable between threads).
    rest: OnceLock<[Entry; 4]>,
    /// Groups 0 and 1 merged, groups 2 and 3 merged.
    halves: [Entry; 2],
    plans: [PlanContext; MAX_CHOW_PLANS],
    /// The full hand's group ranks.
    ranks: [usize; 4],
    /// The kinds the full hand holds.
    held: u64,
    /// The kinds the full hand holds at least twice (with `pair_stats` and `at_least`,
    /// written when a form that reads it is measured).
    pairs: u64,
    /// The full hand's pairs (a four counts as two) and kinds held an odd number of times.
    pair_stats: (u32, u32),
    /// Kinds the full hand holds at least once, twice and three times.
    at_least: [usize; 3],
    /// Each slot's value for the full hand: no discard leaves more. Like `weight`, it is
    /// written for the slots of `order` only (a context is refilled without clearing).
    bound: [f32; N_SLOTS],
    /// Each slot's weight after a suited discard (the honors held unchanged).
    weight: [f32; N_SLOTS],
    /// The slots with a bound above 0, highest bound first (equal bounds in slot order).
    order: [u8; N_SLOTS],
    n_order: u8,
    /// The knitted kinds each permutation's straight lacks in the full hand
    /// ([`knitted::missing_kinds`]; measured with the knitted straight's slot, no melds).
    knit_base: [u8; 6],
    /// The full hand's knitted-straight distance ([`knitted_fast`] with bound 5), when
    /// measured with `knit_base`.
    knit_full: u8,
    /// Beside one meld, with `knit_base` (written with the knitted straight's slot): the
    /// kinds the full hand holds at least twice and three times.
    knit_twice: u64,
    knit_thrice: u64,
    /// The limited tables.
    lim: regular::Limited,
    /// The full hand's honors' share of the fan (held and melded).
    honors: f32,
    /// [`Evaluator::concealed`].
    concealed: f32,
}

impl Default for DiscardContext {
    fn default() -> Self {
        Self::new()
    }
}

impl DiscardContext {
    /// A context of no hand, to be filled by [`Evaluator::fill_discard_context`].
    pub fn new() -> DiscardContext {
        DiscardContext {
            full: [[INF; 10]; 4],
            rest: OnceLock::new(),
            halves: [[INF; 10]; 2],
            plans: std::array::from_fn(|_| PlanContext {
                entries: [[INF; 10]; 4],
                codes: [(0, 0, 0); 4],
                held: 0,
                rest: OnceLock::new(),
                settled_rest: [[INF; 10]; 4],
                settled: false,
                touched: 0,
                sets_left: 0,
                missing: 0,
                valid: false,
            }),
            ranks: [0; 4],
            held: 0,
            pairs: 0,
            pair_stats: (0, 0),
            at_least: [0; 3],
            bound: [0.0; N_SLOTS],
            weight: [0.0; N_SLOTS],
            order: [0; N_SLOTS],
            n_order: 0,
            knit_base: [9; 6],
            knit_full: INF,
            knit_twice: 0,
            knit_thrice: 0,
            lim: regular::Limited::get(),
            honors: 0.0,
            concealed: 0.0,
        }
    }
    /// The distance of three-chow plan `i` for the waiting hand left by discarding one `t`
    /// from the full hand (`last`: its only copy); [`INF`] when out of reach. The plan's tiles missing and
    /// its remainder change only at `t`: a kind of the open chows held once goes missing,
    /// any other copy leaves the remainder (one table lookup from its rank codes).
    #[inline(always)]
    fn chow_discard_distance(&self, i: usize, t: usize, last: bool) -> u8 {
        let pc = &self.plans[i.min(MAX_CHOW_PLANS - 1)];
        if !pc.valid {
            return INF;
        }
        let rest = pc.rests();
        let g = (t / 9).min(3);
        let (missing, entry) = if pc.held >> t & 1 == 1 {
            let (h, n, tail) = pc.codes[g];
            let code = (h as usize, n as usize, tail as usize);
            let r = self.lim.rank_without_one(&code, g, t - 9 * g);
            (pc.missing, self.lim.entry_at(g, r))
        } else {
            // The remainder holds no `t`: the discarded copy was the open chows' own.
            (pc.missing + u8::from(last), &pc.entries[g])
        };
        missing.saturating_add(finish(entry, &rest[g], pc.sets_left as usize))
    }

    /// The knitted straight's distance ([`knitted_fast`] with bound 5) of the waiting hand
    /// left by discarding one `t` from the full hand, which then holds the kinds `held`
    /// and has the group ranks `ranks` and honors entry `honors`. The full hand's distance
    /// `knit_full` must have been measured. A discard leaves that distance or one more
    /// (it never brings a plan closer, and the tile given up is at most one more missing),
    /// so only the permutations that can keep it are measured.
    #[inline(always)]
    fn knitted_after(&self, t: usize, held: u64, ranks: &[usize; 4], honors: &Entry) -> u8 {
        let mut base = self.knit_base;
        if held >> t & 1 == 0 {
            for (b, k) in base.iter_mut().zip(knitted::MASKS) {
                *b += (k >> t & 1) as u8;
            }
        }
        let next = self.knit_full.saturating_add(1);
        if next >= 5 {
            knitted_fast(&base, ranks, honors, 5)
        } else {
            match knitted_fast(&base, ranks, honors, next) {
                INF => next,
                d => d,
            }
        }
    }

    /// [`DiscardContext::knitted_after`] of the discard of one `t` (`last`: its only copy)
    /// from group `g`, which then has the rank `rank` (a suit) or the honors entry `own`
    /// (`g` = 3); `knit` holds the full hand's shares and `kept` the permutations at the
    /// full hand's distance `knit_full` ([`knitted::KnitShares::at_distance`]).
    ///
    /// No permutation's straight comes closer with a tile less (it lacks as many kinds or
    /// one more, and its remainder keeps a subset of its tiles), so the discard keeps
    /// `knit_full` exactly when one of `kept` does: one that does not lose the straight's
    /// only copy of `t` and whose remainder stays as far. Otherwise the distance is one
    /// more, as the bound of [`DiscardContext::knitted_after`] reads it (5 or more: out of
    /// reach).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn knitted_after_in(
        &self,
        knit: &knitted::KnitShares,
        kept: u8,
        t: usize,
        last: bool,
        g: usize,
        rank: usize,
        own: &Entry,
    ) -> u8 {
        let lost = if last {
            knitted::PERMS_WITH[t.min(33)]
        } else {
            0
        };
        let mut left = kept & !lost;
        while left != 0 {
            let p = left.trailing_zeros() as usize;
            left &= left - 1;
            let rest = knit.rest_with(g, p, rank, own);
            if rest.is_some_and(|r| self.knit_base[p] + r == self.knit_full) {
                return self.knit_full;
            }
        }
        match self.knit_full.saturating_add(1) {
            next if next >= 5 => INF,
            next => next,
        }
    }

    /// The knitted straight's distance beside one meld ([`Evaluator::form_distance`], below
    /// 5, else [`INF`]) of a hand holding the kinds `held` at least once, `twice` and
    /// `thrice` at least two and three times, each straight lacking `missing` kinds.
    #[inline(always)]
    fn knitted_one_meld(&self, held: u64, twice: u64, thrice: u64, missing: &[u8; 6]) -> u8 {
        knitted::one_meld_from(held, twice, thrice, missing, 5).unwrap_or(INF)
    }

    /// The distance of the whole-hand form of slot `slot` (all pungs, seven pairs,
    /// thirteen orphans, honors and knitted) of the full hand, `m` sets to build, from the
    /// kinds held once, twice and three times and the pair counts written for the forms
    /// measured (equal to [`Evaluator::form_distance`] of the full hand). Not inlined (see
    /// there).
    #[inline(never)]
    fn form_full(&self, slot: usize, m: usize) -> u8 {
        match slot {
            SLOT_PUNGS => {
                let [n1, n2, n3] = self.at_least;
                all_pungs_from(n1, n2, n3, m)
            }
            SLOT_PAIRS => special::seven_pairs_from(self.pair_stats.0, self.pair_stats.1),
            SLOT_ORPHANS => special::thirteen_orphans_held(self.held, self.pairs),
            _ => special::honors_knitted_held(self.held),
        }
    }

    /// Writes the knitted straight's shares beside one meld (`knit_base`, `knit_twice`,
    /// `knit_thrice`) for the full hand `full_hand` and returns its distance. Not inlined
    /// (see [`Evaluator::form_distance`]).
    #[inline(never)]
    fn fill_knitted_one_meld(&mut self, full_hand: &Counts) -> u8 {
        self.knit_base = knitted::missing_kinds(self.held);
        self.knit_twice = special::pairs_held(full_hand);
        self.knit_thrice = special::threes_held(full_hand);
        self.knitted_one_meld(
            self.held,
            self.knit_twice,
            self.knit_thrice,
            &self.knit_base,
        )
    }

    /// [`DiscardContext::knitted_one_meld`] of the waiting hand left by discarding one `t`
    /// from the full hand (beside one meld), which held `c` of it: the kinds held once,
    /// twice and three times change at `t` alone, and a straight lacks `t` when it was
    /// the only copy.
    #[inline(always)]
    fn knitted_one_meld_after(&self, t: usize, c: u8) -> u8 {
        let bit = 1u64 << t;
        let (mut held, mut twice, mut thrice) = (self.held, self.knit_twice, self.knit_thrice);
        let mut missing = self.knit_base;
        match c {
            1 => {
                held &= !bit;
                for (b, k) in missing.iter_mut().zip(knitted::MASKS) {
                    *b += (k >> t & 1) as u8;
                }
            }
            2 => twice &= !bit,
            3 => thrice &= !bit,
            _ => {}
        }
        self.knitted_one_meld(held, twice, thrice, &missing)
    }

    /// The kinds the full hand holds.
    pub fn held(&self) -> u64 {
        self.held
    }

    /// For each group, the full hand's other three groups merged (merged from the halves
    /// when first read after a fill).
    pub fn rest(&self) -> &[Entry; 4] {
        self.rest
            .get_or_init(|| regular::rests_of_halves(&self.full, &self.halves))
    }

    /// [`DiscardContext::rest`] when it has been read already.
    pub(crate) fn rest_if_merged(&self) -> Option<&[Entry; 4]> {
        self.rest.get()
    }

    /// The full hand's groups 0 and 1 merged, and groups 2 and 3 merged.
    pub fn halves(&self) -> &[Entry; 2] {
        &self.halves
    }

    /// Writes ahead the merged rests of the first plan (in the order of their bounds) when
    /// it is a three-chow plan: every discard scored reads them.
    pub(crate) fn settle_first_plan(&mut self) {
        let Some(&slot) = self.order[..self.n_order as usize].first() else {
            return;
        };
        let Some(i) = (slot as usize).checked_sub(SLOT_CHOWS) else {
            return;
        };
        let pc = &mut self.plans[i.min(MAX_CHOW_PLANS - 1)];
        if pc.valid {
            pc.settled_rest = rests(&pc.entries);
            pc.settled = true;
        }
    }

    /// The highest plan value of the full hand (0 when no plan is within reach): no
    /// discard's score exceeds it.
    pub fn bound(&self) -> f32 {
        match self.order[..self.n_order as usize].first() {
            Some(&slot) => self.bound[slot as usize],
            None => 0.0,
        }
    }
}

/// One three-chow plan's share of a [`DiscardContext`]: the group entries of the hand
/// without the plan's open chows, merged per group as in [`DiscardContext::rest`] when
/// first needed.
#[derive(Debug, Clone)]
struct PlanContext {
    /// The group entries of the full hand without the open chows' tiles.
    entries: [Entry; 4],
    /// Their rank codes ([`regular::codes`]; each below 2^16).
    codes: [(u16, u8, u16); 4],
    /// The kinds the full hand without the open chows' tiles holds.
    held: u64,
    /// `entries` merged as in [`regular::rests`], once measured (a lock, so that a
    /// policy keeping a context stays shareable between threads).
    rest: OnceLock<[Entry; 4]>,
    /// The same merge written ahead by [`DiscardContext::settle_first_plan`] (when
    /// `settled`), without the lock's first-use cost.
    settled_rest: [Entry; 4],
    settled: bool,
    /// Suits the open chows take tiles from.
    touched: u8,
    sets_left: u8,
    /// Tiles of the open chows the full hand lacks.
    missing: u8,
    valid: bool,
}

impl PlanContext {
    /// The plan's distance for the full hand (as [`Evaluator::score`] measures it).
    fn full_distance(&self) -> u8 {
        let r = &self.entries;
        let d = finish(
            &combine(&r[0], &r[1]),
            &combine(&r[2], &r[3]),
            self.sets_left as usize,
        );
        self.missing.saturating_add(d)
    }

    /// [`PlanContext::entries`] merged per group.
    #[inline(always)]
    fn rests(&self) -> &[Entry; 4] {
        if self.settled {
            return &self.settled_rest;
        }
        self.rest.get_or_init(|| rests(&self.entries))
    }
}

/// One discard being scored: the hand it leaves, its group and entries, and the honors'
/// share of the fan after it.
struct DiscardAt<'a> {
    hand: &'a Counts,
    /// The discarded kind.
    t: usize,
    /// The entry of the discard's group after it.
    own: &'a Entry,
    /// The entries of the other groups (the discard's group's is not read).
    others: &'a [Entry; 4],
    g: usize,
    honors: f32,
    /// The rank of the discard's group after it (`None` when not known: then the knitted
    /// straight is measured from the counts).
    rank: Option<usize>,
    /// The kinds held after the discard.
    held: u64,
}

impl<'a> DiscardAt<'a> {
    #[inline(always)]
    fn new(
        ev: &Evaluator,
        ctx: &DiscardContext,
        hand: &'a Counts,
        own: &'a Entry,
        others: &'a [Entry; 4],
        t: Tile,
        rank: Option<usize>,
    ) -> Self {
        let g = (t as usize / 9).min(3);
        // An honor discard from a pair or a pung changes the honors' share of the fan (a
        // pung's value, 0.4 of it for a pair); a suited one, a single honor or one of four
        // leaves it: the same terms, added in the same order.
        let honors = if g == 3 && matches!(hand[t as usize], 1 | 2) {
            ev.honor_fan(hand) + ev.meld_fan
        } else {
            ctx.honors
        };
        let held = ctx.held & !(u64::from(hand[t as usize] == 0) << t);
        DiscardAt {
            hand,
            t: t as usize,
            own,
            others,
            g,
            honors,
            rank,
            held,
        }
    }
}

/// The distance of the whole-hand form of slot `slot` (all pungs, seven pairs, thirteen
/// orphans, honors and knitted) after one `t` leaves the full hand of `ctx`, which held
/// `c` of it: the form's counts change at `t` alone, so the full hand's are adjusted
/// (equal to [`Evaluator::form_distance`] of the hand after the discard).
#[inline(always)]
fn form_after_discard(ctx: &DiscardContext, slot: usize, t: usize, c: u8, m: usize) -> u8 {
    let bit = 1u64 << t;
    let held = if c == 1 { ctx.held & !bit } else { ctx.held };
    match slot {
        SLOT_PUNGS => {
            // The counts capped at three: one kind drops from c to c - 1 (a four stays).
            let [mut n1, mut n2, mut n3] = ctx.at_least;
            match c {
                1 => n1 -= 1,
                2 => n2 -= 1,
                3 => n3 -= 1,
                _ => {}
            }
            all_pungs_from(n1, n2, n3, m)
        }
        SLOT_PAIRS => {
            // An even count loses a pair and becomes odd; an odd one stops being odd.
            let (pairs, odd) = ctx.pair_stats;
            if c % 2 == 0 {
                special::seven_pairs_from(pairs - 1, odd + 1)
            } else {
                special::seven_pairs_from(pairs, odd - 1)
            }
        }
        SLOT_ORPHANS => {
            let pairs = if c == 2 { ctx.pairs & !bit } else { ctx.pairs };
            special::thirteen_orphans_held(held, pairs)
        }
        _ => special::honors_knitted_held(held),
    }
}

/// The knitted straight's distance ([`knitted::distance_below`] with bound `bound`,
/// [`INF`] at or above it) of a hand without melds from the knitted kinds each
/// permutation lacks ([`knitted::missing_kinds`]), its group ranks and honors entry. Not
/// inlined (see [`Evaluator::form_distance`]).
#[inline(never)]
fn knitted_fast(base: &[u8; 6], ranks: &[usize; 4], honors: &Entry, bound: u8) -> u8 {
    knitted::distance_fast_with(base, ranks, honors, bound).unwrap_or(INF)
}

/// The fewest kinds of a knitted straight that a hand holding the kinds `held` lacks (a
/// lower bound of its knitted-straight distance). Not inlined (see [`regular_distance`]).
#[inline(never)]
fn knitted_lacking(held: u64) -> u8 {
    knitted::missing_kinds(held)
        .iter()
        .fold(INF, |a, &b| a.min(b))
}

/// The regular distance of a hand with group entries `e` and `m` sets to build. Not
/// inlined: inlined, its merges are computed ahead of the test that needs them.
#[inline(never)]
fn regular_distance(e: &[Entry; 4], m: usize) -> u8 {
    finish(&combine(&e[0], &e[1]), &combine(&e[2], &e[3]), m)
}

/// What the first pass of [`Evaluator::score_discards`] reads: the context, the full
/// hand and its rank codes, the discards and the first plan's slot.
struct FirstPass<'a> {
    ctx: &'a DiscardContext,
    hand: &'a Counts,
    codes: &'a [(usize, usize, usize); 4],
    kinds: u64,
    first: usize,
}

/// The kinds a hand holds at least once and at least twice (bit `t` for kind `t`), which
/// the plans' selection and a decision's context both read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HandKinds {
    pub(crate) held: u64,
    pub(crate) pairs: u64,
}

impl HandKinds {
    /// The kinds `hand` holds.
    #[inline(always)]
    pub(crate) fn of(hand: &Counts) -> HandKinds {
        HandKinds {
            held: special::presence(hand),
            pairs: special::pairs_held(hand),
        }
    }
}

/// A discard's group rank not looked up (see [`Evaluator::first_pass`]).
const NO_RANK: usize = usize::MAX;

/// `SLOT_SCORE[slot]`: the plan of slot `slot` and the kinds it can use
/// ([`slot_plan`], [`slot_allowed`]); at [`N_SLOTS`], no plan's (the plain hand, every
/// kind), which [`Best::NONE`] stands for.
const SLOT_SCORE: [(PlanKind, u64); N_SLOTS + 1] = {
    let mut t = [(PlanKind::Plain, ALL); N_SLOTS + 1];
    let mut slot = 0;
    while slot < N_SLOTS {
        t[slot] = (slot_plan(slot), slot_allowed(slot));
        slot += 1;
    }
    t
};

/// The best plan found so far for a discard: its value, slot and distance (ties go to
/// the earlier slot); [`Best::score`] spells it out.
#[derive(Clone, Copy)]
struct Best {
    value: f32,
    /// The slot ([`N_SLOTS`] for none).
    slot: u8,
    distance: u8,
}

impl Best {
    const NONE: Best = Best {
        value: 0.0,
        slot: N_SLOTS as u8,
        distance: INF,
    };

    /// The plan of slot `slot` at value `value` and distance `distance`.
    #[inline(always)]
    fn at(value: f32, slot: usize, distance: u8) -> Best {
        Best {
            value,
            slot: slot.min(N_SLOTS) as u8,
            distance,
        }
    }

    #[inline(always)]
    fn slot(&self) -> usize {
        self.slot as usize
    }

    /// The score it stands for (no plan: value 0, distance [`INF`], every kind allowed):
    /// the plan and its kinds read from [`SLOT_SCORE`].
    #[inline(always)]
    fn score(&self) -> Score {
        let (plan, allowed) = SLOT_SCORE[self.slot().min(N_SLOTS)];
        Score {
            value: self.value,
            plan,
            distance: self.distance,
            allowed,
        }
    }
}

impl Evaluator {
    /// Kinds whose draw brings a waiting hand closer to `plan` (bit `t` for kind `t`):
    /// for shapes of sets and a pair, the kinds that lower the regular distance among
    /// those the plan can use; for all pungs, the kinds held once or twice; for the
    /// special forms, the form's own improving kinds.
    pub fn useful(&self, plan: PlanKind, allowed: u64, hand: &Counts) -> u64 {
        match plan {
            // The kinds held once or twice: a draw makes a pair or a pung of them.
            PlanKind::AllPungs => special::presence(hand) & !special::threes_held(hand),
            PlanKind::SevenPairs => special::seven_pairs_improving(hand, allowed),
            PlanKind::ThirteenOrphans => special::thirteen_orphans_improving(hand, allowed),
            PlanKind::HonorsKnitted => special::honors_knitted_improving(hand, allowed),
            _ => crate::shanten::regular::improving(hand, &NO_USED, self.n_melds, 0, allowed),
        }
    }
}

/// Plan families, in the order of [`PlanKind::family`]: plain, full flush, half flush, all
/// pungs, seven pairs, thirteen orphans, honours and knitted, knitted straight, three fixed
/// chows.
pub const N_FAMILIES: usize = 9;

impl PlanKind {
    /// The plan's family, 0-8 (see [`N_FAMILIES`]).
    pub fn family(self) -> usize {
        match self {
            PlanKind::Plain => 0,
            PlanKind::FullFlush(_) => 1,
            PlanKind::HalfFlush(_) => 2,
            PlanKind::AllPungs => 3,
            PlanKind::SevenPairs => 4,
            PlanKind::ThirteenOrphans => 5,
            PlanKind::HonorsKnitted => 6,
            PlanKind::KnittedStraight => 7,
            PlanKind::Chows(_) => 8,
        }
    }
}

impl Evaluator {
    /// [`Evaluator::score`] of `hand`, and per plan family ([`N_FAMILIES`], in
    /// [`PlanKind::family`] order) the most valuable of its plans open to this seat as
    /// that score weighs them (`None` for a family with no plan in reach).
    pub fn family_scores(&self, hand: &Counts) -> (Score, [Option<Score>; N_FAMILIES]) {
        let e = [
            table_entry(0, &hand[0..9]),
            table_entry(1, &hand[9..18]),
            table_entry(2, &hand[18..27]),
            table_entry(3, &hand[27..34]),
        ];
        self.family_scores_with(hand, &e)
    }

    /// [`Evaluator::family_scores`] with the hand's four group entries already looked up.
    pub fn family_scores_with(
        &self,
        hand: &Counts,
        e: &[Entry; 4],
    ) -> (Score, [Option<Score>; N_FAMILIES]) {
        let m = 4 - self.n_melds.min(4) as usize;
        let plain = finish(&combine(&e[0], &e[1]), &combine(&e[2], &e[3]), m);
        let honors = self.honor_fan(hand) + self.meld_fan;
        let concealed = self.concealed();
        let mut chow = |_, p: &ChowPlan| self.chow_distance(p, hand, e);
        let mut out: [Option<Score>; N_FAMILIES] = [None; N_FAMILIES];
        let mut top = Score {
            value: 0.0,
            plan: PlanKind::Plain,
            distance: INF,
            allowed: ALL,
        };
        let mut active = self.active_slots();
        while active != 0 {
            let slot = active.trailing_zeros() as usize;
            active &= active - 1;
            let d = self.slot_distance(slot, hand, e, m, plain, &mut chow);
            if d >= INF {
                continue;
            }
            let v = self.weight(self.slot_fan(slot, honors, concealed)) * self.powers.beta(d);
            let here = Score {
                value: v,
                plan: slot_plan(slot),
                distance: d,
                allowed: slot_allowed(slot),
            };
            let family = &mut out[here.plan.family()];
            if family.map_or(true, |b| v > b.value) {
                *family = Some(here);
            }
            if v > top.value {
                top = here;
            }
        }
        (top, out)
    }
}

/// Tiles missing from the nearest all-pungs hand: `m` pungs and a pair from the concealed
/// tiles (ignoring melds; counts at most 4).
pub fn all_pungs_distance(hand: &Counts, m: usize) -> u8 {
    // Keep the best m pungs (by copies held, up to 3) and the best pair among the rest.
    // The counts capped at 3, descending, the largest five: so many kinds held three times
    // or more, then twice, then once (from bit sets of the kinds, eight counts at a time).
    let once = special::presence(hand);
    let twice = special::pairs_held(hand);
    let thrice = special::threes_held(hand);
    let n3 = thrice.count_ones() as usize;
    let n2 = n3 + (twice & !thrice).count_ones() as usize;
    let n1 = n2 + (once & !twice).count_ones() as usize;
    all_pungs_from(n1, n2, n3, m)
}

/// [`all_pungs_distance`] from the numbers of kinds held at least once (`n1`), twice
/// (`n2`) and three times (`n3`).
#[inline(always)]
fn all_pungs_from(n1: usize, n2: usize, n3: usize, m: usize) -> u8 {
    let mut pair_best = 0u8;
    let mut pair_alt = 0u8;
    let top: [u8; 5] =
        std::array::from_fn(|i| u8::from(i < n1) + u8::from(i < n2) + u8::from(i < n3));
    // A pair comes from the (m+1)-th best kind; a kind among the top m could lend its copies
    // but then it is not a pung, so the pair uses the next best kind.
    if m < 5 {
        pair_best = top[m].min(2);
    }
    if m > 0 {
        pair_alt = top[m - 1].min(2);
    }
    let pungs: u8 = top[..m].iter().map(|&c| 3 - c).sum();
    let with_next = pungs + (2 - pair_best);
    // Using the m-th kind as the pair and promoting the next one to a pung.
    let alt = if m > 0 && m < 5 {
        pungs - (3 - top[m - 1]) + (3 - top[m]) + (2 - pair_alt)
    } else {
        with_next
    };
    with_next.min(alt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shanten::regular::{group_entry, span};
    use crate::tile;

    fn counts(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }

    #[test]
    fn rounding_without_the_library_call_matches_round() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut values = vec![
            0.0f32, 0.5, 1.5, 2.5, 0.49999997, 399.5, 400.49997, 400.5, 1e9, -0.5, -3.0,
        ];
        values.push(f32::NAN);
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push((x % 4_000_000) as f32 / 10_000.0);
            values.push((x % 800) as f32 / 2.0);
        }
        for v in values {
            assert_eq!(rounded_tenths(v), (v.round() as usize).min(400), "{v}");
        }
    }

    #[test]
    fn scoring_a_discard_in_context_equals_scoring_it_afresh() {
        let mut rng = crate::wall::Rng::new(0x2545_F491_4F6C_DD1D);
        let mut next = move |n: u64| rng.below(n);
        let meld_sets: [&[Meld]; 3] = [
            &[],
            &[Meld {
                kind: MeldKind::Chow,
                tile: 0,
            }],
            &[
                Meld {
                    kind: MeldKind::Chow,
                    tile: 12,
                },
                Meld {
                    kind: MeldKind::Pung,
                    tile: 31,
                },
            ],
        ];
        for round in 0..3000 {
            let melds = meld_sets[round % 3];
            let n = 14 - 3 * melds.len();
            let mut hand = [0u8; 34];
            let mut k = 0;
            while k < n {
                // Mostly one or two suits, so that the chow plans stay alive.
                let t = if next(3) == 0 { next(34) } else { next(18) } as usize;
                if hand[t] < 4 {
                    hand[t] += 1;
                    k += 1;
                }
            }
            let mut ev = Evaluator::new(melds, 0, 0, 8);
            ev.select_chow_plans(&hand);
            let full =
                std::array::from_fn(|g| group_entry(g, &hand[span(g)], &NO_USED[span(g)], false));
            let ctx = ev.discard_context(&hand, &regular::ranks(&hand), &full);
            for t in (0..34).filter(|&t| hand[t] > 0) {
                let mut h = hand;
                h[t] -= 1;
                let g = (t / 9).min(3);
                let mut e = full;
                e[g] = group_entry(g, &h[span(g)], &NO_USED[span(g)], false);
                assert_eq!(
                    ev.score_discard(&ctx, &h, &e, t as Tile),
                    ev.score_with(&h, &e),
                    "{hand:?} - {t}"
                );
            }
        }
    }

    #[test]
    fn whole_hand_forms_of_the_context_equal_measuring_them_afresh() {
        let mut rng = crate::wall::Rng::new(0x2545_F491_4F6C_DD1D);
        let mut next = move |n: u64| rng.below(n);
        let pung = [Meld {
            kind: MeldKind::Pung,
            tile: 31,
        }];
        for round in 0..3000 {
            let melds: &[Meld] = if round % 3 == 0 { &pung } else { &[] };
            // Every plan is measured by an evaluator without a selection.
            let ev = Evaluator::new(melds, 0, 0, 8);
            let hand = random_hand(&mut next, 14 - 3 * melds.len(), round % 4 == 0);
            let full =
                std::array::from_fn(|g| group_entry(g, &hand[span(g)], &NO_USED[span(g)], false));
            let ctx = ev.discard_context(&hand, &regular::ranks(&hand), &full);
            let m = 4 - melds.len();
            for slot in SLOT_PUNGS..=SLOT_HONORS_KNITTED {
                if ev.active_slots() >> slot & 1 == 1 {
                    assert_eq!(
                        Some(ctx.form_full(slot, m)),
                        ev.form_distance(slot, &hand),
                        "{hand:?} slot {slot}"
                    );
                }
            }
        }
    }

    #[test]
    fn knitted_straight_beside_one_meld_after_a_discard_equals_measuring_it_afresh() {
        let mut rng = crate::wall::Rng::new(0x5DEE_CE66_D1CE_4E5B);
        let mut next = move |n: u64| rng.below(n);
        let melds = [Meld {
            kind: MeldKind::Pung,
            tile: 31,
        }];
        let ev = Evaluator::new(&melds, 0, 0, 8);
        let mut measured = 0;
        for round in 0..3000 {
            let hand = random_hand(&mut next, 11, round % 4 != 0);
            let full =
                std::array::from_fn(|g| group_entry(g, &hand[span(g)], &NO_USED[span(g)], false));
            let mut ctx = ev.discard_context(&hand, &regular::ranks(&hand), &full);
            assert_eq!(
                ctx.fill_knitted_one_meld(&hand),
                ev.form_distance(SLOT_KNITTED, &hand).unwrap_or(INF),
                "{hand:?}"
            );
            for t in (0..34).filter(|&t| hand[t] > 0) {
                let mut h = hand;
                h[t] -= 1;
                let afresh = ev.form_distance(SLOT_KNITTED, &h).unwrap_or(INF);
                measured += usize::from(afresh < INF);
                assert_eq!(
                    ctx.knitted_one_meld_after(t, hand[t]),
                    afresh,
                    "{hand:?} - {t}"
                );
            }
        }
        // The straights in reach are measured, not only the hands beyond the bound.
        assert!(measured > 1000, "{measured}");
    }

    /// A random hand of `n` tiles: mostly near one knitted straight (`knit`), else mostly
    /// one or two suits.
    fn random_hand(next: &mut impl FnMut(u64) -> u64, n: usize, knit: bool) -> Counts {
        let mut hand = [0u8; 34];
        let mut k = 0;
        let straight = knitted::MASKS[next(6) as usize];
        while k < n {
            let t = match (knit, next(4)) {
                (true, 0 | 1) => {
                    let mut m = straight;
                    for _ in 0..next(9) {
                        m &= m - 1;
                    }
                    m.trailing_zeros() as u64
                }
                (_, 0) => next(34),
                _ => next(18),
            } as usize;
            if hand[t] < 4 {
                hand[t] += 1;
                k += 1;
            }
        }
        hand
    }

    #[test]
    fn the_knitted_straight_after_a_discard_equals_measuring_it_afresh() {
        let mut rng = crate::wall::Rng::new(0x5EED_4B17);
        let mut next = move |n: u64| rng.below(n);
        let mut measured = 0;
        for _ in 0..20_000 {
            let hand = random_hand(&mut next, 14, true);
            let mut ev = Evaluator::new(&[], 0, 0, 8);
            ev.select_chow_plans(&hand);
            let ranks = regular::ranks(&hand);
            let full = regular::entries_at(&ranks);
            let ctx = ev.discard_context(&hand, &ranks, &full);
            if ctx.knit_full >= INF {
                continue;
            }
            // The shares score_discards reads the discards from.
            let knit = knitted::KnitShares::new(&ranks, &full[3]);
            let kept = knit.at_distance(&ctx.knit_base, ctx.knit_full);
            for t in (0..34).filter(|&t| hand[t] > 0) {
                let mut after = hand;
                after[t] -= 1;
                let r = regular::ranks(&after);
                let honors = regular::entry_at(3, r[3]);
                let ours = ctx.knitted_after(t, special::presence(&after), &r, honors);
                let afresh = knitted::distance_below(&after, &NO_USED, 0, 0, 5).unwrap_or(INF);
                assert_eq!(ours, afresh, "{hand:?} - {t}");
                let g = (t / 9).min(3);
                let own = regular::entry_at(g, r[g]);
                let shared = ctx.knitted_after_in(&knit, kept, t, hand[t] == 1, g, r[g], own);
                assert_eq!(shared, afresh, "{hand:?} - {t} from the shares");
                measured += 1;
            }
        }
        assert!(measured > 20_000, "{measured} discards measured");
    }

    #[test]
    fn scoring_the_discards_together_equals_scoring_each() {
        let mut rng = crate::wall::Rng::new(0xD15C_A4D5);
        let mut next = move |n: u64| rng.below(n);
        let melds = [
            Meld {
                kind: MeldKind::Chow,
                tile: 12,
            },
            Meld {
                kind: MeldKind::Pung,
                tile: 31,
            },
        ];
        // One context refilled for every hand scores as a new one does.
        let mut reused = DiscardContext::new();
        for round in 0..6000 {
            let melds = &melds[..round % 3];
            let hand = random_hand(&mut next, 14 - 3 * melds.len(), round % 4 == 0);
            let mut ev = Evaluator::new(melds, 0, 1, [8, 8, 0][round % 3]);
            ev.select_chow_plans(&hand);
            let ranks = regular::ranks(&hand);
            let full = regular::entries_at(&ranks);
            let ctx = ev.discard_context(&hand, &ranks, &full);
            ev.fill_discard_context(&mut reused, &hand, &ranks, &full);
            let codes = regular::codes(&hand);
            let kinds = special::presence(&hand);
            let each = |t: usize| {
                let mut h = hand;
                h[t] -= 1;
                let g = (t / 9).min(3);
                let mut e = full;
                e[g] = group_entry(g, &h[span(g)], &NO_USED[span(g)], false);
                ev.score_discard(&ctx, &h, &e, t as Tile)
            };
            let mut out = [(0u8, each(kinds.trailing_zeros() as usize)); 14];
            for share in [0.0, 0.85, 1.0] {
                let mut again = out;
                let (n, top) = ev.score_discards(&ctx, &hand, &codes, kinds, share, &mut out);
                let (k, _) = ev.score_discards(&reused, &hand, &codes, kinds, share, &mut again);
                assert_eq!(out[..n], again[..k], "{hand:?}");
                let best = (0..34)
                    .filter(|&t| kinds >> t & 1 == 1)
                    .map(|t| each(t).value)
                    .fold(0f32, f32::max);
                let mut written = 0u64;
                for &(t, score) in &out[..n] {
                    assert_eq!(score, each(t as usize), "{hand:?} - {t}");
                    written |= 1 << t;
                }
                // The best discard is always written, and the highest value with it.
                assert_eq!(top, best, "{hand:?}");
                for t in (0..34).filter(|&t| kinds >> t & 1 == 1 && written >> t & 1 == 0) {
                    assert!(each(t).value < share * best, "{hand:?} - {t} left out");
                }
            }
        }
    }

    #[test]
    fn the_plan_fan_is_the_figure_the_score_weighs() {
        let mut rng = crate::wall::Rng::new(0xFA4_51A4);
        let melds = [Meld {
            kind: MeldKind::Pung,
            tile: 31,
        }];
        let mut kinds = std::collections::HashSet::new();
        for round in 0..4000 {
            let melds = &melds[..round % 2];
            let n = 13 - 3 * melds.len();
            let mut hand = [0u8; 34];
            let mut k = 0;
            while k < n {
                let t = match rng.below(4) {
                    0 => rng.below(34),
                    1 => 27 + rng.below(7),
                    _ => rng.below(9) + 9 * (round as u64 % 3),
                } as usize;
                if hand[t] < 4 {
                    hand[t] += 1;
                    k += 1;
                }
            }
            let mut ev = Evaluator::new(melds, 1, 0, 8);
            ev.select_chow_plans(&hand);
            let s = ev.score(&hand);
            if s.value <= 0.0 {
                continue;
            }
            let fan = ev.plan_fan(&hand, s.plan);
            let want = ev.weight(fan) * beta_pow(s.distance);
            assert_eq!(want, s.value, "{hand:?} {s:?} fan {fan}");
            kinds.insert(std::mem::discriminant(&s.plan));
            assert!(!ev.plan_name(s.plan).is_empty());
        }
        assert!(kinds.len() >= 4, "{} plan kinds seen", kinds.len());
    }

    #[test]
    fn all_pungs_use_the_kinds_held_once_or_twice() {
        let ev = Evaluator::new(&[], 0, 0, 8);
        let mut rng = crate::wall::Rng::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..2_000 {
            let mut hand = [0u8; 34];
            for c in hand.iter_mut() {
                *c = rng.below(5) as u8;
            }
            let want = (0..34).fold(0u64, |m, t| m | u64::from(matches!(hand[t], 1 | 2)) << t);
            assert_eq!(ev.useful(PlanKind::AllPungs, ALL, &hand), want, "{hand:?}");
        }
    }

    #[test]
    fn plans_are_named() {
        let mut ev = Evaluator::new(&[], 0, 0, 8);
        ev.select_chow_plans(&counts("123456789s1234m"));
        let names: Vec<String> = (0..ev.chow_plans().len() as u8)
            .map(|i| ev.plan_name(PlanKind::Chows(i)))
            .collect();
        assert!(names.contains(&"pure straight s".to_string()), "{names:?}");
        assert_eq!(ev.plan_name(PlanKind::HalfFlush(1)), "half flush p");
        assert_eq!(ev.plan_fan(&counts("1m"), PlanKind::FullFlush(0)), 24.0);
    }

    #[test]
    fn no_discard_scores_above_the_full_hands_bound() {
        // The bound a claim is cut at: every discard of the full hand scores at most it.
        let mut rng = crate::wall::Rng::new(0xB0D);
        let pung = Meld {
            kind: MeldKind::Pung,
            tile: 31,
        };
        for round in 0..1500 {
            let melds: &[Meld] = if round % 3 == 0 { &[pung] } else { &[] };
            let mut hand = [0u8; 34];
            let mut n = 0;
            while n < 14 - 3 * melds.len() {
                let t = rng.below(if round % 2 == 0 { 34 } else { 18 }) as usize;
                if hand[t] < 4 && (t != 31 || melds.is_empty()) {
                    hand[t] += 1;
                    n += 1;
                }
            }
            let mut ev = Evaluator::new(melds, 0, 1, 8);
            ev.select_chow_plans(&hand);
            let ranks = regular::ranks_of(&regular::codes(&hand));
            let ctx = ev.discard_context(&hand, &ranks, &regular::entries_at(&ranks));
            for t in (0..34).filter(|&t| hand[t] > 0) {
                let mut after = hand;
                after[t] -= 1;
                let v = ev.score(&after).value;
                assert!(
                    v <= ctx.bound(),
                    "{hand:?} discarding {t}: {v} > {}",
                    ctx.bound()
                );
            }
        }
    }

    #[test]
    fn the_bound_read_without_the_context_never_hides_a_plan_above_the_floor() {
        let mut rng = crate::wall::Rng::new(0xB0_0B0);
        let mut next = move |n: u64| rng.below(n);
        let melds = [
            Meld {
                kind: MeldKind::Pung,
                tile: 31,
            },
            Meld {
                kind: MeldKind::Chow,
                tile: 3,
            },
            Meld {
                kind: MeldKind::Chow,
                tile: 18,
            },
        ];
        let (mut rejected, mut kept) = (0, 0);
        for round in 0..6000 {
            let melds = &melds[..round % 4];
            let hand = random_hand(&mut next, 14 - 3 * melds.len(), round % 5 == 0);
            let mut ev = Evaluator::new(melds, (round % 4) as u8, 0, [8, 8, 0][round % 3]);
            ev.select_chow_plans(&hand);
            let ranks = regular::ranks(&hand);
            let full = regular::entries_at(&ranks);
            let ctx = ev.discard_context(&hand, &ranks, &full);
            let bound = ctx.bound();
            let kinds = HandKinds::of(&hand);
            for floor in [
                0.0,
                bound * 0.5,
                bound * 0.999,
                bound,
                bound * 1.001,
                bound * 3.0,
            ] {
                let above = ev.bound_above(&hand, kinds, &full, floor);
                if bound > floor {
                    assert!(above, "{hand:?} {melds:?}: {bound} > {floor}");
                    kept += 1;
                } else if !above {
                    rejected += 1;
                }
            }
        }
        // Most hands at or below their floor are shown to be without the context.
        assert!(rejected > kept / 2, "{rejected} rejected, {kept} kept");
    }

    #[test]
    fn plans_beside_melds_without_chows_keep_the_room_test() {
        let pung = |t| Meld {
            kind: MeldKind::Pung,
            tile: t,
        };
        let chow = |t| Meld {
            kind: MeldKind::Chow,
            tile: t,
        };
        for melds in [
            vec![pung(31)],
            vec![pung(2), pung(31)],
            vec![pung(2), pung(11), pung(31)],
            vec![chow(0), pung(31)],
        ] {
            let ev = Evaluator::new(&melds, 0, 0, 8);
            for i in 0..16 {
                assert_eq!(
                    ev.chow_open[i],
                    ev.chow_missing(i, 0).unwrap_or(NO_ROOM),
                    "{melds:?} plan {i}"
                );
            }
        }
    }

    #[test]
    fn chows_within_two_agree_with_counting_each_plan() {
        let mut rng = crate::wall::Rng::new(0xC40_5E7);
        for round in 0..20_000u64 {
            let held = match round % 3 {
                0 => rng.below(1 << 34),
                1 => rng.below(1 << 34) | rng.below(1 << 34),
                _ => rng.below(1 << 34) | rng.below(1 << 34) | rng.below(1 << 34),
            };
            let want = (0..16).fold(0u32, |near, i| {
                near | u32::from((THREE_CHOW_ALL[i] & !held).count_ones() <= 2) << i
            });
            assert_eq!(chows_within_two(held), want, "{held:x}");
        }
    }

    #[test]
    fn all_pungs_distance_agrees_with_sorted_counts() {
        // The counts capped at three and sorted, the best m as pungs and the pair from the
        // next kind or the m-th (then the next kind is the last pung).
        let mut rng = crate::wall::Rng::new(77);
        for round in 0..3000 {
            let m = round % 5;
            let mut h = [0u8; 34];
            let mut n = 0;
            while n < 14 - 3 * (4 - m) {
                let t = rng.below(if round % 2 == 0 { 34 } else { 12 }) as usize;
                if h[t] < 4 {
                    h[t] += 1;
                    n += 1;
                }
            }
            let mut top: Vec<u8> = h.iter().map(|&c| c.min(3)).collect();
            top.sort_unstable_by(|a, b| b.cmp(a));
            let pungs: u8 = top[..m].iter().map(|&c| 3 - c).sum();
            let mut want = pungs + 2 - top[m].min(2);
            if m > 0 {
                want = want.min(pungs - (3 - top[m - 1]) + (3 - top[m]) + 2 - top[m - 1].min(2));
            }
            assert_eq!(all_pungs_distance(&h, m), want, "{h:?} m={m}");
        }
    }

    #[test]
    fn all_pungs_distance_counts_missing_tiles() {
        assert_eq!(all_pungs_distance(&counts("111222333m44455p"), 4), 0);
        assert_eq!(all_pungs_distance(&counts("111222333m4445p"), 4), 1);
        assert_eq!(all_pungs_distance(&counts("11m22m33m44m55m6m7m"), 4), 4);
        assert_eq!(all_pungs_distance(&counts("1m"), 0), 1);
    }

    #[test]
    fn a_flush_is_worth_keeping_over_a_cheap_shape() {
        let ev = Evaluator::new(&[], 0, 0, 8);
        // Nine dots and four scattered characters and bamboos: the flush is the plan.
        let s = ev.score(&counts("1245789p3499p17s"));
        assert!(
            matches!(s.plan, PlanKind::FullFlush(1) | PlanKind::HalfFlush(1)),
            "{s:?}"
        );
        // Discarding a dot costs more than discarding an off-suit tile.
        let keep = ev.score(&counts("1245789p3499p1s"));
        let wreck = ev.score(&counts("245789p3499p17s"));
        assert!(keep.value >= wreck.value);
    }

    #[test]
    fn seven_pairs_and_minimum_zero() {
        let ev = Evaluator::new(&[], 0, 0, 8);
        let s = ev.score(&counts("1133m5577p99s112z"));
        assert_eq!(s.plan, PlanKind::SevenPairs);
        assert_eq!(s.distance, 1);
        // Without a minimum the plain shortest path wins ties.
        let ev0 = Evaluator::new(&[], 0, 0, 0);
        let plain = ev0.score(&counts("123m456p789s1112z"));
        assert_eq!(plain.distance, 1);
    }

    #[test]
    fn chow_plans_are_selected_and_measured() {
        let mut ev = Evaluator::new(&[], 0, 0, 8);
        let h = counts("123456789m1p2s5z");
        ev.select_chow_plans(&h);
        assert!(ev
            .chow_plans()
            .iter()
            .any(|p| p.lows == [0, 3, 6] && p.fan == 16.0));
        let s = ev.score(&counts("123456789m12p5z"));
        assert!(matches!(s.plan, PlanKind::Chows(_)), "{s:?}");
        // 123456789m + 12p + 5z: one tile for the set, one for the pair.
        assert_eq!(s.distance, 2);
    }

    #[test]
    fn melds_restrict_flushes() {
        let melds = [Meld {
            kind: MeldKind::Pung,
            tile: 31,
        }];
        let ev = Evaluator::new(&melds, 0, 0, 8);
        let s = ev.score(&counts("1234567m11p55s"));
        assert!(!matches!(s.plan, PlanKind::FullFlush(_)));
        let melds = [Meld {
            kind: MeldKind::Chow,
            tile: 0,
        }];
        let ev = Evaluator::new(&melds, 0, 0, 8);
        let s = ev.score(&counts("234567m1199m"));
        assert!(matches!(s.plan, PlanKind::FullFlush(0)), "{s:?}");
    }

    #[test]
    fn family_scores_hold_the_score_and_each_family_s_best() {
        let mut rng = crate::wall::Rng::new(3);
        let melds = [Meld {
            kind: MeldKind::Pung,
            tile: 31,
        }];
        for k in 0..3000 {
            let n_melds = k % 2;
            let mut hand = [0u8; 34];
            let mut placed = 0;
            while placed < 13 - 3 * n_melds + (k / 2) % 2 {
                let t = rng.below(34) as usize;
                if hand[t] < 4 && !(n_melds == 1 && t == 31 && hand[t] >= 1) {
                    hand[t] += 1;
                    placed += 1;
                }
            }
            let mut ev = Evaluator::new(&melds[..n_melds], (k % 4) as u8, 0, 8);
            ev.select_chow_plans(&hand);
            let (top, families) = ev.family_scores(&hand);
            let s = ev.score(&hand);
            assert_eq!(
                (top.plan, top.distance, top.value),
                (s.plan, s.distance, s.value)
            );
            let best = families
                .iter()
                .flatten()
                .map(|f| f.value)
                .fold(0.0f32, f32::max);
            assert_eq!(best, s.value);
            for (i, f) in families.iter().enumerate() {
                if let Some(f) = f {
                    assert_eq!(f.plan.family(), i);
                    assert!(f.value <= s.value && f.distance < INF);
                }
            }
        }
    }

    #[test]
    fn plan_fans_name_the_catalog_fans_of_each_plan() {
        use crate::fan::catalog as c;
        // East seat, east round: a pair of east is both wind fans, the red pair a dragon.
        let mut ev = Evaluator::new(&[], 0, 0, 8);
        let hand = counts("1234567m889p11z55z");
        ev.select_chow_plans(&hand);
        assert_eq!(
            ev.plan_fans(&hand, PlanKind::Plain, 0, 0),
            vec![c::PREVALENT_WIND, c::SEAT_WIND, c::DRAGON_PUNG]
        );
        assert_eq!(
            ev.plan_fans(&hand, PlanKind::HalfFlush(0), 1, 2),
            vec![c::HALF_FLUSH, c::DRAGON_PUNG]
        );
        assert_eq!(
            ev.plan_fans(&hand, PlanKind::FullFlush(0), 0, 0),
            vec![c::FULL_FLUSH]
        );
        assert_eq!(
            ev.plan_fans(&hand, PlanKind::SevenPairs, 0, 0),
            vec![c::SEVEN_PAIRS]
        );
        let straight = ev
            .chow_plans()
            .iter()
            .position(|p| p.lows == [0, 3, 6])
            .expect("the pure straight in m is kept");
        assert_eq!(
            ev.plan_fans(&hand, PlanKind::Chows(straight as u8), 0, 0),
            vec![c::PURE_STRAIGHT]
        );
        // A melded pung of white counts like a pair in the hand.
        let pung = Meld {
            kind: MeldKind::Pung,
            tile: 33,
        };
        let ev = Evaluator::new(&[pung], 2, 0, 8);
        let hand = counts("123m456p789s1z");
        assert_eq!(
            ev.plan_fans(&hand, PlanKind::AllPungs, 2, 0),
            vec![c::ALL_PUNGS, c::DRAGON_PUNG]
        );
    }
}
