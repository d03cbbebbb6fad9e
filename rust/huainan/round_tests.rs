//! Huainan in the round state machine: random play invariants and rule scenarios on
//! arranged walls (the 宝 chosen after the deal, claims a 宝 allows, discard wins, the
//! passed-win lock, 天糊, 接宝, settlement and the match).

use super::Form;
use crate::round::ruleset::RuleEvent;
use crate::round::{Action, Event, Match, Phase, Round, WinKind};
use crate::rules::Rules;
use crate::tile::{self, Tile};
use crate::wall::{BreakThrow, Rng, Wall};

const SEED: u64 = 11;

fn t(s: &str) -> Vec<Tile> {
    tile::parse(s).unwrap()
}
fn t1(s: &str) -> Tile {
    t(s)[0]
}

fn rules() -> Rules {
    Rules::named("huainan").unwrap()
}

/// A hand on a wall that deals `hands` (from the dealer, seat 0), draws `head`, and turns
/// up `indicator` as the 宝 indicator (the filler tiles are whatever is left).
fn arranged(hands: [&str; 4], head: &str, indicator: &str) -> Round {
    let h: Vec<Vec<Tile>> = hands.iter().map(|s| t(s)).collect();
    let head = t(head);
    let probe = Wall::arranged(
        [&h[0], &h[1], &h[2], &h[3]],
        &head,
        &[],
        false,
        SEED,
        BreakThrow::Single,
    )
    .unwrap();
    let s2 = probe.clone().throw_pair();
    // The indicator is the upper tile of the s2-th stack from the tail: tail step 2(s2-1).
    let mut left = [4u8; 34];
    for x in h.iter().flatten().chain(head.iter()) {
        left[*x as usize] -= 1;
    }
    let ind = t1(indicator);
    left[ind as usize] -= 1;
    let mut tail = Vec::new();
    for _ in 0..2 * (s2 as usize - 1) {
        let f = (0..34).rev().find(|&f| left[f] > 0).unwrap();
        left[f] -= 1;
        tail.push(f as Tile);
    }
    tail.push(ind);
    let wall = Wall::arranged(
        [&h[0], &h[1], &h[2], &h[3]],
        &head,
        &tail,
        false,
        SEED,
        BreakThrow::Single,
    )
    .unwrap();
    let r = Round::with_wall(&rules(), wall, 0, 0).unwrap();
    assert_eq!(
        r.ruleset_view(0).bao().map(|v| v.bao),
        Some(super::bao::succ(ind))
    );
    r
}

fn play_random(seed: u64) -> Round {
    let mut rng = Rng::new(seed ^ 0x5151);
    let mut r = Round::new(&rules(), seed, (seed % 4) as u8, 0).unwrap();
    let bao = r
        .ruleset_view(0)
        .bao()
        .map(|v| v.bao)
        .expect("a huainan hand has a 宝");
    let mut steps = 0;
    while !r.is_over() {
        for s in r.pending_seats().collect::<Vec<_>>() {
            let l = r.legal_actions(s).to_vec();
            // No claim of a discarded 宝 except a win; no meld with a 宝.
            if let Some((_, ct)) = r.claim() {
                if ct == bao {
                    assert!(
                        l.iter().all(|a| matches!(a, Action::Win | Action::Pass)),
                        "{l:?}"
                    );
                }
            }
            let a = l[rng.below(l.len() as u64) as usize];
            r.apply(s, a).unwrap();
        }
        for s in 0..4 {
            assert!(r.seat(s).melds().iter().all(|m| !m.tiles().contains(&bao)));
        }
        steps += 1;
        assert!(steps < 2000);
    }
    r
}

#[test]
fn random_hands_keep_the_invariants() {
    let mut wins = 0;
    let mut forms = std::collections::BTreeSet::new();
    for seed in 0..300 {
        let r = play_random(seed);
        let bao = r.ruleset_view(0).bao().map(|v| v.bao).unwrap();
        assert!(
            matches!(r.events().iter().find(|e| matches!(e, Event::RuleSet(RuleEvent::Bao { .. }))), Some(Event::RuleSet(RuleEvent::Bao { tile, .. })) if *tile == bao)
        );
        let res = r.result().unwrap();
        assert_eq!(res.deltas.iter().sum::<i32>(), 0);
        assert_eq!(res.exhaustive, res.wins.is_empty());
        for w in &res.wins {
            wins += 1;
            let sc = w.value.huainan().expect("a huainan win carries its score");
            forms.insert(sc.form.key());
            assert_eq!(w.value.total() as u64, sc.value);
            if w.kind == WinKind::Discard && sc.form != Form::Jiebao {
                // No discard win while holding a 宝 (D-10).
                let mut before = w.hand;
                before[w.tile as usize] -= 1;
                assert_eq!(before[bao as usize], 0);
                assert_ne!(w.tile, bao);
            }
        }
        let o = r.observe(0);
        assert_eq!(o.ruleset_view.bao().map(|v| v.bao), Some(bao));
    }
    assert!(wins > 20, "{wins}");
    let _ = forms;
}

