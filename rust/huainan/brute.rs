//! Brute-force check of the wild-aware win test: for 100,000 random hands near the win
//! boundary with 0-4 宝, [`wild::is_win`] must equal "some assignment of faces to the 宝
//! makes a natural winning shape", found by enumerating assignments and checking each with
//! an independent natural checker.
//!
//! The same hands also check the oracle's `is_win` and `shanten` for `rules="huainan"`.
//!
//! The enumeration runs over multisets of faces from a candidate set `K` that provably
//! loses no winning assignment when fifth copies are allowed: in the basic form a wild
//! sharing a set or pair with a natural tile `t` reads a face within two ranks of `t` in
//! its suit (or `t` itself); a set or pair of wilds alone may read any face, so one fixed
//! fresh face stands for all; in seven pairs a wild pairs a natural face or pairs with
//! another wild (a fresh face); in 九幺 any terminal or honour serves. `K` is those faces
//! plus a fresh terminal/honour and a face absent from the hand. 十三浪 needs distinct new
//! faces anywhere, so it is enumerated separately over sets of distinct faces of all 34.

use super::HuainanOptions;
use crate::hand::{Meld, MeldKind};
use crate::shanten::wild::{self, Limit};
use crate::tile::{self, Counts, Tile, EAST, N_KINDS};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Sets only within one group (a suit with chows, or the honours without).
fn sets_only(c: &[u8], chows: bool) -> bool {
    let mut c: [u8; 9] = {
        let mut a = [0u8; 9];
        a[..c.len()].copy_from_slice(c);
        a
    };
    for i in 0..9 {
        let r = c[i] % 3;
        if r == 0 {
            continue;
        }
        if !chows || i + 2 >= 9 || c[i + 1] < r || c[i + 2] < r {
            return false;
        }
        c[i + 1] -= r;
        c[i + 2] -= r;
    }
    true
}

fn group(c: &Counts, g: usize) -> &[u8] {
    if g < 3 {
        &c[g * 9..g * 9 + 9]
    } else {
        &c[27..34]
    }
}

/// Natural basic form: the concealed counts split into sets and one pair.
fn natural_basic(c: &Counts) -> bool {
    let mut pair_group = None;
    for g in 0..4 {
        let s: u32 = group(c, g).iter().map(|&x| x as u32).sum();
        match s % 3 {
            0 => {}
            2 if pair_group.is_none() => pair_group = Some(g),
            _ => return false,
        }
    }
    let Some(pg) = pair_group else { return false };
    for g in 0..4 {
        if g != pg && !sets_only(group(c, g), g < 3) {
            return false;
        }
    }
    let base = pg * 9;
    let len = if pg < 3 { 9 } else { 7 };
    let mut grp = [0u8; 9];
    grp[..len].copy_from_slice(group(c, pg));
    for p in 0..len {
        if grp[p] >= 2 {
            grp[p] -= 2;
            let ok = sets_only(&grp[..len], pg < 3);
            grp[p] += 2;
            if ok {
                return true;
            }
        }
    }
    let _ = base;
    false
}

fn natural_seven_pairs(c: &Counts, k: usize) -> bool {
    k == 0
        && c.iter().map(|&x| x as u32).sum::<u32>() == 14
        && c.iter().all(|&x| x == 0 || x == 2 || x == 4)
}

fn natural_lang(c: &Counts, k: usize) -> bool {
    if k != 0 || c.iter().map(|&x| x as u32).sum::<u32>() != 14 || c.iter().any(|&x| x > 1) {
        return false;
    }
    for s in 0..3 {
        let mut last: i32 = -10;
        for r in 0..9 {
            if c[s * 9 + r] > 0 {
                if r as i32 - last < 3 {
                    return false;
                }
                last = r as i32;
            }
        }
    }
    true
}

fn natural_jiuyao(c: &Counts, melds: &[Meld]) -> bool {
    melds
        .iter()
        .all(|m| m.kind != MeldKind::Chow && tile::is_terminal_or_honor(m.tile))
        && c.iter()
            .enumerate()
            .all(|(t, &x)| x == 0 || tile::is_terminal_or_honor(t as Tile))
}

fn natural_win(c: &Counts, melds: &[Meld], limit: Option<&Limit>) -> bool {
    if let Some(l) = limit {
        if (0..N_KINDS).any(|t| l[t] > 4) {
            return false;
        }
    }
    natural_basic(c) || natural_seven_pairs(c, melds.len()) || natural_jiuyao(c, melds)
}

/// Enumerates multisets of `w` faces from `cand`, starting at index `from`.
fn any_multiset(
    c: &mut Counts,
    tot: &mut Counts,
    cand: &[Tile],
    from: usize,
    w: u8,
    melds: &[Meld],
    fifth: bool,
) -> bool {
    if w == 0 {
        return natural_win(c, melds, if fifth { None } else { Some(tot) });
    }
    for i in from..cand.len() {
        let f = cand[i] as usize;
        c[f] += 1;
        tot[f] += 1;
        let ok = any_multiset(c, tot, cand, i, w - 1, melds, fifth);
        c[f] -= 1;
        tot[f] -= 1;
        if ok {
            return true;
        }
    }
    false
}

