//! Python bindings for the learning environments: the planes and mask of an
//! `Observation`, the action index both ways, and `VecEnv` (N tables stepped in Rust with
//! the GIL released, writing into numpy arrays it owns).

use super::action::{action_obj, PyAction};
use super::convert::{self, Flag, Int, Text};
use super::observation::PyObservation;
use super::round::PyRound;
use super::runs;
use crate::env::encode::{self, N_ACTIONS, N_COLS, N_PLANES, OBS_LEN};
use crate::env::features::{
    self, Analysis, Candidates, HandAnalysis, MAX_CANDIDATES, MAX_TOKENS, N_FEATURES, N_GB_PLANES,
    N_ORACLE_PLANES,
};
use crate::env::vec::{EnvSpec, Episode, VecEnv};
use crate::error::MjError;
use crate::policy::PolicyKind;
use crate::wall::derive_seed;
use numpy::{
    PyArray1, PyArray2, PyArray3, PyArrayDyn, PyArrayMethods, PyReadonlyArray1,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

fn policy_kind(name: &str) -> PyResult<PolicyKind> {
    PolicyKind::parse(name).map_err(|e| MjError::argument(e.message()).into())
}

/// Reads `opponents`: one built-in policy name for all three, or three names.
fn opponents_arg(obj: &Bound<'_, PyAny>) -> PyResult<[PolicyKind; 3]> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok([policy_kind(&s.to_cow()?)?; 3]);
    }
    let names: Vec<String> = obj.extract().map_err(|_| {
        super::errors::type_error(format!(
            "opponents must be a bot name or three names, got {}",
            convert::type_name(obj)
        ))
    })?;
    if names.len() != 3 {
        return Err(MjError::argument(format!(
            "opponents takes one name or three (counter-clockwise from the learning seat), got {}",
            names.len()
        ))
        .into());
    }
    Ok([
        policy_kind(&names[0])?,
        policy_kind(&names[1])?,
        policy_kind(&names[2])?,
    ])
}

/// The `Observation` argument of the encoders (`InvalidTypeError` for anything else).
fn observation_arg<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> PyResult<&'a Bound<'py, PyObservation>> {
    super::sim::observation_of(obj)
}

/// Reads an `out=` array: a writeable, C-contiguous numpy array of `T` with shape `shape`
/// (`InvalidTypeError` for another type or dtype, `InvalidArgumentError` for another shape,
/// a Fortran-ordered or strided layout, or a read-only array). Nothing is copied: the
/// caller writes into it.
fn out_array<'py, T: numpy::Element, D: numpy::ndarray::Dimension>(
    obj: &Bound<'py, PyAny>,
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, numpy::PyArray<T, D>>> {
    let want = shape
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let arr = obj.cast::<numpy::PyArray<T, D>>().map_err(|_| {
        let what = match obj.cast::<numpy::PyUntypedArray>() {
            Ok(a) => format!("a {}-D array of {}", a.ndim(), a.dtype()),
            Err(_) => convert::type_name(obj),
        };
        super::errors::type_error(format!(
            "out must be a numpy array of {dtype} with shape ({want}), got {what}"
        ))
    })?;
    if arr.shape() != shape {
        return Err(MjError::argument(format!(
            "out must have shape ({want}), got {:?}",
            arr.shape()
        ))
        .into());
    }
    if !arr.is_c_contiguous() {
        return Err(MjError::argument(
            "out must be C-contiguous (row-major, no strides): a Fortran-ordered array or a \
             strided view would be written out of order; pass np.ascontiguousarray(out) or a \
             new array",
        )
        .into());
    }
    Ok(arr.clone())
}

/// The writeable borrow of an `out=` array (`InvalidArgumentError` for a read-only one or
/// one borrowed elsewhere).
fn writeable<'py, T: numpy::Element, D: numpy::ndarray::Dimension>(
    arr: &Bound<'py, numpy::PyArray<T, D>>,
) -> PyResult<numpy::PyReadwriteArray<'py, T, D>> {
    arr.try_readwrite().map_err(|e| {
        MjError::argument(format!("out cannot be written: {e} (a read-only array?)")).into()
    })
}

/// Writes the planes of `observation` (a `(C, 34)` uint8 array, see docs/encoding.md)
/// into `out` when given (a C-contiguous, writeable uint8 array of that shape, reused:
/// nothing is allocated; a Fortran-ordered or strided array is refused) and returns it,
/// or a new array.
#[pyfunction]
#[pyo3(signature = (observation, out = None))]
fn encode_observation<'py>(
    py: Python<'py>,
    observation: &Bound<'py, PyAny>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let observation = observation_arg(observation)?.get();
    let arr = match out.filter(|o| !o.is_none()) {
        Some(a) => out_array::<u8, numpy::Ix2>(a, "uint8", &[N_PLANES, N_COLS])?,
        None => PyArray2::zeros(py, [N_PLANES, N_COLS], false),
    };
    {
        let mut w = writeable(&arr)?;
        let buf = w
            .as_slice_mut()
            .map_err(|_| MjError::argument("out must be C-contiguous"))?;
        encode::encode(&observation.inner, buf)?;
    }
    Ok(arr)
}

