//! Invariant checks: every state of a hand (tile conservation, hand sizes) and its end
//! (scores sum to zero, wins are complete hands of enough value), completeness read by a
//! plain search of its own.

use crate::error::MjResult;
use crate::hand::MeldKind;
use crate::policy::Policy;
use crate::round::Round;
use crate::rules::Engine;
use crate::tile;

/// Everything invariant checking found wrong in a batch (empty when all is well).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Violations {
    /// How many problems.
    pub count: u64,
    /// The first few, described.
    pub first: Vec<String>,
}

impl Violations {
    fn push(&mut self, msg: String) {
        self.count += 1;
        if self.first.len() < 10 {
            self.first.push(msg);
        }
    }
    /// The problems of both.
    pub fn merge(mut self, other: Violations) -> Violations {
        self.count += other.count;
        for m in other.first {
            if self.first.len() < 10 {
                self.first.push(m);
            }
        }
        self
    }
}

/// Drives `round` to its end like [`play_out`](crate::policy::play_out), checking every
/// state it passes through with [`check_state`] and the end with [`check_result`].
pub fn play_checked(
    round: &mut Round,
    policies: &mut [Box<dyn Policy>; 4],
    v: &mut Violations,
) -> MjResult<()> {
    check_state(round, v);
    loop {
        let pending = round.pending();
        if pending == 0 {
            break;
        }
        let seat = pending.trailing_zeros() as u8;
        let action = policies[seat as usize].act(&crate::policy::RoundView { round, seat });
        if !round.legal_actions(seat).contains(&action) {
            v.push(format!(
                "seat {seat} chose {} which is not legal",
                action.describe()
            ));
        }
        round.apply(seat, action)?;
        check_state(round, v);
    }
    check_result(round, v);
    Ok(())
}

/// Tile conservation and hand sizes: every tile of the wall is in exactly one place (a
/// hand, a meld, the discards, the flowers, or the wall), no kind has more than four
/// copies, and no seat holds more than 14 tiles counting its melds as three.
pub fn check_state(round: &Round, v: &mut Violations) {
    let mut per_kind = [0u32; 42];
    let mut total = 0usize;
    for s in 0..4u8 {
        let st = round.seat(s);
        let held: u32 = st.hand.iter().map(|&c| c as u32).sum();
        if held != st.n_hand as u32 {
            v.push(format!(
                "seat {s}: {} concealed tiles recorded, {held} held",
                st.n_hand
            ));
        }
        let size = st.n_hand as usize + 3 * st.n_melds as usize;
        if !(13..=14).contains(&size) {
            v.push(format!("seat {s} holds {size} tiles (melds as three)"));
        }
        for (t, &c) in st.hand.iter().enumerate() {
            per_kind[t] += c as u32;
            total += c as usize;
        }
        for m in st.melds() {
            let n = m.kind.size();
            total += n;
            if m.kind == MeldKind::Chow {
                for k in 0..3 {
                    per_kind[(m.tile + k) as usize] += 1;
                }
            } else {
                per_kind[m.tile as usize] += n as u32;
            }
        }
        for &f in st.flowers() {
            per_kind[f as usize] += 1;
            total += 1;
        }
    }
    for d in round.discards().iter().filter(|d| !d.claimed) {
        per_kind[d.tile as usize] += 1;
        total += 1;
    }
    // While an added kong may be robbed, its tile has left the hand and is not yet in the
    // meld (a robbed kong's tile then joins the winner's hand).
    if round.phase() == crate::round::Phase::RobKong && !round.robbing_claimed_kong() {
        if let Some((_, t)) = round.claim() {
            per_kind[t as usize] += 1;
            total += 1;
        }
    }
    let wall = round.wall();
    for i in 0..wall.len() {
        if !wall.is_taken(i) {
            if let Some(t) = wall.peek(i) {
                per_kind[t as usize] += 1;
            }
        }
    }
    total += wall.standing();
    if total != wall.len() {
        v.push(format!(
            "{total} tiles accounted for, the wall had {}",
            wall.len()
        ));
    }
    for (t, &c) in per_kind.iter().enumerate() {
        let limit = if tile::is_flower(t as u8) { 1 } else { 4 };
        if c > limit {
            v.push(format!("{} copies of {}", c, tile::name(t as u8)));
        }
    }
}