/// No repeated face and no two tiles of a suit closer than 3 (adding tiles never repairs
/// a violation, so the enumeration may stop early).
fn lang_partial(c: &Counts) -> bool {
    c.iter().all(|&x| x <= 1)
        && (0..3).all(|s| {
            let mut last: i32 = -10;
            (0..9).all(|r| {
                if c[s * 9 + r] == 0 {
                    return true;
                }
                let ok = r as i32 - last >= 3;
                last = r as i32;
                ok
            })
        })
}

fn any_lang(c: &mut Counts, from: usize, w: u8) -> bool {
    if !lang_partial(c) {
        return false;
    }
    if w == 0 {
        return natural_lang(c, 0);
    }
    for f in from..N_KINDS {
        if c[f] == 0 {
            c[f] = 1;
            let ok = any_lang(c, f + 1, w - 1);
            c[f] = 0;
            if ok {
                return true;
            }
        }
    }
    false
}

/// The reference: some assignment of faces to the 宝 makes a natural winning shape.
fn reference(concealed: &Counts, melds: &[Meld], bao: Tile, fifth: bool) -> bool {
    let wild = wild::Wild::new(concealed, Some(bao));
    let mut tot = wild::hand_limit(&wild.nat, melds);
    let mut mark = [false; N_KINDS];
    for t in 0..N_KINDS {
        if wild.nat[t] == 0 {
            continue;
        }
        if t < EAST as usize {
            let (s, r) = (t / 9, (t % 9) as i32);
            for d in -2..=2 {
                let rr = r + d;
                if (0..9).contains(&rr) {
                    mark[s * 9 + rr as usize] = true;
                }
            }
        } else {
            mark[t] = true;
        }
    }
    if let Some(&f) = tile::TERMINALS_AND_HONORS
        .iter()
        .find(|&&f| tot[f as usize] == 0)
    {
        mark[f as usize] = true;
    }
    if let Some(f) = (0..N_KINDS).find(|&f| tot[f] == 0) {
        mark[f] = true;
    }
    let cand: Vec<Tile> = (0..N_KINDS)
        .filter(|&f| mark[f])
        .map(|f| f as Tile)
        .collect();
    let mut c = wild.nat;
    if any_multiset(&mut c, &mut tot, &cand, 0, wild.w, melds, fifth) {
        return true;
    }
    melds.is_empty() && any_lang(&mut wild.nat.clone(), 0, wild.w)
}

