//! Short paths for the arguments and results of the most frequent oracle calls: a
//! concealed hand given as a list or tuple of int codes or as MPSZ text, and a list of
//! tile codes built from a bit mask. Each reader returns `None` for anything unusual, and
//! the caller then goes through [`super::convert`], which reads every form and names
//! every problem.

use crate::tile::Counts;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyInt, PyList, PyString, PyTuple};

/// The most tiles a concealed hand can hold.
const MAX_TILES: usize = 18;

/// Python ints for the 34 kinds, made once.
struct KindInts {
    ints: [Py<PyInt>; 34],
    /// Where the ints lie when they sit at equal power-of-two steps in memory, as
    /// CPython's shared small ints do: `(address of 0, log2 of the step)`.
    layout: Option<(usize, u32)>,
}

static KIND_INTS: PyOnceLock<KindInts> = PyOnceLock::new();

fn kind_ints(py: Python<'_>) -> &KindInts {
    KIND_INTS.get_or_init(py, || {
        let ints: [Py<PyInt>; 34] = std::array::from_fn(|t| PyInt::new(py, t).unbind());
        let base = ints[0].as_ptr() as usize;
        let step = (ints[1].as_ptr() as usize).wrapping_sub(base);
        let even = step.is_power_of_two()
            && ints
                .iter()
                .enumerate()
                .all(|(t, i)| i.as_ptr() as usize == base.wrapping_add(t * step));
        KindInts {
            ints,
            layout: even.then(|| (base, step.trailing_zeros())),
        }
    })
}

impl KindInts {
    /// The code of an object that is one of [`KindInts::ints`], found from its address
    /// alone. Every one of the 34 was checked to sit at `base + t * step`, so an address
    /// of that form is that very object, an int of value `t`.
    #[inline(always)]
    fn code_at(&self, item: *mut ffi::PyObject) -> Option<usize> {
        let (base, shift) = self.layout?;
        let offset = (item as usize).wrapping_sub(base);
        let t = offset >> shift;
        (t < 34 && offset & ((1 << shift) - 1) == 0).then_some(t)
    }
}

/// Adds one tile given as a plain int code 0-33; false for anything else or a fifth copy.
#[inline(always)]
fn add_code(kinds: &KindInts, c: &mut Counts, py: Python<'_>, item: *mut ffi::PyObject) -> bool {
    let t = match kinds.code_at(item) {
        Some(t) => t,
        None => {
            // SAFETY: `item` is a borrowed reference from a live list or tuple that no
            // Python code runs to change while it is read.
            let item = unsafe { Bound::from_borrowed_ptr(py, item) };
            if !item.is_exact_instance_of::<PyInt>() {
                return false;
            }
            match item.extract::<i64>() {
                Ok(t @ 0..=33) => t as usize,
                _ => return false,
            }
        }
    };
    if c[t] >= 4 {
        return false;
    }
    c[t] += 1;
    true
}

/// The counts and the number of tiles of a concealed hand given as a list or tuple of
/// plain int codes 0-33 or as MPSZ text without flowers, at most four copies of a kind
/// and at most 18 tiles; `None` for anything else.
pub fn counts(obj: &Bound<'_, PyAny>) -> Option<(Counts, usize)> {
    let py = obj.py();
    let mut c = [0u8; 34];
    let n = if let Ok(l) = obj.cast::<PyList>() {
        let kinds = kind_ints(py);
        let n = l.len();
        // SAFETY: indices below the list's length, read while the list is borrowed and no
        // Python code runs (no item is released or replaced).
        (n <= MAX_TILES
            && (0..n).all(|i| {
                add_code(kinds, &mut c, py, unsafe {
                    ffi::PyList_GET_ITEM(l.as_ptr(), i as _)
                })
            }))
        .then_some(n)
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        let kinds = kind_ints(py);
        let n = t.len();
        // SAFETY: as for the list; tuples are immutable.
        (n <= MAX_TILES
            && (0..n).all(|i| {
                add_code(kinds, &mut c, py, unsafe {
                    ffi::PyTuple_GET_ITEM(t.as_ptr(), i as _)
                })
            }))
        .then_some(n)
    } else if let Ok(s) = obj.cast::<PyString>() {
        s.to_str().ok().and_then(|text| add_text(&mut c, text))
    } else {
        None
    }?;
    Some((c, n))
}

/// Adds the tiles of MPSZ text (no flowers) and returns how many; `None` on anything the
/// full parser should see.
fn add_text(c: &mut Counts, text: &str) -> Option<usize> {
    let mut total = 0usize;
    let mut pending = [0u8; 18];
    let mut n = 0usize;
    for b in text.bytes() {
        match b {
            b'1'..=b'9' => {
                if n == pending.len() {
                    return None;
                }
                pending[n] = b - b'1';
                n += 1;
            }
            b'm' | b'p' | b's' | b'z' => {
                if n == 0 {
                    return None;
                }
                let base = match b {
                    b'm' => 0,
                    b'p' => 9,
                    b's' => 18,
                    _ => 27,
                };
                for &r in &pending[..n] {
                    if base == 27 && r > 6 {
                        return None;
                    }
                    let t = (base + r) as usize;
                    if c[t] >= 4 {
                        return None;
                    }
                    c[t] += 1;
                }
                total += n;
                n = 0;
            }
            _ => return None,
        }
    }
    (n == 0).then_some(total)
}

/// The kinds in a bit mask (bit `t` for kind `t`) as a Python list of tile codes, in
/// order, built directly from the bits with the shared kind ints.
pub fn mask_list<'py>(py: Python<'py>, mask: u64) -> PyResult<Bound<'py, PyList>> {
    let ints = &kind_ints(py).ints;
    let mut bits = mask & ((1u64 << 34) - 1);
    let n = bits.count_ones() as usize;
    // SAFETY: `PyList_New(n)` returns a new list with `n` empty slots (or null with an
    // exception set, handled below); each slot is filled exactly once with a new strong
    // reference, which the list then owns, so the list is complete when it is wrapped.
    unsafe {
        let list = ffi::PyList_New(n as ffi::Py_ssize_t);
        if list.is_null() {
            return Err(PyErr::fetch(py));
        }
        for i in 0..n {
            let item = ints[bits.trailing_zeros() as usize].as_ptr();
            bits &= bits - 1;
            ffi::Py_INCREF(item);
            ffi::PyList_SET_ITEM(list, i as ffi::Py_ssize_t, item);
        }
        Ok(Bound::from_owned_ptr(py, list).cast_into_unchecked())
    }
}
