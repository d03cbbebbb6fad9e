//! The shanten of every discard of a full hand, computed together.
//!
//! The lookahead asks, for a full hand (`14 - 3k` tiles), which discards leave it ready or
//! one tile from ready. Asking [`crate::shanten::shanten`] once per discard recombines all
//! four groups of the hand every time, although a discard changes only one of them, and
//! measures every form although most are far. Here:
//!
//! - a discard leaves the hand's regular distance as it is or one tile further; the
//!   full hand's other-three-groups merges are built once per group that holds a tile, and
//!   the group's keeping masks ([`crate::shanten::tables::suit_keep`]) on the lanes that
//!   make the distance give every discard of the group at once, with no entry per
//!   discard;
//! - a discard never brings a hand closer to a form (the tiles missing from a complete
//!   hand can only grow when a tile goes), so a form whose distance for the full hand is
//!   already beyond what the caller asks about is not measured for any discard.
//!
//! Up to the caller's cap the result is the same number as [`crate::shanten::shanten`]'s
//! (see the tests).
//!
//! Four strong bots meet about 2,700 new full hands per hand of play and ask for about
//! 3,700 more again ([`DiscardMemo`]); the new ones cost about 10.7 million instructions
//! per hand of the 31.4 million the strong bots run when each discard had its own group
//! entry and merge (about 4,000 each: the group merges,
//! the special forms' checks, and one table entry and one merge per held kind).

use super::memo::{self, HandKey};
use crate::shanten::knitted;
use crate::shanten::tables::{self, Entry};
use crate::shanten::{regular, special};
use crate::tile::Counts;

const NO_USED: Counts = [0; 34];

/// The kinds of each group (three suits, the honors) as bit masks.
const GROUP_KINDS: [u64; 4] = [0x1FF, 0x1FF << 9, 0x1FF << 18, 0x7F << 27];

/// Marks a kind not held in [`discard_shanten`]'s result.
pub const NOT_HELD: i8 = i8::MAX;

/// For every kind `y` held in the full hand `hand` (beside `n_melds` melds), the shanten
/// over the five GB forms of the hand without one `y` when it is at most `cap` (equal to
/// `shanten::shanten(&(hand - y), &[0; 34], n_melds, 0)`), else some value above `cap`.
/// [`NOT_HELD`] for the kinds not held.
pub fn discard_shanten(hand: &Counts, n_melds: u8, cap: i8) -> [i8; 34] {
    let mut out = [NOT_HELD; 34];
    each_discard(hand, n_melds, cap, |y, s| out[y] = s);
    out
}

/// [`discard_shanten`] given to `f` kind by kind (the held kinds only).
#[inline(always)]
fn each_discard(hand: &Counts, n_melds: u8, cap: i8, f: impl FnMut(usize, i8)) {
    discards_measured(hand, &measure(hand, n_melds, cap), f);
}

/// What [`each_discard`] reads of the full hand before its discards.
#[derive(Debug, PartialEq)]
struct Measured {
    n_melds: u8,
    /// Distances above it are not told apart.
    limit: u8,
    /// The regular distance of the full hand, and whether it is at most `limit`.
    full: u8,
    regular_near: bool,
    /// Held kinds whose discard keeps the regular distance `full` (when `regular_near`).
    keeping: u64,
    /// The kinds held.
    held: u64,
    /// Pairs and kinds held an odd number of times.
    pairs: u32,
    odd: u32,
    /// The forms that may be within `limit` after a discard.
    pairs_near: bool,
    orphans_near: bool,
    honors_knitted_near: bool,
    knitted_near: bool,
}

impl Measured {
    /// The discards that leave the hand ready and those that leave it one tile from ready
    /// when `limit` is at most 2 and only the regular form may be that near: a discard
    /// leaves the regular distance `full`, or one more when it does not keep it; `None`
    /// when another form may be near.
    fn regular_masks(&self) -> Option<(u64, u64)> {
        if self.limit > 2 || self.special_near() {
            return None;
        }
        let (keep, other) = (self.keeping & self.held, self.held & !self.keeping);
        Some(match (self.regular_near, self.full) {
            (true, 0) => (other, 0),
            (true, 1) => (keep, other),
            (true, 2) => (0, keep),
            _ => (0, 0),
        })
    }