/// The legal-action mask of `observation`: a uint8 array of `ENV_N_ACTIONS`, 1 at the
/// index of each legal action. Written into `out` when given (a contiguous, writeable
/// uint8 array of that length).
#[pyfunction]
#[pyo3(signature = (observation, out = None))]
fn legal_mask<'py>(
    py: Python<'py>,
    observation: &Bound<'py, PyAny>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let observation = observation_arg(observation)?.get();
    let arr = match out.filter(|o| !o.is_none()) {
        Some(a) => out_array::<u8, numpy::Ix1>(a, "uint8", &[N_ACTIONS])?,
        None => PyArray1::zeros(py, [N_ACTIONS], false),
    };
    {
        let mut w = writeable(&arr)?;
        let buf = w
            .as_slice_mut()
            .map_err(|_| MjError::argument("out must be C-contiguous"))?;
        encode::legal_mask(observation.inner.legal.as_slice(), buf)?;
    }
    Ok(arr)
}

/// The GB planes of encoding v2 for `observation` (a `(ENV_N_GB_PLANES, 34)` uint8
/// array, see docs/encoding.md): what the oracle says about the seat's hand, from its own
/// view only. Written into `out` when given (a C-contiguous, writeable uint8 array of that
/// shape).
#[pyfunction]
#[pyo3(signature = (observation, out = None))]
fn gb_planes<'py>(
    py: Python<'py>,
    observation: &Bound<'py, PyAny>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let observation = observation_arg(observation)?.get();
    let arr = match out.filter(|o| !o.is_none()) {
        Some(a) => out_array::<u8, numpy::Ix2>(a, "uint8", &[N_GB_PLANES, N_COLS])?,
        None => PyArray2::zeros(py, [N_GB_PLANES, N_COLS], false),
    };
    {
        let obs: &crate::round::Observation = &observation.inner;
        let a = HandAnalysis::new(obs, features::min_fan_of(obs));
        let mut w = writeable(&arr)?;
        let buf = w
            .as_slice_mut()
            .map_err(|_| MjError::argument("out must be C-contiguous"))?;
        features::gb_planes(&a, obs.seat, buf);
    }
    Ok(arr)
}

/// The legal actions of `observation` with the features of the position after each (the
/// model bot's input, see docs/encoding.md): `(index, features)`, an int16 array of the
/// distinct legal action indices and a float32 array of shape `(len(index),
/// ENV_N_FEATURES)`.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn action_features<'py>(
    py: Python<'py>,
    observation: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyArray1<i16>>, Bound<'py, PyArray2<f32>>)> {
    let observation = observation_arg(observation)?.get();
    let obs: &crate::round::Observation = &observation.inner;
    let min_fan = features::min_fan_of(obs);
    let mut c = Box::<Candidates>::default();
    py.detach(|| {
        let a = Analysis::new(obs, min_fan, true);
        features::candidates(obs, &a, min_fan, &mut c);
    });
    let mut idx = [0i16; MAX_CANDIDATES];
    features::candidate_indices(&c, &mut idx);
    let index = PyArray1::from_slice(py, &idx[..c.n]);
    let flat: Vec<f32> = c.features[..c.n].iter().flatten().copied().collect();
    let feats = PyArray1::from_vec(py, flat).reshape([c.n, N_FEATURES])?;
    Ok((index, feats))
}

