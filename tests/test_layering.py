"""Layering: companion/rules is pure Python, and no package import cycles exist ("No import
cycles (importlib included)"). Checked on the source text, so a lazy import inside a
function, or ``importlib.import_module("...")``, counts too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "vision", "calibration", "firmware_bridge")
FORBIDDEN_IN_RULES = {"vision", "calibration", "firmware_bridge", "kivy", "cv2", "numpy",
                      "serial"}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"):
            found.add(node.args[0].value)  # importlib.import_module("a.b") is an import too
    return found


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_rules_core_imports_nothing_outside_the_pure_core() -> None:
    for path in (ROOT / "companion" / "rules").rglob("*.py"):
        for name in imports_of(path):
            top = name.split(".")[0]
            assert top not in FORBIDDEN_IN_RULES, f"{path}: imports {name}"
            if top == "companion":
                assert name.startswith("companion.rules"), f"{path}: imports {name}"


def test_no_import_cycles_between_modules() -> None:
    graph: dict[str, set[str]] = {}
    for pkg in PACKAGES:
        for path in (ROOT / pkg).rglob("*.py"):
            mod = module_name(path)
            graph[mod] = {n for n in imports_of(path) if n.split(".")[0] in PACKAGES}
    modules = set(graph)

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    edges = {m: {r for n in deps if (r := resolve(n)) and r != m} for m, deps in graph.items()}
    # A package's __init__ re-exporting its submodules is not a cycle of behaviour.
    for m, deps in edges.items():
        edges[m] = {d for d in deps if not (m.startswith(d + ".") or d.startswith(m + "."))}
    state: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in edges[node]:
            if state.get(nxt) == 1:
                raise AssertionError("import cycle: " + " -> ".join([*stack, node, nxt]))
            if nxt not in state:
                visit(nxt, [*stack, node])
        state[node] = 2

    for mod in sorted(edges):
        if mod not in state:
            visit(mod, [])