/// A random hand near the win boundary: a complete shape, some tiles turned into 宝, and
/// half the time one tile changed.
fn random_hand(rng: &mut Rng) -> (Counts, Vec<Meld>, Tile) {
    loop {
        let mut all = [0u8; N_KINDS];
        let mut conc = [0u8; N_KINDS];
        let mut melds: Vec<Meld> = Vec::new();
        let kind = rng.below(10);
        let ok = match kind {
            0..=5 => {
                let k = [0, 0, 0, 1, 1, 2, 3, 4][rng.below(8) as usize];
                let mut fine = true;
                for i in 0..4 {
                    let chow = rng.below(2) == 0;
                    let t = if chow {
                        (rng.below(3) * 9 + rng.below(7)) as usize
                    } else {
                        rng.below(34) as usize
                    };
                    let faces: [usize; 3] = if chow { [t, t + 1, t + 2] } else { [t; 3] };
                    let kong = !chow && i < k && rng.below(4) == 0;
                    for &f in &faces {
                        all[f] += 1;
                    }
                    if kong {
                        all[t] += 1;
                    }
                    if i < k {
                        let kind = if chow {
                            MeldKind::Chow
                        } else if kong {
                            if rng.below(2) == 0 {
                                MeldKind::Kong
                            } else {
                                MeldKind::ConcealedKong
                            }
                        } else {
                            MeldKind::Pung
                        };
                        let size = kind.size();
                        let tiles: Vec<Tile> = if chow {
                            faces.iter().map(|&f| f as Tile).collect()
                        } else {
                            vec![t as Tile; size]
                        };
                        match Meld::new(kind, &tiles) {
                            Ok(m) => melds.push(m),
                            Err(_) => fine = false,
                        }
                    } else {
                        for &f in &faces {
                            conc[f] += 1;
                        }
                    }
                }
                let p = rng.below(34) as usize;
                all[p] += 2;
                conc[p] += 2;
                fine
            }
            6 | 7 => {
                for _ in 0..7 {
                    let p = rng.below(34) as usize;
                    all[p] += 2;
                    conc[p] += 2;
                }
                true
            }
            8 => {
                let honors = 5 + rng.below(3) as usize;
                let mut picked = 0;
                while picked < honors {
                    let h = 27 + rng.below(7) as usize;
                    if conc[h] == 0 {
                        conc[h] = 1;
                        picked += 1;
                    }
                }
                let mut need = 14 - honors;
                let starts = [
                    [0usize, 3, 6],
                    [0, 3, 7],
                    [0, 3, 8],
                    [0, 4, 7],
                    [0, 4, 8],
                    [0, 5, 8],
                    [1, 4, 7],
                    [1, 4, 8],
                    [1, 5, 8],
                    [2, 5, 8],
                ];
                for s in 0..3 {
                    let pat = starts[rng.below(10) as usize];
                    let take = need.min(3);
                    for &r in pat.iter().take(take) {
                        conc[s * 9 + r] = 1;
                    }
                    need -= take;
                }
                all = conc;
                need == 0
            }
            _ => {
                let k = [0, 0, 1, 2][rng.below(4) as usize];
                for _ in 0..k {
                    let t = tile::TERMINALS_AND_HONORS[rng.below(13) as usize];
                    all[t as usize] += 3;
                    melds.push(Meld::pung(t).unwrap_or(Meld {
                        kind: MeldKind::Pung,
                        tile: t,
                    }));
                }
                for _ in 0..14 - 3 * k {
                    let t = tile::TERMINALS_AND_HONORS[rng.below(13) as usize] as usize;
                    all[t] += 1;
                    conc[t] += 1;
                }
                true
            }
        };
        if !ok || all.iter().any(|&c| c > 4) {
            continue;
        }
        // The 宝: a face in no meld; turn w concealed tiles into it.
        let bao = rng.below(34) as Tile;
        if melds.iter().any(|m| m.tiles().contains(&bao)) {
            continue;
        }
        let w_target = [0u8, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4][rng.below(16) as usize];
        let mut guard = 0;
        while conc[bao as usize] < w_target && guard < 50 {
            guard += 1;
            let t = rng.below(34) as usize;
            if t != bao as usize && conc[t] > 0 {
                conc[t] -= 1;
                conc[bao as usize] += 1;
            }
        }
        if rng.below(8) < 5 {
            // Change one concealed tile, more with more 宝 (they absorb a single change).
            let changes = 1 + (conc[bao as usize] as u64 * rng.below(2)) / 2;
            for _ in 0..changes {
                let n: u64 = conc.iter().map(|&c| c as u64).sum();
                let mut pick = rng.below(n.max(1));
                let mut from = 0;
                while from < N_KINDS && pick >= conc[from] as u64 {
                    pick -= conc[from] as u64;
                    from += 1;
                }
                let to = rng.below(34) as usize;
                if from < N_KINDS && from != to && from != bao as usize {
                    conc[from] -= 1;
                    conc[to] += 1;
                }
            }
        }
        if crate::hand::check_hand(&conc, &melds).is_err() {
            continue;
        }
        return (conc, melds, bao);
    }
}

#[test]
fn is_win_equals_enumeration_over_100k_hands() {
    let mut rng = Rng(0x5EED_B405);
    let o = HuainanOptions::default();
    let mut no_fifth = o.clone();
    no_fifth.bao_wild_fifth_copy = false;
    let mut wins = [0u32; 5];
    let mut seen = [0u32; 5];
    for i in 0..100_000 {
        let (conc, melds, bao) = random_hand(&mut rng);
        let fifth = i % 5 != 0;
        let opts = if fifth { &o } else { &no_fifth };
        let want = reference(&conc, &melds, bao, fifth);
        let got = wild::is_win(
            &conc,
            &melds,
            Some(bao),
            &crate::huainan::oracle::ShapeOptions::of(opts),
        );
        assert_eq!(
            got,
            want,
            "hand {} melds {:?} 宝 {} fifth copies {fifth}",
            tile::format_counts(&conc),
            melds.iter().map(|m| m.notation()).collect::<Vec<_>>(),
            tile::name(bao)
        );
        if fifth {
            // The oracle's engine (basic form and seven pairs from its tables, 十三浪 and
            // 九幺 from this module) agrees too.
            let h = crate::shanten::checked::Hand::new(
                &conc,
                &melds,
                crate::shanten::Forms::HUAINAN,
                Some(bao),
            )
            .expect("a valid hand");
            assert_eq!(
                h.is_win().expect("a full hand"),
                want,
                "oracle: hand {} melds {:?} 宝 {}",
                tile::format_counts(&conc),
                melds.iter().map(|m| m.notation()).collect::<Vec<_>>(),
                tile::name(bao)
            );
            assert_eq!(h.shanten() == -1, want);
        }
        let w = conc[bao as usize] as usize;
        seen[w] += 1;
        wins[w] += want as u32;
    }
    eprintln!("wins by number of 宝: {wins:?} of {seen:?}");
    // Both sides of the boundary are well covered for every number of 宝.
    for w in 0..5 {
        assert!(
            seen[w] > 2_000 && wins[w] > seen[w] / 10 && wins[w] < seen[w] * 9 / 10,
            "{w}: {wins:?} {seen:?}"
        );
    }
}