    /// The discards that leave the hand ready (shanten 0) when `limit` is 1 and only the
    /// regular form may be that near: those that keep a regular distance of 1 (or, from a
    /// complete hand, those that do not keep 0); `None` when another form may be.
    fn regular_ready(&self) -> Option<u64> {
        // With the limit 1 a regular distance within it is 0 or 1, and the first mask of
        // `regular_masks` is the ready one.
        if self.limit != 1 {
            return None;
        }
        self.regular_masks().map(|(ready, _)| ready)
    }

    /// Whether a special form (seven pairs, thirteen orphans, the knitted forms) may be
    /// within the limit after a discard.
    fn special_near(&self) -> bool {
        self.pairs_near || self.orphans_near || self.honors_knitted_near || self.knitted_near
    }
}

/// The distance above which [`each_discard`] with the cap `cap` tells no distances
/// apart (shanten = distance - 1).
#[inline(always)]
fn limit_of(cap: i8) -> u8 {
    (cap.max(-1) as i16 + 1).min(60) as u8
}

/// The full hand's regular distance, keeping kinds and special-form bounds
/// ([`Measured`]) for [`each_discard`] with the cap `cap`.
#[inline(always)]
fn measure(hand: &Counts, n_melds: u8, cap: i8) -> Measured {
    let limit = limit_of(cap);
    let m = 4 - n_melds.min(4) as usize;
    let ranks = regular::ranks_of(&regular::codes(hand));
    let e = regular::entries_at(&ranks);
    // The full hand's distance from its two halves; the rest of the hand seen from each
    // group (the other three merged) only for the groups that hold a tile to discard, and
    // only when some discard may be near. A discard leaves the hand at that distance or
    // one further: its group's entry tells which (`regular::keeping_in`).
    let ab = regular::combine(&e[0], &e[1]);
    let ch = regular::combine(&e[2], &e[3]);
    let full = regular::finish(&ab, &ch, m);
    let regular_near = full <= limit;
    let held = special::presence(hand);
    // Held kinds whose discard keeps the regular distance `full`.
    let mut keeping = 0u64;
    if regular_near {
        let (suit, honors) = (tables::suit_keep(), tables::honors_keep());
        let mut keep = |g: usize, rest: &Entry| {
            keeping |= regular::keeping_in(
                if g < 3 { suit } else { honors },
                g,
                ranks[g],
                &e[g],
                rest,
                m,
                full,
            );
        };
        if held & GROUP_KINDS[0] != 0 {
            keep(0, &regular::combine(&e[1], &ch));
        }
        if held & GROUP_KINDS[1] != 0 {
            keep(1, &regular::combine(&e[0], &ch));
        }
        if held & GROUP_KINDS[2] != 0 {
            keep(2, &regular::combine(&ab, &e[3]));
        }
        if held & GROUP_KINDS[3] != 0 {
            keep(3, &regular::combine(&ab, &e[2]));
        }
    }
    with_specials(hand, n_melds, limit, full, regular_near, keeping, held)
}

/// [`Measured`] of the full hand `hand` whose regular part (`full`, `regular_near`,
/// `keeping`) and held kinds are known: the special forms' bounds added.
#[inline(always)]
fn with_specials(
    hand: &Counts,
    n_melds: u8,
    limit: u8,
    full: u8,
    regular_near: bool,
    keeping: u64,
    held: u64,
) -> Measured {
    // Tiles of the nearest knitted straight missing from the full hand: a lower bound of
    // that form's distance.
    let knit_missing = 9 - knitted::most_held(held);
    let knitted_near = n_melds <= 1 && knit_missing <= limit;
    let concealed = n_melds == 0;
    // Seven pairs from the pairs and odd kinds of the full hand: a discard of a kind held
    // an even number of times breaks a pair and leaves an odd kind, one held an odd
    // number of times leaves one odd kind less.
    // (Only a hand without melds can take the concealed forms.)
    let (pairs, odd) = if concealed {
        special::pair_stats(hand)
    } else {
        (0, 0)
    };
    let pairs_near = concealed && special::seven_pairs_from(pairs, odd) <= limit;
    // Thirteen orphans lack at least the orphan kinds not held; the pairs held are read
    // only when that bound is within the limit.
    let orphans_near = concealed
        && special::orphans_missing(held) <= limit
        && special::thirteen_orphans_held(held, special::pairs_held(hand)) <= limit;
    let honors_knitted_near = concealed && special::honors_knitted_held(held) <= limit;
    Measured {
        n_melds,
        limit,
        full,
        regular_near,
        keeping,
        held,
        pairs,
        odd,
        pairs_near,
        orphans_near,
        honors_knitted_near,
        knitted_near,
    }
}

