//! The shipped model bot ([`ModelPolicy`], built-in name `model`): a small network that
//! scores every legal action from the features of the position after it
//! ([`features::candidates`]) and plays the best.
//!
//! The weights are the numpy file `python/majiang/models/gb.npz` (the package data that
//! `mj.bots.ModelBot` reads with numpy), built into the library as bytes and read here
//! by [`Weights::from_npz`]: one file, so the Rust policy and the Python bot cannot play
//! different weights. The network: the features standardised by the file's `mean` and
//! `std`, two hidden layers with ReLU (`w1`, `b1`, `w2`, `b2`), one score (`w3`, `b3`);
//! `examples/train_model.py` writes the file.

pub mod features;

use crate::error::{MjError, MjResult};
use crate::policy::{EfficiencyPolicy, Policy, TableView};
use crate::round::Action;
use crate::rules::Rules;
use features::{candidates, Analysis, Candidates, N_FEATURES};
use std::sync::OnceLock;

/// Scores this close to the best count as equal ([`Weights::choose`]).
pub const TIE: f32 = 1e-3;

/// The shipped weights' file, as built into the library.
pub static SHIPPED: &[u8] = include_bytes!("../../../python/majiang/models/gb.npz");

/// A network read from an npz file.
#[derive(Debug, Clone)]
pub struct Weights {
    /// Feature means.
    pub mean: Vec<f32>,
    /// Feature standard deviations.
    pub std: Vec<f32>,
    /// First layer, `N_FEATURES × h1`, row-major.
    pub w1: Vec<f32>,
    /// Its bias.
    pub b1: Vec<f32>,
    /// Second layer, `h1 × h2`.
    pub w2: Vec<f32>,
    /// Its bias.
    pub b2: Vec<f32>,
    /// Output layer, `h2`.
    pub w3: Vec<f32>,
    /// Its bias (one value).
    pub b3: f32,
}

fn bad(what: impl std::fmt::Display) -> MjError {
    MjError::argument(format!("model weights: {what}"))
}

fn u16_at(b: &[u8], i: usize) -> MjResult<usize> {
    b.get(i..i + 2)
        .map(|x| u16::from_le_bytes([x[0], x[1]]) as usize)
        .ok_or_else(|| bad("the file ends inside a zip header"))
}

fn u32_at(b: &[u8], i: usize) -> MjResult<u64> {
    b.get(i..i + 4)
        .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]) as u64)
        .ok_or_else(|| bad("the file ends inside a zip header"))
}

/// The entries of an uncompressed zip file (an `np.savez` file): name and data.
fn zip_entries(b: &[u8]) -> MjResult<Vec<(String, &[u8])>> {
    let mut out = Vec::new();
    let mut i = 0usize;
    while b.get(i..i + 4) == Some(&[0x50, 0x4b, 0x03, 0x04]) {
        let flags = u16_at(b, i + 6)?;
        let method = u16_at(b, i + 8)?;
        let mut size = u32_at(b, i + 18)?;
        let name_len = u16_at(b, i + 26)?;
        let extra_len = u16_at(b, i + 28)?;
        if method != 0 {
            return Err(bad("an entry is compressed (write the file with np.savez)"));
        }
        if flags & 8 != 0 {
            return Err(bad(
                "an entry's size follows its data (not written by np.savez)",
            ));
        }
        let name_at = i + 30;
        let name = b
            .get(name_at..name_at + name_len)
            .ok_or_else(|| bad("the file ends inside an entry name"))?;
        let name = String::from_utf8_lossy(name).into_owned();
        let extra = b
            .get(name_at + name_len..name_at + name_len + extra_len)
            .ok_or_else(|| bad("the file ends inside a zip header"))?;
        if size == 0xFFFF_FFFF {
            // Zip64: the sizes are in the extra field 0x0001 (uncompressed first).
            let mut k = 0;
            while k + 4 <= extra.len() {
                let id = u16_at(extra, k)?;
                let len = u16_at(extra, k + 2)?;
                if id == 1 && len >= 8 {
                    let v = extra
                        .get(k + 4..k + 12)
                        .ok_or_else(|| bad("a short zip64 field"))?;
                    size = u64::from_le_bytes(v.try_into().expect("8 bytes"));
                    break;
                }
                k += 4 + len;
            }
        }
        let data_at = name_at + name_len + extra_len;
        let data = usize::try_from(size)
            .ok()
            .and_then(|s| b.get(data_at..data_at.checked_add(s)?))
            .ok_or_else(|| bad(format!("entry {name} runs past the end of the file")))?;
        out.push((name, data));
        i = data_at + data.len();
    }
    if out.is_empty() {
        return Err(bad("not an npz file (no zip entry)"));
    }
    Ok(out)
}