#[test]
fn same_seed_same_hand() {
    let a = play_random(7);
    let b = play_random(7);
    assert_eq!(a.events(), b.events());
}

#[test]
fn discarded_bao_only_for_jiebao() {
    // 宝 = 5p (indicator 4p). Seat 1 was dealt three 5p: a discarded 5p is 接宝 for it.
    let mut r = arranged(
        [
            "5p1234m19s1234567z",
            "555p13579m2468s7z",
            "46p1235m2346s123z",
            "4p9p2578m1357s456z",
        ],
        "9m9m",
        "4p",
    );
    assert_eq!(r.observe(1).ruleset_view.bao().unwrap().state.bao_drawn, 3);
    r.apply(0, Action::Discard(t1("5p"))).unwrap();
    assert_eq!(r.phase(), Phase::Claim);
    // Seat 2 holds 46p but may not chow the 宝.
    assert!(r.legal_actions(2).is_empty());
    assert_eq!(r.legal_actions(1), &[Action::Win, Action::Pass]);
    r.apply(1, Action::Win).unwrap();
    let res = r.result().unwrap();
    let w = &res.wins[0];
    assert_eq!(w.value.huainan().unwrap().form, Form::Jiebao);
    assert_eq!(res.deltas, [-16, 16, 0, 0]);
}

#[test]
fn holding_a_bao_no_discard_win_and_the_passed_win_lock() {
    // 宝 = 5p. Seat 1 waits on 9s holding a 宝 (H3); seat 2 waits on 9s with none.
    let mut r = arranged(
        [
            "9s1234m89p1234567z",
            "123m456m678s23p9s5p",
            "123m456m678s234p9s",
            "123m19p12345z678s",
        ],
        "9s2z3z4z",
        "4p",
    );
    r.apply(0, Action::Discard(t1("9s"))).unwrap();
    assert!(!r.legal_actions(1).contains(&Action::Win));
    assert!(r.legal_actions(2).contains(&Action::Win));
    // Seat 2 passes: locked until its next draw (D-16).
    r.apply(2, Action::Pass).unwrap();
    for s in r.pending_seats().collect::<Vec<_>>() {
        r.apply(s, Action::Pass).unwrap();
    }
    assert_eq!((r.phase(), r.turn()), (Phase::Turn, 1));
    // Seat 1 drew the last 9s and discards it: seat 2 may not win on it before it draws.
    assert!(r.huainan().unwrap().seats[2].guo_hu);
    assert!(
        r.legal_actions(1).contains(&Action::Win),
        "a self-draw with a 宝 wins"
    );
    r.apply(1, Action::Discard(t1("9s"))).unwrap();
    assert!(!r.legal_actions(2).contains(&Action::Win));
}

#[test]
fn tianhu_and_settlement() {
    // Dealer dealt a complete hand with a 宝 (H16): 平糊 × 天糊 = 8 from each.
    let mut r = arranged(
        [
            "123m456m78m5p234s11z",
            "13579m2468p1357s",
            "13579p2468s1357m",
            "2468m13579s2468p",
        ],
        "",
        "4p",
    );
    assert!(r.legal_actions(0).contains(&Action::Win));
    r.apply(0, Action::Win).unwrap();
    let res = r.result().unwrap();
    let sc = res.wins[0].value.huainan().unwrap();
    assert_eq!((sc.form, sc.value), (Form::Pinghu, 8));
    assert_eq!(res.deltas, [24, -8, -8, -8]);
}

