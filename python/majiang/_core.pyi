"""Type stubs for the Rust extension ``majiang._core``.

Sections follow the Rust binding modules (rust/py/*.rs).
"""

from collections.abc import Iterable, Sequence

TileLike = int | str
HandLike = str | Sequence[int]

# --- errors -------------------------------------------------------------------------

class InvalidHandError(ValueError):
    """Malformed tiles, melds or hand flags; the message names the problem."""

class NotWinningError(ValueError):
    """The tiles are well formed but do not make a winning hand."""

class IllegalActionError(ValueError):
    """An action that is not legal in the current state of a hand."""

class RuleError(ValueError):
    """An unknown rule set, option name or option value."""

# --- tiles --------------------------------------------------------------------------

def parse_tiles(s: str) -> list[int]: ...
def format_tiles(tiles: HandLike) -> str: ...
def tile_name(t: TileLike) -> str: ...
def tile_name_zh(t: TileLike) -> str: ...
def tile_glyph(t: TileLike) -> str: ...

class Meld:
    def __init__(self, kind: str, tiles: HandLike) -> None: ...
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

class RuleSet:
    def __init__(self, name: str = "gb", **options: bool | int | str) -> None: ...
    @property
    def name(self) -> str: ...
    def options(self) -> dict[str, bool | int | str]: ...
    def replace(self, **options: bool | int | str) -> RuleSet: ...

RulesLike = str | RuleSet
MeldsLike = Iterable[Meld]

# --- oracle -------------------------------------------------------------------------

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

def shanten(
    hand: HandLike, melds: MeldsLike = (), *, rules: RulesLike = "gb", wild: TileLike | None = None
) -> int: ...
def shanten_forms(
    hand: HandLike, melds: MeldsLike = (), *, rules: RulesLike = "gb", wild: TileLike | None = None
) -> dict[str, int]: ...
def useful_tiles(
    hand: HandLike,
    melds: MeldsLike = (),
    *,
    rules: RulesLike = "gb",
    wild: TileLike | None = None,
    form: str | None = None,
) -> list[int]: ...
def waits(
    hand: HandLike, melds: MeldsLike = (), *, rules: RulesLike = "gb", wild: TileLike | None = None
) -> list[int]: ...
def is_win(
    hand: HandLike, melds: MeldsLike = (), *, rules: RulesLike = "gb", wild: TileLike | None = None
) -> bool: ...
def shanten_batch(counts: npt.NDArray[np.uint8]) -> npt.NDArray[np.int8]: ...
def _warm_up() -> None: ...

# --- fan ----------------------------------------------------------------------------

# --- play ---------------------------------------------------------------------------

# --- huainan ------------------------------------------------------------------------

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

def bao_for_indicator(indicator: TileLike) -> int: ...
def bao_indicator_index(s2: int) -> int: ...
def is_bao_diaotou(
    hand: HandLike,
    melds: MeldsLike | None = None,
    *,
    wild: TileLike,
    rules: RulesLike | None = None,
) -> bool: ...
def score_huainan(
    hand: HandLike,
    win_tile: TileLike | None = None,
    melds: MeldsLike | None = None,
    *,
    wild: TileLike,
    self_drawn: bool = False,
    replacement: bool = False,
    robbed_kong: bool = False,
    heavenly: bool = False,
    earthly: bool = False,
    bao_discarded: int = 0,
    passes: int = 0,
    rules: RulesLike | None = None,
) -> HuainanScore: ...
def score_huainan_special(kind: str, *, rules: RulesLike | None = None) -> HuainanScore: ...