/// A little-endian float32 `.npy` array: its shape and values.
fn npy_f32(name: &str, b: &[u8]) -> MjResult<(Vec<usize>, Vec<f32>)> {
    if b.get(..6) != Some(b"\x93NUMPY") {
        return Err(bad(format!("{name} is not a .npy array")));
    }
    let major = b.get(6).copied().unwrap_or(0);
    let (hlen, start) = match major {
        1 => (u16_at(b, 8)?, 10),
        2 | 3 => (u32_at(b, 8)? as usize, 12),
        v => return Err(bad(format!("{name}: .npy version {v}"))),
    };
    let header = b
        .get(start..start + hlen)
        .ok_or_else(|| bad(format!("{name}: short header")))?;
    let header = String::from_utf8_lossy(header);
    if !header.contains("'descr': '<f4'") {
        return Err(bad(format!(
            "{name} is not little-endian float32: {header}"
        )));
    }
    if header.contains("'fortran_order': True") {
        return Err(bad(format!("{name} is in Fortran order")));
    }
    let shape_at = header
        .find("'shape': (")
        .ok_or_else(|| bad(format!("{name}: no shape")))?
        + 10;
    let shape_end = header[shape_at..]
        .find(')')
        .ok_or_else(|| bad(format!("{name}: bad shape")))?;
    let shape: Vec<usize> = header[shape_at..shape_at + shape_end]
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<usize>()
                .map_err(|_| bad(format!("{name}: bad shape")))
        })
        .collect::<MjResult<_>>()?;
    let n: usize = shape.iter().product();
    let data = b
        .get(start + hlen..start + hlen + 4 * n)
        .ok_or_else(|| bad(format!("{name}: fewer values than its shape")))?;
    let v = data
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    Ok((shape, v))
}

impl Weights {
    /// Reads the arrays `mean`, `std`, `w1`, `b1`, `w2`, `b2`, `w3`, `b3` (float32) of an
    /// npz file written by `np.savez`, checking their shapes.
    pub fn from_npz(bytes: &[u8]) -> MjResult<Weights> {
        let entries = zip_entries(bytes)?;
        let get = |k: &str| -> MjResult<(Vec<usize>, Vec<f32>)> {
            let file = format!("{k}.npy");
            let (_, b) = entries
                .iter()
                .find(|(n, _)| *n == file)
                .ok_or_else(|| bad(format!("no array {k}")))?;
            npy_f32(k, b)
        };
        let (sm, mean) = get("mean")?;
        let (_, std) = get("std")?;
        let (s1, w1) = get("w1")?;
        let (_, b1) = get("b1")?;
        let (s2, w2) = get("w2")?;
        let (_, b2) = get("b2")?;
        let (s3, w3) = get("w3")?;
        let (_, b3) = get("b3")?;
        let ok = sm == [N_FEATURES]
            && std.len() == N_FEATURES
            && s1.len() == 2
            && s1[0] == N_FEATURES
            && b1.len() == s1[1]
            && s2.len() == 2
            && s2[0] == s1[1]
            && b2.len() == s2[1]
            && s3.iter().product::<usize>() == s2[1]
            && b3.len() == 1;
        if !ok {
            return Err(bad(format!(
                "shapes do not chain: mean {sm:?}, w1 {s1:?}, w2 {s2:?}, w3 {s3:?} \
                 ({N_FEATURES} features)"
            )));
        }
        Ok(Weights {
            mean,
            std,
            w1,
            b1,
            w2,
            b2,
            w3,
            b3: b3[0],
        })
    }

    /// The shipped weights (read once).
    pub fn shipped() -> &'static Weights {
        static W: OnceLock<Weights> = OnceLock::new();
        W.get_or_init(|| Weights::from_npz(SHIPPED).expect("the shipped weights read"))
    }

    /// The score of one candidate's features.
    pub fn score(&self, x: &[f32; N_FEATURES]) -> f32 {
        let h1 = self.b1.len();
        let h2 = self.b2.len();
        let mut z = [0f32; N_FEATURES];
        for i in 0..N_FEATURES {
            z[i] = (x[i] - self.mean[i]) / self.std[i];
        }
        let mut a1 = self.b1.clone();
        for (i, &zi) in z.iter().enumerate() {
            if zi != 0.0 {
                let row = &self.w1[i * h1..(i + 1) * h1];
                for (a, w) in a1.iter_mut().zip(row) {
                    *a += zi * w;
                }
            }
        }
        let mut a2 = self.b2.clone();
        for (j, &a) in a1.iter().enumerate() {
            let a = a.max(0.0);
            if a != 0.0 {
                let row = &self.w2[j * h2..(j + 1) * h2];
                for (o, w) in a2.iter_mut().zip(row) {
                    *o += a * w;
                }
            }
        }
        a2.iter()
            .zip(&self.w3)
            .map(|(a, w)| a.max(0.0) * w)
            .sum::<f32>()
            + self.b3
    }

    /// The index of the best-scoring candidate: the first (in candidate order) whose
    /// score is within [`TIE`] of the best, so that candidates whose features are equal
    /// (two honours alike) resolve the same way whatever order the arithmetic ran in
    /// (numpy's `ModelBot` makes the same choice).
    pub fn choose(&self, c: &Candidates) -> usize {
        let mut scores = [f32::NEG_INFINITY; features::MAX_CANDIDATES];
        let mut best = f32::NEG_INFINITY;
        for (s, f) in scores.iter_mut().zip(&c.features[..c.n]) {
            *s = self.score(f);
            best = best.max(*s);
        }
        (0..c.n).find(|&i| scores[i] >= best - TIE).unwrap_or(0)
    }
}

