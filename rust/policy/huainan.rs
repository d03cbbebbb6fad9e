//! Tile efficiency with 宝 (docs/rules/huainan.md §6): what a policy needs to play Huainan well.
//! Shanten counts the 宝 as wilds (the oracle's Huainan forms); a 宝 is never discarded
//! while another tile can go; a discard that enters the 宝吊头 state (any tile wins) is
//! preferred; a plain self-drawn win is declined when a discard enters that state instead,
//! which pays double (宝吊头 2 against 平糊 1). A kong is declared whenever it does not hurt
//! the hand (its wild-aware shanten is no worse than the best alternative): it keeps the
//! set, draws a free replacement tile and earns kong points (D-27). Under non-default shape
//! options (D-7, D-15) the shanten reads the hand as the oracle does under them
//! ([`crate::huainan::oracle`]).

use crate::hand::{Meld, MeldKind};
use crate::huainan::forms::{self, WinFacts};
use crate::huainan::oracle::{self, ShapeOptions};
use crate::huainan::state::BaoState;
use crate::huainan::HuainanOptions;
use crate::round::Action;
use crate::shanten::wild;
use crate::shanten::{self, Forms};
use crate::tile::{Counts, Tile, N_KINDS};

/// Wild-aware shanten of concealed tiles (13 − 3k or 14 − 3k) with `melds` and 宝 `bao`.
pub fn shanten(hand: &Counts, melds: &[Meld], bao: Tile) -> i8 {
    shanten_under(hand, melds, bao, None)
}

/// [`shanten()`] under non-default shape options (`None`: the defaults, D-7 and D-15).
pub fn shanten_under(hand: &Counts, melds: &[Meld], bao: Tile, sh: Option<&ShapeOptions>) -> i8 {
    let w = wild::Wild::new(hand, Some(bao));
    let used = shanten::used_counts(melds);
    match sh {
        None => shanten::shanten_in(Forms::HUAINAN, &w.nat, &used, melds.len() as u8, w.w),
        Some(o) => oracle::shanten_parts(&w.nat, w.w, hand, &used, melds.len() as u8, o),
    }
}

/// A discard and how good the hand is after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// The tile to discard.
    pub tile: Tile,
    /// Wild-aware shanten after the discard.
    pub shanten: i8,
    /// Unseen copies of the kinds that lower the shanten (a 宝 draw included).
    pub useful: u32,
    /// The discard enters the 宝吊头 state.
    pub bdt: bool,
}

impl Choice {
    fn key(&self) -> (bool, i8, u32) {
        // Entering 宝吊头 first, then lower shanten, then more useful tiles.
        (self.bdt, -self.shanten, self.useful)
    }
}

/// The best discard from a full hand (14 − 3k concealed tiles): never a 宝 while another
/// tile can go; ties go to the lowest code. `unseen` counts the copies of each kind the
/// player has not seen; `allowed` is a bit mask of the kinds that may be discarded.
pub fn best_discard(
    hand: &Counts,
    melds: &[Meld],
    bao: Tile,
    unseen: &Counts,
    allowed: u64,
) -> Option<Choice> {
    let used = shanten::used_counts(melds);
    let k = melds.len() as u8;
    let only_bao = (0..N_KINDS).all(|t| t == bao as usize || hand[t] == 0 || allowed >> t & 1 == 0);
    let mut best: Option<Choice> = None;
    let mut h = *hand;
    for t in 0..N_KINDS {
        if h[t] == 0 || allowed >> t & 1 == 0 || (t == bao as usize && !only_bao) {
            continue;
        }
        h[t] -= 1;
        let w = wild::Wild::new(&h, Some(bao));
        let s = shanten::shanten_in(Forms::HUAINAN, &w.nat, &used, k, w.w);
        let mask = shanten::useful_tiles_in(Forms::HUAINAN, &w.nat, &used, k, w.w);
        let mut useful: u32 = (0..N_KINDS)
            .filter(|&x| mask >> x & 1 == 1 && x != bao as usize)
            .map(|x| unseen[x] as u32)
            .sum();
        if w.w < 4 {
            useful += unseen[bao as usize] as u32;
        }
        let bdt = wild::is_bdt(&h, bao, None);
        h[t] += 1;
        let c = Choice {
            tile: t as Tile,
            shanten: s,
            useful,
            bdt,
        };
        if best.map_or(true, |b| c.key() > b.key()) {
            best = Some(c);
        }
    }
    best
}