#[test]
fn a_huainan_match() {
    let rules = rules();
    let mut m = Match::new(&rules, 5, None).unwrap();
    assert_eq!(m.hands(), 16);
    let mut rng = Rng::new(9);
    while !m.is_over() {
        let dealer = m.dealer();
        let mut r = m.start_hand().unwrap();
        while !r.is_over() {
            for s in r.pending_seats().collect::<Vec<_>>() {
                let l = r.legal_actions(s);
                let a = l[rng.below(l.len() as u64) as usize];
                r.apply(s, a).unwrap();
            }
        }
        let res = r.result().unwrap().clone();
        m.finish_hand(&res).unwrap();
        // D-2: the winner deals next (the first robber from the konger); a draw keeps it.
        let expect = res.winner().map_or(dealer, |w| w.seat);
        assert_eq!(m.dealer(), expect);
    }
    assert_eq!(m.scores().iter().sum::<i32>(), 0);
}

fn pass_all(r: &mut Round) {
    while r.phase() == Phase::Claim {
        let s = r.pending_seats().next().unwrap();
        r.apply(s, Action::Pass).unwrap();
    }
}

fn draw_and_discard(r: &mut Round, seat: u8, tile: &str) {
    assert_eq!((r.phase(), r.turn()), (Phase::Turn, seat));
    r.apply(seat, Action::Discard(t1(tile))).unwrap();
    pass_all(r);
}

#[test]
fn h15_two_robbers_of_one_kong() {
    // A = 0 (dealer) pungs D's 8s, then adds the fourth 8s. B = 1 is in the 宝吊头 state
    // (宝 = 5p) and may rob although holding a 宝; D = 3 waits on 8s with no 宝. Both win.
    let mut r = arranged(
        [
            "88s19m19p19s234567z",
            "5p123m456m789p234s",
            "2468m13p56s12367z",
            "11z234p678p789m79s",
        ],
        "9s5z8s6s4z3s8s",
        "4p",
    );
    r.apply(0, Action::Discard(t1("7z"))).unwrap();
    pass_all(&mut r);
    draw_and_discard(&mut r, 1, "9s");
    draw_and_discard(&mut r, 2, "5z");
    assert_eq!((r.phase(), r.turn()), (Phase::Turn, 3));
    r.apply(3, Action::Discard(t1("8s"))).unwrap();
    r.apply(0, Action::Pung(t1("8s"))).unwrap();
    pass_all(&mut r);
    draw_and_discard(&mut r, 0, "9m");
    draw_and_discard(&mut r, 1, "6s");
    draw_and_discard(&mut r, 2, "4z");
    draw_and_discard(&mut r, 3, "3s");
    assert!(r.huainan().unwrap().seats[1].in_bdt);
    assert_eq!(r.huainan().unwrap().seats[1].passes, 2);
    r.apply(0, Action::AddedKong(t1("8s"))).unwrap();
    assert_eq!(r.phase(), Phase::RobKong);
    r.apply(1, Action::Win).unwrap();
    r.apply(3, Action::Win).unwrap();
    let res = r.result().unwrap();
    assert_eq!(
        res.wins.iter().map(|w| w.seat).collect::<Vec<_>>(),
        vec![1, 3]
    );
    let b = res.wins[0].value.huainan().unwrap();
    assert_eq!(
        (b.form, b.value),
        (Form::Baodiaotou, 8),
        "宝吊头 2 × 抢杠 2 × 偷机 2"
    );
    let d = res.wins[1].value.huainan().unwrap();
    assert_eq!((d.form, d.value), (Form::Pinghu, 2));
    // The konger pays each robber; the robbed kong earns no kong points.
    assert_eq!(res.deltas, [-10, 8, 0, 2]);
    let rules = rules();
    let mut m = Match::new(&rules, 1, Some(2)).unwrap();
    m.finish_hand(res).unwrap();
    assert_eq!(
        m.dealer(),
        1,
        "the first robber counter-clockwise from the konger deals"
    );
}

/// Plays a hand with the wild-aware efficiency decisions at every seat.
pub(super) fn play_efficient(seed: u64, dealer: u8) -> Round {
    let rules = rules();
    let mut r = Round::new(&rules, seed, dealer, 0).unwrap();
    while !r.is_over() {
        let s = r.pending_seats().next().unwrap();
        let st = r.seat(s);
        let h = r.huainan().unwrap();
        let d = crate::policy::huainan::Decision {
            hand: &st.hand,
            melds: st.melds(),
            bao: h.bao,
            state: h.seats[s as usize],
            legal: r.legal_actions(s),
            claim: r.claim().map(|c| c.1),
            drawn: if r.turn() == s { r.drawn() } else { None },
            wall_remaining: r.wall().remaining(),
            opts: &rules.huainan,
        };
        let a = crate::policy::huainan::decide(&d);
        r.apply(s, a).unwrap();
    }
    r
}

