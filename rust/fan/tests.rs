//! Unit tests of the evaluator on hands from docs/rules/gb.md (the JSON examples run from Python).

use super::catalog::*;
use super::*;
use crate::tile;

fn counts(s: &str) -> Counts {
    tile::to_counts(&tile::parse(s).unwrap()).unwrap()
}

fn win(hand: &str, melds: &[Meld], w: &str) -> WinInput {
    WinInput::new(counts(hand), melds, tile::parse(w).unwrap()[0]).unwrap()
}

fn fans(r: &FanResult) -> Vec<(u8, u8)> {
    r.fans.iter().map(|f| (f.fan.0, f.count)).collect()
}

#[test]
fn pure_shifted_pungs_beat_triple_chow() {
    // P01: 222333444m read as three pungs (24 + 16) rather than three chows.
    let r = evaluate_gb(&win("222333444m55p67s", &[], "8s")).unwrap();
    assert_eq!(r.count(PURE_SHIFTED_PUNGS), 1);
    assert_eq!(r.count(PURE_TRIPLE_CHOW), 0);
}

#[test]
fn not_winning_and_bad_input() {
    let e = evaluate_gb(&win("123m456p789s1122z", &[], "3z")).unwrap_err();
    assert!(matches!(e, MjError::NotWinning(_)));
    let i = win("1111m456p789s122z", &[], "1m");
    assert!(evaluate_gb(&i)
        .unwrap_err()
        .message()
        .contains("copies of 1m"));
    let mut i = win("123m456p789s1122z", &[], "1z");
    i.seat_wind = 4;
    assert!(evaluate_gb(&i).unwrap_err().message().contains("seat wind"));
    i.seat_wind = 0;
    i.flowers = 9;
    assert!(evaluate_gb(&i).unwrap_err().message().contains("flowers"));
    i.flowers = 0;
    i.win_tile = 40;
    assert!(evaluate_gb(&i).unwrap_err().message().contains("flower"));
    i.win_tile = 200;
    assert!(evaluate_gb(&i).is_err());
    i.win_tile = 27;
    i.n_melds = 9;
    assert!(evaluate_gb(&i).is_err());
}

#[test]
fn robbing_a_held_tile_is_rejected_or_dropped() {
    let mut i = win("123m456p789s11z22z", &[], "2z");
    i.about_kong = true;
    assert!(evaluate_gb(&i).unwrap_err().message().contains("抢杠和"));
    let opts = FanOptions {
        correct_impossible_flags: true,
        ..FanOptions::default()
    };
    let r = evaluate(&i, &opts).unwrap();
    assert_eq!(r.count(ROBBING_THE_KONG), 0);
}

#[test]
fn thirteen_orphans_and_seven_pairs() {
    let r = evaluate_gb(&win("19m19p19s1234567z", &[], "1m")).unwrap();
    assert_eq!(fans(&r), vec![(THIRTEEN_ORPHANS.0, 1)]);
    let r = evaluate_gb(&win("1133m5577p99s112z", &[], "2z")).unwrap();
    assert_eq!(r.count(SEVEN_PAIRS), 1);
    assert!(r.meets_minimum);
}

#[test]
fn classic_ready_fan_and_no_flowers() {
    // classic's scoring: no flowers, the 1-fan 听牌.
    let rules = FanOptions {
        max_flowers: 0,
        ready_fan: true,
        ..FanOptions::default()
    };
    let mut i = win("234m567m345p78s11z", &[], "6s");
    i.declared_ready = true;
    let r = evaluate(&i, &rules).unwrap();
    assert_eq!(r.count(DECLARED_READY), 1);
    assert_eq!(r.total, 4);
    assert!(!r.meets_minimum);
    i.flowers = 1;
    assert!(evaluate(&i, &rules)
        .unwrap_err()
        .message()
        .contains("without flowers"));
    i.flowers = 0;
    assert!(evaluate_gb(&i).unwrap_err().message().contains("报听"));
}

