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
