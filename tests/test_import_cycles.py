"""No import cycles inside cardlab.

The graph is built from the source text (no module is imported). Two graphs:

- *on import*: an edge ``a -> b`` for every ``import`` / ``from ... import`` that runs
  when ``a`` is imported: at module level, also under a module-level ``if``, ``try`` or
  ``with``, but not inside functions or classes. A cycle here can break an import.
  None is allowed.
- *with deferred imports*: also the imports inside functions and classes. An import
  deferred into a function hides a cycle without removing it (the two modules still
  need each other); the cycles of this graph are the ones issue 21 asks to remove, and
  the few still known are listed in ``KNOWN_CYCLES``.

Imports under ``if TYPE_CHECKING:`` never run and are left out of both. A third graph
counts them too (*typed*): two modules that name each other's types still know each
other, so a cycle there is a design cycle all the same; the few still known are listed
in ``KNOWN_TYPED_CYCLES``. And the *packages* (``cardlab.table``, ``cardlab.solve``, ...,
each with all its modules) form no cycle at all in the typed graph: each folder looks
only down (``analysis`` above ``solve`` above ``table``).
``from pkg import name`` points at ``pkg.name`` when that is a module, else at ``pkg``.
A cycle is a strongly connected component of two modules or more.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

# Cycles through deferred imports known today, each as the set of its modules. Delete
# an entry once its cycle is gone: the test fails while an entry names a cycle that no
# longer exists.
KNOWN_CYCLES: list[frozenset[str]] = []

# Cycles known today once TYPE_CHECKING imports count, the same way.
KNOWN_TYPED_CYCLES: list[frozenset[str]] = [
    # the showdown names the hand's type; the hand settles its pots through the showdown
    frozenset({"cardlab.table.showdown", "cardlab.table.state"}),
    # the kernel bundle names the look-up modules' arrays, and they name the bundle
    frozenset(
        {
            "cardlab.poker._kernels.bundle",
            "cardlab.poker._kernels.hashed",
            "cardlab.poker._kernels.omaha_lookup",
        }
    ),
]
# The folders that must form a chain, lowest first (each imports only those before it).
CHAIN = ("cardlab.table", "cardlab.solve", "cardlab.analysis")


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root`` (a ``src`` folder): name -> file."""
    out: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(
    body: Iterable[ast.stmt], deferred: bool, typed: bool = False
) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements in ``body``: those run on import (module level, through
    ``if``, ``try`` and ``with`` blocks), and with ``deferred`` also those inside every
    def and class; those under ``if TYPE_CHECKING`` only with ``typed``."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test) and not typed:
            yield from _imports(node.orelse, deferred, typed)
        elif not deferred and isinstance(
            node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
        ):
            continue
        else:
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                block = getattr(node, field, None)
                if isinstance(block, list):
                    yield from _imports(block, deferred, typed)


