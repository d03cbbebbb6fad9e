//! `RuleSet`: a rule set (or preset) plus its own named options, and the registry's
//! tables, for Python.

use crate::rules::{registry, OptSpec, OptValue, RuleSetId, Rules, PRESETS, RULE_SETS};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString, PyTuple, PyType};
use std::hash::{Hash, Hasher};

/// A rule configuration: `RuleSet("gb")`, `RuleSet("classic", min_fan=6)`,
/// `RuleSet("botzone")` (a preset: named options over a rule set).
///
/// Each rule set has its own options (`options()` lists them with their values). An
/// option of another rule set, an unknown name or a value outside the option's domain
/// raises `RuleError` naming the option. Rule sets are immutable, compare and hash by
/// rule set and options (a preset equals the same options written out), and pickle and
/// copy.
#[pyclass(name = "RuleSet", module = "majiang", frozen, eq, hash)]
#[derive(Clone, PartialEq)]
pub struct PyRuleSet {
    pub inner: Rules,
}

impl Hash for PyRuleSet {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.inner.kind.hash(state);
        self.inner.options().hash(state);
    }
}

/// A short description of a Python value for an error message: its repr (cut at 60
/// characters) and its type.
fn describe(v: &Bound<'_, PyAny>) -> String {
    let ty = v
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    let repr = v
        .repr()
        .map(|r| r.to_string_lossy().into_owned())
        .unwrap_or_else(|_| format!("a {ty}"));
    let repr = if repr.chars().count() > 60 {
        let cut: String = repr.chars().take(57).collect();
        format!("{cut}...")
    } else {
        repr
    };
    format!("{repr} ({ty})")
}

/// A Python `str` as Rust text; text that is not valid Unicode (lone surrogates) is kept
/// with replacement characters, so it reaches the checks and fails there with a message.
fn text(s: &Bound<'_, PyString>) -> String {
    s.to_string_lossy().into_owned()
}

/// Converts a Python value for option `spec` without coercion: a bool is a bool (never
/// an int), an int is an `int` or an object with `__index__` (NumPy integers) but not a
/// bool, a name is a `str`. Anything else, and an int too large for any option, raises
/// `RuleError` naming the option and what it takes.
fn to_opt(spec: &OptSpec, v: &Bound<'_, PyAny>) -> PyResult<OptValue> {
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(OptValue::Bool(b.is_true()));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(OptValue::Str(text(s)));
    }
    let index = if v.is_instance_of::<PyInt>() {
        Some(v.clone())
    } else if v.get_type().hasattr("__index__").unwrap_or(false) {
        v.call_method0("__index__").ok()
    } else {
        None
    };
    if let Some(i) = index {
        if let Ok(i) = i.extract::<i64>() {
            return Ok(OptValue::Int(i));
        }
    }
    Err(spec.reject(&describe(v)).into())
}

fn from_opt(py: Python<'_>, v: &OptValue) -> PyResult<Py<PyAny>> {
    Ok(match v {
        OptValue::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        OptValue::Int(i) => i.into_pyobject(py)?.into_any().unbind(),
        OptValue::Str(s) => PyString::new(py, s).into_any().unbind(),
    })
}

impl PyRuleSet {
    /// The name it was built from: the preset's, else the rule set's.
    fn base_name(&self) -> &'static str {
        self.inner
            .preset
            .map_or(self.inner.kind.as_str(), |p| p.name)
    }

    /// This rule set with `options` applied in order; the first refused option raises.
    fn with(&self, options: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
        let mut rules = self.inner.clone();
        if let Some(opts) = options {
            for (k, v) in opts.iter() {
                let key = match k.cast::<PyString>() {
                    Ok(s) => text(s),
                    Err(_) => return Err(super::errors::type_error("option names must be str")),
                };
                let spec = rules.spec(&key)?;
                let val = to_opt(spec, &v)?;
                rules.set(&key, &val)?;
            }
        }
        Ok(rules)
    }
}

