"""The Rust core's layers: each top-level module depends only on the layers below it, so
the modules form no cycle; the shared flow of a hand names no rule set.

Read from the sources (code outside test modules; doc comments are not code), so that a
new dependency that breaks the order fails here, naming the modules.
"""

from __future__ import annotations

import re
from pathlib import Path

RUST = Path(__file__).resolve().parent.parent / "rust"

# Lowest first; a module may use the modules of the layers before its own.
LAYERS = [
    ["error"],
    ["tile"],
    ["hand", "options", "table", "wall"],
    ["shanten", "fan", "seed"],
    ["huainan"],
    ["rules"],
    ["round"],
    ["policy"],
    ["sim"],
    ["env"],
]
# Files compiled for the tests only (test modules of their own file).
TEST_FILES = {"tests.rs", "round_tests.rs", "conformance.rs", "toy.rs"}


def _code(path: Path) -> str:
    """The file's code without `#[cfg(test)]` items and comments."""
    s = path.read_text()
    out, i = [], 0
    while (j := s.find("#[cfg(test)]", i)) >= 0:
        out.append(s[i:j])
        brace, semi = s.find("{", j), s.find(";", j)
        if semi != -1 and (brace == -1 or semi < brace):
            i = semi + 1
            continue
        depth, p = 0, brace
        while p < len(s):
            depth += {"{": 1, "}": -1}.get(s[p], 0)
            if s[p] == "}" and depth == 0:
                break
            p += 1
        i = p + 1
    out.append(s[i:])
    return re.sub(r"//[^\n]*", "", "".join(out))


def _files(module: str) -> list[Path]:
    single = RUST / f"{module}.rs"
    if single.exists():
        return [single]
    return [p for p in (RUST / module).rglob("*.rs") if p.name not in TEST_FILES]


def _deps(module: str) -> set[str]:
    known = {m for layer in LAYERS for m in layer}
    found: set[str] = set()
    for f in _files(module):
        found |= set(re.findall(r"crate::(\w+)", _code(f)))
    return (found & known) - {module}


def test_every_module_is_in_a_layer() -> None:
    known = {m for layer in LAYERS for m in layer}
    modules = {p.stem for p in RUST.glob("*.rs")} | {p.name for p in RUST.iterdir() if p.is_dir()}
    assert modules - {"lib", "py", "tests"} == known


def test_modules_depend_only_on_lower_layers() -> None:
    rank = {m: i for i, layer in enumerate(LAYERS) for m in layer}
    bad = [
        f"{m} (layer {rank[m]}) uses {d} (layer {rank[d]})"
        for m in rank
        for d in sorted(_deps(m))
        if rank[d] >= rank[m]
    ]
    assert not bad, "\n".join(bad)


def test_the_flow_and_the_shared_types_name_no_rule_set() -> None:
    round_dir = RUST / "round"
    shared = [round_dir / f for f in ("observation.rs", "settlement.rs", "phase.rs", "seat.rs")]
    flow = list((round_dir / "state").glob("*.rs"))
    bad = []
    for f in shared + flow:
        code = _code(f)
        if re.search(r"huainan|Huainan|\bgb\b|classic", code):
            bad.append(str(f.relative_to(RUST)))
    assert not bad, bad
    # The rule sets read the hand through Facts, never the round's state.
    for f in (round_dir / "ruleset").glob("*.rs"):
        assert "state::Round" not in _code(f), f
