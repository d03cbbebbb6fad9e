//! Reading a seat's reported view (`Round.from_view`): a dict of plain Python values
//! turned into a [`SeatView`]. Bad tiles or melds raise `InvalidHandError`, a missing key
//! a missing key `InvalidArgumentError`, a value of the wrong type `InvalidTypeError`.

use super::convert;
use super::errors::{InvalidArgumentError, InvalidHandError};
use crate::hand::{Meld, MeldKind};
use crate::round::{SeatView, ViewPhase, HIDDEN};
use crate::tile::Tile;
use pyo3::prelude::*;
use pyo3::types::PyDict;

fn get<'py>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    d.get_item(key)?
        .ok_or_else(|| InvalidArgumentError::new_err(format!("the view needs {key:?}")))
}

fn opt<'py>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    Ok(d.get_item(key)?.filter(|v| !v.is_none()))
}

fn opt_tile(d: &Bound<'_, PyDict>, key: &str) -> PyResult<Option<Tile>> {
    opt(d, key)?.map(|v| convert::tile_code(&v)).transpose()
}

fn per_seat<T>(
    obj: &Bound<'_, PyAny>,
    what: &str,
    mut read: impl FnMut(&Bound<'_, PyAny>) -> PyResult<T>,
) -> PyResult<[T; 4]>
where
    T: Default,
{
    let mut out: [T; 4] = Default::default();
    let mut n = 0;
    for (i, item) in obj.try_iter()?.enumerate() {
        if i >= 4 {
            return Err(InvalidHandError::new_err(format!(
                "{what}: one entry per seat"
            )));
        }
        out[i] = read(&item?)?;
        n += 1;
    }
    if n != 4 {
        return Err(InvalidHandError::new_err(format!(
            "{what}: one entry per seat"
        )));
    }
    Ok(out)
}

/// One meld: `(kind, tile, from_seat)`; a chow by its lowest tile, another seat's
/// concealed kong with the tile `None`.
fn meld(item: &Bound<'_, PyAny>) -> PyResult<(Meld, u8)> {
    let (kind, t, from): (String, Option<Bound<'_, PyAny>>, u8) = item.extract()?;
    let kind = MeldKind::parse(&kind)?;
    let tile = match t {
        Some(t) if !t.is_none() => convert::tile_code(&t)?,
        _ if kind == MeldKind::ConcealedKong => HIDDEN,
        _ => {
            return Err(InvalidHandError::new_err(
                "only a concealed kong hides its tile",
            ))
        }
    };
    Ok((Meld { kind, tile }, from))
}

/// The [`SeatView`] a dict describes (keys as in `Round.from_view`'s docstring).
pub(super) fn seat_view(d: &Bound<'_, PyDict>) -> PyResult<SeatView> {
    let phase = match get(d, "phase")?.extract::<String>()?.as_str() {
        "turn" => ViewPhase::Turn,
        "claim" => ViewPhase::Claim,
        "rob_kong" => ViewPhase::RobKong,
        other => {
            return Err(InvalidHandError::new_err(format!(
                "phase must be turn, claim or rob_kong, got {other:?}"
            )))
        }
    };
    let melds = per_seat(&get(d, "melds")?, "melds", |seat| {
        seat.try_iter()?.map(|m| meld(&m?)).collect()
    })?;
    let flowers = match opt(d, "flowers")? {
        Some(f) => per_seat(&f, "flowers", convert::tiles)?,
        None => Default::default(),
    };
    let mut discards = Vec::new();
    for item in get(d, "discards")?.try_iter()? {
        let (s, t, claimed): (u8, Bound<'_, PyAny>, bool) = item?.extract()?;
        discards.push((s, convert::tile_code(&t)?, claimed));
    }
    Ok(SeatView {
        seat: get(d, "seat")?.extract()?,
        dealer: opt(d, "dealer")?
            .map(|v| v.extract())
            .transpose()?
            .unwrap_or(0),
        prevalent_wind: opt(d, "prevalent_wind")?
            .map(|v| v.extract())
            .transpose()?
            .unwrap_or(0),
        hand: convert::tiles(&get(d, "hand")?)?,
        drawn: opt_tile(d, "drawn")?,
        kong_replacement: opt(d, "kong_replacement")?
            .map(|v| v.extract())
            .transpose()?
            .unwrap_or(false),
        melds,
        flowers,
        discards,
        wall_remaining: get(d, "wall_remaining")?.extract()?,
        phase,
        turn: get(d, "turn")?.extract()?,
        claim_tile: opt_tile(d, "claim")?,
        scores: opt(d, "scores")?
            .map(|v| v.extract())
            .transpose()?
            .unwrap_or([0; 4]),
    })
}
