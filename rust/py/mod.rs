//! PyO3 bindings: the `majiang._core` extension module. Only type conversion, error
//! mapping and numpy views live here; every rule is in the pure Rust core.

use pyo3::prelude::*;

mod action;
mod bot;
mod bound;
pub mod convert;
mod danger;
mod env;
mod errors;
mod events;
mod fan;
mod huainan;
mod matchplay;
mod observation;
mod oracle;
mod quick;
mod round;
mod rules;
mod runs;
mod sim;
mod strong;
mod tiles;
mod view;

/// The extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    tiles::register(m)?;
    rules::register(m)?;
    oracle::register(m)?;
    fan::register(m)?;
    matchplay::register(m)?;
    events::register(m)?;
    huainan::register(m)?;
    sim::register(m)?;
    strong::register(m)?;
    danger::register(m)?;
    env::register(m)?;
    Ok(())
}
