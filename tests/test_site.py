"""The README is a landing page that stays true to the project and the site it points to.

- It starts with the two set-up commands, and the second is the test command `.ci/run`
  runs, verbatim.
- Every file it links to exists, and it stays short.
- Every page under docs/ is in the site's navigation (mkdocs.yml), and the site builds with
  warnings as errors when MkDocs is installed (the ``docs`` extra; `.ci/run` always builds
  it).
- The figures the simulation guide quotes from docs/simulate-1m.txt are the file's.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CI = ROOT / ".ci" / "run"
DOCS = ROOT / "docs"
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _readme_commands() -> list[str]:
    """The commands of the README's opening code block, comments removed."""
    text = README.read_text(encoding="utf-8")
    m = re.match(r"# majiang\n\n```bash\n(.*?)\n```\n", text, re.S)
    assert m, "README.md must start with its title and then the set-up commands in a bash block"
    return [line.split("#")[0].strip() for line in m.group(1).splitlines()]


def test_readme_starts_with_the_two_setup_commands():
    play, test = _readme_commands()
    assert play.startswith('pip install ".[ui]"') and play.endswith("majiang play")
    assert test.startswith('pip install ".[test]"')
    assert "cargo test" in test and "python -m pytest" in test


def test_ci_runs_the_readme_test_command_verbatim():
    test = _readme_commands()[1]
    ci_lines = [line.strip() for line in CI.read_text(encoding="utf-8").splitlines()]
    assert test in ci_lines, f".ci/run does not run the README's test command: {test}"


def test_every_file_the_readme_links_exists():
    missing = []
    for target in LINK.findall(README.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = target.split("#")[0]
        if not (ROOT / path).exists():
            missing.append(target)
    assert not missing, f"README.md links to files that do not exist: {missing}"


def test_readme_links_every_guide():
    linked = set(LINK.findall(README.read_text(encoding="utf-8")))
    for page in ("install", "playing", "oracle", "fans", "simulation", "botzone", "rl", "bots"):
        assert f"docs/{page}.md" in linked, f"README.md does not link docs/{page}.md"


def test_readme_is_a_landing_page():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 300, f"README.md has {lines} lines; the details belong in docs/"


def test_every_docs_page_is_in_the_navigation():
    nav = set(re.findall(r"([\w/.-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), re.M))
    pages = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")}
    assert pages - nav == set(), f"pages missing from mkdocs.yml's nav: {sorted(pages - nav)}"
    assert nav - pages == set(), f"nav entries without a page: {sorted(nav - pages)}"


# The build runs in this interpreter (`python -m mkdocs`): MkDocs must be importable here,
# whatever an `mkdocs` on the PATH belongs to.
@pytest.mark.skipif(
    importlib.util.find_spec("mkdocs") is None, reason="MkDocs is not installed (docs extra)"
)
def test_the_site_builds_with_warnings_as_errors(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "api" / "oracle" / "index.html").exists()


def test_the_simulation_guide_quotes_the_million_hand_summary():
    summary = (DOCS / "simulate-1m.txt").read_text(encoding="utf-8")

    def figure(label: str) -> float:
        m = re.search(rf"^{label}\s+([\d.]+)", summary, re.M)
        assert m, f"docs/simulate-1m.txt has no line {label!r}"
        return float(m.group(1))

    assert summary.startswith("hands            1,000,000  (rules gb, bots efficiency")
    guide = (DOCS / "simulation.md").read_text(encoding="utf-8")
    quoted = {
        "win rate": f"{figure('win rate'):.1f}% of hands are won",
        "mean fan": f"mean {figure('mean fan'):.1f} fan",
        "self-draw share": f"{figure('self-draw share'):.1f}% of wins",
        "mean hand length": f"{figure('mean hand length'):.1f} discards per hand",
    }
    for text in quoted.values():
        assert text in " ".join(guide.split()), f"docs/simulation.md should say {text!r}"


def test_every_public_module_has_an_api_page():
    """A module of the public API (not the command line, the terminal game's screens or a
    private module) is documented by a ``::: majiang.<module>`` page under docs/api/."""
    package = ROOT / "python" / "majiang"
    internal = {"__init__", "__main__", "cli", "commands", "ui"}
    modules = {
        p.stem if p.is_file() else p.name
        for p in package.iterdir()
        if (p.suffix == ".py" or (p / "__init__.py").exists()) and not p.name.startswith("_")
    } - internal
    documented = set()
    for page in (DOCS / "api").glob("*.md"):
        documented |= set(re.findall(r"^::: majiang\.(\w+)", page.read_text(), re.M))
    missing = sorted(modules - documented)
    assert not missing, f"modules without a page under docs/api/ (and mkdocs.yml's nav): {missing}"
    assert "_core" in documented
