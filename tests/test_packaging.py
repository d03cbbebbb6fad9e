"""What a user installing the package meets: one version everywhere, the licence, and
install commands that name extras the package has."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import majiang as mj

tomllib = pytest.importorskip("tomllib")  # Python 3.11 and newer

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# An install command with an extra (a placeholder such as majiang[EXTRA] is not one).
INSTALL = re.compile(r"pip install ['\"\\]*majiang\[([a-z]+)\]")


def test_one_version_everywhere():
    version = PYPROJECT["project"]["version"]
    cargo = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))
    assert cargo["package"]["version"] == version
    assert mj.__version__ == version
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    newest = re.search(r"^## \[(\d+\.\d+\.\d+)\]", changelog, re.M)
    assert newest and newest.group(1) == version, "CHANGELOG.md's newest release"


def test_the_licence_is_the_one_the_metadata_names():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "the majiang authors" in text
    assert PYPROJECT["project"]["license"] == {"text": "MIT"}


def test_every_install_command_names_an_extra_that_exists():
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    files = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
    for folder in ("python", "benches", "scripts"):
        files += (ROOT / folder).rglob("*.py")
    named = {}
    for path in files:
        for extra in INSTALL.findall(path.read_text(encoding="utf-8")):
            named.setdefault(extra, []).append(str(path.relative_to(ROOT)))
    unknown = {e: where for e, where in named.items() if e not in extras}
    assert not unknown, f"install commands naming extras pyproject.toml lacks: {unknown}"
    assert {"ui", "web", "rl", "ray", "docs"} <= extras


def test_messages_quote_the_extra():
    # An unquoted majiang[rl] is a glob pattern to zsh and fails there.
    bare = re.compile(r"pip install majiang\[")
    found = [
        str(p.relative_to(ROOT))
        for folder in ("python", "benches", "scripts")
        for p in (ROOT / folder).rglob("*.py")
        if bare.search(p.read_text(encoding="utf-8"))
    ]
    assert not found, f"unquoted install commands in {found}"


@pytest.mark.parametrize(
    ("name", "blocked", "package"),
    [("MahjongEnv", "gymnasium", "Gymnasium"), ("MahjongAECEnv", "pettingzoo", "PettingZoo")],
)
def test_a_missing_rl_extra_names_its_install_command(name, blocked, package):
    code = f"import sys\nsys.modules[{blocked!r}] = None\nimport majiang as mj\nmj.env.{name}\n"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode != 0
    assert "ImportError" in proc.stderr and package in proc.stderr, proc.stderr
    assert 'pip install "majiang[rl]"' in proc.stderr, proc.stderr
