//! Useful tiles, waits and complete hands (fast, unchecked entry points).

use super::tables::Entry;
use super::{form_distance, regular, special, swar, Form, Forms};
use crate::tile::Counts;

/// Kinds with a copy left outside the hand and the melds.
#[inline(always)]
pub fn available(hand: &Counts, used: &Counts) -> u64 {
    // Eight kinds at a time: hand + used (at most 8 per byte) is below 4 exactly when its
    // bits from 4 up are clear.
    let mut m = 0u64;
    for (c, (h, u)) in swar::words(hand)
        .into_iter()
        .zip(swar::words(used))
        .enumerate()
    {
        m |= swar::zero_bytes((h + u) & 0xFCFC_FCFC_FCFC_FCFC) << (8 * c);
    }
    // The fifth word's empty bytes would count as free kinds 34-39.
    m & ((1 << 34) - 1)
}

/// Kinds (bit mask) whose draw lowers the shanten over `forms` of a waiting hand
/// (`13 - 3k - W` tiles). Kinds with no copy left are never useful.
pub fn useful_tiles_in(forms: Forms, hand: &Counts, used: &Counts, n_melds: u8, wilds: u8) -> u64 {
    let avail = available(hand, used);
    if wilds == 0 && forms.0 & !Forms::GB.0 == 0 && regular::plain(used) {
        return useful_plain(forms, hand, n_melds) & avail;
    }
    let mut d = [u8::MAX; Form::ALL.len()];
    let mut best = u8::MAX;
    for (i, f) in Form::ALL.iter().enumerate() {
        if forms.contains(*f) && *f != Form::KnittedStraight {
            if let Some(x) = form_distance(*f, hand, used, n_melds, wilds) {
                d[i] = x;
                best = best.min(x);
            }
        }
    }
    if forms.contains(Form::KnittedStraight) {
        // Only needed when it ties the best form: bound the search just above it.
        if let Some(x) =
            super::knitted::distance_below(hand, used, n_melds, wilds, best.saturating_add(1))
        {
            d[4] = x;
            best = best.min(x);
        }
    }
    if best == u8::MAX || best == 0 {
        return 0;
    }
    let mut out = 0u64;
    for (i, f) in Form::ALL.iter().enumerate() {
        if d[i] != best {
            continue;
        }
        out |= form_improving(*f, hand, used, n_melds, wilds, avail & !out);
    }
    out & avail
}

/// [`useful_tiles_in`] for a hand without wilds or melded copies among its kinds (the
/// melds' tiles do not matter, only their number): the group ranks, entries and rests
/// are computed once and shared by every form.
fn useful_plain(forms: Forms, hand: &Counts, n_melds: u8) -> u64 {
    useful_plain_parts(forms, hand, n_melds).0
}

/// [`useful_tiles`] of a hand without wilds and without melded copies among its kinds,
/// and beside it the least distance over the five GB forms (tiles missing from a
/// complete hand: `shanten::shanten` plus one), both from the same group entries.
pub fn useful_tiles_and_distance(hand: &Counts, n_melds: u8) -> (u64, u8) {
    let (out, _, best) = useful_plain_parts(Forms::GB, hand, n_melds);
    (out & available(hand, &[0; 34]), best)
}

/// [`useful_tiles`] of a hand without wilds and without melded copies among its kinds
/// (the melds' tiles do not matter, only their number), and beside it the kinds whose
/// draw lowers its regular-form distance when that form is among its nearest, else 0.
///
/// For a ready hand the second mask is exactly the kinds that complete its tiles into
/// sets and a pair (empty when only a special form is ready); a kind held four times
/// never lowers a distance, so it is in neither mask. Both come from the same group
/// entries, so the regular waits cost nothing beside the useful tiles.
pub fn useful_tiles_and_regular(hand: &Counts, n_melds: u8) -> (u64, u64) {
    let (out, regular, _) = useful_plain_parts(Forms::GB, hand, n_melds);
    (out & available(hand, &[0; 34]), regular)
}

/// [`useful_plain`], with the regular form's own improving kinds (see
/// [`useful_tiles_and_regular`]) and the least distance over `forms` beside it.
#[inline(always)]
fn useful_plain_parts(forms: Forms, hand: &Counts, n_melds: u8) -> (u64, u64, u8) {
    let r = regular::ranks(hand);
    let e = regular::entries_at(&r);
    let rests = forms.contains(Form::Regular).then(|| regular::rests(&e));
    useful_plain_parts_with(forms, hand, n_melds, &r, &e, rests)
}

/// [`useful_tiles_and_regular`] of a hand whose group ranks `r` and entries `e` in the
/// limited tables and rests `rests` (each group's view of the other three merged) are
/// known: the same masks from the same entries.
#[inline]
pub(crate) fn useful_tiles_and_regular_with(
    hand: &Counts,
    n_melds: u8,
    r: &[usize; 4],
    e: &[Entry; 4],
    rests: &[Entry; 4],
) -> (u64, u64) {
    let (out, regular, _) = useful_plain_parts_with(Forms::GB, hand, n_melds, r, e, Some(*rests));
    (out & available(hand, &[0; 34]), regular)
}

