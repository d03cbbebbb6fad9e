//! The conformance suite: every registered rule set and preset (the tests' `toy` included)
//! is played, scored, observed and configured through the same checks, so that a new
//! entry of the registry is held to what the existing ones promise. The Python side runs
//! the same suite over the compiled registry (tests/test_conformance.py).

use super::registry::{self, PRESETS};
use super::{OptValue, RuleSetId, Rules};
use crate::hand::WinKind;
use crate::policy::{play_out, Policy, PolicyKind};
use crate::round::{payments, Action, Round, Settlement};
use crate::sim::{self, SimSpec};
use std::path::Path;

/// Every registered configuration: each rule set at its defaults, then each preset.
fn every_configuration() -> Vec<(&'static str, Rules)> {
    registry::names()
        .into_iter()
        .map(|n| (n, Rules::named(n).unwrap()))
        .collect()
}

#[test]
fn every_entry_has_its_docs_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for id in RuleSetId::all() {
        assert!(
            root.join(id.docs).is_file(),
            "{}: no page {}",
            id.name,
            id.docs
        );
        assert!(
            !id.title.is_empty() && !id.summary.is_empty(),
            "{}",
            id.name
        );
    }
    for p in PRESETS {
        assert!(
            root.join(p.docs).is_file(),
            "{}: no page {}",
            p.name,
            p.docs
        );
    }
}

#[test]
fn options_belong_to_the_groups_and_round_trip() {
    for (name, rules) in every_configuration() {
        let specs: Vec<_> = Rules::specs(rules.kind).collect();
        let listed = rules.options();
        assert_eq!(
            specs.iter().map(|s| s.name).collect::<Vec<_>>(),
            listed.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
            "{name}"
        );
        for s in &specs {
            assert!(rules.has(s.group), "{name}: {} outside its groups", s.name);
        }
        // Every value read back sets the same configuration, in any order.
        let mut again = Rules::preset(rules.kind);
        for (k, v) in listed.iter().rev() {
            again.set(k, v).unwrap();
        }
        assert_eq!(again, rules, "{name}");
        assert_eq!(Rules::named(name).unwrap(), rules, "{name}");
        // An option of a group the rule set does not play is refused, naming its owners.
        let foreign = super::all_specs().find(|s| !rules.has(s.group));
        if let Some(s) = foreign {
            let v = match s.domain {
                super::Domain::Bool => OptValue::Bool(true),
                super::Domain::Int { min, .. } => OptValue::Int(min),
                super::Domain::Choice(c) => OptValue::Str(c[0].to_string()),
            };
            let e = rules.clone().set(s.name, &v).unwrap_err();
            assert!(e.message().contains("belongs to"), "{name}: {e}");
        }
    }
}

/// Plays `n` hands of `rules` with four `kind` policies, every state checked.
fn play_checked(name: &str, rules: &Rules, kind: PolicyKind, n: usize) -> Vec<sim::HandOutcome> {
    let spec = SimSpec {
        rules: rules.clone(),
        bots: [kind; 4],
        seed: 77,
    };
    let pool = sim::pool(Some(1)).unwrap();
    let (out, v) = sim::simulate_checked(&spec, 0, n, &pool).unwrap();
    assert_eq!(v.count, 0, "{name} with {kind:?}: {:?}", v.first);
    out
}

#[test]
fn every_configuration_plays_whole_hands_that_add_up() {
    for (name, rules) in every_configuration() {
        for (kind, n) in [
            (PolicyKind::Random, 60),
            (PolicyKind::Efficiency, 60),
            (PolicyKind::Expert, 4),
        ] {
            let out = play_checked(name, &rules, kind, n);
            assert_eq!(out.len(), n);
            for o in &out {
                assert_eq!(o.scores.iter().sum::<i32>(), 0, "{name}");
            }
            if kind == PolicyKind::Efficiency {
                assert!(out.iter().any(|o| o.winner >= 0), "{name}: no hand was won");
            }
        }
    }
}

#[test]
fn every_observation_carries_its_rules_and_every_bot_plays_them() {
    for (name, rules) in every_configuration() {
        for seed in 0..3 {
            let mut round = Round::new(&rules, seed, seed as u8 % 4, 0).unwrap();
            let mut policies: [Box<dyn Policy>; 4] =
                std::array::from_fn(|_| PolicyKind::Efficiency.build(&rules));
            // The observation of every seat at the first decision knows its rules.
            for s in 0..4 {
                assert_eq!(round.observe(s).rules, rules, "{name}");
            }
            play_out(&mut round, &mut policies).unwrap();
            assert!(round.is_over(), "{name}");
        }
    }
}

#[test]
fn the_toy_rule_set_plays_its_own_options() {
    let toy = Rules::named("toy").unwrap();
    assert_eq!(toy.kind.engine, super::Engine::Fans);
    assert!(!toy.table.chows && !toy.table.flowers && toy.fan.min_fan == 6);
    // No chow is ever offered, and no flower dealt.
    let mut chows_seen = 0;
    for seed in 0..40 {
        let mut round = Round::new(&toy, seed, 0, 0).unwrap();
        while !round.is_over() {
            let seat = round.pending().trailing_zeros() as u8;
            let legal = round.legal_actions(seat).to_vec();
            chows_seen += legal
                .iter()
                .filter(|a| matches!(a, Action::Chow(_)))
                .count();
            assert!(round.seat(seat).flowers().is_empty());
            let a = legal
                .iter()
                .copied()
                .find(|a| *a == Action::Win)
                .unwrap_or(legal[0]);
            round.apply(seat, a).unwrap();
        }
    }
    assert_eq!(chows_seen, 0);
    // The same walls under gb without flowers offer chows: the option is what removed them.
    let mut gb = Rules::gb();
    gb.table.flowers = false;
    gb.fan.max_flowers = 0;
    let round = Round::new(&gb, 3, 0, 0).unwrap();
    assert!(round.rules().table.chows);
    // Every payment between the dealer and another seat carries the bonus of 4.
    let out = play_checked("toy", &toy, PolicyKind::Efficiency, 120);
    let (mut won, mut with_bonus) = (0, 0);
    for o in out.iter().filter(|o| o.winner >= 0) {
        let w = o.winner as u8;
        let (kind, from) = match o.discarder {
            d if d < 0 => (WinKind::SelfDrawn, w),
            d => (WinKind::Discard, d as u8),
        };
        let plain = payments(Settlement::Mcr, 8, w, kind, from, o.fan_total);
        let mut want = plain;
        for s in 0..4u8 {
            let pays = s != w && want[s as usize] < 0;
            if pays && (s == o.dealer || w == o.dealer) {
                want[s as usize] -= 4;
                want[w as usize] += 4;
            }
        }
        assert_eq!(o.scores, want, "{o:?}");
        won += 1;
        with_bonus += (want != plain) as u32;
    }
    assert!(
        won > 20 && with_bonus > 0,
        "{won} wins, {with_bonus} with the bonus"
    );
}