/// Whether to take a self-drawn win worth `value` (the hand's own value, 14 − 3k tiles in
/// `hand`), or decline it and discard into the 宝吊头 state, which pays more once any tile
/// is drawn: declined only for a win worth less than `bdt_value` that some discard turns
/// into the 宝吊头 state, with at least `min_wall` tiles left to draw.
pub fn take_self_draw(
    hand: &Counts,
    bao: Tile,
    value: u64,
    bdt_value: u64,
    wall_left: usize,
    min_wall: usize,
) -> bool {
    if value >= bdt_value || wall_left < min_wall || hand[bao as usize] == 0 {
        return true;
    }
    let mut h = *hand;
    for t in 0..N_KINDS {
        if h[t] == 0 || t == bao as usize {
            continue;
        }
        h[t] -= 1;
        let bdt = wild::is_bdt(&h, bao, None);
        h[t] += 1;
        if bdt {
            return false;
        }
    }
    true
}

/// What one Huainan decision sees: the deciding seat's own tiles and 宝 state, its legal
/// actions, the tile under claim and the wall.
#[derive(Debug, Clone, Copy)]
pub struct Decision<'a> {
    /// Concealed tiles (14 − 3k on the seat's turn, the drawn tile included).
    pub hand: &'a Counts,
    /// The seat's melds.
    pub melds: &'a [Meld],
    /// The 宝.
    pub bao: Tile,
    /// The seat's 宝 state.
    pub state: BaoState,
    /// The legal actions.
    pub legal: &'a [Action],
    /// The discard or added kong under claim (claim and robbing windows).
    pub claim: Option<Tile>,
    /// The tile just drawn (own turn after a draw).
    pub drawn: Option<Tile>,
    /// Tiles left in the wall.
    pub wall_remaining: usize,
    /// The rules.
    pub opts: &'a HuainanOptions,
}

/// How well a tile connects to the rest of the hand: copies and suited neighbours within
/// two ranks (a lower score is a better discard).
pub(super) fn connectivity(h: &Counts, t: usize) -> u32 {
    let mut c = 3 * h[t].saturating_sub(1) as u32;
    if t < 27 {
        let r = (t % 9) as i32;
        for d in [-2i32, -1, 1, 2] {
            let q = r + d;
            if (0..9).contains(&q) {
                c += h[(t as i32 + d) as usize] as u32 * if d.abs() == 1 { 2 } else { 1 };
            }
        }
    }
    c
}

/// A fast discard: the lowest wild-aware shanten; among equals, one that enters the 宝吊头
/// state, then the least connected tile. Never a 宝 while another tile can go.
/// `allowed` is a bit mask of the kinds that may be discarded.
pub fn fast_discard(hand: &Counts, melds: &[Meld], bao: Tile, allowed: u64) -> Option<(Tile, i8)> {
    fast_discard_under(hand, melds, bao, allowed, None)
}

