//! Hand-made positions with a clearly right decision, and the search on real rounds.

use super::*;
use crate::policy::{play_out, EfficiencyPolicy, RoundView};
use crate::round::{DiscardEntry, Phase, Round};
use crate::shanten;
use crate::tile;
use waits::WaitMemo;

use crate::policy::positions::{counts, discards, view};

fn t(s: &str) -> Tile {
    tile::parse(s).unwrap()[0]
}

fn lite() -> StrongPolicy {
    StrongPolicy::new(&Rules::gb(), 1, StrongConfig::lite())
}

#[test]
fn keeps_the_flush_that_reaches_eight() {
    // Eleven characters with a red-dragon pair, two stray dots: the half flush (with the
    // dragons) is the only way to 8 fan, so a dot goes.
    let h = "1235678m99m34p557z";
    let a = lite().act(&view(h, &discards(h), None));
    let kept = |x: &str| a != Action::Discard(t(x));
    assert!(
        ["1m", "2m", "3m", "5m", "6m", "7m", "8m", "9m"]
            .iter()
            .all(|x| kept(x)),
        "{a:?}"
    );
}

#[test]
fn folds_against_three_exposed_pungs_of_one_suit() {
    // Seat 1 shows three pungs of dots and has discarded for a long time: it waits in dots.
    // Our hand is hopeless; the lone dot is the tile an efficiency bot would throw.
    let o = crate::policy::positions::facing_a_dot_flush();
    let a = lite().act(&o);
    assert_ne!(a, Action::Discard(t("5p")), "the dot feeds the flush");
    // An efficiency bot, blind to the table, throws it.
    let mut e = EfficiencyPolicy::new(&Rules::gb(), 1);
    let ea = e.act(&o);
    assert!(matches!(ea, Action::Discard(_)));
}

#[test]
fn takes_the_pung_that_completes_a_needed_fan() {
    // A character half flush with a red-dragon pair: the dragon pung brings it to 8.
    let h = "1245678m99m55z3p7s";
    let hand = counts(h);
    assert_eq!(hand.iter().map(|&c| c as u32).sum::<u32>(), 13);
    let o = view(
        h,
        &[Action::Pung(t("5z")), Action::Pass],
        Some((3, t("5z"))),
    );
    assert_eq!(lite().act(&o), Action::Pung(t("5z")));
}

#[test]
fn passes_the_chow_that_kills_the_only_fan_path() {
    // Characters in pairs: a full flush and seven pairs, both two tiles away. A bamboo
    // chow ends both and leaves no plan anywhere near 8 fan.
    let h = "44557788999m13s";
    let o = view(
        h,
        &[Action::Chow(t("1s")), Action::Pass],
        Some((3, t("2s"))),
    );
    assert_eq!(lite().act(&o), Action::Pass);
}

#[test]
fn ready_hands_prefer_waits_that_score() {
    // Discarding 1p leaves a full-flush wait; discarding a character leaves a plain
    // mixed wait that cannot reach 8.
    let h = "1123456789m55m1p";
    let a = lite().act(&view(h, &discards(h), None));
    assert_eq!(a, Action::Discard(t("1p")));
}

#[test]
fn danger_reads_flush_and_readiness() {
    let h = "159m1359s1234z7z5p";
    let mut o = view(h, &discards(h), None);
    o.n_melds[2] = 3;
    for (i, x) in ["2s", "4s", "8s"].iter().enumerate() {
        o.melds[2][i] = Meld {
            kind: MeldKind::Pung,
            tile: t(x),
        };
    }
    let unseen = unseen_of(&o, &[]);
    let (d, th) = danger::danger(&o, &unseen);
    assert!(th[2].ready > 0.5 && th[2].flush_suit == Some(2) && th[2].pungs);
    assert_eq!(th[1].ready, 0.0);
    // Bamboos are far more dangerous than characters against a bamboo flush.
    assert!(d[t("6s") as usize] > 3.0 * d[t("5m") as usize], "{d:?}");
}