def import_graph(
    root: Path, package: str, deferred: bool, typed: bool = False
) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports on import, with ``deferred``
    also inside its functions and classes, with ``typed`` also under TYPE_CHECKING."""
    modules = module_names(root, package)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in _imports(tree.body, deferred, typed):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:  # relative: from the module's own package upwards
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    base = here[: len(here) - (node.level - 1)]
                    prefix = ".".join(base + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                targets = []
                for alias in node.names:
                    sub = f"{prefix}.{alias.name}"
                    targets.append(sub if sub in modules else prefix)
            for target in targets:
                # "import a.b.c" binds a module that exists; walk up to the nearest one
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of two modules or more (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_checker_finds_cycles_and_tells_deferred_imports(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg.b import thing\n",
            "pkg/b.py": "from . import c\ntry:\n    import pkg.a\nexcept ImportError:\n    pass\n",
            "pkg/c.py": "def f():\n    import pkg.d\n",
            "pkg/d.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n"
                "class K:\n    from pkg import c\n"
            ),
            "pkg/sub/__init__.py": "from .e import x\n",
            "pkg/sub/e.py": "from .. import sub\n",
        },
    )
    graph = import_graph(tmp_path, "pkg", deferred=False)
    assert graph["pkg.a"] == {"pkg.b"}
    assert graph["pkg.b"] == {"pkg.a", "pkg.c"}
    assert graph["pkg.c"] == set()  # the import inside a function is deferred
    assert graph["pkg.d"] == set()  # TYPE_CHECKING never runs; the class body is deferred
    assert graph["pkg.sub"] == {"pkg.sub.e"}
    assert graph["pkg.sub.e"] == {"pkg.sub"}
    assert sorted(map(sorted, cycles(graph))) == [["pkg.a", "pkg.b"], ["pkg.sub", "pkg.sub.e"]]

    every = import_graph(tmp_path, "pkg", deferred=True)
    assert every["pkg.c"] == {"pkg.d"}
    assert every["pkg.d"] == {"pkg.c"}  # still not the TYPE_CHECKING import of pkg.a
    assert frozenset({"pkg.c", "pkg.d"}) in cycles(every)

    typed = import_graph(tmp_path, "pkg", deferred=True, typed=True)
    assert typed["pkg.d"] == {"pkg.a", "pkg.c"}
    assert frozenset({"pkg.a", "pkg.b", "pkg.c", "pkg.d"}) in cycles(typed)


def test_cycles_of_three() -> None:
    graph = {"x": {"y"}, "y": {"z"}, "z": {"x", "w"}, "w": set()}
    assert cycles(graph) == [frozenset({"x", "y", "z"})]


def _names(found: Iterable[frozenset[str]]) -> str:
    return "; ".join(" <-> ".join(sorted(c)) for c in found)


def test_cardlab_imports_no_cycle_on_import() -> None:
    graph = import_graph(SRC, "cardlab", deferred=False)
    assert "cardlab.poker.rules" in graph  # the walk found the package
    assert "cardlab.poker.keys" in graph["cardlab.poker.batch"]
    assert "cardlab.poker.rules" not in graph["cardlab.poker.batch"]  # TYPE_CHECKING only
    assert cycles(graph) == [], _names(cycles(graph))


def test_cardlab_has_no_import_cycles_through_deferred_imports() -> None:
    graph = import_graph(SRC, "cardlab", deferred=True)
    found = set(cycles(graph))
    new = found - set(KNOWN_CYCLES)
    assert not new, f"import cycles: {_names(new)}"
    gone = set(KNOWN_CYCLES) - found
    if gone:
        pytest.fail(f"these known cycles are gone, delete them from KNOWN_CYCLES: {_names(gone)}")


def package_graph(graph: dict[str, set[str]], package: str) -> dict[str, set[str]]:
    """The graph of ``package``'s direct subpackages and modules (``cardlab.table`` with
    every module under it): an edge where any module of one imports one of the other."""

    def top(module: str) -> str:
        return ".".join(module.split(".")[: package.count(".") + 2])

    out: dict[str, set[str]] = {}
    for module, targets in graph.items():
        out.setdefault(top(module), set()).update(top(t) for t in targets if top(t) != top(module))
    return out


def test_the_checker_counts_type_only_imports_when_asked(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/low/__init__.py": "",
            "pkg/low/a.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                "    from pkg.high.b import B\nelse:\n    import json\n"
            ),
            "pkg/high/__init__.py": "",
            "pkg/high/b.py": "from pkg.low.a import thing\n",
        },
    )
    assert import_graph(tmp_path, "pkg", deferred=True)["pkg.low.a"] == set()
    typed = import_graph(tmp_path, "pkg", deferred=True, typed=True)
    assert typed["pkg.low.a"] == {"pkg.high.b"}
    assert cycles(typed) == [frozenset({"pkg.low.a", "pkg.high.b"})]
    folders = package_graph(typed, "pkg")
    assert folders["pkg.low"] == {"pkg.high"} and folders["pkg.high"] == {"pkg.low"}
    assert cycles(folders) == [frozenset({"pkg.low", "pkg.high"})]


def test_cardlab_has_no_import_cycles_counting_type_only_imports() -> None:
    graph = import_graph(SRC, "cardlab", deferred=True, typed=True)
    found = set(cycles(graph))
    new = found - set(KNOWN_TYPED_CYCLES)
    assert not new, f"import cycles (TYPE_CHECKING imports counted): {_names(new)}"
    gone = set(KNOWN_TYPED_CYCLES) - found
    if gone:
        pytest.fail(
            f"these known cycles are gone, delete them from KNOWN_TYPED_CYCLES: {_names(gone)}"
        )


def test_cardlab_folders_form_no_cycle_and_the_chain_looks_down() -> None:
    """No two folders (or top-level modules) import each other, even for types only;
    ``table``, ``solve`` and ``analysis`` each import only those below them."""
    graph = import_graph(SRC, "cardlab", deferred=True, typed=True)
    folders = package_graph(graph, "cardlab")
    assert {"cardlab.table", "cardlab.solve", "cardlab.analysis", "cardlab.web"} <= set(folders)
    assert cycles(folders) == [], _names(cycles(folders))
    for k, low in enumerate(CHAIN):
        above = set(CHAIN[k + 1 :])
        upward = {
            (module, target)
            for module, targets in graph.items()
            if module == low or module.startswith(low + ".")
            for target in targets
            if any(target == high or target.startswith(high + ".") for high in above)
        }
        assert not upward, f"{low} imports from above it: {sorted(upward)}"


# --- the web table room: a facade over parts (issue 31) ------------------------------------

ROOM = "cardlab.web.table_room"
# the modules above the room, which create or serve rooms: they may name Room
ROOM_USERS = frozenset(
    {
        "cardlab.web.table_manager",
        "cardlab.web.table_routes",
        "cardlab.web.table_relay",
        "cardlab.web.mtt",  # a multi-table tournament drives several rooms
    }
)


def _web_table_modules(graph: dict[str, set[str]]) -> set[str]:
    return {m for m in graph if m.startswith("cardlab.web.table")}


def test_the_web_table_modules_have_no_cycle_counting_type_only_imports() -> None:
    graph = import_graph(SRC, "cardlab", deferred=True, typed=True)
    web = _web_table_modules(graph)
    assert ROOM in web and "cardlab.web.table_hand" in web
    local = {m: graph[m] & web for m in web}
    assert cycles(local) == [], _names(cycles(local))


def test_no_part_of_the_room_imports_the_room() -> None:
    graph = import_graph(SRC, "cardlab", deferred=True, typed=True)
    importers = {m for m, targets in graph.items() if ROOM in targets}
    assert importers <= ROOM_USERS, sorted(importers - ROOM_USERS)
    for users in ROOM_USERS:  # and the room's users are not imported by its parts
        below = {m for m in _web_table_modules(graph) - ROOM_USERS if users in graph[m]}
        assert not below, f"{users} is imported by {sorted(below)}"


def private_reads(path: Path) -> list[str]:
    """``x._name`` read anywhere in ``path`` on anything but ``self`` or ``cls``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        ):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_checker_finds_private_reads(tmp_path: Path) -> None:
    _write(tmp_path, {"m.py": "def f(room, self):\n    return room._task, self._ok, x.__doc__\n"})
    assert private_reads(tmp_path / "m.py") == ["m.py:2: room._task"]


