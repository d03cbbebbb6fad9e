//! Shanten, useful tiles and waits for every GB hand form; exact with respect to the
//! four-copy limit; wild-aware.
//!
//! # Definitions
//!
//! A hand is `13 - 3k` (waiting) or `14 - 3k` (full) concealed tiles beside `k` declared
//! melds. Its *replacement number* `d` in a form is the number of tiles missing from the
//! nearest complete hand of that form, where a complete hand may only use copies that exist:
//! a kind held `u` times in melds can appear at most `4 - u` times in the concealed part.
//! With `W` wild tiles (Huainan's 宝; the counts passed here are the *other* tiles) the
//! wilds fill up to `W` missing tiles and may stand for any face, even a fifth copy.
//! Then
//!
//! ```text
//! shanten = d - W - 1
//! ```
//!
//! so `0` is ready (one tile from complete) and `-1` is complete (full hands only). A tile is
//! *useful* for a waiting hand when drawing it lowers the shanten, and a *wait* when it
//! completes the hand; a kind whose four copies are all in the hand and its melds is neither.
//!
//! # Forms ([`Form`])
//!
//! `regular` (4 - k sets and a pair), `seven_pairs` (four of a kind = two pairs, no melds),
//! `thirteen_orphans`, `honors_knitted` (全不靠 / 七星不靠) and `knitted_straight`
//! (组合龙 with a set and a pair, or with a pair beside one meld). GB and classic use all five
//! ([`Forms::GB`]); Huainan's basic forms are regular and seven pairs ([`Forms::BASIC`]).
//!
//! # Method
//!
//! The regular form reads per-group tables of replacement numbers ([`tables`], generated
//! once on first use by the lattice sweeps documented there) and merges the three suits and
//! the honors ([`regular`]). A group with copies in melds is computed exactly by
//! [`dp`] under its per-kind limits instead. The special forms are closed formulas over the
//! counts and bit masks ([`special`], [`knitted`]). [`wild`] holds the exact wild-aware
//! shape predicates (how a hand with wilds can be read: all pungs, with a chow, 十三浪,
//! 九幺, the 宝吊头 split) and the distances of 十三浪 and 九幺 that the forms here use.
//!
//! # Two layers of API
//!
//! * **Fast, unchecked** (for hot loops: bots, the simulator): [`shanten`], [`shanten_in`],
//!   [`form_shanten`], [`regular_shanten`], [`useful_tiles`], [`useful_tiles_in`],
//!   [`waits`], [`waits_in`], [`is_win`], [`is_win_in`]. They take
//!   `hand: &Counts` (concealed tiles, wilds excluded), `used: &Counts` (copies in the melds,
//!   from [`used_counts`]), `n_melds` and `wilds`; they allocate nothing and never fail, and
//!   assume a valid hand (counts at most 4 with the melds, `13 - 3k - W` or `14 - 3k - W`
//!   tiles). Results that are sets of kinds are `u64` bit masks (bit `t` for kind `t`).
//!   Drawing a wild is not among the kinds: the caller asks for `wilds + 1` itself.
//! * **Checked** ([`checked`]): validates a hand, melds, a rule set and a wild kind and
//!   returns [`crate::MjError::InvalidHand`] naming the problem; the Python bindings use it.
//!
//! ```
//! use majiang::shanten::{self, used_counts};
//! use majiang::tile::{parse, to_counts};
//! let hand = to_counts(&parse("123m456p789s1112z").unwrap()).unwrap();
//! let used = used_counts(&[]);
//! assert_eq!(shanten::shanten(&hand, &used, 0, 0), 0);
//! assert_eq!(shanten::waits(&hand, &used, 0, 0), 1 << 28); // 2z
//! ```

pub mod checked;
pub mod dp;
pub mod knitted;
pub mod regular;
pub mod special;
pub(crate) mod swar;
pub mod tables;
pub mod useful;
pub mod wild;

pub use useful::{is_win, is_win_in, useful_tiles, useful_tiles_in, waits, waits_in};

use crate::error::{MjError, MjResult};
use crate::hand::Meld;
use crate::tile::Counts;

