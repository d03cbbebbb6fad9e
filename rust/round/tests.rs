//! Round tests: random play invariants and rule scenarios on arranged walls.

use super::*;
use crate::hand::MeldKind;
use crate::rules::Rules;
use crate::tile::{self, Tile};
use crate::wall::{BreakThrow, Rng, Wall};

fn t(s: &str) -> Vec<Tile> {
    tile::parse(s).unwrap()
}

/// Every tile is somewhere: hands, melds, flowers, unclaimed discards or the wall.
fn conserved(r: &Round) -> bool {
    let mut n = r.wall().remaining();
    for s in 0..4 {
        let st = r.seat(s);
        n += st.n_hand as usize + st.n_flowers as usize;
        // The running summaries (the deal's set at once, the rest tile by tile) are the
        // hand's.
        assert_eq!(st.stats, scoring::ShapeStats::of(&st.hand));
        for m in st.melds() {
            n += m.kind.size();
        }
        assert_eq!(
            st.hand.iter().map(|&c| c as usize).sum::<usize>(),
            st.n_hand as usize
        );
    }
    n += r.discards().iter().filter(|d| !d.claimed).count();
    // An added kong's tile is held by neither hand nor meld while it may be robbed.
    if r.phase() == Phase::RobKong {
        n += 1;
    }
    n == r.wall().len()
}

fn hand_size_ok(r: &Round) -> bool {
    (0..4).all(|s| {
        let st = r.seat(s);
        let base = 13 - 3 * st.n_melds as usize;
        let n = st.n_hand as usize;
        n == base || n == base + 1
    })
}

fn play_random(rules: &Rules, seed: u64) -> Round {
    let mut rng = Rng::new(seed ^ 0xABCD);
    let mut r = Round::new(rules, seed, (seed % 4) as u8, 0).unwrap();
    let mut steps = 0;
    while !r.is_over() {
        assert!(conserved(&r), "seed {seed}: tiles not conserved");
        let seats: Vec<u8> = r.pending_seats().collect();
        assert!(!seats.is_empty());
        for s in seats {
            let l = r.legal_actions(s);
            assert!(!l.is_empty());
            let a = l[rng.below(l.len() as u64) as usize];
            r.apply(s, a).unwrap();
        }
        assert!(
            r.is_over() || hand_size_ok(&r),
            "seed {seed}: a hand has a wrong size"
        );
        steps += 1;
        assert!(steps < 2000);
    }
    assert!(conserved(&r));
    r
}

#[test]
fn random_hands_keep_the_invariants() {
    for rules in [Rules::gb(), Rules::named("classic").unwrap()] {
        let mut wins = 0;
        for seed in 0..300 {
            let r = play_random(&rules, seed);
            let res = r.result().unwrap();
            assert_eq!(res.deltas.iter().sum::<i32>(), 0);
            for w in &res.wins {
                wins += 1;
                assert!(w.value.fans().is_some_and(|f| f.meets_minimum));
                assert!(scoring::complete(&w.hand, &w.melds[..w.n_melds as usize]));
            }
            assert_eq!(res.exhaustive, res.wins.is_empty());
        }
        let _ = wins;
    }
}

#[test]
fn same_seed_same_events() {
    let rules = Rules::gb();
    let a = play_random(&rules, 42);
    let b = play_random(&rules, 42);
    assert_eq!(a.events(), b.events());
    let mut c = Round::new(&rules, 1, 0, 0).unwrap();
    c.reset(42, 2, 0).unwrap();
    assert_eq!(c.events()[..6], a.events()[..6]);
}

fn arranged(rules: &Rules, hands: [&str; 4], head: &str, tail: &str) -> Round {
    let h: Vec<Vec<Tile>> = hands.iter().map(|s| t(s)).collect();
    let wall = Wall::arranged(
        [&h[0], &h[1], &h[2], &h[3]],
        &t(head),
        &t(tail),
        rules.table.flowers,
        1,
        BreakThrow::Single,
    )
    .unwrap();
    Round::with_wall(rules, wall, 0, 0).unwrap()
}