#[test]
fn every_byte_pattern_is_safe() {
    // Arbitrary field values never panic.
    let mut x: u32 = 12345;
    for _ in 0..20000 {
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let mut hand = [0u8; 34];
        for _ in 0..(next() % 15) {
            hand[(next() % 34) as usize] += (next() % 3) as u8;
        }
        let kinds = [
            MeldKind::Chow,
            MeldKind::Pung,
            MeldKind::Kong,
            MeldKind::ConcealedKong,
        ];
        let mut melds = [NO_MELD; 4];
        for m in melds.iter_mut() {
            *m = Meld {
                kind: kinds[(next() % 4) as usize],
                tile: (next() % 40) as u8,
            };
        }
        let i = WinInput {
            hand,
            melds,
            n_melds: (next() % 6) as u8,
            win_tile: (next() % 36) as u8,
            self_drawn: next() % 2 == 0,
            fourth_tile: next() % 2 == 0,
            about_kong: next() % 2 == 0,
            wall_last: next() % 2 == 0,
            seat_wind: (next() % 5) as u8,
            prevalent_wind: (next() % 5) as u8,
            flowers: (next() % 10) as u8,
            declared_ready: next() % 9 == 0,
        };
        let _ = evaluate_gb(&i);
    }
}

#[test]
fn knitted_straight_with_four_of_a_kind() {
    let r = evaluate_gb(&win("258m147p3333456s", &[], "9s"));
    assert!(r.is_ok(), "{r:?}");
}

#[test]
fn a_result_rebuilds_from_its_fans() {
    let rules = FanOptions::default();
    let mut input = win("1122334455667m", &[], "7m");
    input.flowers = 3;
    for input in [input, win("123m456p789s1112z", &[], "2z")] {
        let r = evaluate(&input, &rules).unwrap();
        let back = FanResult::from_fans(&fans(&r), r.meets_minimum).unwrap();
        assert_eq!(back, r);
    }
    assert!(FanResult::from_fans(&[(84, 1)], true).is_err());
    assert!(FanResult::from_fans(&[(0, 1)], true).is_err());
    assert!(FanResult::from_fans(&[(12, 1), (10, 1)], true).is_err());
    assert!(FanResult::from_fans(&[(10, 1), (10, 1)], true).is_err());
    assert!(FanResult::from_fans(&[(10, 0)], true).is_err());
    let flowers = FanResult::from_fans(&[(81, 2)], false).unwrap();
    assert_eq!((flowers.total, flowers.total_without_flowers), (2, 0));
}