#[pymethods]
impl PyRuleSet {
    #[new]
    #[pyo3(signature = (name = None, **options))]
    fn new(name: Option<&Bound<'_, PyAny>>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let name = match name {
            None => "gb".to_string(),
            Some(n) => match n.cast::<PyString>() {
                Ok(s) => text(s),
                Err(_) => {
                    return Err(super::errors::type_error(format!(
                        "the rule set name must be a str ({}), got {}",
                        registry::names().join(", "),
                        describe(n)
                    )))
                }
            },
        };
        let base = PyRuleSet {
            inner: Rules::named(&name)?,
        };
        Ok(PyRuleSet {
            inner: base.with(options)?,
        })
    }

    /// The rule set: `"gb"`, `"classic"`, `"huainan"` (a preset's rule set for a preset).
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.kind.as_str()
    }

    /// The preset this configuration was built from (`"botzone"`), or None.
    #[getter]
    fn preset(&self) -> Option<&'static str> {
        self.inner.preset.map(|p| p.name)
    }

    /// A label for people: the preset's title, else the rule set's.
    #[getter]
    fn title(&self) -> &'static str {
        self.inner.preset.map_or(self.inner.kind.title, |p| p.title)
    }

    /// What a win's value counts in this rule set: `"fan"` or `"points"`.
    #[getter]
    fn unit(&self) -> &'static str {
        self.inner.kind.unit.as_str()
    }

    /// The hand forms of this rule set, as `shanten_forms` names them.
    #[getter]
    fn forms(&self) -> Vec<&'static str> {
        crate::shanten::Form::ALL
            .iter()
            .filter(|f| self.inner.forms().contains(**f))
            .map(|f| f.as_str())
            .collect()
    }

    /// True when the rule set plays wild tiles named by an indicator (宝).
    #[getter]
    fn has_wilds(&self) -> bool {
        self.inner.kind.has_wilds()
    }

    /// Every option of this rule set and its value. `RuleSet(rs.name, **rs.options())`
    /// equals `rs`.
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.inner.options() {
            d.set_item(k, from_opt(py, &v)?)?;
        }
        Ok(d)
    }

    /// The option table of rule set (or preset) `name`: for each of its options, a dict
    /// with the `default`, what the option takes (`type`: "bool", "int" or "str", and
    /// `min`/`max` or `choices`), its `group`, the rule sets that have it (`rule_sets`)
    /// and its `doc`.
    #[classmethod]
    fn option_table<'py>(
        cls: &Bound<'py, PyType>,
        name: super::convert::Text,
    ) -> PyResult<Bound<'py, PyDict>> {
        let py = cls.py();
        let base = Rules::named(&name)?;
        let defaults = base.options();
        let table = PyDict::new(py);
        for (spec, (_, default)) in Rules::specs(base.kind).zip(defaults) {
            let row = PyDict::new(py);
            row.set_item("default", from_opt(py, &default)?)?;
            match spec.domain {
                crate::rules::Domain::Bool => row.set_item("type", "bool")?,
                crate::rules::Domain::Int { min, max } => {
                    row.set_item("type", "int")?;
                    row.set_item("min", min)?;
                    row.set_item("max", max)?;
                }
                crate::rules::Domain::Choice(names) => {
                    row.set_item("type", "str")?;
                    row.set_item("choices", PyTuple::new(py, names)?)?;
                }
            }
            row.set_item("group", spec.group.as_str())?;
            let owners: Vec<&str> = RULE_SETS
                .iter()
                .filter(|d| d.groups.contains(spec.group))
                .map(|d| d.name)
                .collect();
            row.set_item("rule_sets", PyTuple::new(py, owners)?)?;
            let doc: Vec<&str> = spec.doc.lines().map(str::trim).collect();
            row.set_item("doc", doc.join(" ").trim())?;
            table.set_item(spec.name, row)?;
        }
        Ok(table)
    }

    /// A copy with some options changed (the same checks as the constructor).
    #[pyo3(signature = (**options))]
    fn replace(&self, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Ok(PyRuleSet {
            inner: self.with(options)?,
        })
    }

    /// Pickles as `RuleSet(name, **options)` (only this rule set's own options; `name`
    /// is the preset's when it was built from one).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let rebuild = py.import("copyreg")?.getattr("__newobj_ex__")?;
        let args = PyTuple::new(py, [slf.get().base_name()])?;
        let call = (slf.get_type(), args, slf.get().options(py)?);
        PyTuple::new(py, [rebuild, call.into_pyobject(py)?.into_any()])
    }

    /// Rule sets are immutable: a copy is an equal rule set.
    fn __copy__(&self) -> Self {
        self.clone()
    }

    /// Rule sets are immutable: a deep copy is an equal rule set.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    fn __repr__(&self) -> String {
        let base = Rules::named(self.base_name())
            .unwrap_or_else(|_| Rules::preset(self.inner.kind))
            .options();
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
            format!("RuleSet({:?})", self.base_name())
        } else {
            format!("RuleSet({:?}, {})", self.base_name(), changed.join(", "))
        }
    }
}

/// The registered rule sets, in the documentation's order: for each a dict with `name`,
/// `aliases`, `title`, `summary`, `docs` (its page in the repository), `unit` ("fan" or
/// "points"), `engine`, `groups` (its option groups), `forms` and `has_wilds`.
#[pyfunction]
fn rule_sets(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    RuleSetId::all()
        .map(|id| {
            let d = PyDict::new(py);
            d.set_item("name", id.name)?;
            d.set_item("aliases", PyTuple::new(py, id.aliases)?)?;
            d.set_item("title", id.title)?;
            d.set_item("summary", id.summary)?;
            d.set_item("docs", id.docs)?;
            d.set_item("unit", id.unit.as_str())?;
            d.set_item("engine", format!("{:?}", id.engine).to_lowercase())?;
            let groups: Vec<&str> = id.groups.iter().map(|g| g.as_str()).collect();
            d.set_item("groups", PyTuple::new(py, groups)?)?;
            let forms: Vec<&str> = crate::shanten::Form::ALL
                .iter()
                .filter(|f| id.forms.contains(**f))
                .map(|f| f.as_str())
                .collect();
            d.set_item("forms", PyTuple::new(py, forms)?)?;
            d.set_item("has_wilds", id.has_wilds())?;
            Ok(d)
        })
        .collect()
}

/// The registered presets: for each a dict with `name`, `rule_set`, `title`, `summary`,
/// `docs` and `options` (the options it sets).
#[pyfunction]
fn presets(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    PRESETS
        .iter()
        .map(|p| {
            let d = PyDict::new(py);
            d.set_item("name", p.name)?;
            d.set_item("rule_set", p.rule_set)?;
            d.set_item("title", p.title)?;
            d.set_item("summary", p.summary)?;
            d.set_item("docs", p.docs)?;
            let opts = PyDict::new(py);
            for (k, v) in p.options {
                opts.set_item(k, from_opt(py, &v.to_opt())?)?;
            }
            d.set_item("options", opts)?;
            Ok(d)
        })
        .collect()
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRuleSet>()?;
    m.add_function(wrap_pyfunction!(rule_sets, m)?)?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    Ok(())
}