/// Replays one hand dealt from `wall` (tiles in `Round.wall` order; `seed` throws the
/// dice as `Round` does) and encodes every decision of it: `seats[i]` plays the action
/// of code `codes[i]` (`Action.code`), every one of them checked legal first. Returns
/// `(planes, mask, action, seat, deltas)`: the deciding seat's planes `(n, C, 34)` uint8
/// (C with the GB planes when `features="v2"`) and mask `(n, ENV_N_ACTIONS)` uint8 before
/// each decision, the action indices `(n,)` int16, the seats `(n,)` int8, and the hand's
/// score changes (four ints; the hand must end with the last decision). An illegal
/// action raises `IllegalActionError` naming its step; a hand that does not end where the
/// decisions do, `InvalidArgumentError`.
#[pyfunction]
#[pyo3(
    signature = (rules, wall, seats, codes, *, seed = Int(0), dealer = Int(0), prevalent_wind = Int(0), features = None),
    text_signature = "(rules, wall, seats, codes, *, seed=0, dealer=0, prevalent_wind=0, features=None)"
)]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn replay_decisions<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyAny>,
    wall: Vec<u8>,
    seats: Vec<u8>,
    codes: Vec<u16>,
    seed: Int<i128>,
    dealer: Int<i128>,
    prevalent_wind: Int<i128>,
    features: Option<Text>,
) -> PyResult<(
    Bound<'py, PyArray3<u8>>,
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray1<i16>>,
    Bound<'py, PyArray1<i8>>,
    Vec<i32>,
)> {
    let rules = convert::rules(rules)?;
    let gb = match features.as_deref().unwrap_or("v1") {
        "v1" => false,
        "v2" => true,
        f => {
            return Err(
                MjError::argument(format!("features must be \"v1\" or \"v2\", got {f:?}")).into(),
            )
        }
    };
    if seats.len() != codes.len() {
        return Err(MjError::argument(format!(
            "seats and codes differ in length ({} and {})",
            seats.len(),
            codes.len()
        ))
        .into());
    }
    let small = |v: i128, what: &str| {
        u8::try_from(v)
            .ok()
            .filter(|&x| x < 4)
            .ok_or_else(|| MjError::argument(format!("{what} must be 0-3, got {v}")))
    };
    let dealer = small(dealer.0, "dealer")?;
    let wind = small(prevalent_wind.0, "prevalent_wind")?;
    let seed = convert::seed("seed", seed.0)?;
    let throw = match rules.table.break_throw {
        crate::round::BreakThrowOpt::Single => crate::wall::BreakThrow::Single,
        crate::round::BreakThrowOpt::Double => crate::wall::BreakThrow::Double,
    };
    let w = crate::wall::Wall::from_order(&wall, seed, throw)?;
    let mut round = crate::round::Round::with_wall(&rules, w, dealer, wind)?;
    let n = codes.len();
    let row = OBS_LEN + if gb { N_GB_PLANES * N_COLS } else { 0 };
    let mut planes = vec![0u8; n * row];
    let mut masks = vec![0u8; n * N_ACTIONS];
    let mut actions = vec![0i16; n];
    let min_fan = rules.fan.min_fan;
    let mut encoders: [encode::Encoder; 4] = Default::default();
    py.detach(|| -> crate::MjResult<()> {
        for i in 0..n {
            let s = seats[i];
            let a = crate::round::Action::from_code(codes[i]).ok_or_else(|| {
                MjError::argument(format!("step {i}: {} is not an action code", codes[i]))
            })?;
            if s > 3 || round.pending() >> s & 1 == 0 {
                return Err(MjError::action(format!(
                    "step {i}: seat {s} has no decision to make now"
                )));
            }
            if !round.legal_actions(s).contains(&a) {
                return Err(MjError::action(format!(
                    "step {i}: {} is not legal for seat {s} now",
                    a.describe()
                )));
            }
            let obs = round.observe(s);
            let out = &mut planes[i * row..(i + 1) * row];
            encoders[s as usize].update(&obs, &mut out[..OBS_LEN])?;
            if gb {
                let view = crate::policy::RoundView {
                    round: &round,
                    seat: s,
                };
                let an = HandAnalysis::new(&view, min_fan);
                features::gb_planes(&an, s, &mut out[OBS_LEN..]);
            }
            encode::legal_mask(
                obs.legal.as_slice(),
                &mut masks[i * N_ACTIONS..(i + 1) * N_ACTIONS],
            )?;
            actions[i] = encode::action_index(a).map_or(-1, |x| x as i16);
            round.apply(s, a)?;
        }
        Ok(())
    })?;
    let Some(result) = round.result() else {
        return Err(MjError::argument(format!(
            "the hand is not over after the {n} decisions given"
        ))
        .into());
    };
    let deltas = result.deltas.to_vec();
    let c = row / N_COLS;
    let planes = PyArray1::from_vec(py, planes).reshape([n, c, N_COLS])?;
    let masks = PyArray1::from_vec(py, masks).reshape([n, N_ACTIONS])?;
    Ok((
        planes,
        masks,
        PyArray1::from_vec(py, actions),
        PyArray1::from_vec(py, seats.iter().map(|&s| s as i8).collect()),
        deltas,
    ))
}

/// The index of `action` in the action space (0 to `ENV_N_ACTIONS - 1`).
#[pyfunction]
fn action_to_index(action: &Bound<'_, PyAny>) -> PyResult<usize> {
    let action = action.cast::<PyAction>().map_err(|_| {
        super::errors::type_error(format!(
            "action must be a majiang.Action, got {}",
            convert::type_name(action)
        ))
    })?;
    let a = action.get().inner;
    encode::action_index(a).ok_or_else(|| MjError::action(format!("{a:?} has no index")).into())
}

/// The `Action` at index `index` of the action space.
#[pyfunction]
fn index_to_action(py: Python<'_>, index: Int<i128>) -> PyResult<Py<PyAction>> {
    let index = index.0;
    let a = usize::try_from(index)
        .ok()
        .and_then(encode::index_action)
        .ok_or_else(|| {
            MjError::argument(format!(
                "action index {index} is outside the action space (0-{})",
                N_ACTIONS - 1
            ))
        })?;
    action_obj(py, a)
}

/// Most tables one `VecEnv` holds (each table keeps a round, four policies and its rows of
/// the output arrays).
pub const MAX_ENVS: u64 = 1 << 16;

