"""Type stubs for the Rust extension ``majiang._core``.

Sections follow the Rust binding modules (rust/py/*.rs).
"""

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal, final

from typing_extensions import Self

# The errors are declared in majiang.errors; the extension raises the same classes.
from .errors import IllegalActionError as IllegalActionError
from .errors import InvalidArgumentError as InvalidArgumentError
from .errors import InvalidHandError as InvalidHandError
from .errors import InvalidTypeError as InvalidTypeError
from .errors import MajiangError as MajiangError
from .errors import NotWinningError as NotWinningError
from .errors import OutOfMemoryError as OutOfMemoryError
from .errors import RuleError as RuleError
from .errors import UsageError as UsageError

_TileLike = int | str
_HandLike = str | Sequence[int]

# --- tiles --------------------------------------------------------------------------

def parse_tiles(s: str) -> list[int]: ...
def format_tiles(tiles: _HandLike) -> str: ...
def tile_name(t: _TileLike) -> str: ...
def tile_name_zh(t: _TileLike) -> str: ...
def tile_glyph(t: _TileLike) -> str: ...

@final
class Meld:
    def __new__(cls, kind: str, tiles: _HandLike) -> Self: ...
    @property
    def kind(self) -> str: ...
    @property
    def tiles(self) -> list[int]: ...
    @property
    def tile(self) -> int: ...
    @property
    def concealed(self) -> bool: ...
    def __len__(self) -> int: ...

# --- rules --------------------------------------------------------------------------

@final
class RuleSet:
    """A rule set (or preset) plus its own options; immutable, comparable, hashable,
    picklable."""

    def __new__(cls, name: str | None = None, **options: bool | int | str) -> Self: ...
    @property
    def name(self) -> str: ...
    @property
    def preset(self) -> str | None: ...
    @property
    def title(self) -> str: ...
    @property
    def unit(self) -> Literal["fan", "points"]: ...
    @property
    def forms(self) -> list[str]: ...
    @property
    def has_wilds(self) -> bool: ...
    def options(self) -> dict[str, bool | int | str]: ...
    @classmethod
    def option_table(cls, name: str) -> dict[str, dict[str, Any]]: ...
    def replace(self, **options: bool | int | str) -> RuleSet: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __copy__(self) -> RuleSet: ...
    def __deepcopy__(self, _memo: object) -> RuleSet: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def rule_sets() -> list[dict[str, Any]]:
    """The registered rule sets (name, aliases, title, summary, docs, unit, engine,
    groups, forms, has_wilds)."""

def presets() -> list[dict[str, Any]]:
    """The registered presets (name, rule_set, title, summary, docs, options)."""

_RulesLike = str | RuleSet
_MeldsLike = Iterable[Meld]

# --- oracle -------------------------------------------------------------------------

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

def shanten(
    hand: _HandLike,
    melds: _MeldsLike | None = None,
    *,
    rules: _RulesLike | None = None,
    wild: _TileLike | None = None,
) -> int: ...
def shanten_forms(
    hand: _HandLike,
    melds: _MeldsLike | None = None,
    *,
    rules: _RulesLike | None = None,
    wild: _TileLike | None = None,
) -> dict[str, int]:
    """Shanten per form: ``regular``, ``seven_pairs``, ``thirteen_orphans``,
    ``honors_knitted``, ``knitted_straight``; under huainan ``regular``, ``seven_pairs``,
    ``shisanlang`` (十三浪) and ``jiuyao`` (九幺). A form that cannot apply is absent."""

def useful_tiles(
    hand: _HandLike,
    melds: _MeldsLike | None = None,
    *,
    rules: _RulesLike | None = None,
    wild: _TileLike | None = None,
    form: str | None = None,
) -> list[int]: ...
def waits(
    hand: _HandLike,
    melds: _MeldsLike | None = None,
    *,
    rules: _RulesLike | None = None,
    wild: _TileLike | None = None,
) -> list[int]: ...
def is_win(
    hand: _HandLike,
    melds: _MeldsLike | None = None,
    *,
    rules: _RulesLike | None = None,
    wild: _TileLike | None = None,
) -> bool: ...
def shanten_batch(counts: npt.NDArray[np.uint8]) -> npt.NDArray[np.int8]: ...
def _warm_up() -> None: ...

# --- fan ----------------------------------------------------------------------------

N_FAN_IDS: int

@final
class Fan:
    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def name_zh(self) -> str: ...
    @property
    def points(self) -> int: ...
    @property
    def count(self) -> int: ...
    @property
    def total(self) -> int: ...