/// The end of a hand: scores sum to zero, and every win is a complete hand whose fan
/// (without flowers) reaches the rule set's minimum (Huainan: whose value is positive).
/// Completeness is read by [`complete_by_search`] and [`huainan_complete_by_search`], a
/// plain search written apart from the engine's win test, so that a fault there is seen.
pub fn check_result(round: &Round, v: &mut Violations) {
    /// Which reading of a complete hand the engine's wins are checked against.
    fn plays_bao(round: &Round) -> bool {
        match round.rules().kind.engine {
            Engine::Fans => false,
            Engine::Huainan => true,
        }
    }
    let Some(res) = round.result() else {
        v.push("the hand ended without a result".to_string());
        return;
    };
    let sum: i32 = res.deltas.iter().sum();
    if sum != 0 {
        v.push(format!("scores sum to {sum}: {:?}", res.deltas));
    }
    let min = round.rules().fan.min_fan as u32;
    if plays_bao(round) {
        // Huainan: a win is a complete hand with the 宝 wild, or one of the instant wins
        // (接宝, 四个宝), and carries a positive value; there is no fan minimum.
        let Some(bao) = round.ruleset_view(0).bao().map(|b| b.bao) else {
            v.push("a hand played with 宝 ended without one turned up".to_string());
            return;
        };
        for w in &res.wins {
            let melds = &w.melds[..w.n_melds as usize];
            let Some(sc) = w.value.huainan() else {
                v.push(format!("seat {} won without a Huainan value", w.seat));
                continue;
            };
            if !sc.form.is_special() && !huainan_complete_by_search(&w.hand, melds, bao) {
                v.push(format!(
                    "seat {} won with an incomplete hand {}",
                    w.seat,
                    tile::format_counts(&w.hand)
                ));
            }
            if sc.value == 0 {
                v.push(format!("seat {} won with the value 0", w.seat));
            }
        }
        return;
    }
    for w in &res.wins {
        if !complete_by_search(&w.hand, w.n_melds as usize) {
            v.push(format!(
                "seat {} won with an incomplete hand {}",
                w.seat,
                tile::format_counts(&w.hand)
            ));
        }
        if w.value.fans().is_none() {
            v.push(format!("seat {} won without fans", w.seat));
        }
        let fan = if round.rules().fan.flowers_count_toward_min {
            w.value.total()
        } else {
            w.value.total_without_flowers()
        };
        if fan < min {
            v.push(format!(
                "seat {} won with {fan} fan, below the minimum {min}",
                w.seat
            ));
        }
    }
}

// ---- complete hands by plain search (the invariant checks' own reading) -----------------

/// The suited kinds of the six knitted patterns: suit `s` holds the ranks `r`, `r + 3`,
/// `r + 6` with `r = KNITS[p][s]`.
const KNITS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// True if suited kind `t` belongs to knitted pattern `p`.
fn in_knit(p: usize, t: usize) -> bool {
    t < 27 && (t % 9) % 3 == KNITS[p][t / 9]
}

/// Splits `c` into sets (pungs, chows) and, if `pair`, one pair, with `wilds` tiles that
/// may stand for anything; tries every set the lowest held kind can start.
fn split_sets(c: &mut tile::Counts, wilds: u8, pair: bool) -> bool {
    let Some(i) = c.iter().position(|&x| x > 0) else {
        return if pair {
            wilds >= 2 && (wilds - 2) % 3 == 0
        } else {
            wilds % 3 == 0
        };
    };
    let rank = i % 9;
    let suited = i < 27;
    // Pairs (with a wild for the second copy) and pungs (wilds for missing copies).
    for (size, is_pair) in [(2u8, true), (3u8, false)] {
        if is_pair && !pair {
            continue;
        }
        for natural in (1..=size.min(c[i])).rev() {
            let fill = size - natural;
            if fill > wilds {
                continue;
            }
            c[i] -= natural;
            let ok = split_sets(c, wilds - fill, pair && !is_pair);
            c[i] += natural;
            if ok {
                return true;
            }
        }
    }
    // Chows holding `i` as their lowest natural tile: i, i+1, i+2, or (an 8 in 7-8-9) a
    // wild below i, i+1; each other tile natural or a wild.
    if suited && rank <= 7 {
        let (others, below): (&[usize], u8) = if rank <= 6 {
            (&[i + 1, i + 2], 0)
        } else {
            (&[i + 1], 1)
        };
        for take in 0..1u8 << others.len() {
            let natural = |k: usize| take >> k & 1 == 1;
            if (0..others.len()).any(|k| natural(k) && c[others[k]] == 0) {
                continue;
            }
            let fill = below + (0..others.len()).filter(|&k| !natural(k)).count() as u8;
            if fill > wilds {
                continue;
            }
            c[i] -= 1;
            for k in (0..others.len()).filter(|&k| natural(k)) {
                c[others[k]] -= 1;
            }
            let ok = split_sets(c, wilds - fill, pair);
            c[i] += 1;
            for k in (0..others.len()).filter(|&k| natural(k)) {
                c[others[k]] += 1;
            }
            if ok {
                return true;
            }
        }
    }
    false
}