/// Plays a gb hand with one strong seat until it makes a searched decision.
#[test]
fn search_is_deterministic_and_legal_on_real_rounds() {
    let rules = Rules::gb();
    let cfg = StrongConfig {
        rollouts: 12,
        candidates: 3,
        time_cap_ms: 0,
        lookahead: true,
        ..StrongConfig::default()
    };
    for seed in 0..3u64 {
        let mut results = Vec::new();
        for _ in 0..2 {
            let mut round = Round::new(&rules, 100 + seed, 0, 0).unwrap();
            let mut pols: [Box<dyn Policy>; 4] = std::array::from_fn(|s| {
                if s == 0 {
                    Box::new(StrongPolicy::new(&rules, 5, cfg)) as Box<dyn Policy>
                } else {
                    Box::new(EfficiencyPolicy::new(&rules, s as u64)) as Box<dyn Policy>
                }
            });
            for (s, p) in pols.iter_mut().enumerate() {
                p.begin_hand(seed * 10 + s as u64);
            }
            let mut trace = Vec::new();
            while round.pending() != 0 {
                let seat = round.pending().trailing_zeros() as u8;
                let a = pols[seat as usize].act(&RoundView {
                    round: &round,
                    seat,
                });
                assert!(round.legal_actions(seat).contains(&a));
                trace.push(a);
                round.apply(seat, a).unwrap();
            }
            results.push((trace, round.result().unwrap().deltas));
        }
        assert_eq!(results[0], results[1], "seed {seed}");
    }
}

#[test]
fn the_observation_of_a_round_view_rebuilds_the_table() {
    let rules = Rules::gb();
    let mut round = Round::new(&rules, 21, 1, 0).unwrap();
    let mut pols: [Box<dyn Policy>; 4] = std::array::from_fn(|s| {
        Box::new(EfficiencyPolicy::new(&rules, s as u64)) as Box<dyn Policy>
    });
    let mut checked = 0;
    while round.pending() != 0 {
        let seat = round.pending().trailing_zeros() as u8;
        let v = RoundView {
            round: &round,
            seat,
        };
        if round.phase() != Phase::RobKong {
            let o = v.observation();
            let real = round.observe(seat);
            assert_eq!(o.hand_sizes, real.hand_sizes);
            assert_eq!(o.flowers, real.flowers);
            assert_eq!(o.legal.as_slice(), round.legal_actions(seat));
            let mut rng = Rng::new(3);
            let r = Round::determinize(&rules, &o, &mut rng).unwrap();
            assert_eq!(r.legal_actions(seat), round.legal_actions(seat));
            checked += 1;
        }
        let a = pols[seat as usize].act(&v);
        round.apply(seat, a).unwrap();
    }
    assert!(checked > 10);
    let _ = play_out;
}

#[test]
fn classic_hands_play_legally() {
    let rules = Rules::named("classic").unwrap();
    let cfg = StrongConfig {
        rollouts: 6,
        candidates: 2,
        time_cap_ms: 0,
        lookahead: true,
        ..StrongConfig::default()
    };
    for seed in 0..4u64 {
        let mut round = Round::new(&rules, seed, 0, 0).unwrap();
        let mut pols: [Box<dyn Policy>; 4] = std::array::from_fn(|s| {
            Box::new(StrongPolicy::new(&rules, s as u64, cfg)) as Box<dyn Policy>
        });
        play_out(&mut round, &mut pols).unwrap();
        assert!(round.is_over());
    }
}

fn full() -> StrongPolicy {
    StrongPolicy::new(&Rules::gb(), 1, StrongConfig::default())
}

#[test]
fn the_default_configuration_keeps_the_hand_made_decisions() {
    let o = view(
        "1245678m99m55z3p7s",
        &[Action::Pung(t("5z")), Action::Pass],
        Some((3, t("5z"))),
    );
    assert_eq!(full().act(&o), Action::Pung(t("5z")));
    let h = "1123456789m55m1p";
    assert_eq!(
        full().act(&view(h, &discards(h), None)),
        Action::Discard(t("1p"))
    );
    let h = "1235678m99m34p557z";
    let a = full().act(&view(h, &discards(h), None));
    assert!(
        !["1m", "2m", "3m", "5m", "6m", "7m", "8m", "9m"]
            .iter()
            .any(|x| a == Action::Discard(t(x))),
        "{a:?}"
    );
    // Characters one tile from ready; after a bamboo chow no 8-fan hand is within two
    // draws.
    let o = view(
        "11344577999m13s",
        &[Action::Chow(t("1s")), Action::Pass],
        Some((3, t("2s"))),
    );
    assert_eq!(full().act(&o), Action::Pass);
}