/// [`fast_discard`] under non-default shape options (`None`: the defaults); a 宝 may then
/// go when discarding it alone gives the lowest shanten.
pub fn fast_discard_under(
    hand: &Counts,
    melds: &[Meld],
    bao: Tile,
    allowed: u64,
    sh: Option<&ShapeOptions>,
) -> Option<(Tile, i8)> {
    let used = shanten::used_counts(melds);
    let k = melds.len() as u8;
    let can = |t: usize| allowed >> t & 1 == 1;
    let only_bao = (0..N_KINDS).all(|t| t == bao as usize || hand[t] == 0 || !can(t));
    // The candidates, least connected first (ties to the lower code), so that the first
    // discards tried are the likely choices.
    let mut cands = [(0u32, 0 as Tile); N_KINDS];
    let mut n = 0;
    for t in 0..N_KINDS {
        if hand[t] == 0 || !can(t) || (t == bao as usize && !only_bao) {
            continue;
        }
        cands[n] = (connectivity(hand, t), t as Tile);
        n += 1;
    }
    let cands = &mut cands[..n];
    cands.sort_unstable();
    // Under the default shapes no discard of a natural tile leaves the hand closer than
    // the whole hand is (a hand holding more tiles needs no more from outside): a candidate
    // whose best imaginable key cannot beat the best so far needs no shanten.
    let whole = wild::Wild::new(hand, Some(bao));
    let floor = match sh {
        None if n > 1 => Some(shanten::shanten_in(
            Forms::HUAINAN,
            &whole.nat,
            &used,
            k,
            whole.w,
        )),
        _ => None,
    };
    // The key: shanten, not entering 宝吊头, connectivity, code (the least wins).
    let mut best: Option<(i8, bool, u32, Tile)> = None;
    let mut h = *hand;
    for &(conn, t) in cands.iter() {
        let ti = t as usize;
        if let (Some(lb), Some(b)) = (floor, best) {
            let w_after = whole.w - (t == bao) as u8;
            let may_bdt = lb <= 0 && w_after > 0;
            if t != bao && (lb, !may_bdt, conn, t) >= b {
                continue;
            }
        }
        h[ti] -= 1;
        let w = wild::Wild::new(&h, Some(bao));
        let s = match sh {
            None => shanten::shanten_in(Forms::HUAINAN, &w.nat, &used, k, w.w),
            Some(o) => oracle::shanten_parts(&w.nat, w.w, &h, &used, k, o),
        };
        let bdt = s == 0 && w.w > 0 && wild::is_bdt(&h, bao, None);
        h[ti] += 1;
        let key = (s, !bdt, conn, t);
        if best.map_or(true, |b| key < b) {
            best = Some(key);
        }
    }
    let mut best = best.map(|(s, bdt, conn, t)| (s, !bdt, conn, t));
    if let (Some(o), Some((bs, ..))) = (sh, best) {
        if h[bao as usize] > 0 && can(bao as usize) && !only_bao {
            if let Some(s) = bao_discard_shanten(&h, bao, &used, k, o, bs) {
                best = Some((s, false, 0, bao));
            }
        }
    }
    best.map(|(s, _, _, t)| (t, s))
}

/// Under the shape options a 宝 can be in the way (e.g. as its own face inside 十三浪): the
/// shanten after discarding it, when that alone brings the hand closer than the best other
/// discard (shanten `other`).
fn bao_discard_shanten(
    h: &Counts,
    bao: Tile,
    used: &Counts,
    k: u8,
    o: &ShapeOptions,
    other: i8,
) -> Option<i8> {
    let mut without = *h;
    without[bao as usize] -= 1;
    let w = wild::Wild::new(&without, Some(bao));
    let s = oracle::shanten_parts(&w.nat, w.w, &without, used, k, o);
    (s < other).then_some(s)
}

/// The hand and melds after declaring the kong `a` from `hand` (a concealed kong, an added
/// kong, or a kong claimed on a discard of its tile), or `None` if `a` is not a kong.
pub(super) fn after_kong(
    hand: &Counts,
    melds: &[Meld],
    a: Action,
) -> Option<(Counts, [Meld; 4], usize)> {
    let (t, take, meld) = match a {
        Action::ConcealedKong(t) => (
            t,
            4,
            Meld {
                kind: MeldKind::ConcealedKong,
                tile: t,
            },
        ),
        Action::AddedKong(t) => (
            t,
            1,
            Meld {
                kind: MeldKind::Kong,
                tile: t,
            },
        ),
        Action::Kong(t) => (
            t,
            3,
            Meld {
                kind: MeldKind::Kong,
                tile: t,
            },
        ),
        _ => return None,
    };
    let mut h = *hand;
    if h[t as usize] < take || melds.len() > 4 {
        return None;
    }
    h[t as usize] -= take;
    let mut m = [meld; 4];
    m[..melds.len()].copy_from_slice(melds);
    let n = match a {
        Action::AddedKong(_) => {
            let i = melds
                .iter()
                .position(|x| x.kind == MeldKind::Pung && x.tile == t)?;
            m[i] = meld;
            melds.len()
        }
        _ if melds.len() < 4 => {
            m[melds.len()] = meld;
            melds.len() + 1
        }
        _ => return None,
    };
    Some((h, m, n))
}