/// One hand form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Form {
    /// Sets and a pair (4 - k sets beside k melds).
    Regular,
    /// Seven pairs (七对); a four of a kind counts as two pairs.
    SevenPairs,
    /// Thirteen orphans (十三幺).
    ThirteenOrphans,
    /// Honors and knitted tiles (全不靠, including 七星不靠).
    HonorsKnitted,
    /// Knitted straight (组合龙) with a set and a pair, or a pair beside one meld.
    KnittedStraight,
    /// Huainan 十三浪: 14 different tiles, suited ones 3+ apart within a suit, no melds
    /// ([`wild::shisanlang_distance`]).
    Shisanlang,
    /// Huainan 九幺: every tile a terminal or an honour, melds pungs or kongs of them
    /// ([`wild::jiuyao_distance`]).
    Jiuyao,
}

impl Form {
    /// Every form, in the order of the Python keys.
    pub const ALL: [Form; 7] = [
        Form::Regular,
        Form::SevenPairs,
        Form::ThirteenOrphans,
        Form::HonorsKnitted,
        Form::KnittedStraight,
        Form::Shisanlang,
        Form::Jiuyao,
    ];

    /// The Python key: `regular`, `seven_pairs`, `thirteen_orphans`, `honors_knitted`,
    /// `knitted_straight`.
    pub fn as_str(self) -> &'static str {
        match self {
            Form::Regular => "regular",
            Form::SevenPairs => "seven_pairs",
            Form::ThirteenOrphans => "thirteen_orphans",
            Form::HonorsKnitted => "honors_knitted",
            Form::KnittedStraight => "knitted_straight",
            Form::Shisanlang => "shisanlang",
            Form::Jiuyao => "jiuyao",
        }
    }

    /// Parses a Python key.
    pub fn parse(s: &str) -> MjResult<Form> {
        Form::ALL.iter().copied().find(|f| f.as_str() == s).ok_or_else(|| {
            MjError::hand(format!(
                "unknown hand form {s:?} (expected regular, seven_pairs, thirteen_orphans, honors_knitted, knitted_straight, shisanlang or jiuyao)"
            ))
        })
    }

    #[inline(always)]
    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of hand forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Forms(u8);

impl Forms {
    /// All five GB forms (also the classic rule set's).
    pub const GB: Forms = Forms(0b11111);
    /// Regular and seven pairs (Huainan's basic forms).
    pub const BASIC: Forms = Forms(0b00011);
    /// Huainan: the basic forms, 十三浪 and 九幺.
    pub const HUAINAN: Forms = Forms(0b110_0011);
    /// No form.
    pub const NONE: Forms = Forms(0);

    /// Only `f`.
    pub const fn only(f: Form) -> Forms {
        Forms(f.bit())
    }
    /// This set plus `f`.
    pub const fn with(self, f: Form) -> Forms {
        Forms(self.0 | f.bit())
    }
    /// True if `f` is in the set.
    #[inline(always)]
    pub const fn contains(self, f: Form) -> bool {
        self.0 & f.bit() != 0
    }
}

/// Copies of each kind in the melds (a kong counts four).
pub fn used_counts(melds: &[Meld]) -> Counts {
    let mut used = [0u8; 34];
    for m in melds {
        m.add_to(&mut used);
    }
    used
}

#[inline(always)]
fn to_shanten(d: u8, wilds: u8) -> i8 {
    (d as i16 - wilds as i16 - 1).clamp(-1, 100) as i8
}

/// Replacement number of one form, `None` when the form cannot apply (seven pairs,
/// thirteen orphans and honors-knitted need no melds, knitted straight at most one).
#[inline]
pub fn form_distance(
    form: Form,
    hand: &Counts,
    used: &Counts,
    n_melds: u8,
    wilds: u8,
) -> Option<u8> {
    match form {
        Form::Regular => Some(regular::distance(hand, used, n_melds, wilds)),
        Form::SevenPairs => (n_melds == 0).then(|| special::seven_pairs(hand)),
        Form::ThirteenOrphans => (n_melds == 0).then(|| special::thirteen_orphans(hand)),
        Form::HonorsKnitted => (n_melds == 0).then(|| special::honors_knitted(hand)),
        Form::KnittedStraight => knitted::distance(hand, used, n_melds, wilds),
        Form::Shisanlang => (n_melds == 0).then(|| wild::shisanlang_distance(hand)),
        Form::Jiuyao => wild::jiuyao_distance(hand, used, n_melds, true),
    }
}

