//! Python bindings for the huainan part of the core: the 宝 indicator, the 宝吊头 test and
//! the scoring of a finished hand.

use super::convert::{self, Flag, Int, Text};
use crate::error::MjError;
use crate::hand::Meld;
use crate::huainan::{self, forms, Form, HuainanOptions, WinFacts};
use crate::rules::Rules;
use crate::shanten::wild;
use crate::tile::{self, Tile};
use pyo3::prelude::*;

fn huainan_options(rules: &Bound<'_, PyAny>) -> PyResult<HuainanOptions> {
    let r: Rules = convert::rules(rules)?;
    match r.bao() {
        Some(o) => Ok(o.clone()),
        None => Err(MjError::rule(format!(
            "this function takes a rule set with 宝 wild tiles (huainan), got {}",
            r.kind.as_str()
        ))
        .into()),
    }
}

fn wild_tile(wild: &Bound<'_, PyAny>) -> PyResult<Tile> {
    let t = convert::tile_code(wild)?;
    if tile::is_flower(t) {
        return Err(MjError::hand(format!(
            "the 宝 (wild) is a suited or honour tile, got {}",
            tile::name(t)
        ))
        .into());
    }
    Ok(t)
}

/// The value of a Huainan win: the primary form, the multipliers and what one payer pays.
#[pyclass(name = "HuainanScore", module = "majiang", frozen)]
pub struct PyHuainanScore {
    inner: forms::Score,
}

#[pymethods]
impl PyHuainanScore {
    /// The primary form's key, e.g. `"baodiaotou"`, `"qing_qidui"`, or a special win
    /// (`"jiebao"`, `"sigebao"`).
    #[getter]
    fn form(&self) -> &'static str {
        self.inner.form.key()
    }
    /// The primary form's Chinese name, e.g. `"宝吊头"`.
    #[getter]
    fn form_zh(&self) -> &'static str {
        self.inner.form.name_zh()
    }
    /// The primary form's value.
    #[getter]
    fn form_value(&self) -> u32 {
        self.inner.form_value
    }
    /// The multipliers that apply as `(key, factor)`; 飞宝's factor is 2^f.
    #[getter]
    fn multipliers(&self) -> Vec<(&'static str, u64)> {
        self.inner
            .multipliers
            .iter()
            .map(|(m, f)| (m.key(), *f))
            .collect()
    }
    /// The multipliers' Chinese names.
    #[getter]
    fn multipliers_zh(&self) -> Vec<&'static str> {
        self.inner
            .multipliers
            .iter()
            .map(|(m, _)| m.name_zh())
            .collect()
    }
    /// `base × form × multipliers` before the cap.
    #[getter]
    fn raw_value(&self) -> u64 {
        self.inner.raw_value
    }
    /// What one payer pays: the raw value capped at `cap`.
    #[getter]
    fn value(&self) -> u64 {
        self.inner.value
    }
    fn __repr__(&self) -> String {
        let m: Vec<String> = self
            .inner
            .multipliers
            .iter()
            .map(|(m, f)| format!("{}×{f}", m.name_zh()))
            .collect();
        format!(
            "HuainanScore({} {}{}{}, value={})",
            self.inner.form.name_zh(),
            self.inner.form_value,
            if m.is_empty() { "" } else { " " },
            m.join(" "),
            self.inner.value
        )
    }
}

/// The 宝 face shown by an indicator tile (suits 9→1, winds 东→南→西→北→东, dragons
/// 中→发→白→中).
#[pyfunction]
fn bao_for_indicator(indicator: &Bound<'_, PyAny>) -> PyResult<u32> {
    Ok(huainan::bao_for_indicator(convert::tile_code(indicator)?)? as u32)
}

/// The linear wall index of the 宝 indicator for a throw `s2` (2-12): the upper tile of the
/// `s2`-th stack from the tail of the 136-tile wall.
#[pyfunction]
fn bao_indicator_index(s2: Int<i128>) -> PyResult<usize> {
    let s2 = s2.0;
    let s = u8::try_from(s2)
        .map_err(|_| MjError::hand(format!("a two-dice throw is 2-12, got {s2}")))?;
    Ok(huainan::indicator_index(s, 136)?)
}

