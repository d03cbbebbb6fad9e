//! Property tests of the entry points that read data from outside (text, codes, counts,
//! melds, win descriptions, option names and values): whatever they are given, they
//! return a `Result` and never panic, and what they accept is sound.

use majiang::fan::{self, WinInput};
use majiang::hand::{self, Meld, MeldKind};
use majiang::policy::PolicyKind;
use majiang::rules::{OptValue, Rules};
use majiang::tile;
use proptest::prelude::*;

const KINDS: [MeldKind; 4] = [
    MeldKind::Chow,
    MeldKind::Pung,
    MeldKind::Kong,
    MeldKind::ConcealedKong,
];

fn meld() -> impl Strategy<Value = Meld> {
    (0usize..4, any::<u8>()).prop_map(|(k, tile)| Meld {
        kind: KINDS[k],
        tile,
    })
}

fn counts(max: u8) -> impl Strategy<Value = [u8; 34]> {
    proptest::array::uniform32(0..=max).prop_flat_map(move |a| {
        proptest::array::uniform2(0..=max).prop_map(move |b| {
            let mut c = [0u8; 34];
            c[..32].copy_from_slice(&a);
            c[32..].copy_from_slice(&b);
            c
        })
    })
}

/// Counts that are mostly zero, like a real hand, so that many inputs get past the size
/// checks and reach the evaluator.
fn sparse_counts() -> impl Strategy<Value = [u8; 34]> {
    proptest::collection::vec((0usize..34, 1u8..=4), 0..8).prop_map(|v| {
        let mut c = [0u8; 34];
        for (t, n) in v {
            c[t] = n;
        }
        c
    })
}

fn win_input() -> impl Strategy<Value = WinInput> {
    (
        prop_oneof![counts(6), sparse_counts()],
        proptest::array::uniform4(meld()),
        0u8..=6,
        any::<u8>(),
        any::<[bool; 5]>(),
        (any::<u8>(), any::<u8>(), any::<u8>()),
    )
        .prop_map(
            |(hand, melds, n_melds, win_tile, f, (seat_wind, prevalent_wind, flowers))| WinInput {
                hand,
                melds,
                n_melds,
                win_tile,
                self_drawn: f[0],
                fourth_tile: f[1],
                about_kong: f[2],
                wall_last: f[3],
                seat_wind,
                prevalent_wind,
                flowers,
                declared_ready: f[4],
            },
        )
}

fn opt_value() -> impl Strategy<Value = OptValue> {
    prop_oneof![
        any::<bool>().prop_map(OptValue::Bool),
        any::<i64>().prop_map(OptValue::Int),
        (-3i64..200).prop_map(OptValue::Int),
        "[a-z_0-9]{0,24}".prop_map(OptValue::Str),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn mpsz_text_parses_or_errs(s in prop_oneof!["[0-9mpszf ,]{0,40}", any::<String>()]) {
        if let Ok(tiles) = tile::parse(&s) {
            prop_assert!(tiles.iter().all(|&t| tile::is_valid(t)));
            // What was accepted reads back to the same tiles (format sorts them).
            let again = tile::parse(&tile::format(&tiles)).unwrap();
            let mut sorted = tiles.clone();
            sorted.sort_unstable();
            prop_assert_eq!(again, sorted);
            let _ = tile::to_counts(&tiles);
        }
    }

    #[test]
    fn tile_codes_are_checked(code in any::<i64>()) {
        prop_assert_eq!(tile::check(code).is_ok(), (0..42).contains(&code));
    }

    #[test]
    fn melds_and_hands_are_validated(
        kind in 0usize..4,
        tiles in proptest::collection::vec(any::<u8>(), 0..6),
        concealed in counts(8),
        melds in proptest::collection::vec(meld(), 0..6),
    ) {
        if let Ok(m) = Meld::new(KINDS[kind], &tiles) {
            prop_assert!(m.tiles().iter().all(|&t| t < 34));
        }
        if hand::check_hand(&concealed, &melds).is_ok() {
            let total = hand::total_counts(&concealed, &melds).unwrap();
            prop_assert!(total.iter().all(|&c| c <= 4));
        }
    }

    #[test]
    fn fan_evaluation_returns_a_result(input in win_input(), preset in 0usize..3) {
        let rules = Rules::named(["gb", "classic", "huainan"][preset]).unwrap();
        if let Ok(r) = fan::evaluate(&input, &rules.fan) {
            prop_assert!(r.total >= r.total_without_flowers);
        }
    }

    #[test]
    fn options_are_set_or_refused(
        which in any::<prop::sample::Index>(),
        other in "[a-z_]{0,20}",
        known in any::<bool>(),
        v in opt_value(),
        preset in prop_oneof!["gb", "classic", "huainan", any::<String>()],
    ) {
        let Ok(mut rules) = Rules::named(&preset) else {
            return Ok(());
        };
        let names: Vec<&str> = rules.options().into_iter().map(|(k, _)| k).collect();
        let key = if known { names[which.index(names.len())].to_string() } else { other };
        if rules.set(&key, &v).is_ok() {
            let now = rules.options().into_iter().find(|(k, _)| *k == key).map(|(_, x)| x);
            prop_assert_eq!(now, Some(v));
        }
    }

    #[test]
    fn bot_names_parse_or_err(s in any::<String>()) {
        if let Ok(k) = PolicyKind::parse(&s) {
            prop_assert_eq!(PolicyKind::parse(k.as_str()).ok(), Some(k));
        }
    }
}
