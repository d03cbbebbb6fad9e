//! Tiles, notation and melds for Python.

use super::convert::{self, Text};
use crate::hand::{Meld, MeldKind};
use crate::tile::{self, Tile};
use pyo3::prelude::*;

/// Reads MPSZ text (`"123m456p789s1155z"`, flowers `"1f"`) into a list of tile codes.
#[pyfunction]
fn parse_tiles(s: Text) -> PyResult<Vec<u32>> {
    Ok(convert::codes(&tile::parse(&s)?))
}

/// Writes tiles (MPSZ text or codes) as sorted, grouped MPSZ.
#[pyfunction]
fn format_tiles(tiles: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(tile::format(&convert::tiles(tiles)?))
}

/// The MPSZ name of one tile, e.g. `tile_name(31) == "5z"`.
#[pyfunction]
fn tile_name(t: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(tile::name(convert::tile_code(t)?))
}

/// The Chinese name of one tile, e.g. `tile_name_zh(31) == "中"`.
#[pyfunction]
fn tile_name_zh(t: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(tile::name_zh(convert::tile_code(t)?))
}

/// The Unicode mahjong glyph of one tile (U+1F000 block).
#[pyfunction]
fn tile_glyph(t: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(tile::glyph(convert::tile_code(t)?).to_string())
}

/// A declared meld: `Meld("chow", "345m")`, `Meld("pung", "555z")`, `Meld("kong", "1111p")`,
/// `Meld("concealed_kong", "9999s")`. `tiles` is MPSZ text or a sequence of codes.
#[pyclass(name = "Meld", module = "majiang", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyMeld {
    pub inner: Meld,
}

#[pymethods]
impl PyMeld {
    #[new]
    fn new(kind: Text, tiles: &Bound<'_, PyAny>) -> PyResult<Self> {
        let kind = MeldKind::parse(&kind)?;
        let tiles = convert::tiles(tiles)?;
        Ok(PyMeld {
            inner: Meld::new(kind, &tiles)?,
        })
    }

    /// `"chow"`, `"pung"`, `"kong"` or `"concealed_kong"`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind.as_str()
    }

    /// The meld's tile codes in order.
    #[getter]
    fn tiles(&self) -> Vec<u32> {
        convert::codes(&self.inner.tiles())
    }

    /// The lowest tile of the meld.
    #[getter]
    fn tile(&self) -> Tile {
        self.inner.tile
    }

    /// True for a concealed kong.
    #[getter]
    fn concealed(&self) -> bool {
        self.inner.is_concealed()
    }

    fn __repr__(&self) -> String {
        format!(
            "Meld({:?}, {:?})",
            self.inner.kind.as_str(),
            self.inner.notation()
        )
    }

    fn __str__(&self) -> String {
        self.inner.notation()
    }

    fn __len__(&self) -> usize {
        self.inner.kind.size()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let me = slf.get();
        let cls = slf.get_type().into_any();
        Ok((
            cls,
            (me.inner.kind.as_str().to_string(), me.inner.notation()),
        ))
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse_tiles, m)?)?;
    m.add_function(wrap_pyfunction!(format_tiles, m)?)?;
    m.add_function(wrap_pyfunction!(tile_name, m)?)?;
    m.add_function(wrap_pyfunction!(tile_name_zh, m)?)?;
    m.add_function(wrap_pyfunction!(tile_glyph, m)?)?;
    m.add_class::<PyMeld>()?;
    Ok(())
}