/// Shanten of one form (`None` when it cannot apply).
#[inline]
pub fn form_shanten(
    form: Form,
    hand: &Counts,
    used: &Counts,
    n_melds: u8,
    wilds: u8,
) -> Option<i8> {
    form_distance(form, hand, used, n_melds, wilds).map(|d| to_shanten(d, wilds))
}

/// Shanten of the regular form.
#[inline]
pub fn regular_shanten(hand: &Counts, used: &Counts, n_melds: u8, wilds: u8) -> i8 {
    to_shanten(regular::distance(hand, used, n_melds, wilds), wilds)
}

/// [`regular_shanten`] without wilds from the hand's four group entries in the tables
/// without melded copies (see [`regular::table_entries`]).
pub(crate) fn regular_shanten_with(
    hand: &Counts,
    used: &Counts,
    n_melds: u8,
    tables: &[tables::Entry; 4],
) -> i8 {
    to_shanten(regular::distance_with(hand, used, n_melds, tables), 0)
}

/// [`regular_shanten`] of a `13 - 3k` hand and the kinds among `allowed` whose draw lowers
/// it ([`regular::improving`]), computed together from the same group entries.
pub fn regular_shanten_improving(
    hand: &Counts,
    used: &Counts,
    n_melds: u8,
    wilds: u8,
    allowed: u64,
) -> (i8, u64) {
    let (d, mask) = regular::distance_improving(hand, used, n_melds, wilds, allowed);
    (to_shanten(d, wilds), mask)
}

/// The smallest replacement number over `forms` (255 if `forms` is empty or none applies).
#[inline]
pub fn distance_in(forms: Forms, hand: &Counts, used: &Counts, n_melds: u8, wilds: u8) -> u8 {
    if n_melds == 0 && wilds == 0 && forms.0 & !Forms::GB.0 == 0 && regular::plain(used) {
        return distance_concealed(forms, hand);
    }
    let mut best = u8::MAX;
    if forms.contains(Form::Regular) {
        best = regular::distance(hand, used, n_melds, wilds);
    }
    if n_melds == 0 {
        if forms.contains(Form::SevenPairs) {
            best = best.min(special::seven_pairs(hand));
        }
        if forms.contains(Form::ThirteenOrphans) {
            best = best.min(special::thirteen_orphans(hand));
        }
        if forms.contains(Form::HonorsKnitted) {
            best = best.min(special::honors_knitted(hand));
        }
        if forms.contains(Form::Shisanlang) {
            best = best.min(wild::shisanlang_distance(hand));
        }
    }
    if forms.contains(Form::Jiuyao) {
        if let Some(d) = wild::jiuyao_distance(hand, used, n_melds, true) {
            best = best.min(d);
        }
    }
    if forms.contains(Form::KnittedStraight) {
        if let Some(d) = knitted::distance_below(hand, used, n_melds, wilds, best) {
            best = d;
        }
    }
    best
}

/// [`distance_in`] for a hand without melds or wilds: the group ranks are computed once
/// and shared by the regular form and the knitted straight.
#[inline]
fn distance_concealed(forms: Forms, hand: &Counts) -> u8 {
    let r = regular::ranks(hand);
    let e = regular::entries_at(&r);
    distance_concealed_at(forms, hand, &r, &e)
}

/// [`distance_concealed`] with the group ranks and entries already read.
#[inline(always)]
fn distance_concealed_at(
    forms: Forms,
    hand: &Counts,
    r: &[usize; 4],
    e: &[tables::Entry; 4],
) -> u8 {
    let mut best = u8::MAX;
    if forms.contains(Form::Regular) {
        best = regular::finish(
            &regular::combine(&e[0], &e[1]),
            &regular::combine(&e[2], &e[3]),
            4,
        );
    }
    special_forms_below(forms, hand, r, &e[3], best)
}

