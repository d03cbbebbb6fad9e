"""The rule documents in docs/rules/ stay the reference the code cites.

- Every decision label (G-n, C-n, D-n) and worked-example label (Hn) cited anywhere in the
  code, the tests or the docs is defined in docs/rules/ (in bold where it is stated).
- Every citation ``docs/rules/<page>.md §n`` (or ``... E2``, an example) names a page and a
  section (or example) that exist.
- Nothing cites the rule texts the project started from by their old file names.
- Every option of every preset is documented, and the fan table of docs/rules/gb.md is the
  engine's fan catalog.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import majiang as mj

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
PAGES = (
    "README.md",
    "gb.md",
    "classic.md",
    "huainan.md",
    "botzone.md",
    "glossary.md",
    "adding-a-rule-set.md",
)
SCANNED_DIRS = ("rust", "python", "tests", "benches", "docs", ".ci")
SCANNED_FILES = ("README.md", "pyproject.toml", "Cargo.toml")
SUFFIXES = {".rs", ".py", ".pyi", ".md", ".toml", ".txt", ""}
THIS = Path(__file__).resolve()

# A decision label, possibly continued with slashes (D-4/5/6); a worked example H0-H20
# (with or without the dash). A token inside quotes ('H1') is a tile code, not a label.
DECISION = re.compile(r"(?<![\w'\"-])([GCDB])-(\d+)((?:/\d+)*)\b")
EXAMPLE = re.compile(r"(?<![\w'\"-])H-?(\d+)\b(?!['\"])")
# A definition: a bold run that starts with the label (**G-3**, **D-10 (discard wins).**,
# **H4 (entering 宝吊头).**).
DEFINITION = re.compile(r"\*\*([GCDHB])-?(\d+)\b")
CITATION = re.compile(r"docs/rules/([\w-]+\.md)((?:\s*(?:,|-|and)?\s*§[\d.]*\d)*)")
SECTION_HEADING = re.compile(r"^#+ §([\d.]*\d)\b", re.M)
EXAMPLE_CITATION = re.compile(r"docs/rules/([\w-]+\.md) ([SEH]\d+)\b")


def _scanned() -> list[Path]:
    files = [ROOT / f for f in SCANNED_FILES if (ROOT / f).is_file()]
    for d in SCANNED_DIRS:
        for p in sorted((ROOT / d).rglob("*")):
            if not p.is_file() or p.suffix not in SUFFIXES:
                continue
            rel = p.relative_to(ROOT).parts
            if "data" in rel or "__pycache__" in rel or p.name.endswith(".svg"):
                continue
            files.append(p)
    return files


def _text(p: Path) -> str:
    return p.read_text(encoding="utf-8", errors="replace")


def _cited_labels() -> dict[str, set[str]]:
    """Every label cited anywhere, with the files citing it."""
    out: dict[str, set[str]] = {}
    for p in _scanned():
        rel = str(p.relative_to(ROOT))
        text = _text(p)
        for m in DECISION.finditer(text):
            nums = [m.group(2)] + [n for n in m.group(3).split("/") if n]
            for n in nums:
                out.setdefault(f"{m.group(1)}-{int(n)}", set()).add(rel)
        if p != THIS:
            for m in EXAMPLE.finditer(text):
                out.setdefault(f"H{int(m.group(1))}", set()).add(rel)
    return out


def _defined_labels() -> set[str]:
    defined = set()
    for page in PAGES:
        for m in DEFINITION.finditer(_text(RULES / page)):
            kind, n = m.group(1), int(m.group(2))
            defined.add(f"H{n}" if kind == "H" else f"{kind}-{n}")
    return defined


def test_the_rule_pages_exist():
    for page in PAGES:
        assert (RULES / page).is_file(), f"docs/rules/{page} is missing"


def test_every_cited_label_is_defined():
    cited = _cited_labels()
    defined = _defined_labels()
    # The scan must see the code's labels at all (a broken pattern would pass vacuously).
    assert {"G-1", "C-14", "D-28", "H20"} <= set(cited)
    missing = {label: sorted(files) for label, files in cited.items() if label not in defined}
    assert not missing, f"labels cited but not defined in docs/rules/: {missing}"


def test_each_page_defines_its_own_labels():
    """G-n in gb.md, C-n in classic.md, D-n and Hn in huainan.md, B-n in botzone.md."""
    homes = {
        "G": "gb.md",
        "C": "classic.md",
        "D": "huainan.md",
        "H": "huainan.md",
        "B": "botzone.md",
    }
    for kind, page in homes.items():
        others = [p for p in PAGES if p != page]
        here = {m.group(1) for m in DEFINITION.finditer(_text(RULES / page))}
        assert kind in here, f"{page} defines no {kind} label"
        for other in others:
            stray = [
                m.group(0) for m in DEFINITION.finditer(_text(RULES / other)) if m.group(1) == kind
            ]
            assert not stray, f"{other} defines {stray}, which belong in {page}"


def test_decision_labels_have_an_unbroken_numbering():
    defined = _defined_labels()
    for kind in "GCDB":
        nums = sorted(int(x.split("-")[1]) for x in defined if x.startswith(kind + "-"))
        assert nums == list(range(1, len(nums) + 1)), f"{kind}-n labels: {nums}"
    hs = sorted(int(x[1:]) for x in defined if x.startswith("H"))
    assert hs == list(range(0, 21)), hs


def test_every_citation_of_a_rule_page_resolves():
    bad = []
    seen = 0
    sections = {page: set(SECTION_HEADING.findall(_text(RULES / page))) for page in PAGES}
    for p in _scanned():
        for m in CITATION.finditer(_text(p)):
            seen += 1
            page, secs = m.group(1), re.findall(r"§([\d.]*\d)", m.group(2))
            where = f"{p.relative_to(ROOT)}: {m.group(0)!r}"
            if page not in sections:
                bad.append(f"{where}: no such page")
                continue
            bad += [f"{where}: no §{s}" for s in secs if s not in sections[page]]
        for m in EXAMPLE_CITATION.finditer(_text(p)):
            page, label = m.groups()
            text = _text(RULES / page) if page in sections else ""
            if not re.search(rf"\*\*{label}\b", text):
                bad.append(f"{p.relative_to(ROOT)}: {m.group(0)!r}: no example {label}")
    assert seen >= 20, f"only {seen} citations found: is the pattern broken?"
    assert not bad, "\n".join(bad)


def test_no_reference_to_the_old_rule_texts():
    """The rule texts are cited as docs/rules/<page>.md, never by the file names they had
    outside the repository, nor by a path outside it."""
    old_only = re.compile(r"\bgb-(?:flow|fans)\.md\b")
    bare = re.compile(r"(?<![\w/-])(?:huainan|classic)\.md\b")
    outside = re.compile(r"\.\./shared|shared/rules|shared/seeds")
    bad = []
    for p in _scanned():
        if p == THIS:
            continue
        rel = p.relative_to(ROOT)
        in_rules = rel.parts[:2] == ("docs", "rules")
        for no, line in enumerate(_text(p).splitlines(), 1):
            if old_only.search(line) or outside.search(line):
                bad.append(f"{rel}:{no}: {line.strip()}")
            elif not in_rules and bare.search(line):
                bad.append(f"{rel}:{no}: {line.strip()}")
    assert not bad, "old rule-text references:\n" + "\n".join(bad)


@pytest.mark.parametrize("preset", ["gb", "classic", "huainan"])
def test_every_option_is_documented(preset):
    guides = sorted((ROOT / "docs").glob("*.md"))
    docs = "".join(_text(RULES / page) for page in PAGES) + _text(ROOT / "README.md")
    docs += "".join(_text(p) for p in guides)
    names = set(re.findall(r"`([a-z0-9_]+)", docs))
    for prefix in ("form_", "mult_", "special_"):
        if f"{prefix}*" in docs:
            names |= {k for k in mj.RuleSet(preset).options() if k.startswith(prefix)}
    missing = sorted(set(mj.RuleSet(preset).options()) - names)
    assert not missing, f"{preset} options not named in docs/rules/, docs/ or README.md: {missing}"


def test_the_fan_table_is_the_engine_catalog():
    rows = {}
    for line in _text(RULES / "gb.md").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0].isdigit():
            rows[int(cells[0])] = (cells[1], cells[2], int(cells[3]))
    catalog = {f["id"]: (f["name_zh"], f["name"], f["points"]) for f in mj.fan_catalog()}
    assert rows == catalog
    assert sum(1 for i in rows if i <= 81) == 81