/// [`useful_tiles_and_distance`] of a hand whose group ranks `r`, entries `e` and rests
/// `rests` are known, as in [`useful_tiles_and_regular_with`].
#[inline]
pub(crate) fn useful_tiles_and_distance_with(
    hand: &Counts,
    n_melds: u8,
    r: &[usize; 4],
    e: &[Entry; 4],
    rests: &[Entry; 4],
) -> (u64, u8) {
    let (out, _, best) = useful_plain_parts_with(Forms::GB, hand, n_melds, r, e, Some(*rests));
    (out & available(hand, &[0; 34]), best)
}

/// [`useful_tiles`] (no melded copies, no wilds) of a hand whose group ranks `r`,
/// entries `e` and rests `rests` are known, as in [`useful_tiles_and_regular_with`].
#[inline]
pub(crate) fn useful_tiles_with(
    hand: &Counts,
    n_melds: u8,
    r: &[usize; 4],
    e: &[Entry; 4],
    rests: &[Entry; 4],
) -> u64 {
    useful_tiles_and_regular_with(hand, n_melds, r, e, rests).0
}

/// [`useful_plain_parts`] from the hand's group ranks `r`, entries `e` and, when `forms`
/// holds the regular form, rests `rest` ([`regular::rests`]).
#[inline(always)]
fn useful_plain_parts_with(
    forms: Forms,
    hand: &Counts,
    n_melds: u8,
    r: &[usize; 4],
    e: &[Entry; 4],
    rest: Option<[Entry; 4]>,
) -> (u64, u64, u8) {
    const NO_USED: Counts = [0; 34];
    let m = 4 - n_melds.min(4) as usize;
    let concealed = n_melds == 0;
    // The kinds held, for the two knitted forms only.
    let held = if forms.contains(Form::HonorsKnitted) || forms.contains(Form::KnittedStraight) {
        special::presence(hand)
    } else {
        0
    };
    let mut d = [u8::MAX; 5];
    if let Some(rs) = &rest {
        d[0] = regular::finish(&e[0], &rs[0], m);
    }
    if concealed && forms.contains(Form::SevenPairs) {
        d[1] = special::seven_pairs(hand);
    }
    if concealed && forms.contains(Form::ThirteenOrphans) {
        d[2] = special::thirteen_orphans(hand);
    }
    if concealed && forms.contains(Form::HonorsKnitted) {
        d[3] = special::honors_knitted_held(held);
    }
    let mut best = d.iter().copied().min().unwrap_or(u8::MAX);
    if forms.contains(Form::KnittedStraight) {
        // Only needed when it ties the best form: bound the search just above it.
        let bound = best.saturating_add(1);
        let x = if concealed {
            super::knitted::distance_fast(held, r, &e[3], bound)
        } else {
            super::knitted::distance_below(hand, &NO_USED, n_melds, 0, bound)
        };
        if let Some(x) = x {
            d[4] = x;
            best = best.min(x);
        }
    }
    if best == u8::MAX || best == 0 {
        return (0, 0, best);
    }
    let all = u64::MAX >> 30;
    let mut out = 0u64;
    let mut regular_out = 0u64;
    if d[0] == best {
        if let Some(rs) = &rest {
            regular_out = regular::improving_at(r, e, rs, m, best);
            out |= regular_out;
        }
    }
    if d[1] == best {
        out |= special::seven_pairs_improving(hand, all);
    }
    if d[2] == best {
        out |= special::thirteen_orphans_improving(hand, all);
    }
    if d[3] == best {
        out |= special::honors_knitted_improving(hand, all);
    }
    if d[4] == best {
        out |= super::knitted::improving(hand, &NO_USED, n_melds, 0, all);
    }
    (out, regular_out, best)
}

/// Kinds among `allowed` whose draw lowers the distance of one form.
pub fn form_improving(
    form: Form,
    hand: &Counts,
    used: &Counts,
    n_melds: u8,
    wilds: u8,
    allowed: u64,
) -> u64 {
    match form {
        Form::Regular => regular::improving(hand, used, n_melds, wilds, allowed),
        Form::SevenPairs => special::seven_pairs_improving(hand, allowed),
        Form::ThirteenOrphans => special::thirteen_orphans_improving(hand, allowed),
        Form::HonorsKnitted => special::honors_knitted_improving(hand, allowed),
        Form::KnittedStraight => super::knitted::improving(hand, used, n_melds, wilds, allowed),
        Form::Shisanlang | Form::Jiuyao => {
            let Some(d) = form_distance(form, hand, used, n_melds, wilds) else {
                return 0;
            };
            let mut out = 0;
            let mut h = *hand;
            for t in 0..34 {
                if allowed >> t & 1 == 0 || h[t] >= 4 {
                    continue;
                }
                h[t] += 1;
                if form_distance(form, &h, used, n_melds, wilds).is_some_and(|x| x < d) {
                    out |= 1 << t;
                }
                h[t] -= 1;
            }
            out
        }
    }
}