/// The two groups other than `g` and `x` (two different groups), in order.
const OTHER_TWO: [[(usize, usize); 4]; 4] = [
    [(2, 3), (2, 3), (1, 3), (1, 2)],
    [(2, 3), (2, 3), (0, 3), (0, 2)],
    [(1, 3), (0, 3), (0, 1), (0, 1)],
    [(1, 2), (0, 2), (0, 1), (0, 1)],
];

/// The index of the pair of groups `(a, b)`, `a < b`, among the six.
const fn pair_index(a: usize, b: usize) -> usize {
    match (a, b) {
        (0, 1) => 0,
        (0, 2) => 1,
        (0, 3) => 2,
        (1, 2) => 3,
        (1, 3) => 4,
        _ => 5,
    }
}

/// The group entries of a waiting hand (`13 - 3k` tiles, no copy in melds counted),
/// shared by the full hands its draws make: a draw changes one group, so a full hand's
/// regular distance and keeping kinds (what `Measured` holds) come from the drawn group's
/// new entry and merges of the waiting hand's other groups, each merged once for all the
/// draws (the merges are exact minima, so the order in which groups are merged does not
/// change a lane). Built when first needed.
pub struct Parent<'h> {
    hand: &'h Counts,
    built: bool,
    /// The limited tables and their keeping masks, fetched once.
    lim: regular::Limited,
    keep: [&'static [u128]; 2],
    codes: [(usize, usize, usize); 4],
    ranks: [usize; 4],
    e: [Entry; 4],
    /// The kinds held.
    held: u64,
    /// Merges of two groups ([`pair_index`]) and of the three groups other than one,
    /// each known when its bit is set.
    pairs: [Entry; 6],
    pairs_known: u8,
    rests: [Entry; 4],
    rests_known: u8,
}

impl<'h> Parent<'h> {
    /// The waiting hand `hand`'s entries, measured when a full hand first needs them.
    pub fn new(hand: &'h Counts) -> Parent<'h> {
        Parent {
            hand,
            built: false,
            lim: regular::Limited::get(),
            keep: [tables::suit_keep(), tables::honors_keep()],
            codes: [(0, 0, 0); 4],
            ranks: [0; 4],
            e: [[0; tables::LANES]; 4],
            held: 0,
            pairs: [[0; tables::LANES]; 6],
            pairs_known: 0,
            rests: [[0; tables::LANES]; 4],
            rests_known: 0,
        }
    }

    #[inline(always)]
    fn build(&mut self) {
        if !self.built {
            self.codes = regular::codes(self.hand);
            self.ranks = regular::ranks_of(&self.codes);
            self.e = regular::entries_at(&self.ranks);
            self.held = special::presence(self.hand);
            self.built = true;
        }
    }

    /// The merge of groups `a < b`.
    #[inline(always)]
    fn pair(&mut self, a: usize, b: usize) -> Entry {
        let i = pair_index(a, b);
        if self.pairs_known >> i & 1 == 0 {
            self.pairs[i] = regular::combine(&self.e[a], &self.e[b]);
            self.pairs_known |= 1 << i;
        }
        self.pairs[i]
    }

    /// The merge of the three groups other than `g`.
    #[inline(always)]
    fn rest(&mut self, g: usize) -> Entry {
        if self.rests_known >> g & 1 == 0 {
            // The group after `g` (cyclically) beside the merge of the last two.
            let a = (g + 1) % 4;
            let (b, c) = OTHER_TWO[g][a];
            let bc = self.pair(b, c);
            self.rests[g] = regular::combine(&self.e[a], &bc);
            self.rests_known |= 1 << g;
        }
        self.rests[g]
    }
}

impl Parent<'_> {
    /// The group ranks, entries and rests of the hand of `self` with one `y` less (`y`
    /// held): the group of `y` keeps its rest, and every other group's rest is one merge
    /// of the new entry with the hand's pair of the two untouched groups.
    pub fn groups_without(&mut self, y: usize) -> ([usize; 4], [Entry; 4], [Entry; 4]) {
        self.build();
        let lim = self.lim;
        let g = if y < 27 { y / 9 } else { 3 };
        let (mut r, mut e) = (self.ranks, self.e);
        r[g] = lim.rank_at_codes(g, &regular::code_step(&self.codes[g], g, y - 9 * g, false));
        e[g] = *lim.entry_at(g, r[g]);
        (r, e, self.rests_with(g, &e[g]))
    }

