"""Layering: companion/rules is pure Python, every layer imports only from the layers below it
("Data flows one way: frames -> vision -> positions -> referee -> events -> app / LEDs / match
log; the command picks the app, never the pipeline"), and no import cycles exist ("No import
cycles (importlib included)"). Checked on the source text, so a lazy import inside a
function, or ``importlib.import_module("...")``, counts too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "vision", "calibration", "firmware_bridge")
FORBIDDEN_IN_RULES = {"vision", "calibration", "firmware_bridge", "kivy", "cv2", "numpy",
                      "serial"}


def imports_of(path: Path, members: bool = False) -> set[str]:
    """The modules ``path`` imports; ``members``: ``from a import b`` counts ``a.b`` too
    (``b`` may be a submodule: ``from companion.rules import teleporters``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            if members:
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
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


# What each layer may not import (besides the rules above). Lowest first: the rules cores;
# vision, calibration and the serial bridge; the referee and the match log; the live
# pipeline; simulation above it; the app; the commands, which may use everything.
ABOVE_THE_BRIDGE = ("companion", "vision", "calibration")
PIPELINE_UP = ("companion.live", "companion.sim", "companion.app", "companion.commands")
FORBIDDEN = {
    "vision": ("companion.referee", "companion.matchlog", *PIPELINE_UP, "calibration",
               "firmware_bridge", "kivy", "serial"),
    "calibration": ("companion.referee", "companion.matchlog", *PIPELINE_UP,
                    "firmware_bridge", "kivy", "serial"),
    "firmware_bridge": (*ABOVE_THE_BRIDGE, "kivy", "cv2", "numpy"),
    "companion.referee": ("companion.matchlog", *PIPELINE_UP, "vision", "calibration",
                          "firmware_bridge", "kivy", "cv2", "serial"),
    "companion.matchlog": ("companion.referee", *PIPELINE_UP, "vision", "calibration",
                           "firmware_bridge", "kivy", "serial"),
    "companion.ai": ("companion.referee", "companion.matchlog", *PIPELINE_UP, "vision",
                     "calibration", "firmware_bridge", "kivy", "cv2", "serial"),
    "companion.live": ("companion.sim", "companion.app", "companion.commands", "kivy"),
    "companion.sim": ("companion.app", "companion.commands", "kivy"),
    "companion.app": ("companion.sim", "companion.commands"),
}


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def test_every_layer_imports_only_from_below() -> None:
    """Frames -> vision -> positions -> referee -> events -> app / LEDs / match log: the live
    pipeline never imports the app, simulation or a command; the app is chosen by the
    command; the serial bridge and vision know nothing of the companion above them."""
    found = []
    for layer, forbidden in FORBIDDEN.items():
        folder = ROOT.joinpath(*layer.split("."))
        for path in folder.rglob("*.py"):
            for name in imports_of(path):
                for bad in forbidden:
                    if _under(name, bad) and not _under(name, layer):
                        found.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not found, "\n".join(found)


def test_commands_are_not_imported_as_libraries() -> None:
    """One module per command: the commands share companion.commands.common, camera,
    opening, options, position_files and front_end, never one another's modules."""
    shared = {"common", "camera", "opening", "options", "position_files", "front_end"}
    folder = ROOT / "companion" / "commands"
    found = []
    for path in folder.glob("*.py"):
        for name in imports_of(path):
            if _under(name, "companion.commands") and name != "companion.commands":
                leaf = name.split(".")[2]
                if leaf not in shared and path.stem != "main":
                    found.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not found, "\n".join(found)


def test_the_opponent_uses_only_the_rules_core() -> None:
    """companion.ai has no game logic of its own: of the project it imports only the rules
    core (and itself), and the rules core never imports it."""
    found = []
    for path in (ROOT / "companion" / "ai").rglob("*.py"):
        for name in imports_of(path):
            if name.split(".")[0] in PACKAGES and not (
                    _under(name, "companion.rules") or _under(name, "companion.ai")):
                found.append(f"{path.relative_to(ROOT)} imports {name}")
    for path in (ROOT / "companion" / "rules").rglob("*.py"):
        found.extend(f"{path.relative_to(ROOT)} imports {name}" for name in imports_of(path)
                     if _under(name, "companion.ai"))
    assert not found, "\n".join(found)


def test_commands_and_the_live_pipeline_reach_a_game_only_through_the_registry() -> None:
    """Nothing in companion/commands or companion/live imports a game's own package
    (``companion.rules.teleporters`` and the like): they ask ``companion.rules.GAMES`` for a
    game object and use its interface (``Game``, and ``TableGame`` / ``QuestBook`` where a
    command needs the camera or the quests), so the live pipeline is written for any game."""
    rules = ROOT / "companion" / "rules"
    games = sorted(p.name for p in rules.iterdir() if (p / "__init__.py").is_file())
    assert "teleporters" in games, games  # the check below looks at the right folder
    found = []
    for layer in ("commands", "live"):
        for path in (ROOT / "companion" / layer).rglob("*.py"):
            for name in imports_of(path, members=True):
                found.extend(f"{path.relative_to(ROOT)} imports {name}" for game in games
                             if _under(name, f"companion.rules.{game}"))
    assert not found, "\n".join(sorted(found))