/// Useful tiles over the five GB forms.
#[inline]
pub fn useful_tiles(hand: &Counts, used: &Counts, n_melds: u8, wilds: u8) -> u64 {
    useful_tiles_in(Forms::GB, hand, used, n_melds, wilds)
}

/// Kinds (bit mask) that complete a waiting hand in one of `forms`; 0 unless ready.
pub fn waits_in(forms: Forms, hand: &Counts, used: &Counts, n_melds: u8, wilds: u8) -> u64 {
    if super::distance_in(forms, hand, used, n_melds, wilds) != wilds.saturating_add(1) {
        return 0;
    }
    useful_tiles_in(forms, hand, used, n_melds, wilds)
}

/// Waits over the five GB forms.
#[inline]
pub fn waits(hand: &Counts, used: &Counts, n_melds: u8, wilds: u8) -> u64 {
    waits_in(Forms::GB, hand, used, n_melds, wilds)
}

/// True if a full hand (`14 - 3k - W` tiles) is complete in one of `forms`.
#[inline]
pub fn is_win_in(forms: Forms, hand: &Counts, used: &Counts, n_melds: u8, wilds: u8) -> bool {
    if forms.contains(Form::Regular) && regular::distance(hand, used, n_melds, wilds) <= wilds {
        return true;
    }
    super::distance_in(forms, hand, used, n_melds, wilds) <= wilds
}

/// True if a full hand is complete in one of the five GB forms.
#[inline]
pub fn is_win(hand: &Counts, used: &Counts, n_melds: u8, wilds: u8) -> bool {
    is_win_in(Forms::GB, hand, used, n_melds, wilds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile;

    fn counts(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }
    fn mask(s: &str) -> u64 {
        tile::parse(s).unwrap().iter().fold(0, |m, &t| m | 1 << t)
    }

    #[test]
    fn waits_of_ready_hands() {
        let z = [0u8; 34];
        assert_eq!(
            waits(&counts("1112345678999m"), &z, 0, 0),
            mask("123456789m")
        );
        assert_eq!(
            waits(&counts("19m19p19s1234567z"), &z, 0, 0),
            mask("19m19p19s1234567z")
        );
        assert_eq!(waits(&counts("1111m123456789p"), &z, 0, 0), 0);
        assert_eq!(waits(&counts("1111m234m456p789p"), &z, 0, 0), mask("4m"));
        let mut used = [0u8; 34];
        used[0] = 3;
        assert_eq!(waits(&counts("1m"), &z, 4, 0), mask("1m"));
        assert_eq!(waits(&counts("1m"), &used, 4, 0), 0);
        assert_eq!(waits(&counts("147m258p369s1234z"), &z, 0, 0), mask("567z"));
    }

    #[test]
    fn useful_tiles_beside_melds_lower_the_distance() {
        // The definition: the draws after which the hand is closer in some form.
        let z = [0u8; 34];
        let mut rng = crate::wall::Rng::new(0x05EF_0111);
        let mut useful = 0;
        for round in 0..6000 {
            let n_melds = 1 + (round % 4) as u8;
            let knit = super::super::knitted::MASKS[round % 6];
            let mut hand = [0u8; 34];
            let mut k = 0;
            while k < 13 - 3 * n_melds as usize {
                let t = match round % 3 {
                    0 => rng.below(9) as usize,
                    1 => rng.below(34) as usize,
                    _ => {
                        let mut bits = knit;
                        for _ in 0..rng.below(9) {
                            bits &= bits - 1;
                        }
                        bits.trailing_zeros() as usize
                    }
                };
                if hand[t] < 4 {
                    hand[t] += 1;
                    k += 1;
                }
            }
            let d = super::super::distance_in(Forms::GB, &hand, &z, n_melds, 0);
            let mut want = 0u64;
            for t in 0..34 {
                if hand[t] < 4 {
                    let mut h = hand;
                    h[t] += 1;
                    if super::super::distance_in(Forms::GB, &h, &z, n_melds, 0) < d {
                        want |= 1 << t;
                    }
                }
            }
            assert_eq!(
                useful_tiles(&hand, &z, n_melds, 0),
                want,
                "{hand:?} {n_melds}"
            );
            useful += usize::from(want != 0);
        }
        assert!(useful > 3000, "{useful}");
    }

    #[test]
    fn useful_and_wins() {
        let z = [0u8; 34];
        let h = counts("123m456p789s1122z");
        assert_eq!(useful_tiles(&h, &z, 0, 0), mask("12z"));
        assert!(is_win(&counts("123m456p789s11122z"), &z, 0, 0));
        assert!(!is_win(&counts("123m456p789s11123z"), &z, 0, 0));
        assert!(is_win(&counts("11223344556677m"), &z, 0, 0));
        // With a wild: 123m456p789s111z + wild + 2z.
        assert!(is_win(&counts("123m456p789s1112z"), &z, 0, 1));
        assert!(!is_win_in(
            Forms::BASIC,
            &counts("19m19p19s1234566z"),
            &z,
            0,
            1
        ));
        assert!(is_win(&counts("19m19p19s1234566z"), &z, 0, 1));
    }
}