/// A legal kong (of the kinds `pick` accepts) whose hand, with the kong as a meld, has a
/// wild-aware shanten of at most `bar`; the lowest such shanten wins, ties to the first.
fn kong_within(
    d: &Decision,
    sh: Option<&ShapeOptions>,
    bar: i8,
    pick: impl Fn(Action) -> bool,
) -> Option<Action> {
    let mut best: Option<(i8, Action)> = None;
    for &a in d.legal.iter().filter(|&&a| pick(a)) {
        if let Some((h, m, n)) = after_kong(d.hand, d.melds, a) {
            let s = shanten_under(&h, &m[..n], d.bao, sh);
            if s <= bar && best.map_or(true, |(bs, _)| s < bs) {
                best = Some((s, a));
            }
        }
    }
    best.map(|(_, a)| a)
}

/// The decision of the wild-aware efficiency policy (docs/rules/huainan.md §6, §9): wins when
/// offered, except that it declines a self-drawn win worth less than 宝吊头 when a discard enters the
/// 宝吊头 state, and passes once in that state for 偷机 while the wall is long; in the 宝吊头
/// state a concealed kong that keeps the state comes first (its replacement draw wins, 杠开);
/// declares a kong whenever the hand after it is no further from a win than after the best
/// discard (on a discard: than after the best pung or chow, or than now); discards by
/// wild-aware shanten keeping the 宝; claims a pung or chow only when it lowers the shanten.
pub fn decide(d: &Decision) -> Action {
    let has = |a: Action| d.legal.contains(&a);
    let first = d.legal.first().copied().unwrap_or(Action::Pass);
    if has(Action::Win) {
        if d.claim.is_some() {
            return Action::Win;
        }
        if d.state.in_bdt && d.wall_remaining > 0 {
            // Still 宝 plus sets after the kong: any replacement tile wins.
            for &a in d.legal {
                if let Some((h, m, n)) =
                    after_kong(d.hand, d.melds, a).filter(|_| matches!(a, Action::ConcealedKong(_)))
                {
                    let limit = (!d.opts.bao_wild_fifth_copy)
                        .then(|| wild::hand_limit(&wild::Wild::new(&h, Some(d.bao)).nat, &m[..n]));
                    if wild::is_bdt(&h, d.bao, limit.as_ref()) {
                        return a;
                    }
                }
            }
        }
        if let Some(drawn) = d.drawn {
            // In the 宝吊头 state every draw wins: pass once for 偷机 when the wall is long.
            if d.state.in_bdt
                && d.state.passes == 0
                && drawn != d.bao
                && d.wall_remaining >= 16
                && has(Action::Discard(drawn))
            {
                return Action::Discard(drawn);
            }
            let facts = WinFacts {
                self_drawn: true,
                passes: d.state.passes,
                bao_discarded: d.state.bao_discarded,
                ..Default::default()
            };
            let value =
                forms::score_if_winning(d.hand, d.melds, Some(drawn), d.bao, &facts, d.opts)
                    .map(|s| s.form_value);
            if let Some(v) = value {
                if !take_self_draw(
                    d.hand,
                    d.bao,
                    v as u64,
                    d.opts.form_baodiaotou as u64,
                    d.wall_remaining,
                    8,
                ) {
                    if let Some(c) =
                        best_discard(d.hand, d.melds, d.bao, &[0; 34], u64::MAX).filter(|c| c.bdt)
                    {
                        if has(Action::Discard(c.tile)) {
                            return Action::Discard(c.tile);
                        }
                    }
                }
            }
        }
        return Action::Win;
    }
    // The shape options (D-7, D-15) when they differ from the defaults.
    let shapes = ShapeOptions::of(d.opts);
    let sh = (!shapes.is_default()).then_some(&shapes);
    if let Some(t) = d.claim {
        let now = shanten_under(d.hand, d.melds, d.bao, sh);
        let meld = claim(d, sh, t, now);
        let bar = meld.map_or(now, |(s, _)| s);
        if let Some(k) = kong_within(d, sh, bar, |a| matches!(a, Action::Kong(_))) {
            return k;
        }
        return meld.map(|(_, a)| a).unwrap_or(if has(Action::Pass) {
            Action::Pass
        } else {
            first
        });
    }
    let allowed = d.legal.iter().fold(0u64, |m, a| match a {
        Action::Discard(t) => m | 1 << t,
        _ => m,
    });
    let discard = fast_discard_under(d.hand, d.melds, d.bao, allowed, sh);
    let bar = discard.map_or(i8::MAX, |(_, s)| s);
    if let Some(k) = kong_within(d, sh, bar, |a| {
        matches!(a, Action::ConcealedKong(_) | Action::AddedKong(_))
    }) {
        return k;
    }
    match discard {
        Some((t, _)) => Action::Discard(t),
        None => first,
    }
}