#[test]
fn wild_aware_efficiency_wins_most_hands() {
    let mut won = 0;
    let mut kongs = 0;
    let mut forms = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let r = play_efficient(seed, (seed % 4) as u8);
        kongs += r
            .events()
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Kong { .. } | Event::ConcealedKong { .. } | Event::AddedKong { .. }
                )
            })
            .count();
        let res = r.result().unwrap();
        assert_eq!(res.deltas.iter().sum::<i32>(), 0);
        if !res.wins.is_empty() {
            won += 1;
        }
        for w in &res.wins {
            forms.insert(w.value.huainan().unwrap().form.key());
        }
    }
    assert!(won > 120, "{won} of 200 hands won");
    assert!(kongs > 10, "{kongs} kongs in 200 hands");
    assert!(
        forms.contains("baodiaotou")
            || forms.contains("baodiaobao")
            || forms.contains("baodiao_wubao"),
        "{forms:?}"
    );
    assert_eq!(play_efficient(3, 1).events(), play_efficient(3, 1).events());
}

/// Random play under `rules` (every seat picks a random legal action).
fn play_random_with(rules: &Rules, seed: u64) -> Round {
    let mut rng = Rng::new(seed ^ 0xA5A5);
    let mut r = Round::new(rules, seed, (seed % 4) as u8, 0).unwrap();
    while !r.is_over() {
        for s in r.pending_seats().collect::<Vec<_>>() {
            let l = r.legal_actions(s);
            let a = l[rng.below(l.len() as u64) as usize];
            r.apply(s, a).unwrap();
        }
    }
    r
}

fn bao_event(r: &Round) -> (Tile, Tile, u8) {
    r.events()
        .iter()
        .find_map(|e| match *e {
            Event::RuleSet(RuleEvent::Bao {
                indicator,
                tile,
                throw,
            }) => Some((indicator, tile, throw)),
            _ => None,
        })
        .unwrap()
}

#[test]
fn d4_a_reserved_tail_is_never_drawn() {
    let mut rules = rules();
    rules
        .set("reserved_tiles", &crate::rules::OptValue::Int(14))
        .unwrap();
    let mut draws = 0;
    for seed in 0..60 {
        let r = play_random_with(&rules, seed);
        if r.result().unwrap().exhaustive {
            draws += 1;
            assert_eq!(
                (r.wall().remaining(), r.wall().standing()),
                (0, 14),
                "seed {seed}"
            );
        }
        assert!(r.wall().standing() >= 14);
    }
    assert!(draws > 5, "{draws}");
    let mut bad = self::rules();
    bad.set("reserved_tiles", &crate::rules::OptValue::Int(90))
        .unwrap();
    assert!(Round::new(&bad, 1, 0, 0).is_err());
}

#[test]
fn d5_d6_where_the_indicator_comes_from() {
    use crate::rules::OptValue;
    let str_opt = |k: &str, v: &str| {
        let mut r = rules();
        r.set(k, &OptValue::Str(v.into())).unwrap();
        r
    };
    for seed in 0..20 {
        // Default: a separate throw, the upper tile of the s2-th stack from the tail.
        let r = Round::new(&rules(), seed, 0, 0).unwrap();
        let (ind, bao, s2) = bao_event(&r);
        assert_eq!(ind, r.wall().order()[136 - 2 * s2 as usize]);
        assert_eq!(bao, super::bao::succ(ind));
        // The break dice count the stacks: no second throw.
        let r = Round::new(&str_opt("bao_indicator_throw", "break_dice"), seed, 0, 0).unwrap();
        let (ind, _, s) = bao_event(&r);
        let d = r.wall().dice().dice;
        assert_eq!(s, d[0] + d[1]);
        assert_eq!(ind, r.wall().order()[136 - 2 * s as usize]);
        // The lower tile; counting from the head (the first whole stack after the deal).
        let r = Round::new(&str_opt("bao_indicator_tile", "lower"), seed, 0, 0).unwrap();
        let (ind, _, s2) = bao_event(&r);
        assert_eq!(ind, r.wall().order()[137 - 2 * s2 as usize]);
        let r = Round::new(&str_opt("bao_indicator_count_from", "head"), seed, 0, 0).unwrap();
        let (ind, _, s2) = bao_event(&r);
        let i = 52 + 2 * s2 as usize;
        assert_eq!(
            (ind, r.huainan().unwrap().indicator_index as usize),
            (r.wall().order()[i], i)
        );
    }
    // D-6: the indicator stays in the wall and is drawn by whoever reaches it, or is set
    // aside and never drawn.
    let mut aside = rules();
    aside
        .set("bao_indicator_stays_in_wall", &OptValue::Bool(false))
        .unwrap();
    let (mut drawn, mut kept) = (0, 0);
    for seed in 0..40 {
        for (rules, stays) in [(self::rules(), true), (aside.clone(), false)] {
            let r = play_random_with(&rules, seed);
            let i = r.huainan().unwrap().indicator_index as usize;
            if !r.result().unwrap().exhaustive {
                continue;
            }
            if stays {
                assert!(
                    r.wall().is_taken(i) && r.wall().standing() == 0,
                    "seed {seed}"
                );
                drawn += 1;
            } else {
                assert!(
                    !r.wall().is_taken(i) && r.wall().is_blocked(i),
                    "seed {seed}"
                );
                assert_eq!(r.wall().standing(), 1);
                kept += 1;
            }
        }
    }
    assert!(drawn > 3 && kept > 3, "{drawn} {kept}");
    let mut flowers = rules();
    flowers.set("flowers", &OptValue::Bool(true)).unwrap();
    assert!(Round::new(&flowers, 1, 0, 0)
        .unwrap_err()
        .message()
        .contains("D-1"));
}

