//! Exact wild-aware shape predicates (Huainan's 宝, docs/rules/huainan.md §6.1, §8.1, §13).
//!
//! A hand is given as `nat`, the counts of its natural tiles (the 宝 tiles taken out), and
//! `w`, the number of 宝 tiles acting as jokers. A joker may read as any of the 34 faces, its
//! own included. When fifth copies are forbidden (`bao_wild_fifth_copy = false`) a
//! [`Limit`] holds the natural count of every face in the whole hand (melds included) and no
//! reading may take a face past four copies.
//!
//! The splits here decide *how* a hand can be read (all pungs, with a chow, sets only);
//! the oracle's shanten engine answers *whether* and *how far*. Every function is
//! allocation-free.

use crate::hand::{Meld, MeldKind};
use crate::tile::{self, Counts, Tile, EAST, N_KINDS};
use std::sync::OnceLock;

/// The shape switches of a wild rule set (Huainan D-7, D-15): where a wild may stand in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShapeOptions {
    /// D-7: a wild is wild inside 十三浪.
    pub wild_in_13lang: bool,
    /// D-7: a wild is wild inside 九幺.
    pub wild_in_jiuyao: bool,
    /// D-7: a wild may stand for a fifth copy of a face.
    pub fifth_copy: bool,
    /// D-15: 九幺 may include declared pungs and kongs of terminals and honours.
    pub jiuyao_pung_melds: bool,
}

impl ShapeOptions {
    /// Every switch on: the spec's defaults, the shanten engine's own reading.
    pub const SPEC: ShapeOptions = ShapeOptions {
        wild_in_13lang: true,
        wild_in_jiuyao: true,
        fifth_copy: true,
        jiuyao_pung_melds: true,
    };

    /// True when every switch has the spec's default (the shanten engine's own reading).
    pub fn is_default(&self) -> bool {
        *self == Self::SPEC
    }
}

/// Which kinds of set a split may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sets {
    /// Chows and pungs.
    Any,
    /// Pungs only (碰碰糊).
    PungsOnly,
    /// Chows and pungs, with at least one chow among the concealed sets (平糊自摸).
    WithChow,
}

/// Natural counts of the whole hand (concealed and melded), for the no-fifth-copy rule.
pub type Limit = Counts;

struct Search<'a> {
    c: Counts,
    extra: Counts,
    limit: Option<&'a Limit>,
    sets: Sets,
}