    /// The rests of the hand of `self` with group `g`'s entry changed to `eg`: group `g`
    /// keeps its rest, and every other group's rest is one merge of `eg` with the hand's
    /// pair of the two untouched groups.
    #[inline(always)]
    fn rests_with(&mut self, g: usize, eg: &Entry) -> [Entry; 4] {
        let mut rests = [[0; tables::LANES]; 4];
        for (o, rest) in rests.iter_mut().enumerate() {
            *rest = if o == g {
                self.rest(g)
            } else {
                let (a, b) = OTHER_TWO[o][g];
                regular::combine(eg, &self.pair(a, b))
            };
        }
        rests
    }

    /// The group ranks, entries and rests (each group's view of the other three merged)
    /// of the waiting hand of `self` with one `x` more and one `y` less (`x != y`, `y`
    /// held after the draw): the groups the exchange leaves alone keep their entries and
    /// their merges, so a rest is one merge with the waiting hand's pair of the two
    /// untouched groups (or its rest) when `x` and `y` share a group, else at most two.
    pub fn groups_after(&mut self, x: usize, y: usize) -> ([usize; 4], [Entry; 4], [Entry; 4]) {
        debug_assert_ne!(x, y);
        self.build();
        let lim = self.lim;
        let group = |t: usize| if t < 27 { t / 9 } else { 3 };
        let (gx, gy) = (group(x), group(y));
        let (mut r, mut e) = (self.ranks, self.e);
        if gx == gy {
            let g = gx;
            let up = regular::code_step(&self.codes[g], g, x - 9 * g, true);
            r[g] = lim.rank_at_codes(g, &regular::code_step(&up, g, y - 9 * g, false));
            e[g] = *lim.entry_at(g, r[g]);
            return (r, e, self.rests_with(g, &e[g]));
        }
        let mut rests = [[0; tables::LANES]; 4];
        r[gx] = lim.rank_at_codes(
            gx,
            &regular::code_step(&self.codes[gx], gx, x - 9 * gx, true),
        );
        r[gy] = lim.rank_at_codes(
            gy,
            &regular::code_step(&self.codes[gy], gy, y - 9 * gy, false),
        );
        e[gx] = *lim.entry_at(gx, r[gx]);
        e[gy] = *lim.entry_at(gy, r[gy]);
        let (a, b) = OTHER_TWO[gx][gy];
        let untouched = self.pair(a, b);
        rests[gx] = regular::combine(&e[gy], &untouched);
        rests[gy] = regular::combine(&e[gx], &untouched);
        let both = regular::combine(&e[gx], &e[gy]);
        rests[a] = regular::combine(&both, &e[b]);
        rests[b] = regular::combine(&both, &e[a]);
        (r, e, rests)
    }
}