/// A random hand before the win: 0-4 melds, then concealed tiles drawn mostly from one or
/// two suits (so that many are ready and some score), never a fifth copy.
fn random_waiting(rng: &mut crate::wall::Rng) -> WinInput {
    let mut all = [0u8; 34];
    let mut melds = [NO_MELD; 4];
    let n_melds = [0, 0, 1, 1, 2, 3, 4][rng.below(7) as usize];
    let mut k = 0;
    while k < n_melds {
        let t = rng.below(34) as u8;
        let kind = [
            MeldKind::Chow,
            MeldKind::Chow,
            MeldKind::Pung,
            MeldKind::Kong,
            MeldKind::ConcealedKong,
        ][rng.below(5) as usize];
        let tiles: &[u8] = match kind {
            MeldKind::Chow if tile::is_suited(t) && tile::rank(t) <= 7 => &[t, t + 1, t + 2],
            MeldKind::Chow => continue,
            MeldKind::Pung => &[t, t, t],
            _ => &[t, t, t, t],
        };
        if tiles
            .iter()
            .any(|&x| all[x as usize] + 1 > 4 - u8::from(kind.is_kong()) * 3)
        {
            continue;
        }
        for &x in tiles {
            all[x as usize] += 1;
        }
        melds[k] = Meld { kind, tile: t };
        k += 1;
    }
    let mut hand = [0u8; 34];
    let span = [9, 18, 27, 34][rng.below(4) as usize];
    let offset = [0, 9, 18][rng.below(3) as usize];
    let pick = |rng: &mut crate::wall::Rng| {
        if span == 34 {
            rng.below(34) as usize
        } else {
            (offset + rng.below(span) as usize) % 27
        }
    };
    // Mostly a complete hand less one tile: sets and a pair, then one tile out.
    if rng.below(4) > 0 {
        let mut tries = 0;
        let mut groups = 0;
        while groups <= 4 - n_melds && tries < 100 {
            tries += 1;
            let t = pick(rng);
            let tiles: &[usize] = if groups == 0 {
                &[t, t]
            } else if rng.below(3) == 0 || t >= 27 || t % 9 > 6 {
                &[t, t, t]
            } else {
                &[t, t + 1, t + 2]
            };
            let mut need = [0u8; 34];
            for &x in tiles {
                need[x] += 1;
            }
            if tiles.iter().any(|&x| all[x] + need[x] > 4) {
                continue;
            }
            for &x in tiles {
                all[x] += 1;
                hand[x] += 1;
            }
            groups += 1;
        }
        // One tile out (at random among those held).
        let held: Vec<usize> = (0..34).filter(|&x| hand[x] > 0).collect();
        let out = held[rng.below(held.len() as u64) as usize];
        hand[out] -= 1;
        all[out] -= 1;
    }
    let mut n: usize = hand.iter().map(|&c| c as usize).sum();
    while n > 13 - 3 * n_melds {
        let x = rng.below(34) as usize;
        if hand[x] > 0 {
            hand[x] -= 1;
            all[x] -= 1;
            n -= 1;
        }
    }
    while n < 13 - 3 * n_melds {
        let t = pick(rng);
        if all[t] < 4 {
            all[t] += 1;
            hand[t] += 1;
            n += 1;
        }
    }
    let mut input = WinInput::new(hand, &melds[..n_melds], 0).unwrap();
    input.seat_wind = rng.below(4) as u8;
    input.prevalent_wind = rng.below(4) as u8;
    input.flowers = rng.below(4) as u8;
    // Now and then a flag, which may be impossible with some winning tiles.
    match rng.below(12) {
        0 => input.fourth_tile = true,
        1 => input.about_kong = true,
        2 => input.wall_last = true,
        3 => input.declared_ready = true,
        _ => {}
    }
    input
}

#[test]
fn every_wait_of_a_waiting_hand_scores_as_evaluate_does() {
    let mut rng = crate::wall::Rng::new(0x3A17_FA11);
    let lenient = FanOptions {
        correct_impossible_flags: true,
        mcr_exact_waits: true,
        ..FanOptions::default()
    };
    let rule_sets = [
        FanOptions::default(),
        FanOptions {
            max_flowers: 0,
            ready_fan: true,
            ..FanOptions::default()
        },
        lenient,
    ];
    let (mut wins, mut scoring, mut unique) = (0, 0, 0);
    for round in 0..6000 {
        let rules = &rule_sets[round % 3];
        let input = random_waiting(&mut rng);
        let waiting = Waiting::new(&input, rules);
        let used = crate::shanten::waits(&input.hand, &[0; 34], input.n_melds, 0);
        // Every wait, and a few other tiles, each reading in either order.
        let mut tiles = used | 1 << rng.below(34) | 1 << rng.below(34);
        let mut waiting = match waiting {
            // Half of the ready hands are told their regular waits (the lookahead's
            // useful tiles), the others search them.
            Ok(mut w) if used != 0 && round % 2 == 0 => {
                let regular =
                    crate::shanten::useful::useful_tiles_and_regular(&input.hand, input.n_melds);
                w.know_regular_waits(regular.1);
                let dead = rules.mcr_exact_waits.then_some(&w.win.layout.merged);
                let seven_pairs = input.n_melds == 0;
                let search = divide::completing_tiles(&w.win.layout.standing, seven_pairs, dead);
                let four = input.hand.contains(&4);
                assert_eq!(w.win.wait, (!four).then_some(search), "{input:?}");
                w
            }
            Ok(w) => w,
            Err(_) => {
                for w in 0..34u8 {
                    let i = WinInput {
                        win_tile: w,
                        ..input
                    };
                    assert!(evaluate(&i, rules).is_err(), "{i:?}");
                }
                continue;
            }
        };
        while tiles != 0 {
            let w = tiles.trailing_zeros() as u8;
            tiles &= tiles - 1;
            let first = rng.below(2) == 0;
            for self_drawn in [first, !first] {
                let i = WinInput {
                    win_tile: w,
                    self_drawn,
                    ..input
                };
                let want = evaluate(&i, rules).map(|r| WinTotal {
                    total: r.total,
                    total_without_flowers: r.total_without_flowers,
                    meets_minimum: r.meets_minimum,
                });
                let got = waiting.total(w, self_drawn);
                match (&want, &got) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "{i:?}"),
                    (Err(_), Err(_)) => {}
                    _ => panic!("{i:?}: {want:?} against {got:?}"),
                }
                if let Ok(r) = evaluate(&i, rules) {
                    wins += 1;
                    scoring += usize::from(r.meets_minimum);
                    unique += usize::from(
                        [EDGE_WAIT, CLOSED_WAIT, SINGLE_WAIT]
                            .iter()
                            .any(|&f| r.count(f) > 0),
                    );
                }
            }
        }
    }
    assert!(
        wins > 8000 && wins - scoring > 1000 && scoring > 1000 && unique > 1500,
        "{wins} wins, {scoring} scoring, {unique} unique waits"
    );
}

