//! Ready hands checked against the fan minimum: which waits actually win.
//!
//! A ready hand whose waits all fall short of the minimum cannot win at all, and one whose
//! only scoring wait is a tile nobody has left is as good as dead. For a waiting hand
//! (`13 - 3k` tiles) [`scoring_waits`] scores every completing tile with the fan
//! evaluator, as a win on a discard and as a self-draw, and counts the unseen copies of
//! the waits that reach the minimum.

use crate::fan::{self, WinInput};
use crate::hand::Meld;
use crate::rules::Rules;
use crate::shanten;
use crate::tile::Counts;

const NO_USED: Counts = [0; 34];

/// The seat facts the fan evaluator needs besides the tiles.
#[derive(Debug, Clone, Copy)]
pub struct WinContext {
    /// The seat's melds (the first `n_melds`).
    pub melds: [Meld; 4],
    /// How many melds.
    pub n_melds: u8,
    /// Seat wind 0-3.
    pub seat_wind: u8,
    /// Prevalent wind 0-3.
    pub prevalent_wind: u8,
    /// Flowers set aside.
    pub flowers: u8,
}

/// How a ready hand can win.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct WaitValue {
    /// Unseen copies of the waits that reach the minimum on a discard.
    pub on_discard: u32,
    /// Unseen copies of the waits that reach it only by self-draw.
    pub self_draw_only: u32,
    /// Unseen copies of every completing tile (scoring or not).
    pub shape: u32,
    /// The best fan total of a scoring wait (on a discard, else by self-draw).
    pub best_fan: u32,
}

impl WaitValue {
    /// Scoring wait copies, a self-draw-only wait counted at a third.
    pub fn effective(&self) -> f32 {
        self.on_discard as f32 + self.self_draw_only as f32 / 3.0
    }
}

/// The waits of the waiting hand `hand` (13 - 3k tiles) that win under `rules`, counted
/// by `unseen` copies. All zero when the hand is not ready.
pub fn scoring_waits(hand: &Counts, ctx: &WinContext, rules: &Rules, unseen: &Counts) -> WaitValue {
    let mut out = WaitValue::default();
    let melds = &ctx.melds[..ctx.n_melds.min(4) as usize];
    let mut h = *hand;
    for w in 0..34usize {
        if h[w] >= 4 {
            continue;
        }
        h[w] += 1;
        let win = shanten::is_win(&h, &NO_USED, ctx.n_melds, 0);
        h[w] -= 1;
        if !win {
            continue;
        }
        out.shape += unseen[w] as u32;
        if unseen[w] == 0 {
            continue;
        }
        let Ok(mut input) = WinInput::new(*hand, melds, w as u8) else {
            continue;
        };
        input.seat_wind = ctx.seat_wind;
        input.prevalent_wind = ctx.prevalent_wind;
        input.flowers = ctx.flowers;
        match fan::evaluate(&input, rules) {
            Ok(f) if f.meets_minimum => {
                out.on_discard += unseen[w] as u32;
                out.best_fan = out.best_fan.max(f.total);
                continue;
            }
            _ => {}
        }
        input.self_drawn = true;
        if let Ok(f) = fan::evaluate(&input, rules) {
            if f.meets_minimum {
                out.self_draw_only += unseen[w] as u32;
                out.best_fan = out.best_fan.max(f.total);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::MeldKind;
    use crate::tile;

    fn counts(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }

    fn ctx(melds: &[Meld]) -> WinContext {
        let mut m = [Meld {
            kind: MeldKind::Chow,
            tile: 0,
        }; 4];
        m[..melds.len()].copy_from_slice(melds);
        WinContext {
            melds: m,
            n_melds: melds.len() as u8,
            seat_wind: 0,
            prevalent_wind: 0,
            flowers: 0,
        }
    }

    #[test]
    fn a_cheap_wait_does_not_score_and_a_flush_wait_does() {
        let rules = Rules::gb();
        let all = [4u8; 34];
        // A plain mixed hand waiting on 3m / 6m: far below 8 fan.
        let cheap = scoring_waits(&counts("45m123p456p678s55z"), &ctx(&[]), &rules, &all);
        assert!(cheap.shape > 0);
        assert_eq!(cheap.on_discard, 0);
        // A full flush waiting on 3m / 6m: 24 fan or more.
        let flush = scoring_waits(&counts("1112345678999m"), &ctx(&[]), &rules, &all);
        assert!(flush.on_discard >= 8 && flush.best_fan >= 24, "{flush:?}");
        // Not ready: nothing.
        assert_eq!(
            scoring_waits(&counts("1357m2468p1357s1z"), &ctx(&[]), &rules, &all),
            WaitValue::default()
        );
    }
}
