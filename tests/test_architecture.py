"""The layering contract of ../shared/ARCHITECTURE.md, enforced on the source (an AST walk of imports)."""

from __future__ import annotations

import ast
import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "engines": {"discord", "aiosqlite", "sqlite3", "PIL", "bot", "cogs", "render", "aiohttp"},
    "render": {"discord", "aiosqlite", "sqlite3", "bot", "cogs", "aiohttp"},
    "bot": {"cogs", "fakediscord", "sandbox"},
    # the fake Discord is a product of its own: a stand-in for Discord, not a part of the bot
    "fakediscord": {"bot", "cogs", "engines", "render", "sandbox"},
}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_nothing_forbidden(layer):
    offenders = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        bad = imports_of(path) & FORBIDDEN[layer]
        if bad:
            offenders.append(f"{path.relative_to(ROOT)}: {sorted(bad)}")
    assert not offenders, "\n".join(offenders)


def test_cogs_do_not_import_each_other():
    offenders = []
    for path in sorted((ROOT / "cogs").rglob("*.py")):
        own = path.relative_to(ROOT / "cogs").parts[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cogs."):
                if node.module.split(".")[1] != own:
                    offenders.append(f"{path.relative_to(ROOT)} imports {node.module}")
    assert not offenders


def test_the_walk_would_catch_a_violation(tmp_path):
    bad = tmp_path / "x.py"
    bad.write_text("import discord\nfrom PIL import Image\nfrom bot.storage import Store\n")
    assert imports_of(bad) >= {"discord", "PIL", "bot"}


# --- an AI depends on its engine, never the reverse (issue 29) ---------------------------------
def _game_modules(name: str, path: str) -> list[Path]:
    base = ROOT / Path(*path.split("."))
    return sorted(base.rglob("*.py")) if base.is_dir() else [base.with_suffix(".py")]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, module: str | None = None) -> set[str]:
    """Every module ``path`` (the module ``module``, by default its name under ROOT) imports, at any depth
    in the file (a function-level import counts), relative imports resolved, ``from package import name``
    counted as the module ``package.name`` too."""
    module = module or _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def ai_modules() -> dict[str, str]:
    """game -> its AI module, for the games whose AI is a module of its own."""
    from engines import GAMES

    return {name: f"{path}.ai" for name, path in GAMES.items() if (ROOT / Path(*path.split(".")) / "ai.py").exists()}


@pytest.mark.parametrize("game", sorted(__import__("engines").GAMES))
def test_no_engine_module_imports_its_ai(game):
    """Every game: only the game's package (what the registry loads) plugs the AI in; no other module of the
    game imports it, and the AI module imports its engine (it depends on it, not the reverse)."""
    from engines import GAMES

    ai = ai_modules().get(game)
    if ai is None:  # the simple AI is the engine's own method (the architecture's "simple AI")
        return
    offenders = []
    for path in _game_modules(game, GAMES[game]):
        if path.name in ("__init__.py", "ai.py"):
            continue
        if any(m == ai or m.startswith(ai + ".") for m in imported_modules(path)):
            offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, f"{game}: the engine imports its AI in {offenders}"
    ai_path = ROOT / Path(*ai.split(".")).with_suffix(".py")
    assert f"{GAMES[game]}.engine" in imported_modules(ai_path), f"{ai} should import its engine"


def test_every_ai_is_plugged_in_by_the_registry():
    import engines

    for game in ai_modules():
        engine = engines.get(game)
        assert engine.ai is not None and engine.ai.__module__ == f"{engines.GAMES[game]}.ai", game


def test_the_ai_walk_would_catch_an_engine_importing_its_ai(tmp_path):
    source = (ROOT / "engines" / "armada" / "engine.py").read_text(encoding="utf-8")
    for line in ("from .ai import choose", "from . import ai", "from engines.armada import ai",
                 "import engines.armada.ai"):
        probe = tmp_path / "engine.py"
        probe.write_text(source + f"\n\ndef _late():\n    {line}\n", encoding="utf-8")
        assert "engines.armada.ai" in imported_modules(probe, "engines.armada.engine"), line
    assert "engines.armada.ai" not in imported_modules(ROOT / "engines" / "armada" / "engine.py")


