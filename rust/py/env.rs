//! Python bindings for the learning environments: the planes and mask of an
//! `Observation`, the action index both ways, and `VecEnv` (N tables stepped in Rust with
//! the GIL released, writing into numpy arrays it owns).

use super::action::{action_obj, PyAction};
use super::convert;
use super::observation::PyObservation;
use super::round::PyRound;
use crate::env::encode::{self, N_ACTIONS, N_COLS, N_PLANES, OBS_LEN};
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

/// Writes the planes of `observation` (a `(C, 34)` uint8 array, see docs/encoding.md)
/// into `out` when given (a C-contiguous uint8 array of that shape, reused: nothing is
/// allocated) and returns it, or a new array.
#[pyfunction]
#[pyo3(signature = (observation, out = None))]
fn encode_observation<'py>(
    py: Python<'py>,
    observation: PyRef<'py, PyObservation>,
    out: Option<Bound<'py, PyArray2<u8>>>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let arr = match out {
        Some(a) => {
            if a.shape() != [N_PLANES, N_COLS] {
                return Err(MjError::argument(format!(
                    "out must have shape ({N_PLANES}, {N_COLS}), got {:?}",
                    a.shape()
                ))
                .into());
            }
            a
        }
        None => PyArray2::zeros(py, [N_PLANES, N_COLS], false),
    };
    {
        let mut w = arr.try_readwrite()?;
        let buf = w
            .as_slice_mut()
            .map_err(|_| MjError::argument("out must be C-contiguous"))?;
        encode::encode(&observation.inner, buf)?;
    }
    Ok(arr)
}

/// The legal-action mask of `observation`: a uint8 array of `ENV_N_ACTIONS`, 1 at the
/// index of each legal action. Written into `out` when given.
#[pyfunction]
#[pyo3(signature = (observation, out = None))]
fn legal_mask<'py>(
    py: Python<'py>,
    observation: PyRef<'py, PyObservation>,
    out: Option<Bound<'py, PyArray1<u8>>>,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let arr = match out {
        Some(a) => a,
        None => PyArray1::zeros(py, [N_ACTIONS], false),
    };
    {
        let mut w = arr.try_readwrite()?;
        let buf = w
            .as_slice_mut()
            .map_err(|_| MjError::argument("out must be C-contiguous"))?;
        encode::legal_mask(observation.inner.legal.as_slice(), buf)?;
    }
    Ok(arr)
}

/// The index of `action` in the action space (0 to `ENV_N_ACTIONS - 1`).
#[pyfunction]
fn action_to_index(action: PyRef<'_, PyAction>) -> PyResult<usize> {
    encode::action_index(action.inner)
        .ok_or_else(|| MjError::action(format!("{:?} has no index", action.inner)).into())
}