/// The model bot (see the [module documentation](self)). Hands played with wild 宝 tiles
/// are left to the efficiency policy's wild-aware play, which the features do not
/// describe.
#[derive(Clone)]
pub struct ModelPolicy {
    weights: &'static Weights,
    min_fan: u8,
    wilds: EfficiencyPolicy,
    cands: Box<Candidates>,
}

impl ModelPolicy {
    /// The model bot with the shipped weights, planning for `rules`' minimum fan.
    pub fn new(rules: &Rules, seed: u64) -> ModelPolicy {
        ModelPolicy {
            weights: Weights::shipped(),
            min_fan: rules.fan.min_fan,
            wilds: EfficiencyPolicy::new(rules, seed),
            cands: Box::default(),
        }
    }
}

impl Policy for ModelPolicy {
    fn name(&self) -> &'static str {
        "model"
    }
    fn begin_hand(&mut self, seed: u64) {
        self.wilds.begin_hand(seed);
    }
    fn act(&mut self, view: &dyn TableView) -> Action {
        let legal = view.legal();
        match legal.len() {
            0 => return Action::Pass,
            1 => return legal[0],
            _ => {}
        }
        if view.bao().is_some() {
            return self.wilds.act(view);
        }
        let a = Analysis::new(view, self.min_fan, true);
        candidates(view, &a, self.min_fan, &mut self.cands);
        if self.cands.n == 0 {
            return legal[0];
        }
        let i = self.weights.choose(&self.cands);
        Some(self.cands.actions[i])
            .filter(|x| legal.contains(x))
            .unwrap_or(legal[0])
    }
    fn boxed_clone(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{PolicyKind, RoundView};
    use crate::round::Round;

    #[test]
    fn the_shipped_weights_read_and_chain() {
        let w = Weights::from_npz(SHIPPED).unwrap();
        assert_eq!(w.mean.len(), N_FEATURES);
        assert_eq!(w.w1.len(), N_FEATURES * w.b1.len());
        assert_eq!(w.w2.len(), w.b1.len() * w.b2.len());
        assert!(w.score(&[0.5; N_FEATURES]).is_finite());
    }

    #[test]
    fn a_damaged_file_is_refused_with_its_problem() {
        for (bytes, want) in [
            (&b"not a zip"[..], "not an npz"),
            (&SHIPPED[..SHIPPED.len() / 2], "past the end"),
        ] {
            let e = Weights::from_npz(bytes).unwrap_err();
            assert!(e.message().contains(want), "{}", e.message());
        }
        // A compressed entry (method 8).
        let mut z = SHIPPED.to_vec();
        z[8] = 8;
        let e = Weights::from_npz(&z).unwrap_err();
        assert!(e.message().contains("compressed"), "{}", e.message());
    }

    /// The model policy plays legal actions through whole hands of every rule set.
    #[test]
    fn the_model_plays_whole_hands() {
        for kind in ["gb", "classic", "huainan"] {
            let rules = Rules::named(kind).unwrap();
            let mut pols: [_; 4] = std::array::from_fn(|s| {
                if s == 0 {
                    PolicyKind::Model.build(&rules)
                } else {
                    PolicyKind::Efficiency.build(&rules)
                }
            });
            for seed in 0..6u64 {
                let mut r = Round::new(&rules, seed, (seed % 4) as u8, 0).unwrap();
                for (s, p) in pols.iter_mut().enumerate() {
                    p.begin_hand(seed * 4 + s as u64);
                }
                let n = crate::policy::play_out(&mut r, &mut pols).unwrap();
                assert!(n > 0 && r.is_over());
            }
        }
        assert_eq!(PolicyKind::parse("model").unwrap(), PolicyKind::Model);
        let _ = RoundView::clone;
    }
}