/// The regular part of a ready hand's useful tiles is the set of tiles the evaluator's own
/// search finds completing it into sets and a pair.
#[test]
fn the_regular_waits_of_the_useful_tiles_are_the_completing_tiles() {
    let mut rng = crate::wall::Rng::new(0xC0DE_3A17);
    let (mut ready, mut regular_ready) = (0, 0);
    for _ in 0..20_000 {
        let input = random_waiting(&mut rng);
        let hand = &input.hand;
        if crate::shanten::waits(hand, &[0; 34], input.n_melds, 0) == 0 {
            continue;
        }
        ready += 1;
        let (useful, regular) =
            crate::shanten::useful::useful_tiles_and_regular(hand, input.n_melds);
        assert_eq!(
            useful,
            crate::shanten::useful_tiles(hand, &[0; 34], input.n_melds, 0)
        );
        assert_eq!(regular & !useful, 0);
        if hand.iter().any(|&c| c >= 4) {
            continue;
        }
        let mut table: rtile::RTable = [0; 0x50];
        for (k, &c) in hand.iter().enumerate() {
            table[rtile::from_code(k as Tile) as usize] += c;
        }
        let mut want = 0u64;
        let mut found = divide::completing_tiles(&table, false, None);
        while found != 0 {
            let x = found.trailing_zeros();
            found &= found - 1;
            want |= 1 << rtile::to_code(x as rtile::RTile);
        }
        assert_eq!(regular, want, "{hand:?} melds {}", input.n_melds);
        regular_ready += usize::from(want != 0);
    }
    assert!(
        ready > 5000 && regular_ready > 4000,
        "{ready} {regular_ready}"
    );
}