/// The least of `best` and the distances of the special forms among `forms` (seven
/// pairs, thirteen orphans, honors and knitted, the knitted straight) of a hand without
/// melds or wilds, whose group ranks are `r` and honors entry `honors`.
#[inline(always)]
fn special_forms_below(
    forms: Forms,
    hand: &Counts,
    r: &[usize; 4],
    honors: &tables::Entry,
    mut best: u8,
) -> u8 {
    if forms.contains(Form::SevenPairs) {
        best = best.min(special::seven_pairs(hand));
    }
    let held = special::presence(hand);
    if forms.contains(Form::ThirteenOrphans) {
        best = best.min(special::thirteen_orphans_held(
            held,
            special::pairs_held(hand),
        ));
    }
    if forms.contains(Form::HonorsKnitted) || forms.contains(Form::KnittedStraight) {
        if forms.contains(Form::HonorsKnitted) {
            best = best.min(special::honors_knitted_held(held));
        }
        if forms.contains(Form::KnittedStraight) {
            if let Some(d) = knitted::distance_fast(held, r, honors, best) {
                best = d;
            }
        }
    }
    best
}

/// GB shanten of many hands whose melds' tiles are unknown (`rows[i]` = concealed counts
/// and number of melds), written to `out`. Hands are taken four at a time so that their
/// table reads overlap in memory; allocation-free.
pub fn shanten_rows(rows: &[(Counts, u8)], out: &mut [i8]) {
    let zero = [0u8; 34];
    for (chunk, dst) in rows.chunks(4).zip(out.chunks_mut(4)) {
        let mut r = [[0usize; 4]; 4];
        let mut e = [[[0u8; tables::LANES]; 4]; 4];
        for (i, (h, _)) in chunk.iter().enumerate() {
            r[i] = regular::ranks(h);
        }
        for i in 0..chunk.len() {
            e[i] = regular::entries_at(&r[i]);
        }
        for (i, (h, k)) in chunk.iter().enumerate() {
            let d = if *k == 0 {
                distance_concealed_at(Forms::GB, h, &r[i], &e[i])
            } else {
                let m = 4 - (*k).min(4) as usize;
                let ei = &e[i];
                let best = regular::finish(
                    &regular::combine(&ei[0], &ei[1]),
                    &regular::combine(&ei[2], &ei[3]),
                    m,
                );
                knitted::distance_below(h, &zero, *k, 0, best).unwrap_or(best)
            };
            dst[i] = to_shanten(d, 0);
        }
    }
}

/// Checks one row of a batch: counts at most 4 and 13-3k or 14-3k tiles; returns k (the
/// number of melds the row's size implies).
pub fn batch_row_melds(row: &Counts) -> Result<u8, String> {
    let words = swar::words(row);
    if words.iter().any(|&w| swar::any_byte_above_4(w)) {
        let t = row.iter().position(|&c| c > 4).unwrap_or(0);
        return Err(format!(
            "{} copies of {} (at most 4)",
            row[t],
            crate::tile::name(t as u8)
        ));
    }
    // Every count is at most 4, so each word's bytes sum below 256.
    let n = words.iter().map(|&w| swar::byte_sum(w) as u32).sum::<u32>();
    match n % 3 {
        1 if n <= 13 => Ok(((13 - n) / 3) as u8),
        2 if n <= 14 => Ok(((14 - n) / 3) as u8),
        _ => Err(format!("{n} tiles (expected 13-3k or 14-3k with k = 0-4)")),
    }
}

/// [`shanten_rows`] over consecutive 34-byte rows of concealed counts (`counts.len()` =
/// 34 × `out.len()`), each checked by [`batch_row_melds`]. On a bad row returns its index
/// within this slice and the problem; the rows before it are written. Allocation-free.
pub fn shanten_flat(counts: &[u8], out: &mut [i8]) -> Result<(), (usize, String)> {
    let mut rows = [([0u8; 34], 0u8); 4];
    for (c, (chunk, dst)) in counts.chunks(34 * 4).zip(out.chunks_mut(4)).enumerate() {
        let n = chunk.len() / 34;
        for (i, (row, slot)) in chunk.chunks_exact(34).zip(rows.iter_mut()).enumerate() {
            slot.0.copy_from_slice(row);
            slot.1 = batch_row_melds(&slot.0).map_err(|e| (4 * c + i, e))?;
        }
        shanten_rows(&rows[..n], dst);
    }
    Ok(())
}