/// Whether `concealed` (14 - 3k tiles beside `n_melds` melds) completes a hand in one of
/// the five GB forms: four sets and a pair, seven pairs, thirteen orphans, honors and
/// knitted, or a knitted straight with a set and a pair. A plain search of its own, for
/// checking the engine's win test.
pub fn complete_by_search(concealed: &tile::Counts, n_melds: usize) -> bool {
    let n: usize = concealed.iter().map(|&x| x as usize).sum();
    if n_melds > 4 || n != 14 - 3 * n_melds {
        return false;
    }
    let mut c = *concealed;
    if split_sets(&mut c, 0, true) {
        return true;
    }
    if n_melds == 0 {
        if concealed.iter().all(|&x| x % 2 == 0) {
            return true;
        }
        let orphans = tile::TERMINALS_AND_HONORS;
        if orphans.iter().all(|&t| concealed[t as usize] > 0)
            && (0..tile::N_KINDS).all(|t| concealed[t] == 0 || orphans.contains(&(t as tile::Tile)))
        {
            return true;
        }
        let singles = concealed.iter().all(|&x| x <= 1);
        if singles && (0..6).any(|p| (0..27).all(|t| concealed[t] == 0 || in_knit(p, t))) {
            return true;
        }
    }
    n_melds <= 1
        && (0..6).any(|p| {
            let mut rest = *concealed;
            for t in (0..27).filter(|&t| in_knit(p, t)) {
                if rest[t] == 0 {
                    return false;
                }
                rest[t] -= 1;
            }
            split_sets(&mut rest, 0, true)
        })
}

