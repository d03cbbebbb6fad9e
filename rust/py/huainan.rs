//! Python bindings for the huainan part of the core.

use pyo3::prelude::*;

pub(super) fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
