//! Settlement of a Huainan hand (docs/rules/huainan.md §10.4-10.6, D-2, D-17, D-18, D-26,
//! D-27): who pays whom, the cap, kong points, several robbers of one kong, and the next dealer.

use super::HuainanOptions;
use crate::hand::{MeldKind, WinKind};

/// Seats counter-clockwise (in play order) after `from`, `from` itself excluded.
pub fn ccw_after(from: usize) -> [usize; 3] {
    [(from + 1) % 4, (from + 2) % 4, (from + 3) % 4]
}

/// Orders the seats that can win on `from`'s tile counter-clockwise from `from` and keeps
/// the ones that win: the first only, or all of them when `all` (several robbers of one
/// kong, §8.4). Returns how many of `out` are filled.
pub fn winners_from(from: usize, can_win: [bool; 4], all: bool, out: &mut [usize; 3]) -> usize {
    let mut n = 0;
    for s in ccw_after(from) {
        if can_win[s] {
            out[n] = s;
            n += 1;
            if !all {
                break;
            }
        }
    }
    n
}

/// What one payer pays a winner whose uncapped value is `raw`: times `dealer_multiplier`
/// when the dealer pays or wins, then capped (§10.4, D-26).
pub fn payment(raw: u64, dealer_involved: bool, o: &HuainanOptions) -> i64 {
    let v = if dealer_involved {
        raw.saturating_mul(o.dealer_multiplier as u64)
    } else {
        raw
    };
    let v = if o.cap == 0 { v } else { v.min(o.cap as u64) };
    v.min(i64::MAX as u64) as i64
}

/// Score changes of a won hand. `winners` holds each winner's seat and uncapped value,
/// counter-clockwise from `from`; `kind` says how they won: after a self-draw each other
/// player pays, on a discard the discarder `from` pays, on a robbed kong the konger `from`
/// pays each robber (§10.5). `kongs` holds every kong the hand kept (a robbed 补杠 is not
/// one) with its owner (§10.6).
pub fn settle_win(
    winners: &[(u8, u64)],
    kind: WinKind,
    from: u8,
    dealer: u8,
    kongs: &[(u8, MeldKind)],
    o: &HuainanOptions,
) -> [i64; 4] {
    let (from, dealer) = (from as usize & 3, dealer as usize & 3);
    let mut d = [0i64; 4];
    for &(w, raw) in winners {
        let w = w as usize & 3;
        let mut pay = |payer: usize| {
            let p = payment(raw, payer == dealer || w == dealer, o);
            d[payer] -= p;
            d[w] += p;
        };
        match kind {
            WinKind::SelfDrawn => ccw_after(w).into_iter().for_each(&mut pay),
            WinKind::Discard | WinKind::RobbedKong => pay(from),
        }
    }
    add_kong_points(&mut d, kongs, o);
    d
}

/// Score changes of an exhaustive draw: nothing, unless `kong_points_on_draw` (D-18).
pub fn settle_draw(kongs: &[(u8, MeldKind)], o: &HuainanOptions) -> [i64; 4] {
    let mut d = [0i64; 4];
    if o.kong_points_on_draw {
        add_kong_points(&mut d, kongs, o);
    }
    d
}

fn add_kong_points(d: &mut [i64; 4], kongs: &[(u8, MeldKind)], o: &HuainanOptions) {
    for &(owner, kind) in kongs {
        let owner = owner as usize & 3;
        let p = match kind {
            MeldKind::ConcealedKong => o.kong_points_an,
            MeldKind::Kong => o.kong_points_ming,
            _ => 0,
        } as i64;
        for other in ccw_after(owner) {
            d[other] -= p;
            d[owner] += p;
        }
    }
}

/// The next dealer (D-2) after a win: the first winner counter-clockwise from the
/// discarder or konger (`winners` in that order); the dealer again after a draw.
pub fn next_dealer(dealer: usize, winners: &[usize]) -> usize {
    winners.first().copied().unwrap_or(dealer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h15_two_robbers() {
        let o = HuainanOptions::default();
        // A = 0 adds a kong; B = 1 and D = 3 can rob.
        let mut out = [0; 3];
        let n = winners_from(0, [false, true, false, true], true, &mut out);
        assert_eq!(&out[..n], &[1, 3]);
        let d = settle_win(&[(1, 4), (3, 2)], WinKind::RobbedKong, 0, 0, &[], &o);
        assert_eq!(d, [-6, 4, 0, 2]);
        assert_eq!(next_dealer(0, &out[..n]), 1);
        assert_eq!(
            winners_from(0, [false, true, false, true], false, &mut out),
            1
        );
    }

    #[test]
    fn h20_first_ccw_from_discarder() {
        // C = 2 discards; D = 3 and B = 1 can win: D is first.
        let mut out = [0; 3];
        let n = winners_from(2, [false, true, false, true], false, &mut out);
        assert_eq!(&out[..n], &[3]);
    }

    #[test]
    fn payments_cap_and_kongs() {
        let o = HuainanOptions::default();
        // H1: self-drawn 2 each.
        assert_eq!(
            settle_win(&[(2, 2)], WinKind::SelfDrawn, 2, 0, &[], &o),
            [-2, -2, 6, -2]
        );
        // H17: 地糊 64 from the dealer; a raw 512 would also cap at 64.
        assert_eq!(
            settle_win(&[(1, 512)], WinKind::Discard, 0, 0, &[], &o),
            [-64, 64, 0, 0]
        );
        // Kong points: an exposed kong of seat 1 and a concealed one of seat 2.
        let kongs = [(1, MeldKind::Kong), (2, MeldKind::ConcealedKong)];
        let d = settle_win(&[(0, 1)], WinKind::Discard, 3, 0, &kongs, &o);
        assert_eq!(d, [1 - 1 - 2, 3 - 2, 6 - 1, -1 - 1 - 2]);
        assert_eq!(d.iter().sum::<i64>(), 0);
        assert_eq!(settle_draw(&kongs, &o), [0; 4]);
        let mut on_draw = o.clone();
        on_draw.kong_points_on_draw = true;
        assert_eq!(settle_draw(&kongs, &on_draw).iter().sum::<i64>(), 0);
        assert_ne!(settle_draw(&kongs, &on_draw), [0; 4]);
        let mut dm = o.clone();
        dm.dealer_multiplier = 2;
        assert_eq!(
            settle_win(&[(2, 2)], WinKind::SelfDrawn, 2, 0, &[], &dm),
            [-4, -2, 8, -2]
        );
        // A self-draw by 2 with a concealed kong of its own: 2 from each plus 2 kong points.
        assert_eq!(
            settle_win(
                &[(2, 8)],
                WinKind::SelfDrawn,
                2,
                0,
                &[(2, MeldKind::ConcealedKong)],
                &o
            ),
            [-10, -10, 30, -10]
        );
        let mut nocap = o.clone();
        nocap.cap = 0;
        assert_eq!(payment(512, false, &nocap), 512);
    }

    #[test]
    fn next_dealer_rules() {
        assert_eq!(next_dealer(2, &[]), 2);
        assert_eq!(next_dealer(2, &[3, 1]), 3);
    }
}
