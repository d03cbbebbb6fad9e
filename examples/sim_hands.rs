//! Plays hands of `simulate` from Rust alone, for profilers and instruction counts.
//!
//! `cargo build --release --example sim_hands --no-default-features`, then
//! `target/release/examples/sim_hands RULES BOTS HANDS [THREADS] [SEED]` plays `HANDS` hands
//! (after one warm-up hand of another seed) and prints the hands per second and an FNV-1a
//! digest of the outcomes, which two builds with the same decisions share. With
//! `SIM_HANDS_MAIN` set the hands are played one after the other on the main thread, so
//! that `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='sim_hands::measured'`
//! counts exactly the hands' instructions; the difference of two hand counts divided by
//! their difference is the cost of a hand (docs/performance.md).

use majiang::policy::PolicyKind;
use majiang::rules::Rules;
use majiang::sim::{pool, simulate, SimSpec};

const USAGE: &str = "usage: sim_hands RULES BOTS HANDS [THREADS] [SEED]";

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 4 {
        eprintln!("{USAGE}");
        std::process::exit(2);
    }
    let fail = |what: &str| -> ! {
        eprintln!("sim_hands: bad {what}\n{USAGE}");
        std::process::exit(2)
    };
    let rules = Rules::named(&a[1]).unwrap_or_else(|_| fail("rule set"));
    let bots = PolicyKind::parse(&a[2]).unwrap_or_else(|_| fail("bot kind"));
    let n: usize = a[3].parse().unwrap_or_else(|_| fail("hand count"));
    let threads: usize = a
        .get(4)
        .map_or(1, |s| s.parse().unwrap_or_else(|_| fail("threads")));
    let seed: u64 = a
        .get(5)
        .map_or(1, |s| s.parse().unwrap_or_else(|_| fail("seed")));
    let spec = SimSpec {
        rules,
        bots: [bots; 4],
        seed,
    };
    let p = pool(Some(threads)).unwrap();
    // warm the tables
    let _ = simulate(
        &SimSpec {
            seed: 999,
            ..spec.clone()
        },
        0,
        1,
        &p,
    )
    .unwrap();
    let t = std::time::Instant::now();
    let out = measured(&spec, n, &p);
    let dt = t.elapsed().as_secs_f64();
    let mut h: u64 = 0xcbf29ce484222325;
    for o in &out {
        let s = format!("{:?}", o);
        for b in s.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100000001b3);
        }
    }
    eprintln!("{n} hands {dt:.3}s {:.0}/s digest {h:016x}", n as f64 / dt);
}

#[inline(never)]
fn measured(spec: &SimSpec, n: usize, p: &rayon::ThreadPool) -> Vec<majiang::sim::HandOutcome> {
    if std::env::var("SIM_HANDS_MAIN").is_ok() {
        let mut t = majiang::sim::Table::new(&spec.rules, &spec.bots);
        return (0..n as u64)
            .map(|i| spec.play(&mut t, i, false).unwrap().0)
            .collect();
    }
    simulate(spec, 0, n, p).unwrap()
}
