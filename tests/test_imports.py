"""The package's modules import without cycles held together by import order.

Each module is imported first in a fresh interpreter whose ``majiang`` package is an empty
shell (its ``__init__`` not run), so a module that works only because another one was
imported before it fails here. And the bot packages (``majiang.bots``, whose
``BotzoneBot`` comes from ``majiang.botzone``, and ``majiang.botzone``, whose player runs
the built-in bots) import each other only at the top of a module: no import inside a
function and none after the module's code has begun.
"""

from __future__ import annotations

import ast
import importlib.util
import pkgutil
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import majiang

PACKAGE = Path(majiang.__file__).parent

#: Imports ``sys.argv[1]`` with ``majiang`` an empty package: nothing else imported first.
ALONE = textwrap.dedent(
    """
    import importlib, importlib.util, sys, types
    spec = importlib.util.find_spec("majiang")
    shell = types.ModuleType("majiang")
    shell.__path__ = list(spec.submodule_search_locations)
    shell.__spec__ = spec
    shell.__file__ = spec.origin
    sys.modules["majiang"] = shell
    importlib.import_module(sys.argv[1])
    """
)

#: Modules that need an optional dependency, with that dependency.
OPTIONAL = {
    "majiang.ui": "textual",
    "majiang.env.gym": "gymnasium",
    "majiang.env.aec": "pettingzoo",
    "majiang.env.sb3": "stable_baselines3",
}


def modules() -> list[str]:
    names = [m.name for m in pkgutil.walk_packages([str(PACKAGE)], "majiang.")]
    # __main__ runs the command line when imported.
    return [n for n in names if not n.endswith("__main__")]


def _available(name: str) -> bool:
    for prefix, dependency in OPTIONAL.items():
        if name == prefix or name.startswith(prefix + "."):
            return importlib.util.find_spec(dependency) is not None
    return True


def test_every_module_imports_alone_in_a_fresh_interpreter():
    names = [n for n in modules() if _available(n)]
    assert "majiang.bots" in names and "majiang.botzone.external" in names

    def alone(name: str) -> tuple[str, str]:
        r = subprocess.run(
            [sys.executable, "-c", ALONE, name], capture_output=True, text=True, timeout=120
        )
        return name, "" if r.returncode == 0 else r.stderr.strip().splitlines()[-1]

    with ThreadPoolExecutor(4) as pool:
        failed = [(n, err) for n, err in pool.map(alone, names) if err]
    assert not failed, failed


def _majiang_imports(path: Path) -> tuple[list[int], list[int]]:
    """Line numbers of imports of majiang modules inside functions, and of imports at
    module level after the first function or class."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def ours(node: ast.AST) -> bool:
        if isinstance(node, ast.ImportFrom):
            return node.level > 0 or (node.module or "").startswith("majiang")
        if isinstance(node, ast.Import):
            return any(a.name.split(".")[0] == "majiang" for a in node.names)
        return False

    inner = [
        sub.lineno
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for sub in ast.walk(node)
        if ours(sub)
    ]
    late, begun = [], False
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            begun = True
        elif begun and ours(node):
            late.append(node.lineno)
    return inner, late


@pytest.mark.parametrize("package", ["bots", "botzone"])
def test_the_bot_packages_import_only_at_the_top(package):
    for path in sorted((PACKAGE / package).glob("*.py")):
        inner, late = _majiang_imports(path)
        assert not inner, f"{path.name}: imports inside a function at lines {inner}"
        assert not late, f"{path.name}: imports after the module's code at lines {late}"