/// Whether a Huainan hand can be complete when every copy of `bao` may stand for any tile
/// (fifth copies included): the basic form, seven pairs, 十三浪 (no two tiles of a suit
/// less than three ranks apart, no honour twice) or 九幺 (terminals and honours only, no
/// chow meld). Every option of the rule set narrows these readings, so a hand that fails
/// here wins under none of them. A plain search of its own, for the invariant checks.
pub fn huainan_complete_by_search(
    concealed: &tile::Counts,
    melds: &[crate::hand::Meld],
    bao: tile::Tile,
) -> bool {
    let n: usize = concealed.iter().map(|&x| x as usize).sum();
    if melds.len() > 4 || n != 14 - 3 * melds.len() {
        return false;
    }
    let mut nat = *concealed;
    let wilds = std::mem::take(&mut nat[bao as usize]);
    if split_sets(&mut nat.clone(), wilds, true) {
        return true;
    }
    let orphan = |t: usize| tile::is_terminal_or_honor(t as tile::Tile);
    let orphan_melds = melds
        .iter()
        .all(|m| m.kind != MeldKind::Chow && orphan(m.tile as usize));
    if orphan_melds && (0..tile::N_KINDS).all(|t| nat[t] == 0 || orphan(t)) {
        return true;
    }
    if !melds.is_empty() {
        return false;
    }
    let odd = nat.iter().filter(|&&x| x % 2 == 1).count() as u8;
    if odd <= wilds && (wilds - odd) % 2 == 0 {
        return true;
    }
    // 十三浪: the naturals spread out, and room for every wild as a new tile.
    if nat.iter().any(|&x| x > 1) {
        return false;
    }
    let spread = |m: u16| (0..9).all(|r| m >> r & 1 == 0 || m >> (r + 1) & 3 == 0);
    let mut room = nat[27..].iter().filter(|&&x| x == 0).count();
    for s in 0..3 {
        let held = (0..9).fold(0u16, |m, r| m | ((nat[9 * s + r] as u16) << r));
        if !spread(held) {
            return false;
        }
        let most = (0..512u16)
            .filter(|&m| m & held == held && spread(m))
            .map(|m| m.count_ones())
            .max()
            .unwrap_or(0);
        room += (most - held.count_ones()) as usize;
    }
    wilds as usize <= room
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::wall::derive_seed;

    fn hand(text: &str) -> tile::Counts {
        tile::to_counts(&tile::parse(text).unwrap()).unwrap()
    }

    #[test]
    fn search_reads_every_gb_form() {
        for (text, melds, win) in [
            ("123m456m789m123p55p", 0, true),
            ("123m456m789m123p56p", 0, false),
            ("111m222m333m99p", 1, true),
            ("11m22m33m44p55p66s77z", 0, true),
            ("11m11m33m44p55p66s77z", 0, true),
            ("19m19p19s1234567z1z", 0, true),
            ("19m19p19s1234566z2m", 0, false),
            ("147m258p369s12345z", 0, true),
            ("147m258p369s11345z", 0, false),
            ("147m258p369s234m55z", 0, true),
            ("147m258p369s55z", 1, true),
            ("147m258p36s2345m55z", 0, false),
            ("55z", 4, true),
        ] {
            assert_eq!(complete_by_search(&hand(text), melds), win, "{text}");
        }
    }

    #[test]
    fn search_agrees_with_the_engine_on_random_hands() {
        let mut state = 7u64;
        let mut next = |n: u64| {
            state = derive_seed(state, 1);
            state % n
        };
        let none = [0u8; 34];
        let (mut wins, mut checked) = (0, 0);
        for _ in 0..20_000 {
            // Four random sets and a pair, then (half the time) one tile swapped.
            let mut c = [0u8; 34];
            let mut ok = true;
            for k in 0..5 {
                let t = next(34) as usize;
                let chow = k < 4 && t < 27 && t % 9 <= 6 && next(2) == 0;
                let tiles: Vec<usize> = match (k, chow) {
                    (4, _) => vec![t, t],
                    (_, true) => vec![t, t + 1, t + 2],
                    _ => vec![t, t, t],
                };
                for x in tiles {
                    c[x] += 1;
                    ok &= c[x] <= 4;
                }
            }
            if next(2) == 0 {
                let held: Vec<usize> = (0..34).filter(|&t| c[t] > 0).collect();
                let out = held[next(held.len() as u64) as usize];
                let into = next(34) as usize;
                c[out] -= 1;
                c[into] += 1;
                ok &= c[into] <= 4;
            }
            if !ok {
                continue;
            }
            let want = crate::shanten::is_win(&c, &none, 0, 0);
            assert_eq!(
                complete_by_search(&c, 0),
                want,
                "{}",
                tile::format_counts(&c)
            );
            checked += 1;
            wins += want as usize;
        }
        assert!(
            checked > 10_000 && wins > 3_000 && wins < checked,
            "{wins}/{checked}"
        );
    }

    #[test]
    fn huainan_search_holds_for_every_engine_win() {
        let o = crate::huainan::oracle::ShapeOptions::of(&Rules::named("huainan").unwrap().huainan);
        let bao = 4; // 5m
        for (text, win) in [
            ("123m456p789s123p55m", true),
            ("123m456p789s12p5m77s", true),
            ("5555m123p456s789s1z", true),
            ("11m22m33m44p55p66s7z1z", false),
            ("11m22m33m44p55p5m66s7z", true),
            ("11m22m33m44p5m66s77z1z", true),
            ("147m258p369s12345z", true),
            ("145m258p369s12345z", true),
            ("19m19p19s1234567z5m", true),
            ("129m19p19s1234567z", false),
        ] {
            let c = hand(text);
            assert_eq!(huainan_complete_by_search(&c, &[], bao), win, "{text}");
            if crate::shanten::wild::is_win(&c, &[], Some(bao), &o) {
                assert!(win, "{text}");
            }
        }
        let mut state = 11u64;
        let mut next = |n: u64| {
            state = derive_seed(state, 1);
            state % n
        };
        let mut wins = 0;
        for _ in 0..20_000 {
            let mut c = [0u8; 34];
            let mut n = 0;
            while n < 14 {
                let t = if next(4) == 0 {
                    bao as usize
                } else {
                    next(34) as usize
                };
                if c[t] < 4 {
                    c[t] += 1;
                    n += 1;
                }
            }
            if crate::shanten::wild::is_win(&c, &[], Some(bao), &o) {
                wins += 1;
                assert!(
                    huainan_complete_by_search(&c, &[], bao),
                    "{}",
                    tile::format_counts(&c)
                );
            }
        }
        assert!(wins > 50, "{wins}");
    }
}
