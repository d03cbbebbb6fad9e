"""``python/majiang/_core.pyi`` declares exactly what the compiled ``majiang._core`` exports.

The stub is read with :mod:`ast` and compared with the module both ways: every public
name of the module is declared, every function, class and constant the stub declares
exists, each class has the public methods and attributes the stub gives it and no other,
and where the runtime knows a signature (PyO3's ``__text_signature__``) the parameter
names, their kinds and which of them have defaults match.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import majiang._core as core

STUB = Path(__file__).resolve().parent.parent / "python" / "majiang" / "_core.pyi"


def _stub() -> ast.Module:
    return ast.parse(STUB.read_text(encoding="utf-8"))


def _functions(body) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in body if isinstance(n, ast.FunctionDef)}


def _classes() -> dict[str, ast.ClassDef]:
    return {n.name: n for n in _stub().body if isinstance(n, ast.ClassDef)}


def _constants() -> set[str]:
    """Names the stub declares as values of the module (``N: int``), not type aliases."""
    return {
        n.target.id
        for n in _stub().body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.value is None
    }


def _reexports() -> set[str]:
    """Names the stub re-exports from another module (``from .errors import X as X``)."""
    return {
        a.asname or a.name
        for n in _stub().body
        if isinstance(n, ast.ImportFrom)
        for a in n.names
        if a.asname == a.name
    }


def _public(names) -> set[str]:
    return {n for n in names if not n.startswith("_")}


def _runtime_members(cls: type) -> set[str]:
    """The public members a class defines itself (not inherited from object or an
    exception base)."""
    return _public(cls.__dict__)


def _stub_members(node: ast.ClassDef) -> set[str]:
    names = set(_functions(node.body))
    names |= {
        n.target.id
        for n in node.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }
    return names


def _stub_params(fn: ast.FunctionDef, *, method: bool) -> list[tuple[str, str, bool]]:
    a = fn.args
    out = []
    positional = a.posonlyargs + a.args
    first_default = len(positional) - len(a.defaults)
    for i, p in enumerate(positional):
        kind = "positional" if p in a.posonlyargs else "either"
        out.append((p.arg, kind, i >= first_default))
    if a.vararg:
        out.append((a.vararg.arg, "var_positional", False))
    for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True):
        out.append((p.arg, "keyword", d is not None))
    if a.kwarg:
        out.append((a.kwarg.arg, "var_keyword", False))
    if method and out and out[0][0] in ("self", "cls"):
        out = out[1:]
    return out


_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "positional",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "either",
    inspect.Parameter.VAR_POSITIONAL: "var_positional",
    inspect.Parameter.KEYWORD_ONLY: "keyword",
    inspect.Parameter.VAR_KEYWORD: "var_keyword",
}


def _runtime_params(obj) -> list[tuple[str, str, bool]] | None:
    """The parameters the runtime reports, or None when it knows no signature."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    out = []
    for p in sig.parameters.values():
        if p.name in ("self", "cls", "$self", "$cls", "type", "$type"):
            continue
        out.append((p.name, _KINDS[p.kind], p.default is not inspect.Parameter.empty))
    return out


def _compatible(stub, runtime) -> bool:
    """The same names in the same order with the same defaults; a stub's plain parameter
    may stand for the runtime's positional-only one (PyO3 marks some so)."""
    if [n for n, _, _ in stub] != [n for n, _, _ in runtime]:
        return False
    for (_, sk, sd), (_, rk, rd) in zip(stub, runtime, strict=True):
        if sd != rd:
            return False
        if sk != rk and {sk, rk} != {"either", "positional"}:
            return False
    return True


def test_every_export_is_declared():
    declared = set(_functions(_stub().body)) | set(_classes()) | _constants() | _reexports()
    missing = sorted(_public(dir(core)) - declared)
    assert not missing, f"exported by majiang._core but not in _core.pyi: {missing}"


def test_every_declaration_exists():
    stub = _stub()
    declared = set(_functions(stub.body)) | set(_classes()) | _constants()
    missing = sorted(n for n in declared | _reexports() if not hasattr(core, n))
    assert not missing, f"declared in _core.pyi but not exported: {missing}"
    for name in _constants():
        assert not callable(getattr(core, name)), f"{name} is declared as a value"
    for name in _functions(stub.body):
        assert callable(getattr(core, name)), f"{name} is declared as a function"
    for name in _classes():
        assert isinstance(getattr(core, name), type), f"{name} is declared as a class"


@pytest.mark.parametrize("name", sorted(_classes()))
def test_class_members_match(name):
    node = _classes()[name]
    cls = getattr(core, name)
    stub = _stub_members(node)
    runtime = _runtime_members(cls)
    assert not (runtime - stub), f"{name}: not in the stub: {sorted(runtime - stub)}"
    assert not (_public(stub) - runtime), (
        f"{name}: in the stub only: {sorted(_public(stub) - runtime)}"
    )
    dunders = {m for m in stub if m.startswith("__") and m != "__init__"}
    absent = sorted(m for m in dunders if not hasattr(cls, m))
    assert not absent, f"{name}: the stub declares {absent}, the class has none"


def test_function_signatures_match():
    bad = []
    for name, fn in _functions(_stub().body).items():
        runtime = _runtime_params(getattr(core, name))
        if runtime is None:
            continue
        stub = _stub_params(fn, method=False)
        if not _compatible(stub, runtime):
            bad.append(f"{name}: stub {stub}, runtime {runtime}")
    assert not bad, "\n".join(bad)


def test_method_signatures_match():
    bad = []
    checked = 0
    for cname, node in _classes().items():
        cls = getattr(core, cname)
        for mname, fn in _functions(node.body).items():
            decorators = {d.id for d in fn.decorator_list if isinstance(d, ast.Name)}
            if "property" in decorators:
                continue
            # The constructor (declared as __new__, as pyo3 defines it) is the class signature.
            target = cls if mname in ("__init__", "__new__") else cls.__dict__.get(mname)
            if target is None or type(target).__name__ == "wrapper_descriptor":
                # A slot such as __contains__ reports CPython's generic signature.
                continue
            runtime = _runtime_params(target)
            if runtime is None:
                continue
            checked += 1
            stub = _stub_params(fn, method="staticmethod" not in decorators)
            if not _compatible(stub, runtime):
                bad.append(f"{cname}.{mname}: stub {stub}, runtime {runtime}")
    assert checked > 10, f"only {checked} methods had a runtime signature"
    assert not bad, "\n".join(bad)


def test_properties_are_properties():
    """What the stub declares as a property is a data descriptor, and a method is not."""
    bad = []
    for cname, node in _classes().items():
        cls = getattr(core, cname)
        for mname, fn in _functions(node.body).items():
            member = cls.__dict__.get(mname)
            if member is None or mname.startswith("__"):
                continue
            decorators = {d.id for d in fn.decorator_list if isinstance(d, ast.Name)}
            is_data = hasattr(member, "__set__") or inspect.isgetsetdescriptor(member)
            if ("property" in decorators) != is_data:
                bad.append(f"{cname}.{mname}")
    assert not bad, f"property or not, stub and class disagree: {bad}"
