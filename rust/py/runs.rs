//! Long calls from Python: the work runs with the GIL released while the calling thread
//! looks for Ctrl-C at least every [`TICK`] and raises `KeyboardInterrupt`; and the
//! readers of the counts, seeds and thread numbers such calls take.

use crate::error::MjError;
use crate::sim::{MAX_THREADS, TICK};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// Loads numpy's C API (and the array borrow checker) now, at import. The first use
/// otherwise imports numpy from inside a call, where a pending Ctrl-C makes the import
/// fail and the numpy crate panic instead of raising `KeyboardInterrupt`.
pub(super) fn load_numpy(py: Python<'_>) -> PyResult<()> {
    let probe = PyArray1::<u8>::zeros(py, 0, false);
    let view = probe.try_readonly()?;
    drop(view);
    Ok(())
}

/// Runs `work` on a helper thread, GIL released, while this thread checks for signals
/// every [`TICK`]. On a signal, `stop` is set (the work should poll it and return
/// early), the work is waited for and the signal's exception (`KeyboardInterrupt`) is
/// raised. Small work (`small`) runs directly, with the GIL released and no helper.
pub(super) fn interruptible<R: Send>(
    py: Python<'_>,
    small: bool,
    work: impl FnOnce(&AtomicBool) -> R + Send,
) -> PyResult<R> {
    let stop = AtomicBool::new(false);
    if small {
        return Ok(py.detach(|| work(&stop)));
    }
    let (tx, rx) = mpsc::channel::<()>();
    let stop = &stop;
    std::thread::scope(|scope| {
        let handle = scope.spawn(move || {
            let r = work(stop);
            let _ = tx.send(());
            r
        });
        let mut rx = Some(rx);
        let mut interrupt = None;
        while let Some(r) = rx.take() {
            let (r, msg) = py.detach(move || {
                let m = r.recv_timeout(TICK);
                (r, m)
            });
            if !matches!(msg, Err(mpsc::RecvTimeoutError::Timeout)) {
                break;
            }
            rx = Some(r);
            if interrupt.is_none() {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    interrupt = Some(e);
                }
            }
        }
        let joined = py.detach(|| handle.join());
        let r = joined.map_err(|_| MjError::rule("a worker thread failed".to_string()))?;
        match interrupt {
            Some(e) => Err(e),
            None => Ok(r),
        }
    })
}

/// Reads an integer argument: an `int` or an integer-like object (numpy integers), never
/// a bool, a float or a string; errors name the argument.
pub(super) fn int_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<i128> {
    if obj.is_instance_of::<PyBool>() {
        return Err(super::errors::type_error(format!(
            "{name} must be an int, not bool"
        )));
    }
    if obj.is_instance_of::<PyFloat>() || obj.hasattr("__index__").ok() != Some(true) {
        return Err(super::errors::type_error(format!(
            "{name} must be an int, got {}",
            super::convert::type_name(obj)
        )));
    }
    obj.extract::<i128>()
        .map_err(|_| MjError::argument(format!("{name} is out of range: {obj}")).into())
}

/// Reads an integer argument that must lie in `lo..=hi`.
pub(super) fn ranged_arg(obj: &Bound<'_, PyAny>, name: &str, lo: i128, hi: i128) -> PyResult<i128> {
    let v = int_arg(obj, name)?;
    if !(lo..=hi).contains(&v) {
        return Err(
            MjError::argument(format!("{name} must be {lo} <= {name} <= {hi}, got {v}")).into(),
        );
    }
    Ok(v)
}

/// Reads a seed (or a first index): `0 <= value < 2**64`.
pub(super) fn u64_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    let v = int_arg(obj, name)?;
    u64::try_from(v).map_err(|_| {
        MjError::argument(format!("{name} must be 0 <= {name} < 2**64, got {v}")).into()
    })
}

/// Reads `threads`: `None` (all cores) or `1..=MAX_THREADS`.
pub(super) fn threads_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => Ok(Some(
            ranged_arg(o, "threads", 1, MAX_THREADS as i128)? as usize
        )),
    }
}