impl Search<'_> {
    /// Whether `n` more jokers may read face `f`.
    #[inline]
    fn room(&self, f: usize, n: u8) -> bool {
        match self.limit {
            None => true,
            Some(l) => l[f] + self.extra[f] + n <= 4,
        }
    }

    fn rec(&mut self, from: usize, w: u8, pair: bool, chow: bool) -> bool {
        let mut i = from;
        while i < N_KINDS && self.c[i] == 0 {
            i += 1;
        }
        if i == N_KINDS {
            // Jokers left over form whole groups of fresh faces: a pair, a set, or nothing.
            let rest = if pair {
                if w < 2 {
                    return false;
                }
                w - 2
            } else {
                w
            };
            return rest % 3 == 0 && (self.sets != Sets::WithChow || chow || rest >= 3);
        }
        let n = self.c[i];
        // A pung of face i: up to three naturals, jokers for the rest.
        let k = n.min(3);
        let j = 3 - k;
        if j <= w && self.room(i, j) {
            self.c[i] -= k;
            self.extra[i] += j;
            let ok = self.rec(i, w - j, pair, chow);
            self.c[i] += k;
            self.extra[i] -= j;
            if ok {
                return true;
            }
        }
        // The pair.
        if pair {
            let k = n.min(2);
            let j = 2 - k;
            if j <= w && self.room(i, j) {
                self.c[i] -= k;
                self.extra[i] += j;
                let ok = self.rec(i, w - j, false, chow);
                self.c[i] += k;
                self.extra[i] -= j;
                if ok {
                    return true;
                }
            }
        }
        if self.sets != Sets::PungsOnly && tile::is_suited(i as Tile) {
            // Chows through i: i is the lowest natural left, so faces below it are jokers;
            // each face above it is a natural (if held) or a joker.
            let r = (i % 9) as i32;
            for start in (r - 2).max(0)..=r.min(6) {
                let base = i - (r - start) as usize;
                let below = (r - start) as u8;
                if below > w {
                    continue;
                }
                let above = (start + 2 - r) as usize; // faces above i in this chow: 0-2
                for mask in 0u8..(1 << above) {
                    // bit b set: face i+1+b is taken as a natural.
                    let mut jokers = below;
                    let mut ok_mask = true;
                    for b in 0..above {
                        if mask & (1 << b) != 0 {
                            if self.c[i + 1 + b] == 0 {
                                ok_mask = false;
                                break;
                            }
                        } else {
                            jokers += 1;
                        }
                    }
                    if !ok_mask || jokers > w {
                        continue;
                    }
                    // Room for the faces the jokers read.
                    let mut room = true;
                    for f in base..i {
                        room &= self.room(f, 1);
                    }
                    for b in 0..above {
                        if mask & (1 << b) == 0 {
                            room &= self.room(i + 1 + b, 1);
                        }
                    }
                    if !room {
                        continue;
                    }
                    self.c[i] -= 1;
                    for f in base..i {
                        self.extra[f] += 1;
                    }
                    for b in 0..above {
                        if mask & (1 << b) != 0 {
                            self.c[i + 1 + b] -= 1;
                        } else {
                            self.extra[i + 1 + b] += 1;
                        }
                    }
                    let found = self.rec(i, w - jokers, pair, true);
                    self.c[i] += 1;
                    for f in base..i {
                        self.extra[f] -= 1;
                    }
                    for b in 0..above {
                        if mask & (1 << b) != 0 {
                            self.c[i + 1 + b] += 1;
                        } else {
                            self.extra[i + 1 + b] -= 1;
                        }
                    }
                    if found {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// Whether the naturals `nat` and `w` jokers split exactly into sets of kind `sets`, plus
/// one pair when `pair` is true. With `limit`, no face may exceed four copies.
pub fn split(nat: &Counts, w: u8, pair: bool, sets: Sets, limit: Option<&Limit>) -> bool {
    let n: u32 = nat.iter().map(|&c| c as u32).sum::<u32>() + w as u32;
    if n % 3 != if pair { 2 } else { 0 } || !enough_jokers(nat, w, pair) {
        return false;
    }
    let mut s = Search {
        c: *nat,
        extra: [0; N_KINDS],
        limit,
        sets,
    };
    s.rec(0, w, pair, false)
}

/// A quick necessary condition for a split of any kind: sets never span suits, and every
/// honour face is its own group, so each suit and each honour face needs jokers up to the
/// next multiple of three (its size mod 3 being 2 for the group that holds the pair: one
/// joker less there when some group is not a multiple of three, else two for a pair of
/// jokers). False when `w` jokers are fewer than that; true decides nothing.
#[inline]
fn enough_jokers(nat: &Counts, w: u8, pair: bool) -> bool {
    let mut need = 0u32;
    let mut uneven = false;
    let mut group = |size: u32| {
        let r = size % 3;
        need += (3 - r) % 3;
        uneven |= r != 0;
    };
    for s in 0..3 {
        group(nat[s * 9..s * 9 + 9].iter().map(|&c| c as u32).sum());
    }
    for &c in &nat[EAST as usize..N_KINDS] {
        group(c as u32);
    }
    if pair {
        if uneven {
            need -= 1;
        } else {
            need += 2;
        }
    }
    need <= w as u32
}

/// A hand split into the 宝 tiles and the rest.
#[derive(Debug, Clone, Copy)]
pub struct Wild {
    /// Natural tiles: the concealed counts without the 宝 face.
    pub nat: Counts,
    /// Number of 宝 tiles (jokers).
    pub w: u8,
}

impl Wild {
    /// Takes the `bao` tiles out of `concealed` (`bao = None`: no wild tiles).
    pub fn new(concealed: &Counts, bao: Option<Tile>) -> Self {
        let mut nat = *concealed;
        let mut w = 0;
        if let Some(b) = bao {
            w = nat[b as usize];
            nat[b as usize] = 0;
        }
        Wild { nat, w }
    }
}

/// The natural counts of the whole hand, concealed and melded (the [`Limit`]).
pub fn hand_limit(concealed: &Counts, melds: &[Meld]) -> Limit {
    let mut l = *concealed;
    for m in melds {
        m.add_to(&mut l);
    }
    l
}

/// True if every meld is a chow-free set (pung or kong).
pub fn melds_all_pungs(melds: &[Meld]) -> bool {
    melds.iter().all(|m| m.kind != MeldKind::Chow)
}

/// True if some meld is a chow.
pub fn melds_have_chow(melds: &[Meld]) -> bool {
    melds.iter().any(|m| m.kind == MeldKind::Chow)
}

/// Seven-pairs readings of a 14-tile concealed hand with no melds (§6.1 七对).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SevenPairs {
    /// Seven pairs with every 宝 as its own face.
    pub natural: bool,
    /// … and some face held four times.
    pub natural_luxury: bool,
    /// Seven pairs under some reading of the 宝 (the natural one included).
    pub any: bool,
    /// … with some face four times under that reading (豪华).
    pub any_luxury: bool,
}

/// Seven-pairs readings of `concealed` (14 tiles, no melds) with `bao` wild.
pub fn seven_pairs(concealed: &Counts, bao: Option<Tile>) -> SevenPairs {
    let n: u32 = concealed.iter().map(|&c| c as u32).sum();
    let mut r = SevenPairs::default();
    if n != 14 {
        return r;
    }
    r.natural = concealed.iter().all(|&c| c % 2 == 0);
    r.natural_luxury = r.natural && concealed.contains(&4);
    let wild = Wild::new(concealed, bao);
    let odd = wild.nat.iter().filter(|&&c| c % 2 == 1).count() as u8;
    if wild.w < odd || (wild.w - odd) % 2 != 0 {
        return r;
    }
    let spare = wild.w - odd;
    r.any = true;
    r.any_luxury = wild.nat.iter().any(|&c| c >= 3)
        || (spare >= 2 && wild.nat.iter().any(|&c| c >= 1))
        || spare >= 4;
    r
}

/// Per-suit table for 十三浪: for each 9-bit mask of ranks, `best[mask][k]` is the most
/// free slots (ranks that can still be added) over the valid sub-patterns of `mask` with
/// exactly `k` ranks, or -1 if none. A pattern is valid when any two ranks differ by 3+.
struct LangTable {
    best: [[i8; 4]; 512],
    /// The free slots of the mask itself if it is valid, else -1.
    own: [i8; 512],
    /// `most[mask][e]`: the most ranks of a valid sub-pattern of `mask` whose ranks plus
    /// free slots reach at least `e`, or -1 if none.
    most: [[i8; 4]; 512],
}

fn lang_valid(m: u16) -> bool {
    let mut last: i32 = -10;
    for r in 0..9 {
        if m & (1 << r) != 0 {
            if r - last < 3 {
                return false;
            }
            last = r;
        }
    }
    true
}

fn lang_table() -> &'static LangTable {
    static T: OnceLock<LangTable> = OnceLock::new();
    T.get_or_init(|| {
        let valid: Vec<u16> = (0u16..512).filter(|&m| lang_valid(m)).collect();
        // Free slots of a valid pattern: the largest valid superset minus its size.
        let mut cap = [-1i8; 512];
        for &p in &valid {
            let most = valid
                .iter()
                .filter(|&&q| q & p == p)
                .map(|q| q.count_ones())
                .max()
                .unwrap_or(0);
            cap[p as usize] = (most - p.count_ones()) as i8;
        }
        let mut best = [[-1i8; 4]; 512];
        for (m, row) in best.iter_mut().enumerate() {
            for &p in &valid {
                if p as usize & !m == 0 {
                    let k = p.count_ones() as usize;
                    row[k] = row[k].max(cap[p as usize]);
                }
            }
        }
        let mut most = [[-1i8; 4]; 512];
        for (row, b) in most.iter_mut().zip(best.iter()) {
            for (k, &free) in b.iter().enumerate() {
                if free >= 0 {
                    for slot in row.iter_mut().take((k as i8 + free) as usize + 1) {
                        *slot = (*slot).max(k as i8);
                    }
                }
            }
        }
        LangTable {
            best,
            own: cap,
            most,
        }
    })
}

fn suit_mask(c: &Counts, s: usize) -> (u16, bool) {
    let mut m = 0u16;
    let mut dup = false;
    for r in 0..9 {
        let n = c[s * 9 + r];
        if n > 0 {
            m |= 1 << r;
        }
        dup |= n > 1;
    }
    (m, dup)
}

/// 十三浪 readings of a concealed hand (no melds).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Lang {
    /// 14 tiles make 十三浪 under some reading.
    pub win: bool,
    /// … with all seven honours (七星十三浪).
    pub qixing: bool,
    /// Most tiles of the hand usable toward one 十三浪 (jokers included), at most 14.
    pub usable: u8,
}

/// 十三浪 of the whole hand with `w` jokers (the `win` and `qixing` of [`shisanlang`]):
/// `Some(qixing)` when the 14 tiles make 十三浪 under some reading, else `None`.
pub fn shisanlang_win(nat: &Counts, w: u8) -> Option<bool> {
    let mut n = w as u32;
    for &c in nat {
        if c > 1 {
            return None;
        }
        n += c as u32;
    }
    if n != 14 {
        return None;
    }
    let t = lang_table();
    let mut suit_room = 0i32;
    for s in 0..3 {
        let own = t.own[suit_mask(nat, s).0 as usize];
        if own < 0 {
            return None;
        }
        suit_room += own as i32;
    }
    let honors = nat[EAST as usize..N_KINDS]
        .iter()
        .filter(|&&c| c > 0)
        .count() as i32;
    let honor_room = 7 - honors;
    let w = w as i32;
    (w <= suit_room + honor_room).then_some(honor_room <= w && w - honor_room <= suit_room)
}

/// 十三浪 with `w` jokers: the naturals in `nat` (the hand's tiles without the 宝).
pub fn shisanlang(nat: &Counts, w: u8) -> Lang {
    let t = lang_table();
    let n: u32 = nat.iter().map(|&c| c as u32).sum::<u32>() + w as u32;
    let honors = nat[EAST as usize..N_KINDS]
        .iter()
        .filter(|&&c| c > 0)
        .count() as i32;
    let masks = [suit_mask(nat, 0), suit_mask(nat, 1), suit_mask(nat, 2)];
    let mut r = Lang::default();
    // The whole hand: every natural kept.
    if let Some(qixing) = shisanlang_win(nat, w) {
        r.win = true;
        r.qixing = qixing;
    }
    // The best partial pattern: naturals kept per suit plus jokers in free slots.
    let mut best = 0i32;
    for k0 in 0..4 {
        let c0 = t.best[masks[0].0 as usize][k0];
        if c0 < 0 {
            continue;
        }
        for k1 in 0..4 {
            let c1 = t.best[masks[1].0 as usize][k1];
            if c1 < 0 {
                continue;
            }
            for k2 in 0..4 {
                let c2 = t.best[masks[2].0 as usize][k2];
                if c2 < 0 {
                    continue;
                }
                let kept = (k0 + k1 + k2) as i32 + honors;
                let room = (c0 + c1 + c2) as i32 + 7 - honors;
                // Only patterns that still extend to a 14-tile 十三浪 count.
                if kept + room >= 14 {
                    best = best.max(kept + room.min(w as i32));
                }
            }
        }
    }
    r.usable = best.min(14).min(n as i32) as u8;
    r
}

/// 九幺 readings (§8.1): every tile, concealed and melded, a terminal or an honour.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Jiuyao {
    /// The full hand is 九幺 under some reading.
    pub win: bool,
    /// … with all seven honours (七星九幺).
    pub qixing: bool,
    /// Concealed tiles usable toward 九幺 (jokers included); `None` if the melds rule it out.
    pub usable: Option<u8>,
}

/// 九幺 of a hand: naturals `nat`, `w` jokers, declared `melds`. `pung_melds`: whether
/// pungs and kongs of terminals and honours may be declared (D-15).
pub fn jiuyao(nat: &Counts, w: u8, melds: &[Meld], pung_melds: bool) -> Jiuyao {
    let mut r = Jiuyao::default();
    let melds_ok = melds
        .iter()
        .all(|m| pung_melds && m.kind != MeldKind::Chow && tile::is_terminal_or_honor(m.tile));
    if !melds_ok {
        return r;
    }
    let n: u32 = nat.iter().map(|&c| c as u32).sum::<u32>() + w as u32;
    let good: u32 = tile::TERMINALS_AND_HONORS
        .iter()
        .map(|&t| nat[t as usize] as u32)
        .sum::<u32>()
        + w as u32;
    let full = 14 - 3 * melds.len() as u32;
    r.usable = Some(good.min(full) as u8);
    if n == full && good == n {
        r.win = true;
        let mut missing = 0u8;
        for h in EAST..N_KINDS as Tile {
            let held = nat[h as usize] > 0 || melds.iter().any(|m| m.tile == h);
            if !held {
                missing += 1;
            }
        }
        r.qixing = missing <= w;
    }
    r
}

/// Replacement number of 十三浪 in the oracle's terms (no melds; `nat` the concealed tiles
/// without the 宝): the fewest tiles missing from a 14-tile 十三浪 that keeps only tiles of
/// `nat`; the 宝 then fill missing tiles, so shanten = distance − 宝 − 1.
pub fn shisanlang_distance(nat: &Counts) -> u8 {
    // With no jokers, the best partial pattern of [`shisanlang`] keeps the most naturals
    // among patterns whose suits extend (ranks plus free slots) to seven ranks or more, the
    // honours all kept. A suit extends to at most three, so the suits reach seven exactly
    // through the extents (3, 3, 1) or (3, 2, 2) in some order, and `most` is monotone.
    const REACH: [[usize; 3]; 6] = [
        [3, 3, 1],
        [3, 1, 3],
        [1, 3, 3],
        [3, 2, 2],
        [2, 3, 2],
        [2, 2, 3],
    ];
    let t = lang_table();
    let rows = [
        &t.most[suit_mask(nat, 0).0 as usize],
        &t.most[suit_mask(nat, 1).0 as usize],
        &t.most[suit_mask(nat, 2).0 as usize],
    ];
    let mut kept = -1i32;
    for e in REACH {
        let (a, b, c) = (rows[0][e[0]], rows[1][e[1]], rows[2][e[2]]);
        if a >= 0 && b >= 0 && c >= 0 {
            kept = kept.max((a + b + c) as i32);
        }
    }
    let mut n = 0u32;
    let mut honors = 0i32;
    for (f, &c) in nat.iter().enumerate() {
        n += c as u32;
        honors += (f >= EAST as usize && c > 0) as i32;
    }
    let usable = if kept < 0 { 0 } else { kept + honors };
    14 - usable.min(14).min(n as i32) as u8
}

/// Replacement number of 九幺 in the oracle's terms: `nat` the concealed tiles without the
/// 宝, `used` the copies in the `n_melds` melds. `None` when the melds rule 九幺 out (a chow,
/// a suited middle tile, or any meld when `pung_melds` is false).
pub fn jiuyao_distance(nat: &Counts, used: &Counts, n_melds: u8, pung_melds: bool) -> Option<u8> {
    if n_melds > 0 && !pung_melds {
        return None;
    }
    let melds_ok = used
        .iter()
        .enumerate()
        .all(|(t, &c)| c == 0 || tile::is_terminal_or_honor(t as Tile));
    if !melds_ok || n_melds > 4 {
        return None;
    }
    let good: u32 = tile::TERMINALS_AND_HONORS
        .iter()
        .map(|&t| nat[t as usize] as u32)
        .sum();
    Some((14 - 3 * n_melds as u32).saturating_sub(good) as u8)
}

/// A quick necessary condition for a win in any Huainan shape with `bao` wild (the basic
/// form with its joker floor, seven pairs, 十三浪, 九幺; `wild_in_13lang` and
/// `wild_in_jiuyao` as D-7 sets them): false means no reading of the hand is a win;
/// true decides nothing. A few passes over the counts, no search.
pub fn may_win(
    concealed: &Counts,
    n_melds: usize,
    bao: Tile,
    wild_in_13lang: bool,
    wild_in_jiuyao: bool,
) -> bool {
    let b = bao as usize;
    if b >= N_KINDS {
        return true;
    }
    let w = concealed[b];
    let mut nat = *concealed;
    nat[b] = 0;
    if enough_jokers(&nat, w, true) {
        return true;
    }
    if n_melds == 0 {
        let odd = nat.iter().filter(|&&c| c % 2 == 1).count() as u8;
        if odd <= w && (w - odd) % 2 == 0 {
            return true;
        }
        let lang = if wild_in_13lang { &nat } else { concealed };
        if lang.iter().all(|&c| c <= 1) {
            return true;
        }
    }
    let jy = if wild_in_jiuyao { &nat } else { concealed };
    jy.iter()
        .enumerate()
        .all(|(t, &c)| c == 0 || tile::is_terminal_or_honor(t as Tile))
}

/// Whether a full hand (14 − 3k concealed tiles) wins in some Huainan shape under some
/// reading of the 宝 (§8.1): the basic form, seven pairs, 十三浪 or 九幺, with the
/// options of D-7 and D-15. `bao = None`: no wild tiles.
pub fn is_win(concealed: &Counts, melds: &[Meld], bao: Option<Tile>, o: &ShapeOptions) -> bool {
    let wild = Wild::new(concealed, bao);
    let limit_store;
    let limit = if o.fifth_copy {
        None
    } else {
        limit_store = hand_limit(&wild.nat, melds);
        Some(&limit_store)
    };
    if split(&wild.nat, wild.w, true, Sets::Any, limit) {
        return true;
    }
    if melds.is_empty() {
        if seven_pairs(concealed, bao).any {
            return true;
        }
        let lang = if o.wild_in_13lang {
            shisanlang_win(&wild.nat, wild.w)
        } else {
            shisanlang_win(concealed, 0)
        };
        if lang.is_some() {
            return true;
        }
    }
    let jy = if o.wild_in_jiuyao {
        jiuyao(&wild.nat, wild.w, melds, o.jiuyao_pung_melds)
    } else {
        jiuyao(concealed, 0, melds, o.jiuyao_pung_melds)
    };
    jy.win
}

/// Whether a waiting hand (13 − 3k concealed tiles) is in the 宝吊头 state: one 宝 plus
/// `4 − k` complete sets, the other 宝 free to be wild (§9, "bdt composition").
pub fn is_bdt(concealed: &Counts, bao: Tile, limit: Option<&Limit>) -> bool {
    if concealed[bao as usize] == 0 {
        return false;
    }
    let wild = Wild::new(concealed, Some(bao));
    split(&wild.nat, wild.w - 1, false, Sets::Any, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }
    fn t(s: &str) -> Tile {
        tile::parse(s).unwrap()[0]
    }

    #[test]
    fn splits_with_jokers() {
        let w = Wild::new(&c("123m456m789s23p99s5p"), Some(t("5p")));
        assert!(split(&w.nat, w.w, true, Sets::Any, None));
        assert!(!split(&w.nat, w.w, true, Sets::PungsOnly, None));
        let nat = c("123m456m789s234p99s");
        assert!(split(&nat, 0, true, Sets::WithChow, None));
        assert!(!split(&nat, 0, true, Sets::PungsOnly, None));
        assert!(split(&c("111222333m55z"), 0, true, Sets::PungsOnly, None));
        assert!(split(&c("111222333m55z"), 0, true, Sets::WithChow, None));
        // Four jokers alone: a set and a loose joker is not a hand; a set plus a pair is.
        assert!(!split(&c("123m"), 4, false, Sets::Any, None));
        assert!(split(&c("123m456m789m"), 2, true, Sets::Any, None));
        // 1m 3m and a joker: a chow with the joker as 2m.
        assert!(split(&c("13m"), 1, false, Sets::Any, None));
        assert!(!split(&c("13m"), 1, false, Sets::PungsOnly, None));
        // 8m 9m and a joker reading 7m.
        assert!(split(&c("89m"), 1, false, Sets::Any, None));
    }

    #[test]
    fn fifth_copy_limit() {
        // The whole hand holds four 1m.
        let nat = c("111m");
        let lim = c("1111m");
        // 111m + J J as a pair: fine (the pair reads any face).
        assert!(split(&nat, 2, true, Sets::Any, Some(&lim)));
        // 1m + J J = pung of 1m would be a fifth 1m: only a chow of 1m 2m 3m remains.
        let nat = c("1m");
        assert!(split(&nat, 2, false, Sets::Any, Some(&lim)));
        assert!(!split(&nat, 2, false, Sets::PungsOnly, Some(&lim)));
        assert!(split(&nat, 2, false, Sets::PungsOnly, None));
    }

    #[test]
    fn seven_pairs_readings() {
        let h10 = seven_pairs(&c("11m33m55p77p22s44s66z"), Some(t("9m")));
        assert!(h10.natural && !h10.natural_luxury);
        let wild = seven_pairs(&c("11m33m55p77p22s44s6z9m"), Some(t("9m")));
        assert!(wild.any && !wild.natural && !wild.any_luxury);
        let h11 = seven_pairs(&c("1111m33m55p77p22s4s9m"), Some(t("9m")));
        assert!(h11.any && h11.any_luxury && !h11.natural);
        let qh = seven_pairs(&c("1111m33m55p77p22s44s"), Some(t("9m")));
        assert!(qh.natural_luxury);
        assert!(!seven_pairs(&c("1111m33m55p77p22s4s3s"), Some(t("9m"))).any);
    }

    #[test]
    fn h12_shisanlang() {
        let l = shisanlang(&c("147m258p369s12345z"), 0);
        assert!(l.win && !l.qixing && l.usable == 14);
        let l = shisanlang(&c("147m25p36s1234567z"), 0);
        assert!(l.win && l.qixing);
        // 宝 = 2m held once: the natural reading fails, the wild one (as 9s) works.
        let all = c("147m258p36s2m12345z");
        assert!(!shisanlang(&all, 0).win);
        let w = Wild::new(&all, Some(t("2m")));
        assert!(shisanlang(&w.nat, w.w).win);
        assert!(!shisanlang(&c("147m248p369s12345z"), 0).win);
        // 3 and 7 of a suit leave no free slot in that suit.
        assert_eq!(t_best("37m"), 0);
        assert_eq!(t_best("15m"), 1);
    }

    fn t_best(s: &str) -> i8 {
        let (m, _) = suit_mask(&c(s), 0);
        lang_table().own[m as usize]
    }

    #[test]
    fn h13_jiuyao() {
        let j = jiuyao(&c("119m199p19s113567z"), 0, &[], true);
        assert!(j.win && !j.qixing);
        let j = jiuyao(&c("119m19p19s1234567z"), 0, &[], true);
        assert!(j.win && j.qixing);
        let melds = [Meld::pung(t("1z")).unwrap()];
        assert!(jiuyao(&c("119m19p19s2344z"), 0, &melds, true).win);
        assert!(!jiuyao(&c("119m19p19s2344z"), 0, &melds, false).win);
        assert!(!jiuyao(&c("119m19p19s23z"), 1, &[Meld::chow(0).unwrap()], true).win);
        let j = jiuyao(&c("1199m19p19s23456z"), 1, &[], true);
        assert!(j.win && !j.qixing);
    }

    #[test]
    fn bdt_compositions() {
        // H4: 5p* + 123m 456m 789s 234s.
        assert!(is_bdt(&c("5p123m456m789s234s"), t("5p"), None));
        // H6: 5p* | 123m 456m 789m | 5p* 6s 7s.
        assert!(is_bdt(&c("5p123m456m789m5p67s"), t("5p"), None));
        // H8: 222s 55z 3z* 6z is not the bdt state.
        assert!(!is_bdt(&c("222s55z3z6z"), t("3z"), None));
        assert!(!is_bdt(&c("123m456m789s23p9s"), t("5p"), None));
    }

    /// A small deterministic generator for the randomised checks.
    struct Lcg(u64);
    impl Lcg {
        fn below(&mut self, n: u32) -> u32 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) % n as u64) as u32
        }
    }

    /// The search alone, without the joker floor in front of it.
    fn split_by_search(nat: &Counts, w: u8, pair: bool, sets: Sets, limit: Option<&Limit>) -> bool {
        let n: u32 = nat.iter().map(|&c| c as u32).sum::<u32>() + w as u32;
        n % 3 == if pair { 2 } else { 0 }
            && Search {
                c: *nat,
                extra: [0; N_KINDS],
                limit,
                sets,
            }
            .rec(0, w, pair, false)
    }

    #[test]
    fn joker_floor_keeps_every_split() {
        let mut rng = Lcg(7);
        let mut found = 0;
        for _ in 0..40_000 {
            // Sets and a pair, some tiles turned into jokers, sometimes one tile changed.
            let mut nat = [0u8; N_KINDS];
            let pair = rng.below(4) != 0;
            let n_sets = rng.below(5);
            for _ in 0..n_sets {
                let f = rng.below(N_KINDS as u32) as usize;
                if rng.below(2) == 0 && f < 27 && f % 9 < 7 {
                    (f..f + 3).for_each(|g| nat[g] += 1);
                } else {
                    nat[f] += 3;
                }
            }
            if pair {
                nat[rng.below(N_KINDS as u32) as usize] += 2;
            }
            if nat.iter().any(|&c| c > 4) {
                continue;
            }
            let mut w = 0u8;
            for _ in 0..rng.below(5) {
                let f = rng.below(N_KINDS as u32) as usize;
                if nat[f] > 0 {
                    nat[f] -= 1;
                    w += 1;
                }
            }
            if rng.below(3) == 0 {
                let from = rng.below(N_KINDS as u32) as usize;
                let to = rng.below(N_KINDS as u32) as usize;
                if nat[from] > 0 && nat[to] < 4 {
                    nat[from] -= 1;
                    nat[to] += 1;
                }
            }
            let limit = hand_limit(&nat, &[]);
            let limit = (rng.below(2) == 0).then_some(&limit);
            for sets in [Sets::Any, Sets::PungsOnly, Sets::WithChow] {
                for p in [pair, !pair] {
                    let want = split_by_search(&nat, w, p, sets, limit);
                    assert_eq!(
                        split(&nat, w, p, sets, limit),
                        want,
                        "{nat:?} w={w} pair={p} {sets:?}"
                    );
                    found += want as u32;
                }
            }
        }
        assert!(found > 10_000, "too few splittable hands drawn: {found}");
    }

    #[test]
    fn shisanlang_win_is_the_whole_hand_reading() {
        let mut rng = Lcg(11);
        let mut wins = 0;
        for _ in 0..20_000 {
            let mut nat = [0u8; N_KINDS];
            let w = rng.below(4) as u8;
            let mut n = w;
            // Half of the hands keep to ranks three apart in each suit, so that 十三浪 comes up.
            let spaced = rng.below(2) == 0;
            let offsets = [
                rng.below(3) as usize,
                rng.below(3) as usize,
                rng.below(3) as usize,
            ];
            while n < 14 {
                let f = rng.below(N_KINDS as u32) as usize;
                if spaced && f < 27 && f % 9 % 3 != offsets[f / 9] {
                    continue;
                }
                if nat[f] == 0 || rng.below(8) == 0 {
                    nat[f] += 1;
                    n += 1;
                }
            }
            let full = shisanlang(&nat, w);
            assert_eq!(
                shisanlang_win(&nat, w),
                full.win.then_some(full.qixing),
                "{nat:?} w={w}"
            );
            wins += full.win as u32;
        }
        assert!(wins > 500, "too few 十三浪 drawn: {wins}");
        assert_eq!(shisanlang_win(&c("147m258p369s12345z"), 0), Some(false));
        assert_eq!(shisanlang_win(&c("147m25p36s1234567z"), 0), Some(true));
        assert_eq!(shisanlang_win(&c("147m258p369s1234z"), 0), None);
    }

    #[test]
    fn shisanlang_distance_is_the_best_partial_pattern() {
        let mut rng = Lcg(13);
        let mut seen = [0u32; 15];
        for _ in 0..40_000 {
            let mut nat = [0u8; N_KINDS];
            let size = 1 + rng.below(14);
            let spaced = rng.below(2) == 0;
            let offsets = [
                rng.below(3) as usize,
                rng.below(3) as usize,
                rng.below(3) as usize,
            ];
            let mut n = 0;
            while n < size {
                let f = rng.below(N_KINDS as u32) as usize;
                if (spaced && f < 27 && f % 9 % 3 != offsets[f / 9] && rng.below(4) != 0)
                    || nat[f] == 4
                {
                    continue;
                }
                nat[f] += 1;
                n += 1;
            }
            let d = shisanlang_distance(&nat);
            assert_eq!(d, 14 - shisanlang(&nat, 0).usable, "{nat:?}");
            seen[d as usize] += 1;
        }
        assert!(
            seen[..5].iter().sum::<u32>() > 1_000 && seen[10..].iter().sum::<u32>() > 1_000,
            "{seen:?}"
        );
    }

    const TERMINALS: [Tile; 13] = tile::TERMINALS_AND_HONORS;

    #[test]
    fn may_win_holds_for_every_win() {
        let mut rng = Lcg(17);
        let opts = [
            ShapeOptions::SPEC,
            ShapeOptions {
                wild_in_13lang: false,
                wild_in_jiuyao: false,
                fifth_copy: false,
                ..ShapeOptions::SPEC
            },
        ];
        let (mut wins, mut cut) = (0, 0);
        for i in 0..40_000 {
            let n_melds = rng.below(3) as usize;
            let melds: Vec<Meld> = (0..n_melds)
                .map(|j| Meld::pung((j * 9 + rng.below(9) as usize) as Tile).unwrap())
                .collect();
            let bao = rng.below(N_KINDS as u32) as Tile;
            // Near-wins: sets and a pair with a few tiles changed (some to the 宝), or odd
            // shapes at random.
            let mut hand = [0u8; N_KINDS];
            let size = 14 - 3 * n_melds as u32;
            let mut n = 0;
            let narrow = rng.below(3);
            while n < size {
                let f = match narrow {
                    0 => TERMINALS[rng.below(13) as usize] as usize,
                    _ => rng.below(N_KINDS as u32) as usize,
                };
                let k = if narrow == 2 && n + 3 <= size { 3 } else { 1 };
                if hand[f] + k <= 4 {
                    hand[f] += k;
                    n += k as u32;
                }
            }
            for _ in 0..rng.below(3) {
                let f = rng.below(N_KINDS as u32) as usize;
                if hand[f] > 0 && hand[bao as usize] < 4 {
                    hand[f] -= 1;
                    hand[bao as usize] += 1;
                }
            }
            let o = &opts[i % 2];
            let win = is_win(&hand, &melds, Some(bao), o);
            let quick = may_win(&hand, n_melds, bao, o.wild_in_13lang, o.wild_in_jiuyao);
            assert!(quick || !win, "{hand:?} {melds:?} bao {bao}");
            wins += win as u32;
            cut += !quick as u32;
        }
        assert!(wins > 1_000 && cut > 10_000, "{wins} wins, {cut} ruled out");
    }
}
