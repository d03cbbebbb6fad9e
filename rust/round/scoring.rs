//! The round's use of the oracle and the fan evaluator: shape checks (is a hand
//! complete, is it ready) and fan evaluation of a win.

use crate::error::MjResult;
use crate::hand::Meld;
use crate::rules::Rules;
use crate::tile::Counts;

use crate::fan as fan_api;
use crate::shanten as shanten_api;

pub use fan_api::{FanResult, WinInput};

const NONE_USED: Counts = [0; 34];

/// True if the concealed tiles (14 - 3k, winning tile included) with `melds` form a
/// winning shape of the rule set (the fan minimum is not checked here).
///
/// The copies in the melds only limit which tiles a hand could still *draw*; whether
/// tiles actually held form a complete hand does not depend on them, so the oracle is
/// asked with no copies used (its fast path).
/// A cheap necessary condition ([`may_be_complete`]) rejects most hands before the
/// oracle is asked.
#[inline]
pub fn complete(concealed: &Counts, melds: &[Meld]) -> bool {
    may_be_complete(concealed, melds.len()) && shanten_api::is_win(concealed, &NONE_USED, melds.len() as u8, 0)
}

/// The six knitted straights (147/258/369 spread over the three suits), as tile lists.
const KNITTED: [[u8; 9]; 6] = {
    let perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut out = [[0u8; 9]; 6];
    let mut p = 0;
    while p < 6 {
        let mut suit = 0;
        while suit < 3 {
            let start = perms[p][suit];
            let mut k = 0;
            while k < 3 {
                out[p][suit * 3 + k] = (suit * 9 + start + 3 * k) as u8;
                k += 1;
            }
            suit += 1;
        }
        p += 1;
    }
    out
};

/// A necessary condition for a complete hand in some GB form, checked in a few dozen
/// operations: the regular form needs each suit's count to be a multiple of three except
/// for the one holding the pair, and honors in pungs or the pair; seven pairs, thirteen
/// orphans and honors-knitted need no melds and, respectively, even counts, only terminals
/// and honors, or no repeated tile; a knitted straight needs its nine tiles.
pub fn may_be_complete(c: &Counts, n_melds: usize) -> bool {
    let mut pairs = 0;
    let mut regular = true;
    for suit in 0..3 {
        let n: u32 = c[suit * 9..suit * 9 + 9].iter().map(|&x| x as u32).sum();
        match n % 3 {
            0 => {}
            2 => pairs += 1,
            _ => regular = false,
        }
    }
    for &x in &c[27..34] {
        match x {
            0 | 3 => {}
            2 => pairs += 1,
            _ => regular = false,
        }
    }
    if regular && pairs == 1 {
        return true;
    }
    if n_melds == 0 {
        if c.iter().all(|&x| x % 2 == 0) {
            return true;
        }
        if c.iter().enumerate().all(|(t, &x)| x == 0 || crate::tile::is_terminal_or_honor(t as u8)) {
            return true;
        }
        if c.iter().all(|&x| x <= 1) {
            return true;
        }
    }
    n_melds <= 1 && KNITTED.iter().any(|k| k.iter().all(|&t| c[t as usize] > 0))
}

/// Shanten of 13 - 3k or 14 - 3k concealed tiles beside `melds` (-1 complete, 0 ready),
/// exact with respect to the copies in the melds.
#[inline]
pub fn shanten(concealed: &Counts, melds: &[Meld]) -> i8 {
    // Ignoring the melds' copies can only make a hand look closer; only a hand that
    // looks ready needs the exact (slower) answer.
    let fast = shanten_api::shanten(concealed, &NONE_USED, melds.len() as u8, 0);
    if fast > 0 || melds.is_empty() {
        return fast;
    }
    let used = shanten_api::used_counts(melds);
    shanten_api::shanten(concealed, &used, melds.len() as u8, 0)
}

/// Fan evaluation of a win.
#[inline]
pub fn evaluate(input: &WinInput, rules: &Rules) -> MjResult<FanResult> {
    fan_api::evaluate(input, rules)
}

/// True if a declared ready (报听) scores its fan under these rules (classic's 听牌).
#[inline]
pub fn ready_scores(rules: &Rules) -> bool {
    rules.fan.ready_fan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{parse, to_counts};
    use crate::wall::Rng;

    #[test]
    fn the_filter_never_rejects_a_complete_hand() {
        // Random full hands (with 0-2 melds' worth of tiles removed): whenever the oracle
        // says complete, the filter must have let it through.
        let mut rng = Rng::new(5);
        let mut complete_seen = 0;
        for i in 0..200_000 {
            let n_melds = i % 3;
            let mut c = [0u8; 34];
            let mut n = 0;
            // Bias toward few kinds so complete hands appear.
            let base = rng.below(27) as usize;
            while n < 14 - 3 * n_melds {
                let t = if rng.below(4) == 0 { rng.below(34) as usize } else { (base + rng.below(9) as usize) % 34 };
                if c[t] < 4 {
                    c[t] += 1;
                    n += 1;
                }
            }
            let win = shanten_api::is_win(&c, &NONE_USED, n_melds as u8, 0);
            if win {
                complete_seen += 1;
                assert!(may_be_complete(&c, n_melds), "{c:?}");
            }
        }
        assert!(complete_seen > 100, "{complete_seen}");
        for s in ["19m19p19s1234567z1m", "147m258p369s12345z", "11223344556677m", "147m258p369s11z234m"] {
            let c = to_counts(&parse(s).unwrap()).unwrap();
            assert!(may_be_complete(&c, 0), "{s}");
            assert!(complete(&c, &[]), "{s}");
        }
    }
}