#[test]
fn keeps_the_ready_wait_with_live_copies() {
    // Six pairs and two single honors: either single is a seven-pairs wait (24 fan). Two
    // green dragons are on the table, so the wait on green has one copy left and the wait
    // on North three: discard the green dragon.
    let h = "1133m5577p99s224z6z";
    let mut o = view(h, &discards(h), None);
    o.visible[t("6z") as usize] = 2;
    for (i, s) in [1u8, 2].iter().enumerate() {
        o.discards[i] = DiscardEntry {
            seat: *s,
            tile: t("6z"),
            claimed: false,
            ready: false,
        };
    }
    o.n_discards = 2;
    assert_eq!(full().act(&o), Action::Discard(t("6z")));
    // With the North winds gone instead, the green dragon is the wait to keep.
    let mut o = view(h, &discards(h), None);
    o.visible[t("4z") as usize] = 2;
    for (i, s) in [1u8, 2].iter().enumerate() {
        o.discards[i] = DiscardEntry {
            seat: *s,
            tile: t("4z"),
            claimed: false,
            ready: false,
        };
    }
    o.n_discards = 2;
    assert_eq!(full().act(&o), Action::Discard(t("4z")));
}

#[test]
fn takes_the_pung_that_makes_a_scoring_ready_hand() {
    // Two concealed pungs of terminals and three pairs: the pung of 5s leaves, after the
    // lone West goes, an all-pungs hand waiting on 7s or the South wind (8 fan or more).
    let o = view(
        "111m999p55s77s223z",
        &[Action::Pung(t("5s")), Action::Pass],
        Some((2, t("5s"))),
    );
    assert_eq!(full().act(&o), Action::Pung(t("5s")));
}

#[test]
fn passes_the_chow_that_breaks_a_scoring_ready_hand() {
    // Ready on seven pairs (24 fan) with three live North winds; a chow of 2m would expose
    // the hand and end the pairs.
    let o = view(
        "1133m5577p99s224z",
        &[Action::Chow(t("1m")), Action::Pass],
        Some((3, t("2m"))),
    );
    assert_eq!(full().act(&o), Action::Pass);
}

#[test]
fn lookahead_values_live_scoring_waits() {
    let rules = Rules::gb();
    let ctx = win_context(&view("1m", &[Action::Pass], None), &[]);
    let mut unseen = [4u8; 34];
    let h = counts("1133m5577p99s224z");
    for t in 0..34 {
        unseen[t] -= h[t];
    }
    let live = Lookahead::new(&unseen, 60)
        .value(&h, 0, &ctx, &rules)
        .unwrap();
    let mut fewer = unseen;
    fewer[t("4z") as usize] = 1;
    let thin = Lookahead::new(&fewer, 60)
        .value(&h, 0, &ctx, &rules)
        .unwrap();
    assert!(live > thin && thin > 0.0, "{live} {thin}");
    // Fewer turns left, less chance.
    let late = Lookahead::new(&unseen, 8)
        .value(&h, 0, &ctx, &rules)
        .unwrap();
    assert!(late < live, "{late} {live}");
    // A full flush wait is worth far more than a cheap mixed hand one draw from ready.
    let flush = Lookahead::new(&unseen, 60)
        .value(&counts("1112345678999m"), 0, &ctx, &rules)
        .unwrap();
    let cheap = Lookahead::new(&unseen, 60)
        .value(&counts("45m123p456p678s5z6z"), 0, &ctx, &rules)
        .unwrap();
    assert!(flush > 2.0 * cheap, "{flush} {cheap}");
    // Two tiles from ready: only the two-draw value applies.
    let two = counts("1245789m1299p34s");
    assert_eq!(shanten::shanten(&two, &NO_USED, 0, 0), 2);
    let mut la = Lookahead::new(&unseen, 60);
    assert_eq!(la.value(&two, 0, &ctx, &rules), None);
    let v2 = la.value2(&two, 0, &ctx, &rules).unwrap();
    assert!(v2 > 0.0 && v2 < live, "{v2}");
    assert_eq!(la.value2(&h, 0, &ctx, &rules), None);
}

fn expert() -> StrongPolicy {
    StrongPolicy::new(&Rules::gb(), 1, StrongConfig::expert())
}

#[test]
fn the_expert_takes_a_ready_full_flush_the_strong_bot_passes_up() {
    // Dropping the lone 5m leaves a full flush in dots ready on 5p: 50 fan, but only three
    // live copies of one tile. The strong bot, counting the chance of winning only, keeps
    // the character and breaks the quad of 1p for a hand one tile from ready with more
    // routes; the expert, counting the points of each win, takes the flush.
    let h = "5m1111334456677p";
    let o = view(h, &discards(h), None);
    assert_eq!(full().act(&o), Action::Discard(t("1p")));
    assert_eq!(expert().act(&o), Action::Discard(t("5m")));
}

