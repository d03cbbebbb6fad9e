//! `Action`: one decision, shared as one Python object per action.

use super::convert::{self, Int, Text};
use crate::error::MjError;
use crate::round::Action;
use crate::tile;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyTuple};

/// One decision: `Action("discard", "5m")`, `Action("ready", 4)`, `Action("win")`,
/// `Action("chow", "3m")` (named by the chow's lowest tile), `Action("pung", "5z")`,
/// `Action("kong", 31)`, `Action("concealed_kong", 9)`, `Action("added_kong", 9)`,
/// `Action("pass")`. Bots return one of `observation.legal_actions`.
#[pyclass(name = "Action", module = "majiang", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyAction {
    pub inner: Action,
}

/// The 16 possible `pending` tuples, built once.
pub(super) static PENDING: PyOnceLock<Vec<Py<PyTuple>>> = PyOnceLock::new();

static ACTIONS: PyOnceLock<Vec<Option<Py<PyAction>>>> = PyOnceLock::new();

/// The shared Python object of an action (built once per action).
pub(super) fn action_obj(py: Python<'_>, a: Action) -> PyResult<Py<PyAction>> {
    let table = ACTIONS.get_or_init(py, || {
        (0..9 * 64u16)
            .map(|code| {
                Action::from_code(code).and_then(|a| Py::new(py, PyAction { inner: a }).ok())
            })
            .collect()
    });
    match table.get(a.code() as usize).and_then(|o| o.as_ref()) {
        Some(obj) => Ok(obj.clone_ref(py)),
        None => Py::new(py, PyAction { inner: a }),
    }
}

pub(super) fn action_list<'py>(
    py: Python<'py>,
    actions: &[Action],
) -> PyResult<Bound<'py, PyList>> {
    let mut objs = Vec::with_capacity(actions.len());
    for &a in actions {
        objs.push(action_obj(py, a)?);
    }
    PyList::new(py, objs)
}

#[pymethods]
impl PyAction {
    #[new]
    #[pyo3(signature = (kind, tile = None))]
    fn new(kind: Text, tile: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let t = match tile {
            Some(obj) if !obj.is_none() => Some(convert::tile_code(obj)?),
            _ => None,
        };
        Ok(PyAction {
            inner: Action::from_parts(&kind, t)?,
        })
    }

    /// `discard`, `ready`, `win`, `concealed_kong`, `added_kong`, `chow`, `pung`, `kong`
    /// or `pass`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind()
    }

    /// The tile code the action names (a chow's lowest tile), or None.
    #[getter]
    fn tile(&self) -> Option<u32> {
        self.inner.tile().map(u32::from)
    }

    /// A unique small integer for the action (`kind * 64 + tile`).
    #[getter]
    fn code(&self) -> u16 {
        self.inner.code()
    }

    /// The action from its `code`.
    #[staticmethod]
    fn from_code(py: Python<'_>, code: Int<i128>) -> PyResult<Py<PyAction>> {
        let code = code.0;
        match u16::try_from(code).ok().and_then(Action::from_code) {
            Some(a) => action_obj(py, a),
            None => Err(MjError::action(format!("code {code} is not an action code")).into()),
        }
    }

    fn __repr__(&self) -> String {
        match self.inner.tile() {
            Some(t) => format!("Action({:?}, {:?})", self.inner.kind(), tile::name(t)),
            None => format!("Action({:?})", self.inner.kind()),
        }
    }

    fn __str__(&self) -> String {
        self.inner.describe()
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, Option<u32>))> {
        let me = slf.get();
        Ok((
            slf.get_type().into_any(),
            (me.inner.kind().to_string(), me.inner.tile().map(u32::from)),
        ))
    }
}