/// [`measure`] of the full hand `hand`, which is the waiting hand of `parent` with one
/// `x` more, with the cap `cap`: the same [`Measured`], its regular part read from the
/// drawn group's new entry and the waiting hand's merges.
#[inline(always)]
fn measure_after(
    parent: &mut Parent<'_>,
    hand: &Counts,
    x: usize,
    n_melds: u8,
    cap: i8,
) -> Measured {
    let limit = limit_of(cap);
    let m = 4 - n_melds.min(4) as usize;
    parent.build();
    let gx = if x < 27 { x / 9 } else { 3 };
    let lim = parent.lim;
    let rx = lim.rank_with_one_more(&parent.codes[gx], gx, x - 9 * gx);
    let ex = *lim.entry_at(gx, rx);
    let rest_x = parent.rest(gx);
    let full = regular::finish(&ex, &rest_x, m);
    let regular_near = full <= limit;
    let held = parent.held | 1 << x;
    debug_assert_eq!(held, special::presence(hand));
    let mut keeping = 0u64;
    if regular_near {
        let [suit, honors] = parent.keep;
        let keep = |g: usize| if g < 3 { suit } else { honors };
        keeping |= regular::keeping_in(keep(gx), gx, rx, &ex, &rest_x, m, full);
        for g in 0..4 {
            if g == gx || held & GROUP_KINDS[g] == 0 {
                continue;
            }
            let (a, b) = OTHER_TWO[g][gx];
            let rest = regular::combine(&ex, &parent.pair(a, b));
            keeping |=
                regular::keeping_in(keep(g), g, parent.ranks[g], &parent.e[g], &rest, m, full);
        }
    }
    with_specials(hand, n_melds, limit, full, regular_near, keeping, held)
}

/// [`each_discard`] of the full hand `hand` measured as `m`.
#[inline(always)]
fn discards_measured(hand: &Counts, m: &Measured, mut f: impl FnMut(usize, i8)) {
    let &Measured {
        n_melds,
        limit,
        full,
        regular_near,
        keeping,
        held,
        pairs,
        odd,
        pairs_near,
        orphans_near,
        honors_knitted_near,
        knitted_near,
    } = m;
    // The special forms' checks of a discard read the hand without it.
    let others_near = orphans_near || honors_knitted_near || knitted_near;
    let mut h = *hand;
    let mut kinds = held;
    while kinds != 0 {
        let y = kinds.trailing_zeros() as usize;
        kinds &= kinds - 1;
        let mut best = u8::MAX;
        if regular_near {
            best = full + u8::from(keeping >> y & 1 == 0);
        }
        if pairs_near {
            let sp = if hand[y] & 1 == 0 {
                special::seven_pairs_from(pairs - 1, odd + 1)
            } else {
                special::seven_pairs_from(pairs, odd - 1)
            };
            best = best.min(sp);
        }
        if others_near {
            h[y] -= 1;
            if orphans_near || honors_knitted_near {
                let held = special::presence(&h);
                if orphans_near {
                    best = best.min(special::thirteen_orphans_held(
                        held,
                        special::pairs_held(&h),
                    ));
                }
                if honors_knitted_near {
                    best = best.min(special::honors_knitted_held(held));
                }
            }
            // A waiting hand is at least one tile from complete, so the knitted straight
            // can only matter above 1; and only a distance up to `limit` matters.
            if knitted_near && best > 1 {
                let bound = best.min(limit + 1);
                if let Some(d) = knitted::distance_below(&h, &NO_USED, n_melds, 0, bound) {
                    best = d;
                }
            }
            h[y] += 1;
        }
        f(y, (best.min(100) as i16 - 1).clamp(-1, 100) as i8);
    }
}

/// Slots of a [`DiscardMemo`].
const MEMO_SLOTS: usize = 2048;

/// One remembered full hand: half a cache line.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct MemoSlot {
    /// The full hand and its number of melds.
    key: HandKey,
    /// Discards leaving the hand ready.
    ready: u64,
    /// Discards leaving it one tile from ready.
    one: u64,
}

const _: () = assert!(std::mem::size_of::<MemoSlot>() == 32);

impl memo::Slot for MemoSlot {
    type Key = HandKey;
    const EMPTY: MemoSlot = MemoSlot {
        key: HandKey::EMPTY,
        ready: 0,
        one: 0,
    };
    fn key(&self) -> HandKey {
        self.key
    }
    fn fresh(key: HandKey) -> MemoSlot {
        MemoSlot { key, ..Self::EMPTY }
    }
}

/// A memo of the discards of full hands that leave them ready or one tile from ready
/// ([`discard_shanten`] up to 1): the lookahead reaches the same full hand by many
/// paths (two draws in either order, different discards before them), within a decision
/// and from one decision to the next. Allocated once; starts over when nearly full.
#[derive(Clone, Default)]
pub struct DiscardMemo {
    table: memo::Table<MemoSlot, MEMO_SLOTS>,
}