/// The kinds held in `hand` (`14 - 3k` tiles beside `n_melds = k` melds, no wilds) whose
/// discard leaves a ready hand over the five GB forms with the melds' copies ignored: bit
/// `t` set exactly when [`shanten`]`(hand - t, no copies used, n_melds, 0)` is 0. `None`
/// for any other tile count, or counts above four.
///
/// The groups' table entries and rests are read once; each discard looks up its own group
/// again and meets the rest of the hand, and the special forms are measured only when the
/// regular form leaves it short of ready. A hand of `13 - 3k` tiles is never complete in
/// any form, so a regular distance of 1 is the least over the forms.
pub fn ready_discards(hand: &Counts, n_melds: u8) -> Option<u64> {
    let words = swar::words(hand);
    let n: u64 = words.iter().map(|&w| swar::byte_sum(w)).sum();
    if n_melds > 4
        || n + 3 * u64::from(n_melds) != 14
        || words.iter().any(|&w| swar::any_byte_above_4(w))
    {
        return None;
    }
    let m = 4 - n_melds as usize;
    let lim = regular::Limited::get();
    let codes = regular::codes(hand);
    let ranks = regular::ranks_of(&codes);
    let full = regular::entries_at(&ranks);
    let rests = regular::rests_of_halves(&full, &regular::halves(&full));
    let no_copies = [0u8; 34];
    let mut out = 0u64;
    let mut c = *hand;
    let mut kinds = special::presence(hand);
    while kinds != 0 {
        let t = kinds.trailing_zeros() as usize;
        kinds &= kinds - 1;
        let g = (t / 9).min(3);
        let r = lim.rank_without_one(&codes[g], g, t - 9 * g);
        let own = lim.entry_at(g, r);
        let mut best = regular::finish(own, &rests[g], m);
        if best > 1 {
            c[t] -= 1;
            if n_melds == 0 {
                // The special forms as `distance_concealed_at` measures them, from the
                // discard's ranks.
                let mut r_c = ranks;
                r_c[g] = r;
                let honors = if g == 3 { own } else { &full[3] };
                best = special_forms_below(Forms::GB, &c, &r_c, honors, best);
            } else if let Some(d) = knitted::distance_below(&c, &no_copies, n_melds, 0, best) {
                best = d;
            }
            c[t] += 1;
        }
        out |= u64::from(best == 1) << t;
    }
    Some(out)
}

/// Shanten over `forms`: the minimum of the forms' shanten.
#[inline]
pub fn shanten_in(forms: Forms, hand: &Counts, used: &Counts, n_melds: u8, wilds: u8) -> i8 {
    to_shanten(distance_in(forms, hand, used, n_melds, wilds), wilds)
}

