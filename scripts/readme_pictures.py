"""The README's game pictures (docs/img/<game>.png): one position of an AI game of each kind, drawn by the
bot's own renderers through each game cog's hooks, in French (the bot's default language).

Run: ``.venv/bin/python scripts/readme_pictures.py [folder]`` (default ``docs/img``).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engines  # noqa: E402
from bot.storage import RUNNING, GameRow, Seat  # noqa: E402
from tests.render.gallery import _cog  # noqa: E402

NAMES = ["Alice", "Bruno", "Chloé", "David"]
#: per game: players, options, how far into the game (0-1), and whose picture (None: the public one)
SHOTS = {
    "ludix": (3, {}, 0.5, None),
    "ludime": (2, {}, 0.5, None),
    "ranta": (2, {}, 0.6, 0),
    "limit": (2, {}, 0.6, 0),
    "tectonic": (2, {}, 0.4, None),
    "armada": (2, {}, 0.35, None),
    "lutinades": (4, {}, 0.4, None),
}


def shot(kind: str, seed: int = 11) -> bytes:
    players, options, share, seat = SHOTS[kind]
    engine = engines.get(kind)
    options = {o.name: o.default for o in engine.options} | options
    rng = random.Random(seed)
    state = engine.new_game(players, options, seed)
    states = [state]
    while not engine.is_over(state) and len(states) < 3000:
        who = rng.choice(sorted(engine.expected(state)))
        state, _ = engine.apply(state, who, engine.ai_action(state, who))
        states.append(state)
    state = states[int(share * (len(states) - 1))]
    now = time.time()
    game = GameRow(id=12, guild_id=1, channel_id=2, kind=kind, options=options, status=RUNNING, state=None,
                   version=len(states), seed=seed, creator_id=100, created_at=now, updated_at=now,
                   seats=[Seat(seat=i, user_id=100 + i, name=NAMES[i]) for i in range(players)])
    cog = _cog(kind)
    job = cog.render_public(game, engine.view(state, None), "fr") if seat is None else \
        cog.render_private(game, engine.view(state, seat), "fr")
    data = job()
    assert data, f"{kind}: nothing drawn"
    return data


def main(folder: str = "docs/img") -> None:
    out = ROOT / folder
    out.mkdir(parents=True, exist_ok=True)
    for kind in SHOTS:
        data = shot(kind)
        (out / f"{kind}.png").write_bytes(data)
        print(f"{out / kind}.png: {len(data) / 1024:.0f} KiB")


if __name__ == "__main__":
    main(*sys.argv[1:])