/// Reads the action indices of a step: an integer numpy array (any integer dtype) or a
/// sequence of ints; floats, bools and complex numbers are refused (`InvalidTypeError`),
/// never rounded.
fn actions_arg<'py>(actions: &Bound<'py, PyAny>, n: usize) -> PyResult<Vec<i64>> {
    let count = |got: String| -> PyErr {
        MjError::argument(format!(
            "actions takes {n} action indices (one per table), got {got}"
        ))
        .into()
    };
    if let Ok(a) = actions.cast::<numpy::PyUntypedArray>() {
        let kind = numpy::PyArrayDescrMethods::kind(&a.dtype());
        if kind != b'i' && kind != b'u' {
            return Err(super::errors::type_error(format!(
                "actions must be integer action indices, got an array of {}",
                a.dtype()
            )));
        }
        if a.ndim() != 1 {
            return Err(count(format!("an array of shape {:?}", a.shape())));
        }
        if a.len() != n {
            return Err(count(a.len().to_string()));
        }
        let a = match actions.extract::<PyReadonlyArray1<'py, i64>>() {
            Ok(a) => a,
            Err(_) => a
                .call_method1("astype", ("int64",))?
                .extract::<PyReadonlyArray1<'py, i64>>()?,
        };
        return Ok(a.as_array().iter().copied().collect());
    }
    if actions.is_instance_of::<PyString>() {
        return Err(super::errors::type_error(
            "actions must be a sequence of action indices, not a str",
        ));
    }
    let iter = actions.try_iter().map_err(|_| {
        super::errors::type_error(format!(
            "actions must be a sequence of {n} action indices, got {}",
            convert::type_name(actions)
        ))
    })?;
    let mut out = Vec::with_capacity(n);
    for (i, item) in iter.enumerate() {
        let item = item?;
        if i == n {
            return Err(count("more".to_string()));
        }
        let v = convert::strict_int(&item).map_err(|e| {
            let msg = format!("actions[{i}]: {}", e.value(actions.py()));
            if e.is_instance_of::<pyo3::exceptions::PyTypeError>(actions.py()) {
                super::errors::type_error(msg)
            } else {
                super::errors::InvalidArgumentError::new_err(msg)
            }
        })?;
        // An index beyond i64 is outside the action space like any other.
        out.push(i64::try_from(v).unwrap_or(i64::MAX));
    }
    if out.len() != n {
        return Err(count(out.len().to_string()));
    }
    Ok(out)
}

/// N tables, each with one learning seat against three built-in policies (or, with
/// `seat="all"`, four learning seats in self-play), stepped together in Rust across
/// `threads` threads (the calling thread and `threads - 1` workers) with the GIL released;
/// `threads=None` takes `RAYON_NUM_THREADS` when set, else every core.
///
/// `obs` `(N, C, 34)` uint8, `mask` `(N, A)` uint8, `seat` `(N,)` int8 (whose view each
/// row is), `reward` `(N,)` float32 (self-play: `(N, 4)`, one column per seat) and `done`
/// `(N,)` bool are arrays the env owns and overwrites in place on every `reset` and
/// `step` (copy them to keep them). With `autoreset` a table whose episode ends starts
/// the next one in the same step: its `reward` and `done` belong to the episode that
/// ended, its `obs`, `mask` and `seat` to the new one. Results depend on the seed alone,
/// never on the thread count.
#[pyclass(name = "VecEnv", module = "majiang")]
pub struct PyVecEnv {
    inner: VecEnv,
    rules_name: String,
    obs: Py<PyArray3<u8>>,
    mask: Py<PyArray2<u8>>,
    seat: Py<PyArray1<i8>>,
    /// `(N,)`, or `(N, 4)` in self-play.
    reward: Py<PyArrayDyn<f32>>,
    done: Py<PyArray1<bool>>,
    seed: u64,
    /// `sample_legal` calls without a seed since the last reset.
    draws: u64,
    /// `(N, ENV_N_ORACLE_PLANES, 34)` uint8 with `oracle=True`.
    oracle: Option<Py<PyArray3<u8>>>,
    /// `(N, ENV_MAX_TOKENS, 4)` uint8 with `history=True`.
    tokens: Option<Py<PyArray3<u8>>>,
    /// `(N, ENV_MAX_CANDIDATES)` int16 with `candidates=True`.
    cand_index: Option<Py<PyArray2<i16>>>,
    /// `(N, ENV_MAX_CANDIDATES, ENV_N_FEATURES)` float32 with `candidates=True`.
    cand_features: Option<Py<PyArray3<f32>>>,
}

/// Reads `seat`: a seat number 0-3, or `"all"` for self-play.
fn seat_arg(obj: &Bound<'_, PyAny>) -> PyResult<(u8, bool)> {
    if let Ok(s) = obj.cast::<PyString>() {
        let s = s.to_cow()?;
        if s == "all" {
            return Ok((0, true));
        }
        return Err(MjError::argument(format!("seat must be 0-3 or \"all\", got {s:?}")).into());
    }
    let seat = convert::strict_int(obj).map_err(|_| {
        super::errors::type_error(format!(
            "seat must be 0-3 or \"all\", got {}",
            convert::type_name(obj)
        ))
    })?;
    u8::try_from(seat)
        .ok()
        .filter(|&s| s < 4)
        .map(|s| (s, false))
        .ok_or_else(|| MjError::argument(format!("seat must be 0-3 or \"all\", got {seat}")).into())
}

