//! `RuleSet`: a preset plus named options, for Python.

use crate::error::MjError;
use crate::rules::{OptValue, Rules};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

/// A rule configuration: `RuleSet("gb")`, `RuleSet("classic", min_fan=6)`.
/// `options()` lists every option with its value; unknown names raise `RuleError`.
#[pyclass(name = "RuleSet", module = "majiang", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyRuleSet {
    pub inner: Rules,
}

fn to_opt(key: &str, v: &Bound<'_, PyAny>) -> PyResult<OptValue> {
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(OptValue::Bool(b.is_true()));
    }
    if v.is_instance_of::<PyInt>() {
        return Ok(OptValue::Int(v.extract::<i64>()?));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(OptValue::Str(s.to_cow()?.into_owned()));
    }
    Err(MjError::rule(format!("option {key} must be a bool, int or str")).into())
}

fn from_opt(py: Python<'_>, v: &OptValue) -> PyResult<Py<PyAny>> {
    Ok(match v {
        OptValue::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        OptValue::Int(i) => i.into_pyobject(py)?.into_any().unbind(),
        OptValue::Str(s) => PyString::new(py, s).into_any().unbind(),
    })
}

impl PyRuleSet {
    fn with(&self, options: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
        let mut rules = self.inner.clone();
        if let Some(opts) = options {
            for (k, v) in opts.iter() {
                let key: String = k.extract()?;
                let val = to_opt(&key, &v)?;
                rules.set(&key, &val)?;
            }
        }
        Ok(rules)
    }
}

#[pymethods]
impl PyRuleSet {
    #[new]
    #[pyo3(signature = (name = "gb", **options))]
    fn new(name: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let base = PyRuleSet {
            inner: Rules::named(name)?,
        };
        Ok(PyRuleSet {
            inner: base.with(options)?,
        })
    }

    /// The preset this configuration starts from: `"gb"`, `"classic"` or `"huainan"`.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.kind.as_str()
    }

    /// Every option and its value.
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.inner.options() {
            d.set_item(k, from_opt(py, &v)?)?;
        }
        Ok(d)
    }

    /// A copy with some options changed.
    #[pyo3(signature = (**options))]
    fn replace(&self, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Ok(PyRuleSet {
            inner: self.with(options)?,
        })
    }

    fn __repr__(&self) -> String {
        let preset = Rules::preset(self.inner.kind);
        let base = preset.options();
        let changed: Vec<String> = self
            .inner
            .options()
            .into_iter()
            .zip(base)
            .filter(|(a, b)| a.1 != b.1)
            .map(|((k, v), _)| match v {
                OptValue::Str(s) => format!("{k}={s:?}"),
                OptValue::Bool(b) => format!("{k}={}", if b { "True" } else { "False" }),
                other => format!("{k}={other}"),
            })
            .collect();
        if changed.is_empty() {
            format!("RuleSet({:?})", self.inner.kind.as_str())
        } else {
            format!(
                "RuleSet({:?}, {})",
                self.inner.kind.as_str(),
                changed.join(", ")
            )
        }
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRuleSet>()?;
    Ok(())
}
