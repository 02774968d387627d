"""The packages only look down, and no modules import each other in a circle.

Layers, lowest first: ``table`` (the game, standard library only) < ``vision`` (frames to table events) <
``display`` (scoreboard, panel, speech) < ``companion`` (the command line and the main loop) < ``league``
(the league board and its simulation; found through an entry point, like the lab) < ``lab`` (what makes
and judges the models; never imported by the runtime, which finds its commands through entry points).
Every ``import`` counts, wherever it stands in a module (inside functions and ``TYPE_CHECKING`` blocks
too): a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["table", "vision", "display", "companion", "league", "lab"]


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, root: Path, known: set[str]) -> set[str]:
    """The project modules ``path`` imports (``from a.b import c`` counts as ``a.b.c`` when that is a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    this = module_name(path, root)
    package = this if path.name == "__init__.py" else this.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != this:
                found.add(name)
    return found


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    files = [p for layer in LAYERS for p in (root / layer).rglob("*.py")]
    known = {module_name(p, root) for p in files}
    return {module_name(p, root): imported_modules(p, root, known) for p in files}


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    rank = {name: i for i, name in enumerate(LAYERS)}
    return sorted(
        f"{mod} imports {dep}"
        for mod, deps in graph.items()
        for dep in deps
        if rank[dep.split(".")[0]] > rank[mod.split(".")[0]]
    )


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_layer_imports_a_higher_one() -> None:
    assert upward_imports(import_graph()) == []


def test_no_import_circles() -> None:
    assert circles(import_graph()) == []


def test_the_runtime_reaches_the_lab_only_through_entry_points() -> None:
    graph = import_graph()
    runtime = [m for m in graph if m.split(".")[0] != "lab"]
    assert runtime and all(not any(d.startswith("lab") for d in graph[m]) for m in runtime)


@pytest.mark.parametrize(
    ("files", "expected_up", "expected_circle"),
    [
        ({"vision/a.py": "from companion.errors import UserError\n"}, ["vision.a imports companion.errors"], []),
        ({"table/a.py": "def f():\n    import display.b\n", "display/b.py": ""}, ["table.a imports display.b"], []),
        ({"vision/a.py": "from vision import b\n", "vision/b.py": "from vision.a import x\n"}, [],
         [["vision.a", "vision.b"]]),
        ({"vision/a.py": "from . import b\n", "vision/b.py": "import vision.c\n", "vision/c.py": ""}, [], []),
    ],
)
def test_the_walker_catches_what_it_should(
    tmp_path: Path, files: dict[str, str], expected_up: list[str], expected_circle: list[list[str]]
) -> None:
    for layer in LAYERS:
        (tmp_path / layer).mkdir()
        (tmp_path / layer / "__init__.py").write_text("")
    (tmp_path / "companion" / "errors.py").write_text("")
    for rel, text in files.items():
        (tmp_path / rel).write_text(text)
    graph = import_graph(tmp_path)
    assert upward_imports(graph) == expected_up
    assert circles(graph) == expected_circle