#[test]
fn chow_only_from_the_left_and_priority() {
    let rules = Rules::gb();
    // Dealer 0 discards 5m. Seat 1 can chow 46m; seat 3 (the dealer's left... and not
    // the discarder's right) cannot chow; seat 2 can pung.
    let mut r = arranged(
        &rules,
        [
            "5m19p19s1234567z11p",
            "46m19p19s1234567z",
            "55m28p28s2345z67z9m",
            "46m28p37s1234567z",
        ],
        "",
        "",
    );
    assert_eq!(r.phase(), Phase::Turn);
    r.apply(0, Action::Discard(4)).unwrap();
    assert_eq!(r.phase(), Phase::Claim);
    assert!(r.legal_actions(1).contains(&Action::Chow(3)));
    assert!(r.legal_actions(2).contains(&Action::Pung(4)));
    assert!(
        r.legal_actions(3).is_empty(),
        "seat 3 sits right of the discarder: no chow"
    );
    r.apply(1, Action::Chow(3)).unwrap();
    assert_eq!(r.phase(), Phase::Claim, "seat 2 has not answered yet");
    r.apply(2, Action::Pung(4)).unwrap();
    // Pung beats chow.
    assert_eq!(r.phase(), Phase::Turn);
    assert_eq!(r.turn(), 2);
    assert_eq!(r.seat(2).melds()[0].kind, MeldKind::Pung);
    assert_eq!(r.seat(1).n_melds, 0);
    // After a claim: no self-drawn win, no draw.
    assert!(!r.legal_actions(2).contains(&Action::Win));
    assert_eq!(r.drawn(), None);
}

#[test]
fn illegal_actions_are_refused_without_change() {
    let rules = Rules::gb();
    let mut r = Round::new(&rules, 9, 0, 0).unwrap();
    let before = r.events().len();
    let e = r.apply(1, Action::Pass).unwrap_err();
    assert!(e.message().contains("nothing to decide"), "{}", e.message());
    let missing = (0..34u8)
        .find(|&x| r.seat(0).hand[x as usize] == 0)
        .unwrap();
    let e = r.apply(0, Action::Discard(missing)).unwrap_err();
    assert!(e.message().contains("not legal"), "{}", e.message());
    assert!(r.apply(7, Action::Pass).is_err());
    assert_eq!(r.events().len(), before);
}

#[test]
fn kong_lock_after_a_pung() {
    let rules = Rules::gb();
    // Seat 1 holds 5555p... and pungs 9m from the dealer: no concealed kong this turn.
    let mut r = arranged(
        &rules,
        [
            "9m19p19s1234567z11p",
            "99m5555p19s12345z",
            "28m28p28s2345z67z9p",
            "37m37p37s1234567z",
        ],
        "",
        "",
    );
    r.apply(0, Action::Discard(8)).unwrap();
    r.apply(1, Action::Pung(8)).unwrap();
    assert_eq!(r.turn(), 1);
    assert!(!r
        .legal_actions(1)
        .iter()
        .any(|a| matches!(a, Action::ConcealedKong(_))));
    let mut free = rules.clone();
    free.table.kong_lock_after_claim = KongLock::None;
    let mut r = arranged(
        &free,
        [
            "9m19p19s1234567z11p",
            "99m5555p19s12345z",
            "28m28p28s2345z67z9p",
            "37m37p37s1234567z",
        ],
        "",
        "",
    );
    r.apply(0, Action::Discard(8)).unwrap();
    r.apply(1, Action::Pung(8)).unwrap();
    assert!(r.legal_actions(1).contains(&Action::ConcealedKong(13)));
}

#[test]
fn recording_events_does_not_change_play() {
    let rules = Rules::gb();
    let with = play_random(&rules, 77);
    let mut rng = Rng::new(77 ^ 0xABCD);
    let mut r = Round::new(&rules, 1, 0, 0).unwrap();
    r.set_record_events(false);
    r.reset(77, 1, 0).unwrap();
    while !r.is_over() {
        let seats: Vec<u8> = r.pending_seats().collect();
        for s in seats {
            let l = r.legal_actions(s);
            let a = l[rng.below(l.len() as u64) as usize];
            r.apply(s, a).unwrap();
        }
    }
    assert!(r.events().is_empty());
    assert_eq!(r.result(), with.result());
}

/// Speed probe (`cargo test --release --no-default-features speed_probe -- --ignored
/// --nocapture`): random hands per second in pure Rust. Prints; asserts nothing.
#[test]
#[ignore]
fn speed_probe() {
    let rules = Rules::gb();
    let mut rng = Rng::new(1);
    let mut r = Round::new(&rules, 0, 0, 0).unwrap();
    r.set_record_events(false);
    let n = 20_000;
    let t = std::time::Instant::now();
    for seed in 0..n {
        r.reset(seed, (seed % 4) as u8, 0).unwrap();
        while !r.is_over() {
            let p = r.pending();
            for s in 0..4u8 {
                if p >> s & 1 == 1 {
                    let l = r.legal_actions(s);
                    let a = l[rng.below(l.len() as u64) as usize];
                    r.apply(s, a).unwrap();
                }
            }
        }
    }
    println!("{:.0} hands/s", n as f64 / t.elapsed().as_secs_f64());
}
