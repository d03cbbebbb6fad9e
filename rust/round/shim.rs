//! Temporary stand-ins for crate::fan::evaluate and crate::shanten (not to be landed).
#![allow(dead_code, missing_docs)]

use crate::error::{MjError, MjResult};
use crate::hand::Meld;
use crate::rules::Rules;
use crate::tile::{Counts, Tile};

#[derive(Debug, Clone)]
pub struct WinInput {
    pub hand: Counts,
    pub melds: [Meld; 4],
    pub n_melds: u8,
    pub win_tile: Tile,
    pub self_drawn: bool,
    pub fourth_tile: bool,
    pub about_kong: bool,
    pub wall_last: bool,
    pub seat_wind: u8,
    pub prevalent_wind: u8,
    pub flowers: u8,
    pub declared_ready: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fan(pub u8);
impl Fan {
    pub fn name_en(self) -> &'static str { "Stand-in" }
    pub fn name_zh(self) -> &'static str { "替" }
    pub fn points(self) -> u32 { self.0 as u32 }
}
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FanCount { pub fan: Fan, pub count: u8 }

#[derive(Debug, Clone, PartialEq)]
pub struct FanResult {
    pub fans: Vec<FanCount>,
    pub total: u32,
    pub total_without_flowers: u32,
    pub meets_minimum: bool,
}

pub fn used_counts(melds: &[Meld]) -> Counts {
    let mut used = [0u8; 34];
    for m in melds {
        m.add_to(&mut used);
    }
    used
}

fn regular(c: &mut Counts, pair: bool, from: usize) -> bool {
    let mut i = from;
    while i < 34 && c[i] == 0 {
        i += 1;
    }
    if i == 34 {
        return pair;
    }
    if !pair && c[i] >= 2 {
        c[i] -= 2;
        let ok = regular(c, true, i);
        c[i] += 2;
        if ok {
            return true;
        }
    }
    if c[i] >= 3 {
        c[i] -= 3;
        let ok = regular(c, pair, i);
        c[i] += 3;
        if ok {
            return true;
        }
    }
    if i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        let ok = regular(c, pair, i);
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
        if ok {
            return true;
        }
    }
    false
}

pub fn is_win(c: &Counts, _used: &Counts, n_melds: u8, _w: u8) -> bool {
    let mut x = *c;
    if regular(&mut x, false, 0) {
        return true;
    }
    if n_melds == 0 {
        if c.iter().all(|&k| k == 0 || k == 2 || k == 4) {
            return true;
        }
        const T: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
        if T.iter().all(|&t| c[t] >= 1) && T.iter().map(|&t| c[t] as u32).sum::<u32>() == 14 {
            return true;
        }
    }
    false
}

pub fn shanten(c: &Counts, used: &Counts, n_melds: u8, _w: u8) -> i8 {
    let n: u32 = c.iter().map(|&x| x as u32).sum();
    let mut x = *c;
    if n as usize % 3 == 2 {
        if is_win(c, used, n_melds, 0) {
            return -1;
        }
        for d in 0..34 {
            if x[d] == 0 {
                continue;
            }
            x[d] -= 1;
            let r = (0..34).any(|w| {
                if x[w] >= 4 {
                    return false;
                }
                x[w] += 1;
                let ok = is_win(&x, used, n_melds, 0);
                x[w] -= 1;
                ok
            });
            x[d] += 1;
            if r {
                return 0;
            }
        }
        1
    } else {
        for w in 0..34 {
            if x[w] < 4 {
                x[w] += 1;
                let ok = is_win(&x, used, n_melds, 0);
                x[w] -= 1;
                if ok {
                    return 0;
                }
            }
        }
        1
    }
}

pub fn evaluate(input: &WinInput, rules: &Rules) -> MjResult<FanResult> {
    let mut c = input.hand;
    c[input.win_tile as usize] += 1;
    if !is_win(&c, &c, input.n_melds, 0) {
        return Err(MjError::NotWinning("not a win".into()));
    }
    // A crude stand-in: 8 for concealed hands, 4 + melds for others.
    let mut pts: u32 = if input.n_melds == 0 { 8 } else { 2 + 2 * input.n_melds as u32 };
    if input.self_drawn {
        pts += 1;
    }
    let total = pts + input.flowers as u32;
    Ok(FanResult {
        fans: vec![FanCount { fan: Fan(pts as u8), count: 1 }],
        total,
        total_without_flowers: pts,
        meets_minimum: pts >= rules.fan.min_fan as u32,
    })
}

pub fn ready_fan(rules: &Rules) -> bool {
    rules.kind == crate::rules::RuleSetKind::Classic
}