/// Shanten over the five GB forms.
#[inline]
pub fn shanten(hand: &Counts, used: &Counts, n_melds: u8, wilds: u8) -> i8 {
    shanten_in(Forms::GB, hand, used, n_melds, wilds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile;

    fn counts(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }

    /// A random hand of `n` tiles drawn from the 136, sometimes from a few kinds only (to
    /// reach pairs, pungs and the special forms' shapes more often).
    fn random_hand(rng: &mut crate::wall::Rng, n: usize) -> Counts {
        let mut c = [0u8; 34];
        let pool: Vec<usize> = match rng.below(4) {
            0 => (0..34)
                .filter(|&t| t % 9 == 0 || t % 9 == 8 || t >= 27)
                .collect(),
            1 => (0..27)
                .filter(|&t| t % 3 == (t / 9) % 3)
                .chain(27..34)
                .collect(),
            2 => (0..7).map(|_| rng.below(34) as usize).collect(),
            _ => (0..34).collect(),
        };
        let mut placed = 0;
        while placed < n {
            let t = pool[rng.below(pool.len() as u64) as usize];
            if c[t] < 4 {
                c[t] += 1;
                placed += 1;
            } else if pool.iter().all(|&k| c[k] == 4) {
                // A small pool filled up: any kind with room.
                let t = (0..34).find(|&k| c[k] < 4).unwrap_or(0);
                c[t] += 1;
                placed += 1;
            }
        }
        c
    }

    #[test]
    fn ready_discards_together_equal_each_discard_measured() {
        let none = [0u8; 34];
        let mut rng = crate::wall::Rng::new(0x00EA_D1E5);
        let mut ready = 0;
        for i in 0..40_000 {
            let k = (i % 5) as u8;
            let hand = random_hand(&mut rng, 14 - 3 * k as usize);
            let mut want = 0u64;
            let mut c = hand;
            for t in 0..34 {
                if c[t] > 0 {
                    c[t] -= 1;
                    want |= u64::from(shanten(&c, &none, k, 0) == 0) << t;
                    c[t] += 1;
                }
            }
            ready += usize::from(want != 0);
            assert_eq!(
                ready_discards(&hand, k),
                Some(want),
                "{hand:?} beside {k} melds"
            );
        }
        // The corpus reaches ready hands in numbers.
        assert!(ready > 4_000, "{ready}");
    }

    #[test]
    fn ready_discards_refuse_other_tile_counts() {
        let z = [0u8; 34];
        assert_eq!(ready_discards(&counts("1234567m"), 0), None);
        assert_eq!(ready_discards(&counts("123456789m1234z"), 1), None);
        assert_eq!(ready_discards(&z, 5), None);
        let mut five = counts("11112345678999m");
        five[0] = 5;
        five[8] = 2;
        assert_eq!(ready_discards(&five, 0), None);
        // Thirteen orphans with one tile over: only that tile's discards keep it ready.
        assert_eq!(
            ready_discards(&counts("19m19p19s1234567z5m"), 0),
            Some(1 << 4)
        );
    }

    #[test]
    fn minimum_over_forms() {
        let z = [0u8; 34];
        assert_eq!(shanten(&counts("19m19p19s1234567z"), &z, 0, 0), 0);
        assert_eq!(shanten(&counts("1122334455667m"), &z, 0, 0), 0);
        assert_eq!(shanten(&counts("147m258p369s1234z"), &z, 0, 0), 0);
        assert_eq!(shanten(&counts("147m258p369s123m1z"), &z, 0, 0), 0);
        assert_eq!(shanten(&counts("123m456p789s11122z"), &z, 0, 0), -1);
        assert_eq!(
            form_shanten(Form::SevenPairs, &counts("1m"), &z, 4, 0),
            None
        );
        assert_eq!(
            shanten_in(Forms::BASIC, &counts("19m19p19s1234567z"), &z, 0, 0),
            6
        );
    }

    #[test]
    fn rows_match_single_calls() {
        let z = [0u8; 34];
        let hands = [
            "123m456p789s1112z",
            "19m19p19s1234567z",
            "147m258p369s1234z",
            "1m",
            "147m258p369s2z",
            "11m",
        ];
        let rows: Vec<(Counts, u8)> = hands
            .iter()
            .map(|s| {
                let c = counts(s);
                let n: u8 = c.iter().sum();
                (c, (14 - n) / 3)
            })
            .collect();
        let mut out = vec![0i8; rows.len()];
        shanten_rows(&rows, &mut out);
        let expect: Vec<i8> = rows.iter().map(|(c, k)| shanten(c, &z, *k, 0)).collect();
        assert_eq!(out, expect);
    }

    #[test]
    fn form_names() {
        for f in Form::ALL {
            assert_eq!(Form::parse(f.as_str()).unwrap(), f);
        }
        assert!(Form::parse("pairs").is_err());
    }
}

#[cfg(test)]
mod timing {
    //! `cargo test --release --no-default-features timing -- --ignored --nocapture` prints
    //! the time per call of the main entry points on random 13-tile hands.
    use super::*;

    /// CPU time of this thread in ns (the machine may be shared; wall time would lie).
    fn cpu_ns() -> u64 {
        std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()
            .and_then(|s| s.split_whitespace().next().and_then(|x| x.parse().ok()))
            .unwrap_or(0)
    }

    fn random_hands(n: usize) -> Vec<Counts> {
        let mut s = 12345u64;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let mut wall: Vec<u8> = (0..136).map(|i| (i / 4) as u8).collect();
            let mut h = [0u8; 34];
            for k in 0..13 {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let j = k + (s >> 33) as usize % (136 - k);
                wall.swap(k, j);
                h[wall[k] as usize] += 1;
            }
            out.push(h);
        }
        out
    }

    /// One timed function.
    type Probe<'a> = dyn Fn(&Counts) -> u64 + 'a;

    /// Runs `f` over `hands` repeatedly for about 0.3 s of CPU; ns per call.
    fn per_call(hands: &[Counts], f: &Probe) -> f64 {
        let mut calls = 0u64;
        let mut acc = 0u64;
        let t = cpu_ns();
        while cpu_ns() - t < 300_000_000 {
            for h in hands {
                acc = acc.wrapping_add(f(std::hint::black_box(h)));
            }
            calls += hands.len() as u64;
        }
        std::hint::black_box(acc);
        (cpu_ns() - t) as f64 / calls as f64
    }

    #[test]
    #[ignore]
    fn print_timings() {
        let hands = match std::env::var("MJ_HAND") {
            Ok(h) => vec![crate::tile::to_counts(&crate::tile::parse(&h).unwrap()).unwrap(); 1000],
            Err(_) => random_hands(20_000),
        };
        let z = [0u8; 34];
        let t = cpu_ns();
        let suit = tables::generate(9, true, true);
        println!(
            "generate suit table: {:.0} ms CPU",
            (cpu_ns() - t) as f64 / 1e6
        );
        std::hint::black_box(suit.len());
        let t = cpu_ns();
        let honors = tables::generate(7, false, true);
        println!(
            "generate honor table: {:.0} ms CPU",
            (cpu_ns() - t) as f64 / 1e6
        );
        std::hint::black_box(honors.len());
        tables::warm_up();
        let suit = tables::suit();
        let e = regular::entries(&hands[0], &z, false, 4);
        let cases: [(&str, &Probe); 12] = [
            ("ranks", &|h| regular::ranks(h).iter().sum::<usize>() as u64),
            ("entries", &|h| {
                regular::entries_at(&regular::ranks(h))
                    .iter()
                    .map(|e| e[9] as u64)
                    .sum()
            }),
            ("suit lookup", &|h| suit.get(&h[0..9])[3] as u64),
            ("combine", &|h| {
                regular::combine(&e[(h[0] & 3) as usize], &e[(h[1] & 3) as usize])[9] as u64
            }),
            ("combine+finish", &|h| {
                let a = regular::combine(&e[(h[0] & 3) as usize], &e[(h[1] & 3) as usize]);
                let b = regular::combine(&e[(h[2] & 3) as usize], &e[(h[3] & 3) as usize]);
                regular::finish(&a, &b, 4) as u64
            }),
            ("regular", &|h| regular::distance(h, &z, 0, 0) as u64),
            ("seven_pairs", &|h| special::seven_pairs(h) as u64),
            ("honors_knitted", &|h| special::honors_knitted(h) as u64),
            ("knitted", &|h| {
                knitted::distance(h, &z, 0, 0).unwrap_or(0) as u64
            }),
            ("shanten", &|h| shanten(h, &z, 0, 0) as u64),
            ("useful", &|h| useful_tiles(h, &z, 0, 0)),
            ("regular useful", &|h| {
                regular::improving(h, &z, 0, 0, u64::MAX)
            }),
        ];
        for (name, f) in cases {
            println!("{name:>16}: {:7.1} ns", per_call(&hands, f));
        }
        // With melds: the groups holding melded copies take the exact DP.
        let mut used = [0u8; 34];
        used[1] = 3; // a melded pung of 2m
        let meld_hands: Vec<Counts> = hands
            .iter()
            .map(|h| {
                let mut h = *h;
                h[1] = h[1].min(1);
                let mut n: u32 = h.iter().map(|&c| c as u32).sum();
                let mut t = 33;
                while n > 10 {
                    if h[t] > 0 {
                        h[t] -= 1;
                        n -= 1;
                    } else {
                        t -= 1;
                    }
                }
                h
            })
            .collect();
        let dp9 = |h: &Counts| dp::entry(&h[0..9], &[4, 1, 4, 4, 4, 4, 4, 4, 4], true, 3)[6] as u64;
        println!("{:>16}: {:7.1} ns", "dp suit", per_call(&meld_hands, &dp9));
        let sh = |h: &Counts| shanten(h, &used, 1, 0) as u64;
        println!(
            "{:>16}: {:7.1} ns",
            "shanten meld",
            per_call(&meld_hands, &sh)
        );
        let us = |h: &Counts| useful_tiles(h, &used, 1, 0);
        println!(
            "{:>16}: {:7.1} ns",
            "useful meld",
            per_call(&meld_hands, &us)
        );
    }
}