/// Hands of six pairs and a single (ready for seven pairs, and often in the regular form
/// too, mostly in one suit), told their regular waits: every wait scores as [`evaluate`]
/// scores it, the unique-wait fans with the reference's seven-pairs wait included.
#[test]
fn six_pairs_told_their_regular_waits_score_as_evaluate_does() {
    let mut rng = crate::wall::Rng::new(0x7A125);
    let opts = [
        FanOptions::default(),
        FanOptions {
            mcr_exact_waits: true,
            ..FanOptions::default()
        },
    ];
    let (mut unique, mut single_regular) = (0, 0);
    for round in 0..4000 {
        let span = [9, 9, 18, 34][round % 4];
        let mut hand = [0u8; 34];
        let mut pairs = 0;
        while pairs < 6 {
            let t = rng.below(span) as usize;
            if hand[t] <= 2 {
                hand[t] += 2;
                pairs += 1;
            }
        }
        loop {
            let t = rng.below(span) as usize;
            if hand[t] < 4 {
                hand[t] += 1;
                break;
            }
        }
        let input = WinInput::new(hand, &[], 0).unwrap();
        let rules = &opts[round % 2];
        let Ok(mut waiting) = Waiting::new(&input, rules) else {
            continue;
        };
        let (useful, regular) = crate::shanten::useful::useful_tiles_and_regular(&hand, 0);
        waiting.know_regular_waits(regular);
        // The evaluator's completing tiles are those its own search would find.
        let dead = rules.mcr_exact_waits.then_some(&waiting.win.layout.merged);
        let search = divide::completing_tiles(&waiting.win.layout.standing, true, dead);
        // (A kind held four times leaves them to the search.)
        let four = hand.contains(&4);
        assert_eq!(waiting.win.wait, (!four).then_some(search), "{hand:?}");
        // One regular wait beside the seven-pairs wait of another kind: not a unique wait.
        single_regular += usize::from(
            regular.count_ones() == 1 && regular & !useful == 0 && useful.count_ones() == 2,
        );
        let mut tiles = useful;
        while tiles != 0 {
            let w = tiles.trailing_zeros() as u8;
            tiles &= tiles - 1;
            for self_drawn in [false, true] {
                let i = WinInput {
                    win_tile: w,
                    self_drawn,
                    ..input
                };
                let want = evaluate(&i, rules);
                let got = waiting.total(w, self_drawn);
                match (&want, &got) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(
                            (a.total, a.meets_minimum),
                            (b.total, b.meets_minimum),
                            "{i:?}"
                        );
                        unique += usize::from(
                            [EDGE_WAIT, CLOSED_WAIT, SINGLE_WAIT]
                                .iter()
                                .any(|&f| a.count(f) > 0),
                        );
                    }
                    (Err(_), Err(_)) => {}
                    _ => panic!("{i:?}: {want:?} against {got:?}"),
                }
            }
        }
    }
    assert!(
        unique > 0 && single_regular > 20,
        "{unique} unique waits, {single_regular} single regular waits"
    );
}

/// A complete hand reached with each of its kinds as the winning tile, the
/// decompositions kept in one [`DivisionMemo`] under the complete hand's key (a small
/// one, so that hands also take each other's slots): every reading scores as
/// [`evaluate`] does, whether its decompositions were searched or read back.
#[test]
fn remembered_decompositions_score_as_evaluate_does() {
    let mut rng = crate::wall::Rng::new(0xD1_7153);
    let rule_sets = [
        FanOptions::default(),
        FanOptions {
            mcr_exact_waits: true,
            ..FanOptions::default()
        },
    ];
    // The complete hand's counts three bits each, and its melds.
    let key = |complete: &Counts, input: &WinInput| -> [u64; 3] {
        let mut words = [0u64; 3];
        for (k, &c) in complete.iter().enumerate() {
            words[k / 21] |= (c as u64) << (3 * (k % 21));
        }
        for (i, m) in input.melds().iter().enumerate() {
            words[2] |= ((m.kind as u64) << 8 | m.tile as u64) << (10 * i);
        }
        words
    };
    let mut memo = DivisionMemo::new();
    let (mut complete_hands, mut readings) = (0, 0);
    for round in 0..3000 {
        let rules = &rule_sets[round % 2];
        let input = random_waiting(&mut rng);
        let waits = crate::shanten::waits(&input.hand, &[0; 34], input.n_melds, 0);
        if waits == 0 {
            continue;
        }
        let mut complete = input.hand;
        complete[waits.trailing_zeros() as usize] += 1;
        complete_hands += 1;
        let k = key(&complete, &input);
        for t in (0..34).filter(|&t| complete[t] > 0) {
            let mut hand = complete;
            hand[t] -= 1;
            let i = WinInput {
                hand,
                win_tile: t as Tile,
                ..input
            };
            let Ok(mut waiting) = Waiting::new(&i, rules) else {
                continue;
            };
            for self_drawn in [false, true] {
                let want = evaluate(&WinInput { self_drawn, ..i }, rules);
                let got = waiting.total_remembering(t as Tile, self_drawn, &mut memo, k);
                match (&want, &got) {
                    (Ok(a), Ok(b)) => {
                        let a = (a.total, a.total_without_flowers, a.meets_minimum);
                        let b = (b.total, b.total_without_flowers, b.meets_minimum);
                        assert_eq!(a, b, "{i:?} {self_drawn}");
                        readings += 1;
                    }
                    (Err(_), Err(_)) => {}
                    _ => panic!("{i:?} {self_drawn}: {want:?} against {got:?}"),
                }
            }
        }
    }
    assert!(
        complete_hands > 1000 && readings > 10_000,
        "{complete_hands} complete hands, {readings} readings"
    );
}