/// A pung or chow worth taking, with the shanten after it: the hand after the claim and its
/// best discard is closer to a win than the hand now (shanten `now`).
fn claim(d: &Decision, sh: Option<&ShapeOptions>, t: Tile, now: i8) -> Option<(i8, Action)> {
    let mut best: Option<(i8, Action)> = None;
    for &a in d.legal {
        let (meld, take): (Meld, [Tile; 2]) = match a {
            Action::Pung(x) => (
                Meld {
                    kind: crate::hand::MeldKind::Pung,
                    tile: x,
                },
                [x, x],
            ),
            Action::Chow(low) if (low..low + 3).contains(&t) => {
                let mut others = [low; 2];
                let mut n = 0;
                for y in low..low + 3 {
                    if y != t && n < 2 {
                        others[n] = y;
                        n += 1;
                    }
                }
                (
                    Meld {
                        kind: crate::hand::MeldKind::Chow,
                        tile: low,
                    },
                    others,
                )
            }
            _ => continue,
        };
        let mut h = *d.hand;
        if h[take[0] as usize] == 0 {
            continue;
        }
        h[take[0] as usize] -= 1;
        if h[take[1] as usize] == 0 {
            continue;
        }
        h[take[1] as usize] -= 1;
        let mut melds = [meld; 4];
        melds[..d.melds.len()].copy_from_slice(d.melds);
        melds[d.melds.len()] = meld;
        if let Some((_, s)) =
            fast_discard_under(&h, &melds[..d.melds.len() + 1], d.bao, u64::MAX, sh)
        {
            if s < now && best.map_or(true, |(bs, _)| s < bs) {
                best = Some((s, a));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile;

    fn c(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }
    fn t(s: &str) -> Tile {
        tile::parse(s).unwrap()[0]
    }

    #[test]
    fn wild_shanten_and_discards() {
        let unseen = [4u8; 34];
        // H4: 5p* 9p + four sets: discarding 9p enters 宝吊头.
        let h = c("5p123m456m789s234s9p");
        assert_eq!(shanten(&h, &[], t("5p")), -1);
        let ch = best_discard(&h, &[], t("5p"), &unseen, u64::MAX).unwrap();
        assert_eq!((ch.tile, ch.bdt, ch.shanten), (t("9p"), true, 0));
        assert!(!take_self_draw(&h, t("5p"), 1, 2, 30, 8));
        assert!(take_self_draw(&h, t("5p"), 2, 2, 30, 8));
        assert!(take_self_draw(&h, t("5p"), 1, 2, 4, 8));
        // The 宝 is kept: shanten counts it as a wild.
        let h = c("5p1m123m456m789s23s7z");
        assert_eq!(shanten(&h, &[], t("5p")), 0);
        let ch = best_discard(&h, &[], t("5p"), &unseen, u64::MAX).unwrap();
        assert_ne!(ch.tile, t("5p"));
        // Only 宝 left to discard: one goes.
        let melds = [
            Meld::pung(0).unwrap(),
            Meld::pung(1).unwrap(),
            Meld::pung(2).unwrap(),
            Meld::pung(3).unwrap(),
        ];
        let ch = best_discard(&c("5p5p"), &melds, t("5p"), &unseen, u64::MAX).unwrap();
        assert_eq!(ch.tile, t("5p"));
    }

    #[test]
    fn decisions_take_bao_diaotou_when_it_pays() {
        let o = HuainanOptions::default();
        let legal_for = |h: &Counts| -> Vec<Action> {
            let mut v = vec![Action::Win];
            v.extend(
                (0..34u8)
                    .filter(|&x| h[x as usize] > 0)
                    .map(Action::Discard),
            );
            v
        };
        // H4: a plain win (worth 1) on 4s; discarding 9p enters 宝吊头 (worth 2).
        let h = c("5p123m456m789s234s9p");
        let legal = legal_for(&h);
        let mut d = Decision {
            hand: &h,
            melds: &[],
            bao: t("5p"),
            state: BaoState::default(),
            legal: &legal,
            claim: None,
            drawn: Some(t("4s")),
            wall_remaining: 40,
            opts: &o,
        };
        assert_eq!(decide(&d), Action::Discard(t("9p")));
        d.wall_remaining = 4;
        assert_eq!(decide(&d), Action::Win);
        // In the 宝吊头 state: pass once for 偷机 while the wall is long, then win.
        let h2 = c("5p123m456m789s234s7z");
        let legal2 = legal_for(&h2);
        let st = BaoState {
            in_bdt: true,
            ..Default::default()
        };
        let d2 = Decision {
            hand: &h2,
            legal: &legal2,
            drawn: Some(t("7z")),
            state: st,
            wall_remaining: 40,
            ..d
        };
        assert_eq!(decide(&d2), Action::Discard(t("7z")));
        let d3 = Decision {
            state: BaoState {
                in_bdt: true,
                passes: 1,
                ..Default::default()
            },
            ..d2
        };
        assert_eq!(decide(&d3), Action::Win);
        // A claim window with a win (a discard win or 接宝) is always taken.
        let d4 = Decision {
            claim: Some(t("7z")),
            drawn: None,
            ..d3
        };
        assert_eq!(decide(&d4), Action::Win);
        // Without a win: discard by wild-aware shanten, keeping the 宝.
        let h5 = c("5p1m123m456m789s23s7z");
        let legal5: Vec<Action> = legal_for(&h5)
            .into_iter()
            .filter(|a| *a != Action::Win)
            .collect();
        let d5 = Decision {
            hand: &h5,
            legal: &legal5,
            drawn: Some(t("7z")),
            state: BaoState::default(),
            claim: None,
            ..d
        };
        assert!(matches!(decide(&d5), Action::Discard(x) if x == t("1m") || x == t("7z")));
    }

    fn turn_legal(h: &Counts, extra: &[Action]) -> Vec<Action> {
        let mut v: Vec<Action> = (0..34u8)
            .filter(|&x| h[x as usize] > 0)
            .map(Action::Discard)
            .collect();
        v.extend_from_slice(extra);
        v
    }

    #[test]
    fn kongs_when_they_do_not_hurt() {
        let o = HuainanOptions::default();
        let bao = t("9p");
        let base =
            |hand: &'static Counts, melds: &'static [Meld], legal: &'static [Action]| Decision {
                hand,
                melds,
                bao,
                state: BaoState::default(),
                legal,
                claim: None,
                drawn: None,
                wall_remaining: 40,
                opts: &o,
            };
        // 1111m beside 234p 567s 78s 5z 7z: the kong keeps the hand one step from ready.
        let h: &'static Counts = Box::leak(Box::new(c("1111m234p567s78s5z7z")));
        let l: &'static [Action] = turn_legal(h, &[Action::ConcealedKong(t("1m"))]).leak();
        assert_eq!(
            decide(&Decision {
                drawn: Some(t("7z")),
                ..base(h, &[], l)
            }),
            Action::ConcealedKong(t("1m"))
        );
        // 1111m 23m 456p 789s 5z 7z: the fourth 1m belongs to 123m; a kong would cost a step.
        let h2: &'static Counts = Box::leak(Box::new(c("1111m23m456p789s5z7z")));
        let l2: &'static [Action] = turn_legal(h2, &[Action::ConcealedKong(t("1m"))]).leak();
        assert!(matches!(
            decide(&Decision {
                drawn: Some(t("7z")),
                ..base(h2, &[], l2)
            }),
            Action::Discard(_)
        ));
        // An added kong onto an exposed pung of 5s: the held 5s is otherwise a loose tile.
        let m3: &'static [Meld] = vec![Meld::pung(t("5s")).unwrap()].leak();
        let h3: &'static Counts = Box::leak(Box::new(c("5s234p678m11z2z3z7z")));
        let l3: &'static [Action] = turn_legal(h3, &[Action::AddedKong(t("5s"))]).leak();
        assert_eq!(
            decide(&Decision {
                drawn: Some(t("7z")),
                ..base(h3, m3, l3)
            }),
            Action::AddedKong(t("5s"))
        );
        // Under a claim lock the kong is not legal, and nothing but a discard is chosen.
        let l3b: &'static [Action] = turn_legal(h3, &[]).leak();
        assert!(matches!(decide(&base(h3, m3, l3b)), Action::Discard(_)));
        // A discard of the fourth 2s: the held 222s is a set already, so the exposed kong
        // costs nothing (a pung would not lower the shanten either).
        let h4: &'static Counts = Box::leak(Box::new(c("222s456m13p5z6z7z9m8s")));
        let l4: &'static [Action] =
            vec![Action::Kong(t("2s")), Action::Pung(t("2s")), Action::Pass].leak();
        assert_eq!(
            decide(&Decision {
                claim: Some(t("2s")),
                ..base(h4, &[], l4)
            }),
            Action::Kong(t("2s"))
        );
        // 2223s: the three 2s are a pair and a chow's tile; a kong breaks them, a pass keeps them.
        let h5: &'static Counts = Box::leak(Box::new(c("2223s456m789p5z6z7z")));
        let l5: &'static [Action] =
            vec![Action::Kong(t("2s")), Action::Pung(t("2s")), Action::Pass].leak();
        assert_ne!(
            decide(&Decision {
                claim: Some(t("2s")),
                ..base(h5, &[], l5)
            }),
            Action::Kong(t("2s"))
        );
        // In the 宝吊头 state a concealed kong that keeps the state comes before the win: the
        // replacement tile wins (杠开).
        let h6: &'static Counts = Box::leak(Box::new(c("9p1111m456m789s234s")));
        let l6: &'static [Action] =
            turn_legal(h6, &[Action::Win, Action::ConcealedKong(t("1m"))]).leak();
        let st = BaoState {
            in_bdt: true,
            passes: 1,
            ..Default::default()
        };
        assert_eq!(
            decide(&Decision {
                state: st,
                drawn: Some(t("1m")),
                ..base(h6, &[], l6)
            }),
            Action::ConcealedKong(t("1m"))
        );
    }

    #[test]
    fn shape_options_steer_the_policy() {
        // 十三浪 with the 宝 2m as 9s wins by default; with the 宝 only itself in 十三浪 it
        // does not, and the policy's shanten sees that.
        let h = c("147m258p36s2m12345z");
        let no13 = ShapeOptions::of(&HuainanOptions {
            bao_wild_in_13lang: false,
            ..Default::default()
        });
        assert_eq!(shanten_under(&h, &[], t("2m"), None), -1);
        assert!(shanten_under(&h, &[], t("2m"), Some(&no13)) >= 0);
        // The same shape with 6z for 5z: by default the 宝 is kept (any other discard is
        // ready); under the option the 2m must go, as it breaks the 1m-4m gap.
        let h14 = c("147m258p36s2m1234z6z");
        let (tile, s) = fast_discard_under(&h14, &[], t("2m"), u64::MAX, None).unwrap();
        assert!(tile != t("2m") && s == 0);
        let (tile, s) = fast_discard_under(&h14, &[], t("2m"), u64::MAX, Some(&no13)).unwrap();
        assert_eq!((tile, s), (t("2m"), 0));
    }

    /// [`fast_discard_under`] with every candidate's shanten taken, in code order.
    fn fast_discard_everywhere(
        hand: &Counts,
        melds: &[Meld],
        bao: Tile,
        allowed: u64,
        sh: Option<&ShapeOptions>,
    ) -> Option<(Tile, i8)> {
        let used = shanten::used_counts(melds);
        let k = melds.len() as u8;
        let can = |t: usize| allowed >> t & 1 == 1;
        let only_bao = (0..N_KINDS).all(|t| t == bao as usize || hand[t] == 0 || !can(t));
        let mut best: Option<(i8, bool, u32, Tile)> = None;
        let mut h = *hand;
        for t in 0..N_KINDS {
            if h[t] == 0 || !can(t) || (t == bao as usize && !only_bao) {
                continue;
            }
            let conn = connectivity(&h, t);
            h[t] -= 1;
            let w = wild::Wild::new(&h, Some(bao));
            let s = match sh {
                None => shanten::shanten_in(Forms::HUAINAN, &w.nat, &used, k, w.w),
                Some(o) => oracle::shanten_parts(&w.nat, w.w, &h, &used, k, o),
            };
            let bdt = s == 0 && w.w > 0 && wild::is_bdt(&h, bao, None);
            h[t] += 1;
            if best.map_or(true, |(bs, bb, bc, _)| (s, !bdt, conn) < (bs, !bb, bc)) {
                best = Some((s, bdt, conn, t as Tile));
            }
        }
        if let (Some(o), Some((bs, ..))) = (sh, best) {
            if h[bao as usize] > 0 && can(bao as usize) && !only_bao {
                if let Some(s) = bao_discard_shanten(&h, bao, &used, k, o, bs) {
                    best = Some((s, false, 0, bao));
                }
            }
        }
        best.map(|(s, _, _, t)| (t, s))
    }

    #[test]
    fn pruned_discards_match_every_shanten_taken() {
        let mut x = 5u64;
        let mut below = |n: u32| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) % n as u64) as u32
        };
        let opts = HuainanOptions {
            bao_wild_in_13lang: false,
            ..Default::default()
        };
        let shapes = ShapeOptions::of(&opts);
        let mut bdt_picks = 0;
        for round in 0..6_000 {
            let bao = below(34) as Tile;
            let n_melds = below(3) as usize;
            let melds: Vec<Meld> = (0..n_melds)
                .map(|i| Meld::pung(((i * 11) as u32 + below(5)) as Tile).unwrap())
                .collect();
            // Sets and a pair with some tiles changed, or tiles at random.
            let mut hand = [0u8; 34];
            let size = 14 - 3 * n_melds as u32;
            let mut n = 0;
            if below(2) == 0 {
                while n + 3 <= size - 2 {
                    let f = below(34) as usize;
                    let chow = f < 27 && f % 9 < 7 && below(2) == 0;
                    let faces = if chow { [f, f + 1, f + 2] } else { [f; 3] };
                    if faces.iter().all(|&g| {
                        hand[g] < 4 - (faces.iter().filter(|&&y| y == g).count() as u8 - 1)
                    }) {
                        faces.iter().for_each(|&g| hand[g] += 1);
                        n += 3;
                    }
                }
                let f = below(34) as usize;
                if hand[f] <= 2 {
                    hand[f] += 2;
                    n += 2;
                }
                for _ in 0..below(4) {
                    let (a, b) = (below(34) as usize, below(34) as usize);
                    if hand[a] > 0 && hand[b] < 4 {
                        hand[a] -= 1;
                        hand[b] += 1;
                    }
                }
            }
            while n < size {
                let f = if below(4) == 0 {
                    bao as usize
                } else {
                    below(34) as usize
                };
                if hand[f] < 4 {
                    hand[f] += 1;
                    n += 1;
                }
            }
            let allowed = if round % 5 == 0 {
                !(1u64 << below(34))
            } else {
                u64::MAX
            };
            let sh = (round % 3 == 0).then_some(&shapes);
            let want = fast_discard_everywhere(&hand, &melds, bao, allowed, sh);
            assert_eq!(
                fast_discard_under(&hand, &melds, bao, allowed, sh),
                want,
                "{hand:?} {melds:?} bao {bao}"
            );
            if let Some((t, 0)) = want {
                let mut h = hand;
                h[t as usize] -= 1;
                bdt_picks += wild::is_bdt(&h, bao, None) as u32;
            }
            // The floor: no discard of a natural tile leaves the hand closer than it is.
            let used = shanten::used_counts(&melds);
            let whole = wild::Wild::new(&hand, Some(bao));
            let floor =
                shanten::shanten_in(Forms::HUAINAN, &whole.nat, &used, n_melds as u8, whole.w);
            for t in (0..N_KINDS).filter(|&t| whole.nat[t] > 0) {
                let mut nat = whole.nat;
                nat[t] -= 1;
                assert!(
                    shanten::shanten_in(Forms::HUAINAN, &nat, &used, n_melds as u8, whole.w)
                        >= floor,
                    "{hand:?} - {t}"
                );
            }
        }
        assert!(bdt_picks > 50, "too few 宝吊头 discards drawn: {bdt_picks}");
    }
}