def test_no_web_module_reads_another_objects_private_state() -> None:
    found = [
        line for p in sorted((SRC / "cardlab" / "web").glob("*.py")) for line in private_reads(p)
    ]
    assert found == [], "\n".join(found)


def test_no_test_or_benchmark_reads_the_rooms_private_state() -> None:
    """The room's parts are public attributes; a test reaching ``room._x`` would tie it
    to the facade's insides (the parts are tested alone, with their own constructors)."""
    root = SRC.parent
    found = [
        line
        for folder in ("tests", "benchmarks")
        for p in sorted((root / folder).rglob("*.py"))
        for line in private_reads(p)
        if ": room._" in line or ": self.room._" in line
    ]
    assert found == [], "\n".join(found)


def test_the_room_is_a_small_facade() -> None:
    """The room wires its parts and passes requests on: its state, saving, closing and
    each action's steps are parts of their own (issue 31)."""
    room = SRC / "cardlab" / "web" / "table_room.py"
    lines = len(room.read_text(encoding="utf-8").splitlines())
    assert lines <= 250, f"table_room.py has {lines} lines: move a concern into a part"
    tree = ast.parse(room.read_text(encoding="utf-8"))
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Room"]
    for node in ast.walk(cls):  # every method but __init__ is a few lines
        if isinstance(node, ast.FunctionDef) and node.name != "__init__":
            size = (node.end_lineno or node.lineno) - node.lineno + 1
            assert size <= 20, f"Room.{node.name} has {size} lines"
