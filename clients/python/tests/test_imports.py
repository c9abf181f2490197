"""The package's modules import one another one way: no circle (a function-level import counts too,
since it only hides the circle from the module's load order)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "wilayah_api"


def _imports(path: Path) -> set[str]:
    """The package's own modules that ``path`` imports, anywhere in the file."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("wilayah_api."):
            out.add((node.module or "").split(".")[1])
    return out


def _graph() -> dict[str, set[str]]:
    modules = {p.stem: p for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    return {name: _imports(path) & modules.keys() for name, path in modules.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        for nxt in sorted(graph[node]):
            if nxt in path:
                circle = path[path.index(nxt) :] + [nxt]
                if min(circle[:-1]) == circle[0]:
                    found.append(circle)
            else:
                visit(nxt, path + [nxt])

    for start in sorted(graph):
        visit(start, [start])
    return found


def test_no_import_circles() -> None:
    graph = _graph()
    assert "errors" in graph and "_retry" in graph
    assert _circles(graph) == []
