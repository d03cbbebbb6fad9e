//! The `majiang` exception types and the mapping from [`MjError`].
//!
//! The classes are declared once, in Python (`majiang.errors`), where every one derives
//! from `majiang.MajiangError` and keeps the built-in base a caller would catch anyway;
//! the extension imports them, so an error raised here and one raised by the Python layer
//! are the same class. Malformed tiles, melds or hand flags raise `InvalidHandError`; an
//! unknown rule set, option or option value `RuleError`; an action that is not legal now
//! (also one a policy chose) `IllegalActionError`; tiles that do not win
//! `NotWinningError`; any other argument out of range (a seat, seed, thread count, budget,
//! hand count, bot name) `InvalidArgumentError` (a `ValueError`), and an argument of the
//! wrong type `InvalidTypeError` (a `TypeError`), each naming the argument.

use crate::error::MjError;
use pyo3::prelude::*;

pyo3::import_exception!(majiang.errors, MajiangError);
pyo3::import_exception!(majiang.errors, InvalidHandError);
pyo3::import_exception!(majiang.errors, NotWinningError);
pyo3::import_exception!(majiang.errors, IllegalActionError);
pyo3::import_exception!(majiang.errors, RuleError);
pyo3::import_exception!(majiang.errors, InvalidArgumentError);
pyo3::import_exception!(majiang.errors, InvalidTypeError);
pyo3::import_exception!(majiang.errors, OutOfMemoryError);
pyo3::import_exception!(majiang.errors, BotError);
pyo3::import_exception!(majiang.errors, IllegalBotActionError);
pyo3::import_exception!(majiang.errors, UsageError);

/// Converts a core error into the matching Python exception.
pub(crate) fn to_py(e: MjError) -> PyErr {
    match e {
        MjError::InvalidHand(m) => InvalidHandError::new_err(m),
        MjError::NotWinning(m) => NotWinningError::new_err(m),
        MjError::IllegalAction(m) => IllegalActionError::new_err(m),
        MjError::InvalidRule(m) => RuleError::new_err(m),
        MjError::InvalidArgument(m) => InvalidArgumentError::new_err(m),
    }
}

/// An argument of the wrong type (`majiang.InvalidTypeError`, a `TypeError`).
pub(crate) fn type_error(msg: impl Into<String>) -> PyErr {
    InvalidTypeError::new_err(msg.into())
}

impl From<MjError> for PyErr {
    fn from(e: MjError) -> PyErr {
        to_py(e)
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("MajiangError", py.get_type::<MajiangError>())?;
    m.add("InvalidHandError", py.get_type::<InvalidHandError>())?;
    m.add("NotWinningError", py.get_type::<NotWinningError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("RuleError", py.get_type::<RuleError>())?;
    m.add(
        "InvalidArgumentError",
        py.get_type::<InvalidArgumentError>(),
    )?;
    m.add("InvalidTypeError", py.get_type::<InvalidTypeError>())?;
    m.add("OutOfMemoryError", py.get_type::<OutOfMemoryError>())?;
    m.add("UsageError", py.get_type::<UsageError>())?;
    Ok(())
}
