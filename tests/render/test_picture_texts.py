"""``LUDIBOT_PICTURE_TEXTS`` (render.common): a process started with it leaves, for every picture it
encodes, the words drawn on it under the SHA-256 of the picture's bytes — how the end-to-end language
test reads the pictures the bot posts. Unset, nothing is written."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DRAW = """
import sys
from render.common import canvas, encode_png, font
img, draw = canvas(200, 60)
draw.text((10, 10), "Bonjour", font=font(20))
draw.text((10, 34), "Manche 2", font=font(14))
sys.stdout.buffer.write(encode_png(img))
"""


def draw(env: dict[str, str]) -> bytes:
    full = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    return subprocess.run([sys.executable, "-c", DRAW], env=full, capture_output=True, check=True, cwd=ROOT).stdout


def test_each_picture_leaves_its_words(tmp_path):
    data = draw({"LUDIBOT_PICTURE_TEXTS": str(tmp_path)})
    assert data[:4] == b"\x89PNG"
    record = tmp_path / f"{hashlib.sha256(data).hexdigest()}.json"
    assert json.loads(record.read_text(encoding="utf-8")) == ["Bonjour", "Manche 2"]
    assert [p.name for p in tmp_path.iterdir()] == [record.name]  # nothing else left behind


def test_nothing_is_recorded_without_it(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "LUDIBOT_PICTURE_TEXTS"}
    data = subprocess.run([sys.executable, "-c", DRAW], env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True,
                          check=True, cwd=tmp_path).stdout
    assert data[:4] == b"\x89PNG" and list(tmp_path.iterdir()) == []
