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
    let mut rules = Rules::gb();
    rules.fan.correct_impossible_flags = true;
    let r = evaluate(&i, &rules).unwrap();
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
    let rules = Rules::preset(RuleSetKind::Classic);
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
    let rules = Rules::gb();
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