impl PyVecEnv {
    fn outputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        pyo3::types::PyTuple::new(
            py,
            [
                self.obs.clone_ref(py).into_any(),
                self.mask.clone_ref(py).into_any(),
                self.reward.clone_ref(py).into_any(),
                self.done.clone_ref(py).into_any(),
            ],
        )
    }

    /// Writes the optional outputs (oracle, tokens, candidates) of every table after a
    /// reset or a step.
    fn write_extras(&self, py: Python<'_>) -> PyResult<()> {
        let inner = &self.inner;
        if let Some(o) = &self.oracle {
            let o = o.bind(py);
            let mut w = o.try_readwrite()?;
            let buf = w.as_slice_mut()?;
            py.detach(|| inner.write_oracle(buf))?;
        }
        if let Some(t) = &self.tokens {
            let t = t.bind(py);
            let mut w = t.try_readwrite()?;
            let buf = w.as_slice_mut()?;
            py.detach(|| inner.write_tokens(buf))?;
        }
        if let (Some(i), Some(f)) = (&self.cand_index, &self.cand_features) {
            let (i, f) = (i.bind(py), f.bind(py));
            let (mut wi, mut wf) = (i.try_readwrite()?, f.try_readwrite()?);
            let (bi, bf) = (wi.as_slice_mut()?, wf.as_slice_mut()?);
            py.detach(|| inner.write_candidates(bi, bf))?;
        }
        Ok(())
    }

    /// The env for a call that changes it; `UsageError` while another thread is inside
    /// one of its calls (PyO3's own error would be a bare "Already borrowed").
    fn for_update<'py>(slf: &Bound<'py, Self>) -> PyResult<PyRefMut<'py, Self>> {
        slf.try_borrow_mut().map_err(|_| busy())
    }

    /// The env for a call that reads it (`UsageError` while another thread changes it).
    fn for_reading<'py>(slf: &Bound<'py, Self>) -> PyResult<PyRef<'py, Self>> {
        slf.try_borrow().map_err(|_| busy())
    }

    /// Reads a table index, 0 to `num_envs - 1`.
    fn index(&self, index: Int<i128>) -> PyResult<usize> {
        let n = self.inner.len();
        usize::try_from(index.0)
            .ok()
            .filter(|&i| i < n)
            .ok_or_else(|| {
                MjError::argument(format!(
                    "index must be a table, 0-{}, got {}",
                    n - 1,
                    index.0
                ))
                .into()
            })
    }
}