impl DiscardMemo {
    /// An empty memo.
    pub fn new() -> DiscardMemo {
        DiscardMemo::default()
    }

    /// Forgets every hand.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The kinds (bit masks) whose discard leaves the full hand `hand` beside `n_melds`
    /// melds ready (shanten 0), and one tile from ready (shanten 1); `key` is
    /// `HandKey::of(hand, n_melds)`.
    pub fn near(&mut self, hand: &Counts, key: HandKey) -> (u64, u64) {
        debug_assert_eq!(key, HandKey::of(hand, key.n_melds()));
        let n_melds = key.n_melds();
        let (slot, new) = self.table.find(key);
        if new || slot.one == ONE_UNKNOWN {
            (slot.ready, slot.one) = near_of(hand, &measure(hand, n_melds, 1));
        }
        (slot.ready, slot.one)
    }

    /// [`DiscardMemo::near`] of the full hand `hand` that is the waiting hand of `parent`
    /// with one `x` more: a hand not measured yet is measured from the waiting hand's
    /// group entries ([`Parent`]), with the same result.
    pub fn near_after(
        &mut self,
        parent: &mut Parent<'_>,
        hand: &Counts,
        key: HandKey,
        x: usize,
    ) -> (u64, u64) {
        debug_assert_eq!(key, HandKey::of(hand, key.n_melds()));
        let (slot, new) = self.table.find(key);
        if new || slot.one == ONE_UNKNOWN {
            let m = measure_after(parent, hand, x, key.n_melds(), 1);
            (slot.ready, slot.one) = near_of(hand, &m);
        }
        (slot.ready, slot.one)
    }

    /// The first mask of [`DiscardMemo::near`] alone: for a new hand only the discards
    /// that leave it ready are measured (no form is measured beyond ready, which spares
    /// most special-form checks), and the other mask is left for [`DiscardMemo::near`]
    /// to measure if it is ever asked.
    pub fn ready(&mut self, hand: &Counts, key: HandKey) -> u64 {
        debug_assert_eq!(key, HandKey::of(hand, key.n_melds()));
        let (slot, new) = self.table.find(key);
        if new {
            let m = measure(hand, key.n_melds(), 0);
            (slot.ready, slot.one) = (ready_of(hand, &m), ONE_UNKNOWN);
        }
        slot.ready
    }

    /// [`DiscardMemo::ready`] of the full hand `hand` that is the waiting hand of `parent`
    /// with one `x` more: a new hand is measured from the waiting hand's group entries
    /// ([`Parent`]), with the same result.
    pub fn ready_after(
        &mut self,
        parent: &mut Parent<'_>,
        hand: &Counts,
        key: HandKey,
        x: usize,
    ) -> u64 {
        debug_assert_eq!(key, HandKey::of(hand, key.n_melds()));
        let (slot, new) = self.table.find(key);
        if new {
            let m = measure_after(parent, hand, x, key.n_melds(), 0);
            (slot.ready, slot.one) = (ready_of(hand, &m), ONE_UNKNOWN);
        }
        slot.ready
    }
}

/// The discards that leave the full hand `hand`, measured as `m` with the cap 1, ready
/// and one tile from ready.
#[inline(always)]
fn near_of(hand: &Counts, m: &Measured) -> (u64, u64) {
    m.regular_masks().unwrap_or_else(|| {
        let (mut ready, mut one) = (0, 0);
        discards_measured(hand, m, |y, s| {
            ready |= u64::from(s == 0) << y;
            one |= u64::from(s == 1) << y;
        });
        (ready, one)
    })
}

/// The discards that leave the full hand `hand`, measured as `m` with the cap 0, ready.
#[inline(always)]
fn ready_of(hand: &Counts, m: &Measured) -> u64 {
    m.regular_ready().unwrap_or_else(|| {
        let mut ready = 0;
        discards_measured(hand, m, |y, s| ready |= u64::from(s == 0) << y);
        ready
    })
}