@final
class FanResult:
    @property
    def fans(self) -> list[Fan]: ...
    @property
    def total(self) -> int: ...
    @property
    def total_without_flowers(self) -> int: ...
    @property
    def meets_minimum(self) -> bool: ...
    def count(self, fan: str | int) -> int: ...
    def __contains__(self, fan: str | int, /) -> bool: ...
    def __len__(self) -> int: ...
    def to_dict(self) -> dict[str, object]: ...
    def __reduce__(self) -> tuple[object, tuple[list[tuple[int, int]], bool]]: ...
    def __copy__(self) -> FanResult: ...
    def __deepcopy__(self, _memo: object) -> FanResult: ...
    def __eq__(self, other: object, /) -> bool: ...

def _fan_result(fans: list[tuple[int, int]], meets_minimum: bool) -> FanResult: ...
def evaluate_fan(
    hand: _HandLike,
    win_tile: _TileLike,
    melds: _MeldsLike | None = None,
    *,
    self_drawn: bool = False,
    fourth_tile: bool = False,
    about_kong: bool = False,
    wall_last: bool = False,
    seat_wind: int | str | None = None,
    prevalent_wind: int | str | None = None,
    flowers: int | None = None,
    declared_ready: bool = False,
    rules: _RulesLike | None = None,
) -> FanResult: ...
def fan_catalog() -> list[dict[str, Any]]: ...
def _evaluate_fan_batch(
    hands: npt.NDArray[np.uint8],
    win_tiles: npt.NDArray[np.uint8],
    melds: npt.NDArray[np.uint8],
    flags: npt.NDArray[np.uint8],
    seat: npt.NDArray[np.uint8],
    prevalent: npt.NDArray[np.uint8],
    flowers: npt.NDArray[np.uint8],
    rules: _RulesLike,
    threads: int | None = None,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint8]]: ...

# --- play ---------------------------------------------------------------------------

@final
class Action:
    """One decision: discard, ready, win, concealed_kong, added_kong, chow, pung, kong, pass."""

    def __new__(cls, kind: str, tile: _TileLike | None = None) -> Self: ...
    @property
    def kind(self) -> str: ...
    @property
    def tile(self) -> int | None: ...
    @property
    def code(self) -> int: ...
    @staticmethod
    def from_code(code: int) -> Action: ...