/// The error of a call made while another thread is inside a call of the same env.
fn busy() -> PyErr {
    super::errors::UsageError::new_err(
        "this VecEnv is in use by another thread: a VecEnv is stepped by one thread at a \
         time (give each thread its own env, or serialise the calls)",
    )
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(signature = (
        rules = None, num_envs = Int(1), *, opponents = None, seat = None, episode = None,
        hands = None, seed = Int(0), threads = None, autoreset = Flag(true), record = Flag(false),
        expert = None, features = None, history = Flag(false), oracle = Flag(false),
        candidates = Flag(false)
    ))]
    #[pyo3(
        text_signature = "(rules=None, num_envs=1, *, opponents=None, seat=None, episode=None, hands=None, seed=0, threads=None, autoreset=True, record=False, expert=None, features=None, history=False, oracle=False, candidates=False)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: Option<&Bound<'_, PyAny>>,
        num_envs: Int<i128>,
        opponents: Option<&Bound<'_, PyAny>>,
        seat: Option<&Bound<'_, PyAny>>,
        episode: Option<Text>,
        hands: Option<Int<i128>>,
        seed: Int<i128>,
        threads: Option<&Bound<'_, PyAny>>,
        autoreset: Flag,
        record: Flag,
        expert: Option<Text>,
        features: Option<Text>,
        history: Flag,
        oracle: Flag,
        candidates: Flag,
    ) -> PyResult<Self> {
        let gb = match features.as_deref().unwrap_or("v1") {
            "v1" => false,
            "v2" => true,
            f => {
                return Err(MjError::argument(format!(
                    "features must be \"v1\" (the planes of encoding 1) or \"v2\" (with the GB \
                     planes), got {f:?}"
                ))
                .into())
            }
        };
        // Every size is checked before anything is allocated.
        let num_envs = usize::try_from(num_envs.0)
            .ok()
            .filter(|&n| (1..=MAX_ENVS as usize).contains(&n))
            .ok_or_else(|| {
                MjError::argument(format!(
                    "num_envs must be between 1 and {MAX_ENVS}, got {}",
                    num_envs.0
                ))
            })?;
        let hands =
            match hands {
                Some(h) => Some(u16::try_from(h.0).ok().filter(|&h| h > 0).ok_or_else(|| {
                    MjError::argument(format!("hands must be 1-65535, got {}", h.0))
                })?),
                None => None,
            };
        let threads = runs::threads_arg(threads.filter(|t| !t.is_none()))?;
        let rules = match rules {
            Some(r) => convert::rules(r)?,
            None => crate::rules::Rules::gb(),
        };
        let (seat, selfplay) = match seat {
            Some(s) if !s.is_none() => seat_arg(s)?,
            _ => (0, false),
        };
        let opponents = match opponents.filter(|o| !o.is_none()) {
            Some(_) if selfplay => {
                return Err(MjError::argument(
                    "opponents does not apply to seat=\"all\" (every seat learns)",
                )
                .into());
            }
            Some(o) => opponents_arg(o)?,
            None => [PolicyKind::Efficiency; 3],
        };
        let episode = episode.as_deref().unwrap_or("hand");
        let spec = EnvSpec {
            rules,
            seat,
            opponents,
            selfplay,
            episode: Episode::parse(episode).map_err(|e| MjError::argument(e.message()))?,
            hands,
            record: record.0,
            expert: expert.as_deref().map(policy_kind).transpose()?,
            gb,
            history: history.0,
        };
        let seed = convert::seed("seed", seed.0)?;
        let autoreset = autoreset.0;
        let inner = runs::interruptible(py, num_envs <= 64, |_| {
            VecEnv::new(&spec, num_envs, seed, threads, autoreset)
        })??;
        let n = inner.len();
        let shape = if selfplay { vec![n, 4] } else { vec![n] };
        let reward = PyArrayDyn::<f32>::zeros(py, shape, false).unbind();
        let mut env = PyVecEnv {
            rules_name: spec.rules.kind.as_str().to_string(),
            inner,
            obs: PyArray3::zeros(py, [n, spec.obs_len() / N_COLS, N_COLS], false).unbind(),
            mask: PyArray2::zeros(py, [n, N_ACTIONS], false).unbind(),
            seat: PyArray1::zeros(py, [n], false).unbind(),
            reward,
            done: PyArray1::zeros(py, [n], false).unbind(),
            seed,
            draws: 0,
            oracle: oracle
                .0
                .then(|| PyArray3::zeros(py, [n, N_ORACLE_PLANES, N_COLS], false).unbind()),
            tokens: history
                .0
                .then(|| PyArray3::zeros(py, [n, MAX_TOKENS, 4], false).unbind()),
            cand_index: candidates
                .0
                .then(|| PyArray2::zeros(py, [n, MAX_CANDIDATES], false).unbind()),
            cand_features: candidates
                .0
                .then(|| PyArray3::zeros(py, [n, MAX_CANDIDATES, N_FEATURES], false).unbind()),
        };
        env.reset_tables(py, None)?;
        Ok(env)
    }

    /// Resets every table (from `seed` when given, else from the seed of the last reset
    /// or of the constructor) and returns `(obs, mask)`.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        slf: &Bound<'py, Self>,
        seed: Option<Int<i128>>,
    ) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        Self::for_update(slf)?.reset_tables(slf.py(), seed)
    }

    /// Steps every table with its action index (an integer array or a sequence of ints,
    /// `num_envs` of them; in self-play, for the seat in `seat`) and returns `(obs, mask,
    /// reward, done)`, written in place (as is `seat`). Every action is checked first: an
    /// illegal one raises `IllegalActionError` and no table moves; a float, bool or complex
    /// index raises `InvalidTypeError` (indices are never rounded). `ENV_STAY` (-2) leaves
    /// a table as it is (reward 0, not done, its rows unchanged); without autoreset, a
    /// table whose episode ended starts its next one whatever its index.
    fn step<'py>(
        slf: &Bound<'py, Self>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        let py = slf.py();
        let mut this = Self::for_update(slf)?;
        let acts = actions_arg(actions, this.inner.len())?;
        {
            let this = &mut *this;
            let (obs, mask, seat) = (this.obs.bind(py), this.mask.bind(py), this.seat.bind(py));
            let reward = this.reward.bind(py);
            let done = this.done.bind(py);
            let mut o = obs.try_readwrite()?;
            let mut m = mask.try_readwrite()?;
            let mut s = seat.try_readwrite()?;
            let mut r = reward.try_readwrite()?;
            let mut d = done.try_readwrite()?;
            let (os, ms, ss) = (o.as_slice_mut()?, m.as_slice_mut()?, s.as_slice_mut()?);
            let (rs, ds) = (r.as_slice_mut()?, d.as_slice_mut()?);
            let inner = &mut this.inner;
            py.detach(|| inner.step(&acts, os, ms, ss, rs, ds))?;
        }
        this.write_extras(py)?;
        this.outputs(py)
    }

    /// Starts table `index`'s next episode once its episode has ended (for an env made
    /// with `autoreset=False`) and writes its row of `obs`, `mask` and `seat`.
    fn next_episode(slf: &Bound<'_, Self>, index: Int<i128>) -> PyResult<()> {
        let py = slf.py();
        let mut this = Self::for_update(slf)?;
        let index = this.index(index)?;
        let this = &mut *this;
        let (obs, mask, seat) = (this.obs.bind(py), this.mask.bind(py), this.seat.bind(py));
        let mut o = obs.try_readwrite()?;
        let mut m = mask.try_readwrite()?;
        let mut s = seat.try_readwrite()?;
        let (os, ms, ss) = (o.as_slice_mut()?, m.as_slice_mut()?, s.as_slice_mut()?);
        let inner = &mut this.inner;
        py.detach(|| inner.next_episode(index, os, ms, ss))?;
        drop((o, m, s));
        this.write_extras(py)
    }

    /// What the `expert` policy would play now at each table's learning seat (in
    /// self-play: its acting seat) (action indices, int64; -1 where the env has no
    /// expert).
    fn expert_actions<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let py = slf.py();
        let mut this = Self::for_update(slf)?;
        let mut out = vec![-1i64; this.inner.len()];
        let inner = &mut this.inner;
        py.detach(|| inner.expert_actions(&mut out))?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// A uniformly random legal action index for each table's acting seat (over its
    /// mask's legal indices), drawn in Rust: the random-action baseline without numpy.
    /// Table `i` draws from `derive_seed(seed, i)`; without `seed`, from the env's own
    /// stream (seeded by the last reset's seed, one draw per call), so a run is
    /// reproducible either way. Written into `out` when given (a C-contiguous, writeable
    /// int64 array of `num_envs`), else into a new array; -1 for a table with nothing to
    /// decide (an episode over, without autoreset).
    #[pyo3(signature = (seed = None, out = None))]
    fn sample_legal<'py>(
        slf: &Bound<'py, Self>,
        seed: Option<Int<i128>>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let py = slf.py();
        let mut this = Self::for_update(slf)?;
        let n = this.inner.len();
        let arr = match out.filter(|o| !o.is_none()) {
            Some(a) => out_array::<i64, numpy::Ix1>(a, "int64", &[n])?,
            None => PyArray1::zeros(py, [n], false),
        };
        let seed = match seed {
            Some(s) => convert::seed("seed", s.0)?,
            None => {
                this.draws += 1;
                derive_seed(derive_seed(this.seed, u64::MAX), this.draws - 1)
            }
        };
        {
            let mut w = writeable(&arr)?;
            let buf = w
                .as_slice_mut()
                .map_err(|_| MjError::argument("out must be C-contiguous"))?;
            this.inner
                .sample_legal(seed, buf)
                .map_err(|e| MjError::argument(e.message()))?;
        }
        Ok(arr)
    }

    /// The hands table `index` finished since the last call (only with `record=True`),
    /// oldest first: dicts with `match_seed`, `hands` (the match length), `index`, `seed`,
    /// `dealer`, `prevalent_wind`, `scores_before`, `scores_after` and the finished
    /// `round` (a `Round` with its events and result).
    fn finished_hands<'py>(
        slf: &Bound<'py, Self>,
        index: Int<i128>,
    ) -> PyResult<Bound<'py, PyList>> {
        let py = slf.py();
        let mut this = Self::for_update(slf)?;
        let index = this.index(index)?;
        let table = this
            .inner
            .table_mut(index)
            .ok_or_else(|| MjError::argument(format!("table {index} is not a table")))?;
        let hands = table.game().hands();
        let out = PyList::empty(py);
        for f in table.take_finished() {
            let d = PyDict::new(py);
            d.set_item("match_seed", f.match_seed)?;
            d.set_item("hands", hands)?;
            d.set_item("index", f.index)?;
            d.set_item("seed", f.seed)?;
            d.set_item("dealer", f.round.dealer())?;
            d.set_item("prevalent_wind", f.round.prevalent_wind())?;
            d.set_item("scores_before", f.scores_before.to_vec())?;
            d.set_item("scores_after", f.scores_after.to_vec())?;
            d.set_item("round", Py::new(py, PyRound::from_round(f.round))?)?;
            out.append(d)?;
        }
        Ok(out)
    }

    /// The seed of the match table `index` is playing now.
    fn match_seed(slf: &Bound<'_, Self>, index: Int<i128>) -> PyResult<u64> {
        let this = Self::for_reading(slf)?;
        let i = this.index(index)?;
        Ok(this.inner.tables()[i].game().seed())
    }

    /// The current `Round` of table `index` (a copy; full information, for inspection).
    fn round(slf: &Bound<'_, Self>, index: Int<i128>) -> PyResult<PyRound> {
        let this = Self::for_reading(slf)?;
        let i = this.index(index)?;
        Ok(PyRound::from_round(this.inner.tables()[i].round().clone()))
    }

    /// Decisions played at all tables since the env was made, the learning seats' and the
    /// opponents' (one per action a seat took): how much play the steps stood for.
    #[getter]
    fn decisions(slf: &Bound<'_, Self>) -> PyResult<u64> {
        Ok(Self::for_reading(slf)?.inner.decisions())
    }
    /// Number of tables.
    #[getter]
    fn num_envs(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(Self::for_reading(slf)?.inner.len())
    }
    /// Worker threads.
    #[getter]
    fn threads(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(Self::for_reading(slf)?.inner.threads())
    }
    /// The rule set's name.
    #[getter]
    fn rules_name(slf: &Bound<'_, Self>) -> PyResult<String> {
        Ok(Self::for_reading(slf)?.rules_name.clone())
    }
    /// The planes of every table's learning seat, `(N, C, 34)` uint8 (overwritten in place).
    #[getter]
    fn obs(slf: &Bound<'_, Self>) -> PyResult<Py<PyArray3<u8>>> {
        Ok(Self::for_reading(slf)?.obs.clone_ref(slf.py()))
    }
    /// The oracle view of every table's acting seat, `(N, ENV_N_ORACLE_PLANES, 34)` uint8
    /// (every other hand and the wall's next tiles; perfect information for a critic),
    /// with `oracle=True`; else None.
    #[getter]
    fn oracle(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyArray3<u8>>>> {
        Ok(Self::for_reading(slf)?
            .oracle
            .as_ref()
            .map(|a| a.clone_ref(slf.py())))
    }
    /// The hand's action history as every table's acting seat sees it, `(N,
    /// ENV_MAX_TOKENS, 4)` uint8 tokens `[kind, actor, tile, other]` (docs/encoding.md),
    /// with `history=True`; else None.
    #[getter]
    fn tokens(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyArray3<u8>>>> {
        Ok(Self::for_reading(slf)?
            .tokens
            .as_ref()
            .map(|a| a.clone_ref(slf.py())))
    }
    /// Every table's legal action indices, `(N, ENV_MAX_CANDIDATES)` int16 (-1 past the
    /// last), with `candidates=True`; else None.
    #[getter]
    fn cand_index(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyArray2<i16>>>> {
        Ok(Self::for_reading(slf)?
            .cand_index
            .as_ref()
            .map(|a| a.clone_ref(slf.py())))
    }
    /// The features of the position after each candidate, `(N, ENV_MAX_CANDIDATES,
    /// ENV_N_FEATURES)` float32 (0 past the last), with `candidates=True`; else None.
    #[getter]
    fn cand_features(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyArray3<f32>>>> {
        Ok(Self::for_reading(slf)?
            .cand_features
            .as_ref()
            .map(|a| a.clone_ref(slf.py())))
    }
    /// The legal-action masks, `(N, A)` uint8 (overwritten in place).
    #[getter]
    fn mask(slf: &Bound<'_, Self>) -> PyResult<Py<PyArray2<u8>>> {
        Ok(Self::for_reading(slf)?.mask.clone_ref(slf.py()))
    }
    /// The seat whose view each row of `obs` and `mask` is, and whose action the next
    /// `step` takes: `(N,)` int8 (overwritten in place; constant outside self-play).
    #[getter]
    fn seat(slf: &Bound<'_, Self>) -> PyResult<Py<PyArray1<i8>>> {
        Ok(Self::for_reading(slf)?.seat.clone_ref(slf.py()))
    }
    /// Whether every seat learns (`seat="all"`).
    #[getter]
    fn selfplay(slf: &Bound<'_, Self>) -> PyResult<bool> {
        Ok(Self::for_reading(slf)?.inner.reward_width() == 4)
    }
    /// The last step's rewards, float32: `(N,)` the learning seat's score change from the
    /// hands that ended during the step, or in self-play `(N, 4)` every seat's.
    #[getter]
    fn reward(slf: &Bound<'_, Self>) -> PyResult<Py<PyArrayDyn<f32>>> {
        Ok(Self::for_reading(slf)?.reward.clone_ref(slf.py()))
    }
    /// The last step's episode ends, `(N,)` bool.
    #[getter]
    fn done(slf: &Bound<'_, Self>) -> PyResult<Py<PyArray1<bool>>> {
        Ok(Self::for_reading(slf)?.done.clone_ref(slf.py()))
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let this = Self::for_reading(slf)?;
        Ok(format!(
            "VecEnv({:?}, num_envs={}, {}threads={})",
            this.rules_name,
            this.inner.len(),
            if this.inner.reward_width() == 4 {
                "seat=\"all\", "
            } else {
                ""
            },
            this.inner.threads()
        ))
    }
}

impl PyVecEnv {
    /// Resets every table (see `reset`).
    fn reset_tables<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<Int<i128>>,
    ) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        if let Some(s) = seed {
            self.seed = convert::seed("seed", s.0)?;
        }
        self.draws = 0;
        {
            let (obs, mask, seat) = (self.obs.bind(py), self.mask.bind(py), self.seat.bind(py));
            let mut o = obs.try_readwrite()?;
            let mut m = mask.try_readwrite()?;
            let mut s = seat.try_readwrite()?;
            let (os, ms, ss) = (o.as_slice_mut()?, m.as_slice_mut()?, s.as_slice_mut()?);
            let (inner, seed) = (&mut self.inner, self.seed);
            py.detach(|| inner.reset(seed, os, ms, ss))?;
        }
        self.write_extras(py)?;
        pyo3::types::PyTuple::new(
            py,
            [
                self.obs.clone_ref(py).into_any(),
                self.mask.clone_ref(py).into_any(),
            ],
        )
    }
}

/// Registers the env functions, constants and `VecEnv`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(encode_observation, m)?)?;
    m.add_function(wrap_pyfunction!(legal_mask, m)?)?;
    m.add_function(wrap_pyfunction!(gb_planes, m)?)?;
    m.add_function(wrap_pyfunction!(action_features, m)?)?;
    m.add_function(wrap_pyfunction!(replay_decisions, m)?)?;
    m.add_function(wrap_pyfunction!(action_to_index, m)?)?;
    m.add_function(wrap_pyfunction!(index_to_action, m)?)?;
    m.add_class::<PyVecEnv>()?;
    m.add("ENV_N_PLANES", N_PLANES)?;
    m.add("ENV_N_ACTIONS", N_ACTIONS)?;
    m.add("ENV_OBS_LEN", OBS_LEN)?;
    m.add("ENV_MAX_ENVS", MAX_ENVS)?;
    m.add("ENV_ENCODING_VERSION", encode::ENCODING_VERSION)?;
    m.add("ENV_N_GB_PLANES", N_GB_PLANES)?;
    m.add("ENV_N_FEATURES", N_FEATURES)?;
    m.add("ENV_MAX_CANDIDATES", MAX_CANDIDATES)?;
    m.add("ENV_MAX_TOKENS", MAX_TOKENS)?;
    m.add("ENV_N_ORACLE_PLANES", N_ORACLE_PLANES)?;
    m.add("ENV_STAY", crate::env::STAY)?;
    Ok(())
}