/// A self-draw gains at most [`Waiting::self_draw_gain`] over a discard win of the same
/// tiles, so when the discard total plus it misses the minimum the self-draw misses it
/// too: random waiting hands (melds, winds, flowers, flags, pungs the winning tile
/// completes) under gb's and classic's options and higher minimums, each wait scored both
/// ways.
#[test]
fn a_self_draw_gains_at_most_its_bound_over_a_discard() {
    let mut rng = crate::wall::Rng::new(0x5E1F_D4A3);
    let rule_sets = [
        FanOptions::default(),
        FanOptions {
            max_flowers: 0,
            ready_fan: true,
            ..FanOptions::default()
        },
        FanOptions {
            flowers_count_toward_min: true,
            mcr_separate_mixed_kongs: true,
            ..FanOptions::default()
        },
        FanOptions {
            min_fan: 16,
            ..FanOptions::default()
        },
        FanOptions {
            min_fan: 88,
            ..FanOptions::default()
        },
    ];
    let (mut bounded, mut tight, mut pungs, mut missed) = (0, 0, 0, 0);
    for round in 0..20000 {
        let rules = &rule_sets[round % rule_sets.len()];
        let input = random_waiting(&mut rng);
        let Ok(mut waiting) = Waiting::new(&input, rules) else {
            continue;
        };
        let mut tiles = crate::shanten::waits(&input.hand, &[0; 34], input.n_melds, 0);
        while tiles != 0 {
            let w = tiles.trailing_zeros() as u8;
            tiles &= tiles - 1;
            let (Ok(discard), self_drawn) = (waiting.total(w, false), waiting.total(w, true))
            else {
                continue;
            };
            if let (Some(gain), Ok(s)) = (waiting.self_draw_gain(w), &self_drawn) {
                let (d, s) = (discard.total_without_flowers, s.total_without_flowers);
                assert!(s <= d + gain, "{input:?} {w}: {d} + {gain} < {s}");
                bounded += 1;
                tight += usize::from(s == d + gain);
                pungs += usize::from(input.hand[w as usize] >= 2);
            }
            if waiting.self_draw_misses_minimum(w, &discard) {
                assert!(!discard.meets_minimum);
                assert!(
                    !matches!(self_drawn, Ok(s) if s.meets_minimum),
                    "{input:?} {w}"
                );
                missed += 1;
            }
        }
    }
    assert!(
        bounded > 10000 && tight > 1000 && pungs > 1000 && missed > 5000,
        "{bounded} bounded, {tight} tight, {pungs} pungs, {missed} missed"
    );
}

/// The catalog rows [`Waiting::self_draw_gain`] reasons from.
#[test]
fn the_self_draw_bound_reads_these_catalog_rows() {
    let strikes = |f: Fan, g: Fan| f.info().excludes.contains(&g.0);
    for f in [CONCEALED_HAND, SELF_DRAWN, TWO_CONCEALED_PUNGS] {
        assert!(f.info().excludes.is_empty(), "{f:?}");
    }
    assert_eq!(MELDED_HAND.info().excludes, &[SINGLE_WAIT.0]);
    assert!(strikes(FULLY_CONCEALED_HAND, CONCEALED_HAND));
    assert!(strikes(FULLY_CONCEALED_HAND, SELF_DRAWN));
    for f in Fan::all() {
        if strikes(f, FULLY_CONCEALED_HAND) {
            assert!(strikes(f, CONCEALED_HAND), "{f:?}");
        }
        // Only these strike 门前清 and leave 不求人 standing.
        if strikes(f, CONCEALED_HAND) && !strikes(f, FULLY_CONCEALED_HAND) {
            assert!(
                [FULLY_CONCEALED_HAND, FOUR_CONCEALED_PUNGS].contains(&f),
                "{f:?}"
            );
        }
    }
}