/// Like [`arranged`] with `rules`, and `tail` as the first replacement draws (before the
/// filler that leads to the indicator).
fn arranged_with(
    rules: &Rules,
    hands: [&str; 4],
    head: &str,
    tail: &str,
    indicator: &str,
) -> Round {
    let h: Vec<Vec<Tile>> = hands.iter().map(|s| t(s)).collect();
    let head = t(head);
    let mut tail = t(tail);
    let probe = Wall::arranged(
        [&h[0], &h[1], &h[2], &h[3]],
        &head,
        &[],
        false,
        SEED,
        BreakThrow::Single,
    )
    .unwrap();
    let s2 = probe.clone().throw_pair();
    let mut left = [4u8; 34];
    for x in h.iter().flatten().chain(head.iter()).chain(tail.iter()) {
        left[*x as usize] -= 1;
    }
    let ind = t1(indicator);
    left[ind as usize] -= 1;
    assert!(tail.len() <= 2 * (s2 as usize - 1));
    while tail.len() < 2 * (s2 as usize - 1) {
        let f = (0..34).rev().find(|&f| left[f] > 0).unwrap();
        left[f] -= 1;
        tail.push(f as Tile);
    }
    tail.push(ind);
    let wall = Wall::arranged(
        [&h[0], &h[1], &h[2], &h[3]],
        &head,
        &tail,
        false,
        SEED,
        BreakThrow::Single,
    )
    .unwrap();
    Round::with_wall(rules, wall, 0, 0).unwrap()
}

#[test]
fn d12_which_tile_an_added_kong_may_use() {
    use crate::rules::OptValue;
    let hands = [
        "5s19m19p19s1234567z",
        "2468m2468p13789s",
        "55s23578m3579p12z",
        "3366m3366p2266s9p",
    ];
    for just_drawn in [false, true] {
        let mut rules = rules();
        if just_drawn {
            rules
                .set("added_kong_tile", &OptValue::Str("just_drawn".into()))
                .unwrap();
        }
        let mut r = arranged_with(&rules, hands, "1z2z3z5s4z5z6z7z", "", "4p");
        r.apply(0, Action::Discard(t1("5s"))).unwrap();
        r.apply(2, Action::Pung(t1("5s"))).unwrap();
        pass_all(&mut r);
        draw_and_discard(&mut r, 2, "8m");
        draw_and_discard(&mut r, 3, "1z");
        draw_and_discard(&mut r, 0, "2z");
        draw_and_discard(&mut r, 1, "3z");
        // Seat 2 draws the fourth 5s: it may add it now either way.
        assert_eq!(r.drawn(), Some(t1("5s")));
        assert!(r.legal_actions(2).contains(&Action::AddedKong(t1("5s"))));
        draw_and_discard(&mut r, 2, "2m");
        draw_and_discard(&mut r, 3, "4z");
        draw_and_discard(&mut r, 0, "5z");
        draw_and_discard(&mut r, 1, "6z");
        // A turn later the 5s is a held tile: only held_or_drawn allows it.
        assert_eq!((r.turn(), r.drawn()), (2, Some(t1("7z"))));
        assert_eq!(
            r.legal_actions(2).contains(&Action::AddedKong(t1("5s"))),
            !just_drawn
        );
    }
}

