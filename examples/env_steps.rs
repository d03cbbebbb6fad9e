//! Steps one learning table from Rust alone, for profilers and instruction counts of the
//! environment's outputs.
//!
//! `cargo build --release --example env_steps --no-default-features`, then
//! `target/release/examples/env_steps RULES OPPONENTS OUTPUT STEPS [SEED]` takes `STEPS`
//! random legal steps at a table whose three opponents play `OPPONENTS`, writing after each
//! step the output `OUTPUT`: `plain` (the v1 planes and the mask), `gb` (plus the GB planes
//! of encoding v2), `candidates` (the v1 planes, the mask and every legal action's
//! features) or `both`. It prints a digest of the outputs, which two builds computing the
//! same features share. The steps run inside one function, `env_steps::measured`, so that
//! `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='env_steps::measured'`
//! counts them alone; the difference of two step counts divided by their difference is the
//! cost of a step with that output (docs/performance.md).

use majiang::env::encode::{N_ACTIONS, OBS_LEN};
use majiang::env::features::{Candidates, N_FEATURES, N_GB_PLANES};
use majiang::env::vec::{EnvSpec, EnvTable, Episode};
use majiang::policy::PolicyKind;
use majiang::rules::Rules;
use majiang::wall::Rng;

const USAGE: &str = "usage: env_steps RULES OPPONENTS plain|gb|candidates|both STEPS [SEED]";

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 5 {
        eprintln!("{USAGE}");
        std::process::exit(2);
    }
    let fail = |what: &str| -> ! {
        eprintln!("env_steps: bad {what}\n{USAGE}");
        std::process::exit(2)
    };
    let rules = Rules::named(&a[1]).unwrap_or_else(|_| fail("rule set"));
    let opponent = PolicyKind::parse(&a[2]).unwrap_or_else(|_| fail("opponent kind"));
    let (gb, candidates) = match a[3].as_str() {
        "plain" => (false, false),
        "gb" => (true, false),
        "candidates" => (false, true),
        "both" => (true, true),
        _ => fail("output"),
    };
    let steps: u64 = a[4].parse().unwrap_or_else(|_| fail("step count"));
    let seed: u64 = a
        .get(5)
        .map_or(1, |s| s.parse().unwrap_or_else(|_| fail("seed")));
    let spec = EnvSpec {
        rules,
        seat: 0,
        opponents: [opponent; 3],
        selfplay: false,
        episode: Episode::Hand,
        hands: None,
        record: false,
        expert: None,
        gb,
        history: false,
    };
    let mut table = EnvTable::new(&spec, seed).unwrap_or_else(|e| {
        eprintln!("env_steps: {e}");
        std::process::exit(2)
    });
    let t = std::time::Instant::now();
    let digest = measured(&mut table, &spec, candidates, steps, seed);
    let dt = t.elapsed().as_secs_f64();
    eprintln!(
        "{steps} steps {dt:.3}s {:.0}/s digest {digest:016x}",
        steps as f64 / dt
    );
}

/// Folds `bytes` into `h` eight at a time (a cheap digest: the outputs' cost, not the
/// digest's, is what the counts are for).
fn fold(h: &mut u64, bytes: &[u8]) {
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let x = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        *h = h.rotate_left(5) ^ x;
    }
    for &b in words.remainder() {
        *h = h.rotate_left(5) ^ u64::from(b);
    }
    *h = h.wrapping_mul(0x100000001b3);
}

#[inline(never)]
fn measured(table: &mut EnvTable, spec: &EnvSpec, candidates: bool, steps: u64, seed: u64) -> u64 {
    let mut obs = vec![0u8; spec.obs_len()];
    let mut mask = vec![0u8; N_ACTIONS];
    let mut c = Candidates::default();
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut h: u64 = 0xcbf29ce484222325;
    debug_assert_eq!(obs.len(), OBS_LEN + usize::from(spec.gb) * N_GB_PLANES * 34);
    for _ in 0..steps {
        table.write(&mut obs, &mut mask).unwrap();
        fold(&mut h, &obs);
        if candidates {
            table.write_candidates(&mut c);
            for f in &c.features[..c.n] {
                for x in f.iter().take(N_FEATURES) {
                    fold(&mut h, &x.to_le_bytes());
                }
            }
        }
        let i = table.sample_legal(&mut rng);
        let (_, done) = table.step(i).unwrap();
        if done {
            table.next_episode().unwrap();
        }
    }
    h
}