#[test]
fn a_win_is_worth_its_points() {
    let rules = Rules::gb();
    let mut ctx = win_context(&view("1m", &[Action::Pass], None), &[]);
    ctx.flowers = 0;
    let all = [4u8; 34];
    let mut memo = WaitMemo::new();
    let share = lookahead::SELF_DRAW_SHARE;
    // The full flush waits on 50 fan; a self-draw-only wait scores only by self-draw.
    let flush = memo.scoring_waits(&counts("1111334456677p"), &ctx, &rules, &all);
    assert_eq!((flush.on_discard, flush.fan_on_discard), (4, 200));
    let p = lookahead::win_points(&flush, &ctx, share);
    // 50 + 24 on a discard, 3 × (52 + 8) by self-draw (Fully Concealed Hand).
    let want = (1.0 - share) * 74.0 + share * 180.0;
    assert!((p - want).abs() < 1e-3, "{p} {want}");
    assert_eq!(lookahead::win_points(&Default::default(), &ctx, share), 0.0);
    // A ready hand's expected points rise with its fan at equal live copies.
    let mut la = Lookahead::new(&all, 60);
    la.worth = StrongConfig::expert().worth();
    let rich = la
        .value(&counts("1111334456677p"), 0, &ctx, &rules)
        .unwrap();
    la.worth = lookahead::Worth::Chance;
    let chance = la
        .value(&counts("1111334456677p"), 0, &ctx, &rules)
        .unwrap();
    assert!(rich > 70.0 * chance && chance > 0.0, "{rich} {chance}");
}

#[test]
fn the_expert_attacks_where_the_strong_bot_folds() {
    // Facing three exposed pungs of dots, far from any plan: the strong bot folds; the
    // expert, without the fold rule, prices the danger among its attacking discards and
    // still keeps the lone dot (the flush's tile).
    let o = crate::policy::positions::facing_a_dot_flush();
    let (_, e) = full().explain(&o).unwrap();
    assert_eq!(e.mode, explain::Mode::Fold, "{e:#?}");
    let (a, e) = expert().explain(&o).unwrap();
    assert_ne!(e.mode, explain::Mode::Fold, "{e:#?}");
    assert_ne!(a, Action::Discard(t("5p")), "the dot feeds the flush");
    assert!(!StrongConfig::expert().fold && StrongConfig::default().fold);
}

#[test]
fn the_expert_lookahead_counts_discarded_kinds_higher_and_its_own_reaches() {
    let rules = Rules::gb();
    let ctx = win_context(&view("1m", &[Action::Pass], None), &[]);
    // Seven pairs ready on 4z alone.
    let h = counts("1133m5577p99s224z");
    let mut unseen = [4u8; 34];
    for t in 0..34 {
        unseen[t] -= h[t];
    }
    let points = StrongConfig::expert().worth();
    let value = |discarded: u64, worth: lookahead::Worth| {
        let mut la = Lookahead::new(&unseen, 60);
        la.worth = worth;
        la.discarded = discarded;
        la.reset(&unseen, 60);
        la.value(&h, 0, &ctx, &rules).unwrap()
    };
    let plain = value(0, points);
    let all_discarded = value(!0, points);
    let others_discarded = value(!(1 << t("4z")), points);
    // The wait's copies count 1.5 times once an opponent has let that kind go; kinds it
    // does not wait on change nothing.
    assert!(all_discarded > plain, "{all_discarded} {plain}");
    assert_eq!(others_discarded, plain);
    // The strong bot's chances ignore the discarded kinds.
    let chance = lookahead::Worth::Chance;
    assert_eq!(value(!0, chance), value(0, chance));
    // Reset sets the reaches from the worth.
    let mut la = Lookahead::new(&unseen, 60);
    la.worth = points;
    la.reset(&unseen, 60);
    assert_eq!(
        (la.reach, la.win_reach),
        (lookahead::DRAW_REACH, lookahead::WIN_REACH)
    );
    la.worth = chance;
    la.reset(&unseen, 60);
    assert_eq!(
        (la.reach, la.win_reach),
        (lookahead::REACH, lookahead::REACH)
    );
}