/// Whether a waiting hand (13 − 3k concealed tiles) is in the 宝吊头 state: one 宝 plus
/// complete sets, so any next tile wins.
#[pyfunction]
#[pyo3(signature = (hand, melds = None, *, wild, rules = None))]
fn is_bao_diaotou(
    hand: &Bound<'_, PyAny>,
    melds: Option<&Bound<'_, PyAny>>,
    wild: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    let o = match rules {
        Some(r) => huainan_options(r)?,
        None => HuainanOptions::default(),
    };
    let counts = convert::counts(hand)?;
    let melds: Vec<Meld> = match melds {
        Some(m) => convert::melds(m)?,
        None => Vec::new(),
    };
    let bao = wild_tile(wild)?;
    if crate::hand::check_hand(&counts, &melds)? != crate::hand::HandSize::Waiting {
        return Err(MjError::hand(format!(
            "the 宝吊头 state is a waiting hand of {} tiles",
            13 - 3 * melds.len()
        ))
        .into());
    }
    let w = wild::Wild::new(&counts, Some(bao));
    let limit = wild::hand_limit(&w.nat, &melds);
    Ok(wild::is_bdt(
        &counts,
        bao,
        if o.bao_wild_fifth_copy {
            None
        } else {
            Some(&limit)
        },
    ))
}

/// Scores a finished Huainan hand (docs/rules/huainan.md §9-10).
#[pyfunction]
#[pyo3(signature = (hand, win_tile = None, melds = None, *, wild, self_drawn = Flag(false),
    replacement = Flag(false), robbed_kong = Flag(false), heavenly = Flag(false),
    earthly = Flag(false), bao_discarded = Int(0), passes = Int(0), rules = None))]
#[pyo3(
    text_signature = "(hand, win_tile=None, melds=None, *, wild, self_drawn=False, replacement=False, robbed_kong=False, heavenly=False, earthly=False, bao_discarded=0, passes=0, rules=None)"
)]
#[allow(clippy::too_many_arguments)]
fn score_huainan(
    hand: &Bound<'_, PyAny>,
    win_tile: Option<&Bound<'_, PyAny>>,
    melds: Option<&Bound<'_, PyAny>>,
    wild: &Bound<'_, PyAny>,
    self_drawn: Flag,
    replacement: Flag,
    robbed_kong: Flag,
    heavenly: Flag,
    earthly: Flag,
    bao_discarded: Int<i128>,
    passes: Int<i128>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyHuainanScore> {
    let (self_drawn, replacement, robbed_kong) = (self_drawn.0, replacement.0, robbed_kong.0);
    let (heavenly, earthly) = (heavenly.0, earthly.0);
    let (bao_discarded, passes) = (bao_discarded.0, passes.0);
    let o = match rules {
        Some(r) => huainan_options(r)?,
        None => HuainanOptions::default(),
    };
    let mut tiles = convert::tiles(hand)?;
    let win = match win_tile {
        Some(w) if !w.is_none() => {
            let t = convert::tile_code(w)?;
            tiles.push(t);
            Some(t)
        }
        _ => None,
    };
    let counts = tile::to_counts(&tiles)?;
    let melds: Vec<Meld> = match melds {
        Some(m) => convert::melds(m)?,
        None => Vec::new(),
    };
    let bao = wild_tile(wild)?;
    let small = |name: &str, v: i128| -> PyResult<u8> {
        u8::try_from(v)
            .ok()
            .filter(|&x| x <= 99)
            .ok_or_else(|| MjError::hand(format!("{name} must be 0-99, got {v}")).into())
    };
    let facts = WinFacts {
        self_drawn: self_drawn || heavenly || replacement,
        replacement,
        robbed_kong,
        heavenly,
        earthly,
        bao_discarded: small("bao_discarded", bao_discarded)?,
        passes: small("passes", passes)?,
    };
    if win.is_none() && !heavenly {
        return Err(MjError::hand(
            "win_tile is required (only a 天糊 hand, heavenly=True, has none)",
        )
        .into());
    }
    Ok(PyHuainanScore {
        inner: forms::score(&counts, &melds, win, bao, &facts, &o)?,
    })
}

/// The value of a special instant win: `"jiebao"` (接宝) or `"sigebao"` (四个宝).
#[pyfunction]
#[pyo3(signature = (kind, *, rules = None))]
fn score_huainan_special(kind: Text, rules: Option<&Bound<'_, PyAny>>) -> PyResult<PyHuainanScore> {
    let o = match rules {
        Some(r) => huainan_options(r)?,
        None => HuainanOptions::default(),
    };
    let form = Form::parse(&kind)?;
    Ok(PyHuainanScore {
        inner: forms::special(form, &o)?,
    })
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyHuainanScore>()?;
    m.add_function(wrap_pyfunction!(bao_for_indicator, m)?)?;
    m.add_function(wrap_pyfunction!(bao_indicator_index, m)?)?;
    m.add_function(wrap_pyfunction!(is_bao_diaotou, m)?)?;
    m.add_function(wrap_pyfunction!(score_huainan, m)?)?;
    m.add_function(wrap_pyfunction!(score_huainan_special, m)?)?;
    Ok(())
}
