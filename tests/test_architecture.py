"""The layering contract of ../shared/ARCHITECTURE.md, enforced on the source (an AST walk of imports)."""

from __future__ import annotations

import ast
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
