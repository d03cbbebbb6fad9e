//! Python bindings for the fan part of the core.

use pyo3::prelude::*;

pub(super) fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