# --- imports run one way (issue 38): no loop, and down the layers of pyproject.toml ----------------
#
# Every import counts: at the top of a module, inside a function, under ``if TYPE_CHECKING:`` (an
# import made for annotations only is still a dependency of the reading: no loop may hide there), and
# ``importlib.import_module("literal")``. An import of ``a.b.c`` also runs ``a/__init__.py`` and
# ``a/b/__init__.py``: it depends on those packages too, unless the importer is inside them (a package's
# own modules are imported while it is being imported). A package whose ``__init__`` imports nothing of
# the four packages can close no loop: that implicit edge is left out. The names imported by a string
# that is computed (the engines' registry, the cogs' extension loader) are not seen.
PACKAGES = ("engines", "render", "bot", "cogs")
LAYERS_CONTRACT = "layers"


@dataclass(frozen=True)
class Edge:
    importer: str
    target: str
    path: Path
    line: int
    where: str  # "", "in a function", "under TYPE_CHECKING", or "runs <package>/__init__.py"

    def __str__(self) -> str:
        return f"{self.path}:{self.line} {self.importer} -> {self.target}" + (f" ({self.where})" if self.where else "")


def package_modules(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """module name -> its file, for every module of ``packages`` under ``root``."""
    out = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            out[_module_name_under(path, root)] = path
    return out


def _module_name_under(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, where: str = ""):
    """(node, names, where) for every import statement of ``tree``, at any depth; ``names`` are
    (absolute-or-relative module, level, imported name or None)."""
    for node in ast.iter_child_nodes(tree):
        here = where
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            here = where or "in a function"
        if isinstance(node, ast.If) and _type_checking(node.test):
            for child in node.body:
                yield from _imports_of_node(child, "under TYPE_CHECKING")
                yield from _imports(child, "under TYPE_CHECKING")
            for child in node.orelse:
                yield from _imports_of_node(child, where)
                yield from _imports(child, where)
            continue
        yield from _imports_of_node(node, here)
        yield from _imports(node, here)


def _imports_of_node(node: ast.AST, where: str):
    if isinstance(node, ast.Import):
        yield node, [(alias.name, 0, None) for alias in node.names], where
    elif isinstance(node, ast.ImportFrom):
        yield node, [(node.module or "", node.level, alias.name) for alias in node.names], where
    elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
          and isinstance(node.args[0].value, str)
          and ((isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
               or (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__")))):
        yield node, [(node.args[0].value, 0, None)], where


def import_edges(modules: dict[str, Path], root: Path = ROOT) -> list[Edge]:
    """Every import between ``modules`` (see above), relative imports resolved, ``from package import
    module`` counted as an import of that module."""

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    roots = {m.split(".")[0] for m in modules}
    explicit: list[Edge] = []
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        rel = path.relative_to(root)
        for node, names, where in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            for name, level, alias in names:
                if level:
                    parts = package.split(".")
                    name = ".".join(parts[:len(parts) - level + 1] + ([name] if name else []))
                if name.split(".")[0] not in roots:
                    continue
                if alias and f"{name}.{alias}" in modules:
                    name = f"{name}.{alias}"
                target = known(name)
                if target and target != module:
                    explicit.append(Edge(module, target, rel, node.lineno, where))
    importing = {e.importer for e in explicit}
    edges = list(explicit)
    for e in explicit:  # the packages an import runs on its way
        parts = e.target.split(".")
        for i in range(1, len(parts)):
            parent = ".".join(parts[:i])
            if (parent in modules and parent in importing and e.importer != parent
                    and not e.importer.startswith(parent + ".")):
                edges.append(Edge(e.importer, parent, e.path, e.line, f"runs {parent.replace('.', '/')}/__init__.py"
                                  + (f", {e.where}" if e.where else "")))
    return edges


def import_cycles(edges: list[Edge]) -> list[list[Edge]]:
    """One shortest loop of imports for every group of modules that import each other (a strongly
    connected component of more than one module)."""
    graph: dict[str, dict[str, Edge]] = {}
    for e in edges:
        graph.setdefault(e.importer, {}).setdefault(e.target, e)
        graph.setdefault(e.target, {})
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def connect(v: str) -> None:  # Tarjan
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(component)

    for v in sorted(graph):
        if v not in index:
            connect(v)
    loops = []
    for component in components:
        best: list[Edge] | None = None
        for start in sorted(component):  # breadth first, back to ``start``
            paths: dict[str, list[Edge]] = {start: []}
            queue, found = [start], None
            while queue and found is None:
                nxt = []
                for v in queue:
                    for w, e in sorted(graph[v].items()):
                        if w == start:
                            found = found or paths[v] + [e]
                        elif w in component and w not in paths:
                            paths[w] = paths[v] + [e]
                            nxt.append(w)
                queue = nxt
            if found and (best is None or len(found) < len(best)):
                best = found
        loops.append(best)
    return loops


def layers(pyproject: Path = ROOT / "pyproject.toml") -> list[tuple[list[str], bool]]:
    """The layers contract of pyproject.toml, lowest first: (its modules, whether they are independent)."""
    contracts = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    (contract,) = [c for c in contracts if c["type"] == LAYERS_CONTRACT]
    out = []
    for layer in reversed(contract["layers"]):
        independent = "|" in layer
        out.append(([m.strip() for m in layer.replace("|", ":").split(":")], independent))
    return out


def layer_of(module: str, stack: list[tuple[list[str], bool]]) -> tuple[int, str] | None:
    for i, (names, _) in enumerate(stack):
        for name in names:
            if module == name or module.startswith(name + "."):
                return i, name
    return None


def upward_imports(edges: list[Edge], stack: list[tuple[list[str], bool]]) -> list[str]:
    """One line per import that goes up (or across independent modules); the package an import runs
    only when the import itself went nowhere wrong."""
    out: dict[str, None] = {}
    lines = set()
    for e in sorted(edges, key=lambda e: e.where.startswith("runs ")):
        a, b = layer_of(e.importer, stack), layer_of(e.target, stack)
        if a is None or b is None or (e.where.startswith("runs ") and (e.path, e.line) in lines):
            continue  # (a module in no layer: test_every_module_has_a_layer says so)
        if b[0] > a[0]:
            out[f"{e}: layer {a[0] + 1} ({a[1]}) may not import layer {b[0] + 1} ({b[1]}), which is above it"] = None
        elif b[0] == a[0] and stack[a[0]][1] and a[1] != b[1]:
            out[f"{e}: {a[1]} and {b[1]} are independent modules of layer {a[0] + 1}"] = None
        else:
            continue
        lines.add((e.path, e.line))
    return list(out)


@functools.cache
def project_edges() -> list[Edge]:
    return import_edges(package_modules())


def test_no_import_cycles():
    """Zero loops between the modules of bot/, cogs/, engines/ and render/ (imports in functions and
    under TYPE_CHECKING included, and the package an import runs): each loop is shown as its imports."""
    edges = project_edges()
    loops = import_cycles(edges)
    assert not loops, "\n\n".join(
        f"{len(group)} modules import each other: {', '.join(sorted(group))}\nits shortest loop:\n"
        + "\n".join(f"  {e}" for e in loop) for loop, group in ((loop, loop_group(loop, edges)) for loop in loops))


def loop_group(loop: list[Edge], edges: list[Edge]) -> set[str]:
    """The modules of the strongly connected group of ``loop``: those reachable from it and reaching it."""
    def reach(start: str, forward: bool) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            v = todo.pop()
            for e in edges:
                a, b = (e.importer, e.target) if forward else (e.target, e.importer)
                if a == v and b not in seen:
                    seen.add(b)
                    todo.append(b)
        return seen
    return reach(loop[0].importer, True) & reach(loop[0].importer, False)


def test_imports_run_down_the_layers():
    """Every import goes to the same layer or one below it (pyproject.toml's layers contract)."""
    offenders = upward_imports(project_edges(), layers())
    assert not offenders, "upward imports:\n" + "\n".join(offenders)


def test_every_module_has_a_layer():
    stack = layers()
    missing = [m for m in package_modules() if layer_of(m, stack) is None and m not in PACKAGES]
    assert not missing, f"modules in no layer of pyproject.toml's layers contract (add them): {missing}"
    names = [n for layer, _ in stack for n in layer]
    assert len(names) == len(set(names)), f"a module named in two layers: {names}"
    unknown = [n for n in names if n not in package_modules()]
    assert not unknown, f"layers of pyproject.toml naming no module: {unknown}"


def test_the_import_walk_sees_every_import(tmp_path):
    """The walk would catch what the issue found: imports in functions, under TYPE_CHECKING, relative,
    through a package's __init__, and the loops and upward imports they make."""
    files = {
        "bot/__init__.py": "",
        "bot/storage/__init__.py": "from bot.storage.base import Store\n",
        "bot/storage/base.py": "class Store: ...\n",
        "bot/storage/sql.py": "def rows():\n    from bot.community.tournaments import Row\n",
        "bot/sessions.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.takeback import T\n",
        "bot/takeback.py": "from bot.community.settings import resolve\n",
        "bot/community/__init__.py": "from .scheduler import Scheduler\n",
        "bot/community/settings.py": "import bot.storage\n",
        "bot/community/scheduler.py": "def later():\n    import bot.takeback\n",
        "bot/community/tournaments.py": "from . import settings\nfrom bot.storage import sql\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    modules = package_modules(tmp_path, ("bot",))
    edges = import_edges(modules, tmp_path)
    seen = {(e.importer, e.target, e.where) for e in edges}
    assert ("bot.storage.sql", "bot.community.tournaments", "in a function") in seen
    assert ("bot.sessions", "bot.takeback", "under TYPE_CHECKING") in seen
    assert ("bot.community.tournaments", "bot.community.settings", "") in seen  # relative, ``from . import``
    assert ("bot.community.tournaments", "bot.storage.sql", "") in seen  # ``from package import module``
    assert ("bot.takeback", "bot.community", "runs bot/community/__init__.py") in seen
    assert ("bot.community.tournaments", "bot.community", "runs bot/community/__init__.py") not in seen
    assert not any(e.target == "bot" for e in edges)  # bot/__init__.py imports nothing: no loop through it
    loops = [{(e.importer, e.target) for e in loop} for loop in import_cycles(edges)]
    # the takeback <-> community loop that only the package's __init__ closes, and the storage's in a function
    assert {("bot.takeback", "bot.community"), ("bot.community", "bot.community.scheduler"),
            ("bot.community.scheduler", "bot.takeback")} in loops
    assert {("bot.storage.sql", "bot.community.tournaments"), ("bot.community.tournaments", "bot.storage.sql")} in loops
    assert len(loops) == 2
    stack = [(["bot.storage"], False), (["bot.sessions"], False), (["bot.takeback"], False), (["bot.community"], False)]
    up = upward_imports(edges, stack)
    assert any(s.startswith("bot/storage/sql.py:2 bot.storage.sql -> bot.community.tournaments (in a function)")
               and "layer 1 (bot.storage) may not import layer 4 (bot.community)" in s for s in up), up
    assert any("bot.sessions -> bot.takeback (under TYPE_CHECKING)" in s for s in up), up
    assert any("bot/takeback.py:1 bot.takeback -> bot.community.settings" in s for s in up), up
    independent = [(["bot.storage"], False), (["bot.sessions", "bot.takeback"], True), (["bot.community"], False)]
    assert [s for s in upward_imports(edges, independent) if "independent" in s] == [
        "bot/sessions.py:3 bot.sessions -> bot.takeback (under TYPE_CHECKING): bot.sessions and bot.takeback are "
        "independent modules of layer 2"]
