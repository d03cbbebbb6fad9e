//! The `majiang` exception types and the mapping from [`MjError`].
//!
//! Errors by kind: malformed tiles, melds or hand flags raise `InvalidHandError`; an
//! unknown rule set, option or option value `RuleError`; an action that is not legal now
//! (also one a policy chose) `IllegalActionError`; tiles that do not win `NotWinningError`.
//! Any other argument out of range (a seat, seed, thread count, budget, hand count, bot
//! name) raises a plain `ValueError`, and an argument of the wrong type a `TypeError`,
//! each naming the argument. All four majiang exceptions are `ValueError`s.

use crate::error::MjError;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    majiang,
    InvalidHandError,
    PyValueError,
    "Malformed tiles, melds or hand flags."
);
create_exception!(
    majiang,
    NotWinningError,
    PyValueError,
    "The tiles do not form a winning hand."
);
create_exception!(
    majiang,
    IllegalActionError,
    PyValueError,
    "An action that is not legal now."
);
create_exception!(
    majiang,
    RuleError,
    PyValueError,
    "An unknown rule set, option or option value."
);

/// Converts a core error into the matching Python exception.
pub(crate) fn to_py(e: MjError) -> PyErr {
    match e {
        MjError::InvalidHand(m) => InvalidHandError::new_err(m),
        MjError::NotWinning(m) => NotWinningError::new_err(m),
        MjError::IllegalAction(m) => IllegalActionError::new_err(m),
        MjError::InvalidRule(m) => RuleError::new_err(m),
        MjError::InvalidArgument(m) => PyValueError::new_err(m),
    }
}

impl From<MjError> for PyErr {
    fn from(e: MjError) -> PyErr {
        to_py(e)
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("InvalidHandError", py.get_type::<InvalidHandError>())?;
    m.add("NotWinningError", py.get_type::<NotWinningError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("RuleError", py.get_type::<RuleError>())?;
    Ok(())
}