/// A slot's discards one tile from ready not measured yet (no kind is bit 63).
const ONE_UNKNOWN: u64 = 1 << 63;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shanten;
    use crate::wall::Rng;

    fn plain_shanten(hand: &Counts, n_melds: u8) -> i8 {
        shanten::shanten(hand, &NO_USED, n_melds, 0)
    }

    /// Random full hands: mostly one or two suits (close to ready, chow and flush shapes),
    /// some with many honors or the tiles of a knitted straight, with 0-4 melds.
    fn random_hand(rng: &mut Rng, n_melds: u8) -> Counts {
        let n = 14 - 3 * n_melds as usize;
        let style = rng.below(5);
        let knit = knitted::MASKS[rng.below(6) as usize];
        let mut hand = [0u8; 34];
        let mut k = 0;
        while k < n {
            let t = match style {
                0 => rng.below(9) as usize,
                1 => rng.below(18) as usize,
                2 => (27 + rng.below(7)) as usize,
                // Knitted straights: the nine tiles of one, and anything.
                3 if rng.below(3) > 0 => {
                    let mut bits = knit;
                    for _ in 0..rng.below(9) {
                        bits &= bits - 1;
                    }
                    bits.trailing_zeros() as usize
                }
                _ => rng.below(34) as usize,
            };
            let t = if style == 2 && rng.below(2) == 0 {
                rng.below(34) as usize
            } else {
                t
            };
            if hand[t] < 4 {
                hand[t] += 1;
                k += 1;
            }
        }
        hand
    }

    #[test]
    fn every_discard_matches_the_shanten_of_the_hand_without_it() {
        let mut rng = Rng::new(0x5EED_D15C_A4D5);
        let mut ready = 0;
        for round in 0..20_000 {
            let n_melds = [0, 0, 0, 1, 1, 2, 3, 4][round % 8];
            let hand = random_hand(&mut rng, n_melds);
            for cap in [0, 1, 3, 8] {
                let got = discard_shanten(&hand, n_melds, cap);
                let mut h = hand;
                for y in 0..34 {
                    if hand[y] == 0 {
                        assert_eq!(got[y], NOT_HELD);
                        continue;
                    }
                    h[y] -= 1;
                    let want = plain_shanten(&h, n_melds);
                    if want <= cap {
                        assert_eq!(got[y], want, "{hand:?} melds {n_melds} discard {y}");
                        ready += usize::from(want == 0 && cap == 0);
                    } else {
                        assert!(got[y] > cap, "{hand:?} melds {n_melds} discard {y}");
                    }
                    h[y] += 1;
                }
            }
        }
        assert!(ready > 1000, "{ready} ready discards checked");
    }

    #[test]
    fn a_full_hand_measured_from_its_waiting_hand_is_measured_the_same() {
        let mut rng = Rng::new(0xFA7E_4A5D);
        let mut ready = 0;
        for round in 0..6_000 {
            let n_melds = [0, 0, 1, 2, 3, 4][round % 6];
            // A waiting hand: a full hand without one of its tiles.
            let mut h = random_hand(&mut rng, n_melds);
            let held: Vec<usize> = (0..34).filter(|&t| h[t] > 0).collect();
            let drop = held[rng.below(held.len() as u64) as usize];
            h[drop] -= 1;
            let mut parent = Parent::new(&h);
            let mut memo = DiscardMemo::new();
            for x in (0..34).filter(|&x| h[x] < 4) {
                let mut full = h;
                full[x] += 1;
                let want = measure(&full, n_melds, 0);
                assert_eq!(
                    measure_after(&mut parent, &full, x, n_melds, 0),
                    want,
                    "{h:?} + {x}"
                );
                let want = measure(&full, n_melds, 1);
                let got = measure_after(&mut parent, &full, x, n_melds, 1);
                assert_eq!(got, want, "{h:?} + {x}");
                let key = HandKey::of(&full, n_melds);
                let (near, one) = DiscardMemo::new().near_after(&mut parent, &full, key, x);
                let s = discard_shanten(&full, n_melds, 1);
                for (y, &v) in s.iter().enumerate() {
                    assert_eq!(near >> y & 1 == 1, v == 0, "{full:?} - {y}");
                    assert_eq!(one >> y & 1 == 1, v == 1, "{full:?} - {y}");
                }
                let got = memo.ready_after(&mut parent, &full, key, x);
                let s = discard_shanten(&full, n_melds, 0);
                for (y, &v) in s.iter().enumerate() {
                    assert_eq!(got >> y & 1 == 1, v == 0, "{full:?} - {y}");
                }
                ready += got.count_ones() as usize;
            }
        }
        assert!(ready > 10_000, "{ready} ready discards checked");
    }

    #[test]
    fn an_exchange_of_a_waiting_hand_has_the_groups_measured_afresh() {
        use crate::shanten::{regular, useful};
        let mut rng = Rng::new(0x6A0C_5E11);
        for round in 0..4_000 {
            let n_melds = [0, 0, 1, 2, 3][round % 5];
            let mut h = random_hand(&mut rng, n_melds);
            let held: Vec<usize> = (0..34).filter(|&t| h[t] > 0).collect();
            h[held[rng.below(held.len() as u64) as usize]] -= 1;
            let mut parent = Parent::new(&h);
            for x in (0..34).filter(|&x| h[x] < 4) {
                let mut full = h;
                full[x] += 1;
                for y in (0..34).filter(|&y| y != x && full[y] > 0) {
                    let mut t = full;
                    t[y] -= 1;
                    let (r, e, rests) = parent.groups_after(x, y);
                    assert_eq!(r, regular::ranks(&t), "{h:?} + {x} - {y}");
                    assert_eq!(e, regular::entries_at(&r));
                    assert_eq!(rests, regular::rests(&e), "{h:?} + {x} - {y}");
                    assert_eq!(
                        useful::useful_tiles_and_regular_with(&t, n_melds, &r, &e, &rests),
                        useful::useful_tiles_and_regular(&t, n_melds)
                    );
                }
                // The full hand's own discards.
                let mut whole = Parent::new(&full);
                for y in (0..34).filter(|&y| full[y] > 0) {
                    let mut t = full;
                    t[y] -= 1;
                    let (r, e, rests) = whole.groups_without(y);
                    assert_eq!(r, regular::ranks(&t), "{full:?} - {y}");
                    assert_eq!(rests, regular::rests(&e), "{full:?} - {y}");
                    assert_eq!(
                        useful::useful_tiles_and_distance_with(&t, n_melds, &r, &e, &rests),
                        useful::useful_tiles_and_distance(&t, n_melds)
                    );
                }
            }
        }
    }

    #[test]
    fn special_forms_are_counted() {
        let c = |s: &str| crate::tile::to_counts(&crate::tile::parse(s).unwrap()).unwrap();
        // Seven pairs, thirteen orphans and the knitted forms one discard from ready.
        for s in [
            "1133m5577p99s2245z",
            "19m19p19s12345677z",
            "147m258p369s12345z",
            "147m258p369s11555z",
        ] {
            let hand = c(s);
            let got = discard_shanten(&hand, 0, 8);
            let mut h = hand;
            for y in (0..34).filter(|&y| hand[y] > 0) {
                h[y] -= 1;
                assert_eq!(got[y], plain_shanten(&h, 0), "{s} - {y}");
                h[y] += 1;
            }
            assert!(got.contains(&0), "{s}: {got:?}");
        }
    }

    #[test]
    fn the_memo_gives_the_ready_and_one_away_discards() {
        let mut rng = Rng::new(0xD15C);
        let mut memo = DiscardMemo::new();
        for round in 0..3 * MEMO_SLOTS {
            let n_melds = [0, 1, 2][round % 3];
            // A few hands again and again, and many new ones (the memo starts over).
            let mut again = Rng::new((round % 5) as u64);
            let hand = random_hand(if round % 2 == 0 { &mut again } else { &mut rng }, n_melds);
            let key = HandKey::of(&hand, n_melds);
            // Now and then the ready discards alone first, the others measured after.
            let alone = (round % 3 == 1).then(|| memo.ready(&hand, key));
            let (ready, one) = memo.near(&hand, key);
            assert!(alone.is_none_or(|r| r == ready));
            assert_eq!(memo.ready(&hand, key), ready);
            let s = discard_shanten(&hand, n_melds, 1);
            for (y, &v) in s.iter().enumerate() {
                assert_eq!(ready >> y & 1 == 1, v == 0);
                assert_eq!(one >> y & 1 == 1, v == 1);
            }
        }
        assert!(memo.table.len() <= memo::Table::<MemoSlot, MEMO_SLOTS>::FULL);
    }
}