#[test]
fn d14_d18_a_kong_on_the_last_tile() {
    use crate::rules::OptValue;
    // Seat 3 holds 111m and draws the last tile of the wall, the fourth 1m. Every seat
    // discards what it draws.
    let hands = [
        "29m19p19s12345677z",
        "2468m2468p13789s",
        "2357m35789p1238s",
        "111m46p46s3466z9p8s",
    ];
    for (empty_ok, on_draw) in [(false, false), (true, false), (true, true)] {
        let mut rules = rules();
        rules
            .set("kong_on_empty_wall", &OptValue::Bool(empty_ok))
            .unwrap();
        rules
            .set("kong_points_on_draw", &OptValue::Bool(on_draw))
            .unwrap();
        let mut r = arranged_with(&rules, hands, "", "9s1m", "4p");
        r.apply(0, Action::Discard(t1("7z"))).unwrap();
        pass_all(&mut r);
        while r.wall().remaining() > 0 {
            let s = r.turn();
            let d = r.drawn().unwrap();
            if d == t1("1m") {
                assert_eq!(s, 3);
            }
            r.apply(s, Action::Discard(d)).unwrap();
            pass_all(&mut r);
        }
        assert_eq!((r.turn(), r.drawn()), (3, Some(t1("1m"))));
        let kong = Action::ConcealedKong(t1("1m"));
        assert_eq!(r.legal_actions(3).contains(&kong), empty_ok);
        if !empty_ok {
            continue;
        }
        r.apply(3, kong).unwrap();
        let res = r.result().unwrap();
        assert!(res.exhaustive, "no replacement tile: the hand is drawn");
        assert_eq!(res.deltas, if on_draw { [-2, -2, -2, 6] } else { [0; 4] });
    }
}

#[test]
fn d17_robbing_a_kong_claimed_on_a_discard() {
    use crate::rules::OptValue;
    // 宝 = 5p. Seat 1 holds a 宝 and wins on 1p (H3: the 宝 pairs with 9s), so it may not
    // take the dealer's 1p as a discard; seat 3 holds 111p and claims a kong on it.
    let hands = [
        "1p19m19s1234567z89p",
        "123m456m678s23p9s5p",
        "2468m2468s357p12z",
        "111p3579m3579s34z",
    ];
    for (zhi, rob) in [(false, false), (true, true), (true, false)] {
        let mut rules = rules();
        if zhi {
            rules
                .set("robbable_kongs", &OptValue::Str("bu_gang_zhi_gang".into()))
                .unwrap();
        }
        let mut r = arranged_with(&rules, hands, "", "", "4p");
        r.apply(0, Action::Discard(t1("1p"))).unwrap();
        assert!(
            !r.legal_actions(1).contains(&Action::Win),
            "no discard win while holding a 宝"
        );
        r.apply(3, Action::Kong(t1("1p"))).unwrap();
        pass_all(&mut r);
        if !zhi {
            // Only an added kong may be robbed: the kong stands and its replacement is drawn.
            assert_eq!(
                (r.phase(), r.turn(), r.turn_start()),
                (Phase::Turn, 3, crate::round::TurnStart::Replacement)
            );
            assert_eq!(r.seat(3).melds().len(), 1);
            continue;
        }
        assert_eq!(r.phase(), Phase::RobKong);
        assert!(r.robbing_claimed_kong());
        assert!(
            r.legal_actions(0).is_empty(),
            "the discarder cannot rob its own tile"
        );
        assert_eq!(r.legal_actions(1), &[Action::Win, Action::Pass]);
        if rob {
            r.apply(1, Action::Win).unwrap();
            let res = r.result().unwrap();
            let w = &res.wins[0];
            assert_eq!((w.seat, w.from, w.kind), (1, 3, WinKind::RobbedKong));
            assert_eq!(w.value.huainan().unwrap().value, 2, "平糊 1 × 抢杠 2");
            assert_eq!(res.deltas, [0, 2, 0, -2]);
            assert!(r.discards()[0].claimed);
        } else {
            r.apply(1, Action::Pass).unwrap();
            assert_eq!((r.phase(), r.turn()), (Phase::Turn, 3));
            assert_eq!(r.seat(3).melds()[0].kind, crate::hand::MeldKind::Kong);
            assert!(
                r.huainan().unwrap().seats[1].guo_hu,
                "a passed robbery locks"
            );
        }
    }
}