@final
class Observation:
    """What one seat can see at one moment (a snapshot), with its legal actions."""

    @property
    def seat(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def seat_wind(self) -> int: ...
    @property
    def prevalent_wind(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def turn(self) -> int: ...
    @property
    def hand(self) -> list[int]: ...
    @property
    def counts(self) -> list[int]: ...
    @property
    def drawn(self) -> int | None: ...
    @property
    def melds(self) -> list[list[Meld]]: ...
    @property
    def hidden_kongs(self) -> list[int]: ...
    @property
    def flowers(self) -> list[list[int]]: ...
    @property
    def hand_sizes(self) -> list[int]: ...
    @property
    def ready(self) -> list[bool]: ...
    @property
    def barred(self) -> list[bool]: ...
    @property
    def discards(self) -> list[list[int]]: ...
    @property
    def discard_log(self) -> list[tuple[int, int, bool, bool]]: ...
    @property
    def visible(self) -> list[int]: ...
    @property
    def wall_remaining(self) -> int: ...
    @property
    def claim(self) -> tuple[int, int] | None: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def legal_actions(self) -> list[Action]: ...
    @property
    def rules(self) -> RuleSet:
        """The rules the hand is dealt under: a bot built without ``rules=`` plays these."""
    @property
    def ruleset_view(self) -> dict[str, Any] | None:
        """The rule set's own per-hand state this seat sees (with 宝: ``kind`` "bao",
        ``bao``, ``indicator``, ``bao_drawn``, ``bao_discarded``, ``in_bdt``, ``passes``,
        ``guo_hu``), or None."""
    @property
    def bao(self) -> int | None: ...
    @property
    def bao_indicator(self) -> int | None: ...
    @property
    def bao_drawn(self) -> int: ...

@final
class Round:
    """One hand, driven step by step."""

    def __new__(
        cls,
        rules: _RulesLike | None = None,
        seed: int = 0,
        dealer: int = 0,
        prevalent_wind: int = 0,
        *,
        hands: Sequence[_HandLike] | None = None,
        draws: _HandLike | None = None,
        replacements: _HandLike | None = None,
        scores: Sequence[int] | None = None,
    ) -> Self: ...
    @staticmethod
    def from_view(rules: _RulesLike, view: dict[str, Any], seed: int = 0) -> Round: ...
    @property
    def phase(self) -> str: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def pending(self) -> tuple[int, ...]: ...
    @property
    def turn(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def prevalent_wind(self) -> int: ...
    @property
    def wall_remaining(self) -> int: ...
    @property
    def seat_walls(self) -> list[int] | None: ...
    @property
    def drawn(self) -> int | None: ...
    @property
    def claim(self) -> tuple[int, int] | None: ...
    @property
    def dice(self) -> list[int]: ...
    @property
    def wall(self) -> list[int]: ...
    @property
    def rules(self) -> RuleSet: ...
    @property
    def n_events(self) -> int: ...
    @property
    def result(self) -> dict[str, Any] | None: ...
    def legal_actions(self, seat: int) -> list[Action]: ...
    def observation(self, seat: int) -> Observation: ...
    def apply(self, seat: int, action: Action) -> None: ...
    def events(self, seat: int | None = None, since: int = 0) -> list[dict[str, Any]]: ...
    def poll_events(self, seat: int | None = None) -> list[dict[str, Any]]: ...
    def events_json(self, since: int = 0) -> list[str]: ...
    def hand(self, seat: int) -> list[int]: ...
    def melds(self, seat: int) -> list[Meld]: ...
    def flowers(self, seat: int) -> list[int]: ...
    def clone(self) -> Round: ...
    def __copy__(self) -> Round: ...
    def __deepcopy__(self, _memo: object) -> Round: ...

@final
class Match:
    """The hands of a match with dealer and wind rotation."""

    def __new__(
        cls, rules: _RulesLike | None = None, seed: int = 0, hands: int | None = None
    ) -> Self: ...
    @property
    def seed(self) -> int: ...
    @property
    def hands(self) -> int: ...
    @property
    def hand_index(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def dealer(self) -> int: ...
    @property
    def prevalent_wind(self) -> int: ...
    @property
    def hand_seed(self) -> int: ...
    def hand_seed_at(self, index: int) -> int: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def rules(self) -> RuleSet: ...
    @property
    def hand_in_play(self) -> bool: ...
    def start_hand(self) -> Round: ...
    def finish_hand(self, round: Round) -> None: ...

def wind_name(w: int) -> str: ...
def event_schema() -> dict[str, dict[str, str]]: ...
def event_field_types() -> dict[str, dict[str, Any]]: ...

# --- sim ----------------------------------------------------------------------------

@final
class Policy:
    """A built-in policy ("random", "efficiency", "strong", "strong_lite", "strong_search",
    "expert") choosing from Python observations."""

    def __new__(cls, name: str, *, rules: _RulesLike | None = None, seed: int = 0) -> Self: ...
    @property
    def name(self) -> str: ...
    @property
    def rules(self) -> RuleSet | None: ...
    def reseed(self, seed: int) -> None: ...
    def choose(self, observation: Observation) -> Action: ...
    def _choose_live(self, round: Round, seat: int) -> Action: ...
    def explain(self, observation: Observation) -> _ExplanationDict:
        """The choice with the reasons (the strong family only, as
        ``StrongPolicy.explain``); ``ValueError`` for a policy that does not explain."""

MAX_IN_MEMORY: int
MAX_SINK_HANDS: int
MAX_THREADS: int

def simulate_hands(
    n_hands: int,
    *,
    rules: _RulesLike,
    bots: str | Sequence[str],
    seed: int | None = None,
    start: int | None = None,
    threads: int | None = None,
    check: bool = False,
    sink: Callable[[int, dict[str, Any]], object] | None = None,
    sink_hands: int = 100_000,
    progress: Callable[[int], object] | None = None,
) -> dict[str, Any]: ...
def arena_games(
    n_games: int,
    *,
    rules: _RulesLike,
    bots: str | Sequence[str | Any],
    seed: int | None = None,
    start: int | None = None,
    duplicate: bool = True,
    threads: int | None = None,
    progress: Callable[[int], object] | None = None,
    names: Sequence[str] | None = None,
) -> dict[str, Any]: ...
def fan_names() -> dict[int, tuple[str, str]]: ...
def policy_names() -> list[str]: ...

# --- huainan ------------------------------------------------------------------------

@final
class HuainanScore:
    """The value of a Huainan win: primary form, multipliers, what one payer pays."""

    @property
    def form(self) -> str: ...
    @property
    def form_zh(self) -> str: ...
    @property
    def form_value(self) -> int: ...
    @property
    def multipliers(self) -> list[tuple[str, int]]: ...
    @property
    def multipliers_zh(self) -> list[str]: ...
    @property
    def raw_value(self) -> int: ...
    @property
    def value(self) -> int: ...

def bao_for_indicator(indicator: _TileLike) -> int: ...
def bao_indicator_index(s2: int) -> int: ...
def is_bao_diaotou(
    hand: _HandLike,
    melds: _MeldsLike | None = None,
    *,
    wild: _TileLike,
    rules: _RulesLike | None = None,
) -> bool: ...
def score_huainan(
    hand: _HandLike,
    win_tile: _TileLike | None = None,
    melds: _MeldsLike | None = None,
    *,
    wild: _TileLike,
    self_drawn: bool = False,
    replacement: bool = False,
    robbed_kong: bool = False,
    heavenly: bool = False,
    earthly: bool = False,
    bao_discarded: int = 0,
    passes: int = 0,
    rules: _RulesLike | None = None,
) -> HuainanScore: ...
def score_huainan_special(kind: str, *, rules: _RulesLike | None = None) -> HuainanScore: ...

# --- strong -------------------------------------------------------------------------

@final
class StrongPolicy:
    """The Rust strong policy choosing from Python observations (see bots.StrongBot)."""

    def __new__(
        cls,
        *,
        rules: _RulesLike | None = None,
        seed: int = 0,
        budget_ms: int = 50,
        rollouts: int | None = None,
        time_cap: bool = True,
    ) -> Self: ...
    @property
    def rollouts(self) -> int: ...
    @property
    def time_cap_ms(self) -> int: ...
    @property
    def rules(self) -> RuleSet | None: ...
    def reseed(self, seed: int) -> None: ...
    def choose(self, observation: Observation) -> Action: ...
    def _choose_live(self, round: Round, seat: int) -> Action: ...
    def explain(self, observation: Observation) -> _ExplanationDict:
        """The action ``choose`` returns, with the reasons (the state advances as in
        ``choose``). See ``_ExplanationDict``; ``majiang.bots.Explanation`` wraps it."""

# The dict of ``StrongPolicy.explain`` / ``Policy.explain``:
#   action: Action (one of the observation's legal actions); mode: "forced" | "win" |
#   "huainan" | "attack" | "lookahead" | "fold" | "kong" | "search" | "claim";
#   seat: int; stake: float (points);
#   threats: list of {seat: int, ready: float, flush_suit: int | None, pungs: bool,
#     sets: int}, one per opponent;
#   discards: list (best first) of {tile: int, plan: str, distance: int, fan: float,
#     useful: int, chance: float | None, danger: float, attack: float | None,
#     value: float | None, search: float | None};
#   claims: list (the pass first) of {action: Action, plan_value: float,
#     chance: float | None, discard: int | None, search: float | None}.
_ExplanationDict = dict[str, Any]

def option_values(
    observation: Observation,
    samples: int,
    seed: int = 0,
    player: str = "efficiency",
    reference: Action | None = None,
    threads: int = 1,
) -> tuple[int, bool, list[tuple[Action, float, float, float, float, float, float]]]:
    """The value of every legal action of the observation for its seat by playouts on
    ``samples`` sampled deals (fixed by ``seed``), the built-in policy ``player`` at the
    seat and the efficiency policy at the others: the deals played, whether private walls
    were played as one shared wall, and per legal action ``(action, mean, std_err, loss,
    loss_se, gap, gap_se)`` in points (``loss`` against the best mean, ``gap`` against
    ``reference``, the best when None); ``threads`` splits the deals over threads (the
    values do not depend on it)."""

def danger_reading(observation: Observation) -> tuple[list[float], list[float]]:
    """The strong policy's defensive reading from the observation's seat: each seat's
    chance of being ready now (0 for the observer), and each kind's chance of dealing in
    if discarded."""

def fan_plan(
    hand: _HandLike,
    melds: Sequence[Meld] | None = None,
    *,
    seat_wind: int = 0,
    prevalent_wind: int = 0,
    rules: _RulesLike | None = None,
) -> dict[str, Any]:
    """The strong policy's fan plan for a waiting hand: ``plan``, ``distance``, ``fan``
    and ``fans`` (catalog ids)."""

def danger_samples(
    hands: int,
    seed: int,
    *,
    rules: _RulesLike | None = None,
    bots: str | Sequence[str] | None = None,
    all_kinds: bool = False,
    threads: int | None = None,
) -> dict[str, Any]:
    """Ground truth for the expert's learned defense: plays ``hands`` hands of ``bots``
    (four experts by default; hand ``i`` as ``simulate`` plays it from ``seed``) and, at
    every own-turn discard decision, returns features from the deciding seat's view and
    labels from the full round. Per (decision, opponent): ``seat_x`` (rows of
    ``seat_features``), ``ready`` (ready with a scoring wait), ``h_ready`` (hand-made
    chance), ``p_ready`` (learned chance), ``hand``, ``seats`` (decider, opponent). Per
    (decision, opponent, kind held, or every kind with ``all_kinds``): ``tile_x`` (rows of
    ``tile_features``), ``seat_row``, ``tile``, ``deal_in`` (a discard of it would be a
    scoring win for the opponent), ``h_danger`` (hand-made chance), ``p_wait`` (learned
    chance given ready). The same seed gives the same arrays. gb and classic only. At
    most 20,000 hands a call (5,000 with ``all_kinds``: about 168 kB, 530 kB of rows a
    hand); Ctrl-C raises ``KeyboardInterrupt`` within a few hands per thread."""

def danger_model_weights() -> tuple[list[float], list[float], float]:
    """The shipped weights of the learned defense: the ready model's, the wait model's
    (seat features then tile features) and the wait chance of a passed kind."""

# --- learning environments ----------------------------------------------------------

ENV_N_PLANES: int
ENV_N_ACTIONS: int
ENV_OBS_LEN: int
ENV_MAX_ENVS: int
ENV_ENCODING_VERSION: int
ENV_N_GB_PLANES: int
ENV_N_FEATURES: int
ENV_MAX_CANDIDATES: int
ENV_MAX_TOKENS: int
ENV_N_ORACLE_PLANES: int
ENV_STAY: int

def encode_observation(
    observation: Observation, out: npt.NDArray[np.uint8] | None = None
) -> npt.NDArray[np.uint8]: ...
def legal_mask(
    observation: Observation, out: npt.NDArray[np.uint8] | None = None
) -> npt.NDArray[np.uint8]: ...
def gb_planes(
    observation: Observation, out: npt.NDArray[np.uint8] | None = None
) -> npt.NDArray[np.uint8]: ...
def action_features(
    observation: Observation,
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.float32]]: ...
def replay_decisions(
    rules: _RulesLike,
    wall: Sequence[int],
    seats: Sequence[int],
    codes: Sequence[int],
    *,
    seed: int = 0,
    dealer: int = 0,
    prevalent_wind: int = 0,
    features: str | None = None,
) -> tuple[
    npt.NDArray[np.uint8],
    npt.NDArray[np.uint8],
    npt.NDArray[np.int16],
    npt.NDArray[np.int8],
    list[int],
]: ...
def action_to_index(action: Action) -> int: ...
def index_to_action(index: int) -> Action: ...

@final
class VecEnv:
    """N tables with one learning seat each (or four in self-play, ``seat="all"``),
    stepped in Rust across threads."""

    def __new__(
        cls,
        rules: _RulesLike | None = None,
        num_envs: int = 1,
        *,
        opponents: str | Sequence[str] | None = None,
        seat: int | Literal["all"] | None = None,
        episode: str | None = None,
        hands: int | None = None,
        seed: int = 0,
        threads: int | None = None,
        autoreset: bool = True,
        record: bool = False,
        expert: str | None = None,
        features: str | None = None,
        history: bool = False,
        oracle: bool = False,
        candidates: bool = False,
    ) -> Self: ...
    def reset(
        self, seed: int | None = None
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]: ...
    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.float32], npt.NDArray[np.bool_]
    ]: ...
    def next_episode(self, index: int) -> None: ...
    def expert_actions(self) -> npt.NDArray[np.int64]: ...
    def sample_legal(
        self, seed: int | None = None, out: npt.NDArray[np.int64] | None = None
    ) -> npt.NDArray[np.int64]: ...
    def finished_hands(self, index: int) -> list[dict[str, Any]]: ...
    def match_seed(self, index: int) -> int: ...
    def round(self, index: int) -> Round: ...
    @property
    def decisions(self) -> int: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def threads(self) -> int: ...
    @property
    def rules_name(self) -> str: ...
    @property
    def obs(self) -> npt.NDArray[np.uint8]: ...
    @property
    def mask(self) -> npt.NDArray[np.uint8]: ...
    @property
    def seat(self) -> npt.NDArray[np.int8]: ...
    @property
    def selfplay(self) -> bool: ...
    @property
    def reward(self) -> npt.NDArray[np.float32]: ...
    @property
    def done(self) -> npt.NDArray[np.bool_]: ...
    @property
    def oracle(self) -> npt.NDArray[np.uint8] | None: ...
    @property
    def tokens(self) -> npt.NDArray[np.uint8] | None: ...
    @property
    def cand_index(self) -> npt.NDArray[np.int16] | None: ...
    @property
    def cand_features(self) -> npt.NDArray[np.float32] | None: ...