/// The `Action` at index `index` of the action space.
#[pyfunction]
fn index_to_action(py: Python<'_>, index: i64) -> PyResult<Py<PyAction>> {
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
    let seat: i64 = obj.extract().map_err(|_| {
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
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(signature = (
        rules = None, num_envs = 1, *, opponents = None, seat = None, episode = "hand",
        hands = None, seed = 0, threads = None, autoreset = true, record = false, expert = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: Option<&Bound<'_, PyAny>>,
        num_envs: usize,
        opponents: Option<&Bound<'_, PyAny>>,
        seat: Option<&Bound<'_, PyAny>>,
        episode: &str,
        hands: Option<u16>,
        seed: i128,
        threads: Option<usize>,
        autoreset: bool,
        record: bool,
        expert: Option<&str>,
    ) -> PyResult<Self> {
        let rules = match rules {
            Some(r) => convert::rules(r)?,
            None => crate::rules::Rules::gb(),
        };
        let (seat, selfplay) = match seat {
            Some(s) => seat_arg(s)?,
            None => (0, false),
        };
        let opponents = match opponents {
            Some(_) if selfplay => {
                return Err(MjError::argument(
                    "opponents does not apply to seat=\"all\" (every seat learns)",
                )
                .into())
            }
            Some(o) => opponents_arg(o)?,
            None => [PolicyKind::Efficiency; 3],
        };
        let spec = EnvSpec {
            rules,
            seat,
            opponents,
            selfplay,
            episode: Episode::parse(episode).map_err(|e| MjError::argument(e.message()))?,
            hands,
            record,
            expert: expert.map(policy_kind).transpose()?,
        };
        let seed = convert::seed("seed", seed)?;
        let inner = py.detach(|| VecEnv::new(&spec, num_envs, seed, threads, autoreset))?;
        let n = inner.len();
        let shape = if selfplay { vec![n, 4] } else { vec![n] };
        let reward = PyArrayDyn::<f32>::zeros(py, shape, false).unbind();
        let mut env = PyVecEnv {
            rules_name: spec.rules.kind.as_str().to_string(),
            inner,
            obs: PyArray3::zeros(py, [n, N_PLANES, N_COLS], false).unbind(),
            mask: PyArray2::zeros(py, [n, N_ACTIONS], false).unbind(),
            seat: PyArray1::zeros(py, [n], false).unbind(),
            reward,
            done: PyArray1::zeros(py, [n], false).unbind(),
            seed,
            draws: 0,
        };
        env.reset(py, None)?;
        Ok(env)
    }

    /// Resets every table (from `seed` when given, else from the seed of the last reset
    /// or of the constructor) and returns `(obs, mask)`.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<i128>,
    ) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        if let Some(s) = seed {
            self.seed = convert::seed("seed", s)?;
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
        pyo3::types::PyTuple::new(
            py,
            [
                self.obs.clone_ref(py).into_any(),
                self.mask.clone_ref(py).into_any(),
            ],
        )
    }

    /// Steps every table with its action index (a sequence or int array of `num_envs`; in
    /// self-play, for the seat in `seat`) and returns `(obs, mask, reward, done)`, written
    /// in place (as is `seat`). Every action is checked first: an illegal one raises
    /// `IllegalActionError` and no table moves.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        let owned: Vec<i64>;
        let ro = actions.extract::<PyReadonlyArray1<'py, i64>>().ok();
        let acts: &[i64] = match ro.as_ref().and_then(|a| a.as_slice().ok()) {
            Some(s) => s,
            None => {
                owned = actions.extract()?;
                &owned
            }
        };
        {
            let (obs, mask, seat) = (self.obs.bind(py), self.mask.bind(py), self.seat.bind(py));
            let reward = self.reward.bind(py);
            let done = self.done.bind(py);
            let mut o = obs.try_readwrite()?;
            let mut m = mask.try_readwrite()?;
            let mut s = seat.try_readwrite()?;
            let mut r = reward.try_readwrite()?;
            let mut d = done.try_readwrite()?;
            let (os, ms, ss) = (o.as_slice_mut()?, m.as_slice_mut()?, s.as_slice_mut()?);
            let (rs, ds) = (r.as_slice_mut()?, d.as_slice_mut()?);
            let inner = &mut self.inner;
            py.detach(|| inner.step(acts, os, ms, ss, rs, ds))?;
        }
        self.outputs(py)
    }

    /// Starts table `index`'s next episode once its episode has ended (for an env made
    /// with `autoreset=False`) and writes its row of `obs`, `mask` and `seat`.
    fn next_episode(&mut self, py: Python<'_>, index: usize) -> PyResult<()> {
        let (obs, mask, seat) = (self.obs.bind(py), self.mask.bind(py), self.seat.bind(py));
        let mut o = obs.try_readwrite()?;
        let mut m = mask.try_readwrite()?;
        let mut s = seat.try_readwrite()?;
        let (os, ms, ss) = (o.as_slice_mut()?, m.as_slice_mut()?, s.as_slice_mut()?);
        let inner = &mut self.inner;
        py.detach(|| inner.next_episode(index, os, ms, ss))?;
        Ok(())
    }

    /// What the `expert` policy would play now at each table's learning seat (in
    /// self-play: its acting seat) (action indices, int64; -1 where the env has no
    /// expert).
    fn expert_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let mut out = vec![-1i64; self.inner.len()];
        let inner = &mut self.inner;
        py.detach(|| inner.expert_actions(&mut out))?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// A uniformly random legal action index for each table's acting seat (over its
    /// mask's legal indices), drawn in Rust: the random-action baseline without numpy.
    /// Table `i` draws from `derive_seed(seed, i)`; without `seed`, from the env's own
    /// stream (seeded by the last reset's seed, one draw per call), so a run is
    /// reproducible either way. Written into `out` when given (a C-contiguous int64
    /// array of `num_envs`), else into a new array; -1 for a table with nothing to decide
    /// (an episode over, without autoreset).
    #[pyo3(signature = (seed = None, out = None))]
    fn sample_legal<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<i128>,
        out: Option<Bound<'py, PyArray1<i64>>>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let seed = match seed {
            Some(s) => convert::seed("seed", s)?,
            None => {
                self.draws += 1;
                derive_seed(derive_seed(self.seed, u64::MAX), self.draws - 1)
            }
        };
        let arr = match out {
            Some(a) => a,
            None => PyArray1::zeros(py, [self.inner.len()], false),
        };
        {
            let mut w = arr.try_readwrite()?;
            let buf = w
                .as_slice_mut()
                .map_err(|_| MjError::argument("out must be C-contiguous"))?;
            self.inner
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
        &mut self,
        py: Python<'py>,
        index: usize,
    ) -> PyResult<Bound<'py, PyList>> {
        let n = self.inner.len();
        let table = self.inner.table_mut(index).ok_or_else(|| {
            MjError::argument(format!("table {index} is not a table (0-{})", n - 1))
        })?;
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
    fn match_seed(&self, index: usize) -> PyResult<u64> {
        self.inner
            .tables()
            .get(index)
            .map(|t| t.game().seed())
            .ok_or_else(|| MjError::argument(format!("table {index} is not a table")).into())
    }

    /// The current `Round` of table `index` (a copy; full information, for inspection).
    fn round(&self, index: usize) -> PyResult<PyRound> {
        self.inner
            .tables()
            .get(index)
            .map(|t| PyRound::from_round(t.round().clone()))
            .ok_or_else(|| MjError::argument(format!("table {index} is not a table")).into())
    }

    /// Decisions played at all tables since the env was made, the learning seats' and the
    /// opponents' (one per action a seat took): how much play the steps stood for.
    #[getter]
    fn decisions(&self) -> u64 {
        self.inner.decisions()
    }
    /// Number of tables.
    #[getter]
    fn num_envs(&self) -> usize {
        self.inner.len()
    }
    /// Worker threads.
    #[getter]
    fn threads(&self) -> usize {
        self.inner.threads()
    }
    /// The rule set's name.
    #[getter]
    fn rules_name(&self) -> &str {
        &self.rules_name
    }
    /// The planes of every table's learning seat, `(N, C, 34)` uint8 (overwritten in place).
    #[getter]
    fn obs(&self, py: Python<'_>) -> Py<PyArray3<u8>> {
        self.obs.clone_ref(py)
    }
    /// The legal-action masks, `(N, A)` uint8 (overwritten in place).
    #[getter]
    fn mask(&self, py: Python<'_>) -> Py<PyArray2<u8>> {
        self.mask.clone_ref(py)
    }
    /// The seat whose view each row of `obs` and `mask` is, and whose action the next
    /// `step` takes: `(N,)` int8 (overwritten in place; constant outside self-play).
    #[getter]
    fn seat(&self, py: Python<'_>) -> Py<PyArray1<i8>> {
        self.seat.clone_ref(py)
    }
    /// Whether every seat learns (`seat="all"`).
    #[getter]
    fn selfplay(&self) -> bool {
        self.inner.reward_width() == 4
    }
    /// The last step's rewards, float32: `(N,)` the learning seat's score change from the
    /// hands that ended during the step, or in self-play `(N, 4)` every seat's.
    #[getter]
    fn reward(&self, py: Python<'_>) -> Py<PyArrayDyn<f32>> {
        self.reward.clone_ref(py)
    }
    /// The last step's episode ends, `(N,)` bool.
    #[getter]
    fn done(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.done.clone_ref(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "VecEnv({:?}, num_envs={}, {}threads={})",
            self.rules_name,
            self.inner.len(),
            if self.selfplay() {
                "seat=\"all\", "
            } else {
                ""
            },
            self.inner.threads()
        )
    }
}

/// Registers the env functions, constants and `VecEnv`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(encode_observation, m)?)?;
    m.add_function(wrap_pyfunction!(legal_mask, m)?)?;
    m.add_function(wrap_pyfunction!(action_to_index, m)?)?;
    m.add_function(wrap_pyfunction!(index_to_action, m)?)?;
    m.add_class::<PyVecEnv>()?;
    m.add("ENV_N_PLANES", N_PLANES)?;
    m.add("ENV_N_ACTIONS", N_ACTIONS)?;
    m.add("ENV_OBS_LEN", OBS_LEN)?;
    m.add("ENV_ENCODING_VERSION", encode::ENCODING_VERSION)?;
    Ok(())
}
