"""Application emojis (issue 24 part 6): the pictures (render/emoji.py) and the start-up sync
(bot/emojis.py) — reuse, creation, two creators at once, a deleted emoji, a redrawn one, the
2,000 cap, refusals falling back to text — against an in-memory Discord and against the strict
fake Discord through discord.py's own HTTP client."""

from __future__ import annotations

import asyncio
import io
import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest
from PIL import Image

from bot import emojis
from render import emoji as pictures

ROOT = Path(__file__).resolve().parent.parent

# -- the pictures


def test_every_picture_is_a_small_square_png_with_deterministic_bytes():
    seen = set()
    for kind, key in pictures.everything():
        png = pictures.render(kind, key)
        img = Image.open(io.BytesIO(png))
        assert img.format == "PNG" and img.size == (128, 128) and img.mode == "RGBA"
        assert len(png) <= 256 * 1024  # Discord's limit for an emoji
        assert img.getpixel((0, 0))[3] == 0, "a transparent corner: the shape reads on both themes"
        pictures._drawn.cache_clear()
        assert pictures.render(kind, key) == png, f"{kind} {key}: same picture, same bytes"
        seen.add(pictures.digest(kind, key))
    assert len(seen) == len(pictures.everything()), "two emojis must not share a picture"


def test_catalog_covers_the_games_glyphs():
    assert pictures.CATALOG["ludix"] == ("L", "X", "V", "I")
    assert len(pictures.CATALOG["ludime"]) == 26
    assert pictures.CATALOG["limit"] == tuple(str(v) for v in range(1, 13))
    assert pictures.CATALOG["lutinades"] == ("up", "down", "horizontal", "small")
    with pytest.raises(KeyError):
        pictures.render("ludix", "Z")


def test_glyph_is_readable_at_20_px():
    """At the size Discord shows an emoji in a line, the glyph still stands out of its shape:
    reduced to 20 px, the letter's ink differs strongly from the face around it."""
    img = Image.open(io.BytesIO(pictures.render("ludime", "A"))).convert("RGB").resize((20, 20), Image.Resampling.LANCZOS)
    lum = [sum(img.getpixel((x, y))) / 3 for x in range(5, 15) for y in range(5, 15)]
    assert max(lum) - min(lum) > 150


def test_names_are_valid_and_parse_back():
    wanted = emojis.wanted_names()
    assert len(wanted) == len(pictures.everything())
    for name, (kind, key) in wanted.items():
        assert 2 <= len(name) <= 32 and name.replace("_", "").isalnum() and name.isascii()
        assert emojis.parse_name(name) == (kind, key, pictures.digest(kind, key))
    assert emojis.parse_name("party_parrot") is None
    assert emojis.parse_name("zz_A_abcdef") is None  # not one of our codes


def test_the_digests_are_cached_under_the_design_s_fingerprint(tmp_path, monkeypatch):
    """A start reads the digests the last start with the same drawing code, fonts and Pillow wrote
    (drawing them all costs about 0.5 s of CPU at every start); another design draws them again; a
    damaged or unwritable cache is drawn again, never trusted."""
    monkeypatch.setenv("LUDIBOT_CACHE_DIR", str(tmp_path / "cache"))
    drawn = {(kind, key): pictures.digest(kind, key) for kind, key in pictures.everything()}
    assert emojis.catalog_digests() == drawn
    [written] = (tmp_path / "cache").iterdir()
    assert written.name == f"emoji-digests-{emojis.design_fingerprint()}.json"
    # the next start reads the file, whatever it says (here: a planted digest, to see that it is read)
    planted = json.loads(written.read_text())
    planted["ludime/A"] = "abcdef"
    written.write_text(json.dumps(planted))
    assert emojis.catalog_digests()[("ludime", "A")] == "abcdef"
    # a damaged file (a digest missing, not hex, not JSON) is drawn again and written anew
    for damage in ({k: v for k, v in planted.items() if k != "ludix/I"}, {**planted, "ludime/A": "ZZ"}, None):
        written.write_text("{" if damage is None else json.dumps(damage))
        assert emojis.catalog_digests() == drawn
        assert json.loads(written.read_text())["ludime/A"] == drawn[("ludime", "A")]
    # another design (one renderer's source changed): another fingerprint, so another file
    root = tmp_path / "tree"
    for top in emojis.DRAWN_FROM:
        shutil.copytree(ROOT / top, root / top, ignore=shutil.ignore_patterns("__pycache__"))
    assert emojis.design_fingerprint(root) == emojis.design_fingerprint()
    with open(root / "render" / "emoji.py", "a") as f:
        f.write("\n# changed\n")
    assert emojis.design_fingerprint(root) != emojis.design_fingerprint()
    # a cache that cannot be written: drawn, and still right
    monkeypatch.setenv("LUDIBOT_CACHE_DIR", str(written))  # a file, not a directory
    assert emojis.catalog_digests() == drawn
    assert emojis.wanted_names() == {emojis.emoji_name(k, key, d): (k, key) for (k, key), d in drawn.items()}

# -- the sync against an in-memory Discord


def _http_error(status: int, code: int, message: str, errors: dict | None = None) -> discord.HTTPException:
    body = {"code": code, "message": message}
    if errors:
        body["errors"] = errors
    return discord.HTTPException(SimpleNamespace(status=status, reason="Bad Request"), body)


class MemoryDiscord:
    """Discord's application emojis as resources/emoji.mdx states them: unique names, 2,000 at most."""

    def __init__(self, limit: int = emojis.APP_EMOJIS_MAX) -> None:
        self.items: dict[int, dict] = {}
        self.next_id = 10**17
        self.limit = limit
        self.creates = 0
        self.lists = 0  # how many times the list was read
        self.refuse: set[str] = set()  # names whose upload fails (an invalid image, say)

    def api(self, delay: float = 0.0) -> emojis.EmojiApi:
        disc = self

        class Api:
            async def list(self):
                await asyncio.sleep(delay)
                disc.lists += 1
                return [dict(i) for i in disc.items.values()]

            async def create(self, name, png):
                await asyncio.sleep(delay)
                disc.creates += 1
                if name in disc.refuse:
                    raise _http_error(400, 50035, "Invalid Form Body",
                                      {"image": {"_errors": [{"code": "IMAGE_INVALID", "message": "Invalid image data"}]}})
                if any(i["name"] == name for i in disc.items.values()):
                    raise _http_error(400, 50035, "Invalid Form Body", {"name": {"_errors": [
                        {"code": "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "message": "Emoji name already taken"}]}})
                if len(disc.items) >= disc.limit:
                    raise _http_error(400, 30008, "Maximum number of emojis reached (2000)")
                assert png.startswith(b"\x89PNG")
                disc.next_id += 1
                disc.items[disc.next_id] = {"id": str(disc.next_id), "name": name, "animated": False}
                return dict(disc.items[disc.next_id])

            async def delete(self, emoji_id):
                disc.items.pop(int(emoji_id))

        return Api()

    def names(self) -> list[str]:
        return sorted(i["name"] for i in self.items.values())

    def add_foreign(self, name: str) -> None:
        self.next_id += 1
        self.items[self.next_id] = {"id": str(self.next_id), "name": name}


SOME = [("ludix", "L"), ("ludix", "X"), ("ludime", "A"), ("limit", "11"), ("lutinades", "up")]


@pytest.fixture
def wanted():
    return emojis.wanted_names(SOME)


async def test_creates_the_missing_then_reuses_them(wanted):
    disc, reg = MemoryDiscord(), emojis.Registry()
    report = await emojis.sync(disc.api(), reg, wanted, create=True, pace=0)
    assert (report.created, report.reused, report.missing) == (5, 0, 0)
    assert disc.names() == sorted(wanted)
    e = reg.emoji("ludix", "L")
    assert isinstance(e, discord.PartialEmoji) and e.id and e.name.startswith("dx_L_")
    assert reg.text("ludix", "L", "L") == f"<:{e.name}:{e.id}>"
    # a restart: same emojis, nothing created
    reg2 = emojis.Registry()
    report = await emojis.sync(disc.api(), reg2, wanted, create=True, pace=0)
    assert (report.created, report.reused) == (0, 5) and disc.creates == 5
    assert reg2.known == reg.known


async def test_an_emoji_deleted_by_an_admin_is_created_again_and_forgotten_meanwhile(wanted):
    disc, reg = MemoryDiscord(), emojis.Registry()
    await emojis.sync(disc.api(), reg, wanted, create=True, pace=0)
    gone = reg.emoji("ludime", "A")
    disc.items.pop(gone.id)
    # a process that only reads: it forgets the deleted emoji (texts fall back) and creates nothing
    report = await emojis.sync(disc.api(), reg, wanted, create=False, pace=0)
    assert report.missing == 1 and reg.emoji("ludime", "A") is None and reg.text("ludime", "A", "A") == "A"
    report = await emojis.sync(disc.api(), reg, wanted, create=True, pace=0)
    assert report.created == 1 and reg.emoji("ludime", "A").id != gone.id


async def test_two_creators_at_once_never_make_two_emojis_of_one_name(wanted):
    disc = MemoryDiscord()
    a, b = emojis.Registry(), emojis.Registry()
    ra, rb = await asyncio.gather(emojis.sync(disc.api(0.001), a, wanted, create=True, pace=0),
                                  emojis.sync(disc.api(0.001), b, wanted, create=True, pace=0))
    assert disc.names() == sorted(wanted), "one emoji per name"
    assert ra.created + rb.created == len(wanted)
    assert a.known == b.known and ra.missing == rb.missing == 0, "the loser reuses the winner's"


async def test_a_reader_creates_nothing(wanted):
    disc, reg = MemoryDiscord(), emojis.Registry()
    report = await emojis.sync(disc.api(), reg, wanted, create=False, pace=0)
    assert disc.creates == 0 and report.missing == 5 and reg.emoji("ludix", "L") is None


async def test_a_redrawn_emoji_gets_a_new_name_and_the_old_one_stays(wanted):
    disc, reg = MemoryDiscord(), emojis.Registry()
    old = {n.replace(n[-6:], "000000"): v for n, v in wanted.items()}  # the same keys, an older design
    await emojis.sync(disc.api(), reg, old, create=True, pace=0)
    report = await emojis.sync(disc.api(), reg, wanted, create=True, pace=0)
    assert report.created == 5 and report.pruned == 0
    assert set(disc.names()) == set(old) | set(wanted), "old messages keep showing their emoji"
    assert all(reg.emoji(k, key).name in wanted for k, key in SOME)


async def test_at_the_cap_only_our_older_designs_make_room(wanted, monkeypatch):
    monkeypatch.setattr(emojis, "APP_EMOJIS_MAX", 8)
    disc = MemoryDiscord(limit=8)
    reg = emojis.Registry()
    old = {n[:-6] + "000000": v for n, v in wanted.items()}
    await emojis.sync(disc.api(), reg, old, create=True, pace=0)
    disc.add_foreign("party_parrot")
    disc.add_foreign("logo")
    report = await emojis.sync(disc.api(), reg, wanted, create=True, pace=0)
    assert report.pruned == 4 and report.created == 5 and report.missing == 0
    assert {"party_parrot", "logo"} <= set(disc.names()), "never an emoji that is not ours"
    assert len(disc.items) == 8


async def test_a_full_application_falls_back_to_text(wanted, monkeypatch):
    monkeypatch.setattr(emojis, "APP_EMOJIS_MAX", 3)
    disc = MemoryDiscord(limit=3)
    for n in range(3):
        disc.add_foreign(f"other_{n}")
    reg = emojis.Registry()
    report = await emojis.sync(disc.api(), reg, wanted, create=True, pace=0)
    assert report.created == 0 and report.failed == 5 and report.missing == 5
    assert disc.creates == 0, "a full application: no request Discord would refuse"
    assert reg.emoji("ludix", "L") is None and reg.text("ludix", "L", "L") == "L"
    assert emojis.Registry().known == {}


async def test_a_refused_upload_falls_back_to_text_for_that_emoji_only(wanted):
    disc, reg = MemoryDiscord(), emojis.Registry()
    refused = next(n for n, v in wanted.items() if v == ("ludix", "X"))
    disc.refuse.add(refused)
    report = await emojis.sync(disc.api(), reg, wanted, create=True, pace=0)
    assert (report.created, report.failed, report.missing) == (4, 1, 1)
    assert reg.emoji("ludix", "X") is None and reg.emoji("ludix", "L") is not None


async def test_run_retries_a_reader_until_shard_zero_made_them(wanted, monkeypatch):
    monkeypatch.setattr(emojis, "wanted_names", lambda: wanted)
    disc, reg = MemoryDiscord(), emojis.Registry()
    # (the later reads stop as soon as nothing is missing: long ones cost nothing, and a slow machine
    # making the emojis cannot outlast them)
    reader = asyncio.create_task(emojis.run(disc.api(), reg, create=False, relist_delays=(0.05, 0.2, 1, 5, 10)))
    while disc.lists == 0:  # the reader's first read: nothing there yet
        assert not reader.done(), reader
        await asyncio.sleep(0)
    assert reg.emoji("limit", "11") is None
    await emojis.sync(disc.api(), emojis.Registry(), wanted, create=True, pace=0)
    report = await reader
    assert report.missing == 0 and disc.creates == 5 and reg.emoji("limit", "11") is not None
    assert disc.lists >= 3  # the reader's first read, shard zero's, and the reader's read again


async def test_run_survives_discord_unreachable(wanted, monkeypatch):
    monkeypatch.setattr(emojis, "wanted_names", lambda: wanted)

    class Down:
        async def list(self):
            raise OSError("connection refused")

    reg = emojis.Registry()
    assert await emojis.run(Down(), reg, create=True, relist_delays=(0.01,)) is None
    assert reg.known == {}


def test_module_level_helpers_fall_back(monkeypatch):
    reg = emojis.Registry()
    monkeypatch.setattr(emojis, "REGISTRY", reg)
    assert emojis.emoji("ludix", "L") is None and emojis.text("ludix", "L", "L") == "L"
    assert emojis.glyphs("ludix", "LX") is None
    reg.add("ludix", "L", {"id": "123456789012345678", "name": "dx_L_abcdef"})
    reg.add("ludix", "X", {"id": "123456789012345679", "name": "dx_X_abcdef"})
    assert emojis.glyphs("ludix", "LX") == "<:dx_L_abcdef:123456789012345678><:dx_X_abcdef:123456789012345679>"
    assert emojis.glyphs("ludix", "LXV") is None, "all or nothing: never half a roll in glyphs"


# -- against the strict fake Discord, through discord.py's HTTP client


async def test_against_the_fake_discord_two_creators_and_a_restart(monkeypatch):
    from fakediscord import FakeDiscord

    fake = FakeDiscord(guild_name="Ludothèque", channels=["jeux"])
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    clients = []
    try:
        for _ in range(2):
            http = discord.http.HTTPClient(asyncio.get_running_loop())
            await http.static_login(fake.token)
            clients.append(http)
        wanted = emojis.wanted_names(SOME)
        regs = [emojis.Registry(), emojis.Registry()]
        await asyncio.gather(*(emojis.sync(emojis.HttpEmojiApi(h, fake.app_id), r, wanted, create=True, pace=0)
                               for h, r in zip(clients, regs, strict=True)))
        assert sorted(e.name for e in fake.app_emojis.values()) == sorted(wanted)
        assert regs[0].known == regs[1].known
        for kind, key in SOME:
            e = regs[0].emoji(kind, key)
            fe = fake.app_emojis[e.id]
            assert fe.name == e.name and fe.data == pictures.render(kind, key) and fe.content_type == "image/png"
        # an admin deletes one; the next start makes it again, the others are reused
        gone = regs[0].emoji("lutinades", "up")
        del fake.app_emojis[gone.id]
        reg = emojis.Registry()
        report = await emojis.sync(emojis.HttpEmojiApi(clients[0], fake.app_id), reg, wanted, create=True, pace=0)
        assert (report.created, report.reused, report.missing) == (1, 4, 0)
        assert len(fake.app_emojis) == len(SOME)
        # the collisions were refused as Discord refuses them (name taken), nothing else
        assert all("ALREADY_TAKEN" in str(err) for err in fake.validation_errors), fake.validation_errors
    finally:
        for h in clients:
            await h.close()
        await fake.stop()


async def test_a_nearly_full_application_creates_what_fits(wanted, monkeypatch):
    monkeypatch.setattr(emojis, "APP_EMOJIS_MAX", 3)
    disc = MemoryDiscord(limit=3)
    disc.add_foreign("other")
    reg = emojis.Registry()
    report = await emojis.sync(disc.api(), reg, wanted, create=True, pace=0)
    assert (report.created, report.missing, disc.creates) == (2, 3, 2)
    assert reg.emoji("ludix", "L") is not None and reg.emoji("ludix", "X") is not None  # the catalog's order
    assert reg.emoji("lutinades", "up") is None


async def test_filled_by_someone_else_meanwhile_stops_at_the_first_refusal(wanted):
    """Discord answers 30008 (the list said there was room): no more tries this start."""
    disc = MemoryDiscord(limit=2)
    reg = emojis.Registry()
    report = await emojis.sync(disc.api(), reg, wanted, create=True, pace=0)
    assert (report.created, report.missing, disc.creates) == (2, 3, 3)


async def test_a_refusal_naming_an_emoji_forgets_them_and_reads_the_list_again(wanted, monkeypatch):
    disc, reg = MemoryDiscord(), emojis.Registry()
    monkeypatch.setattr(emojis, "REGISTRY", reg)
    monkeypatch.setattr(emojis, "wanted_names", lambda: wanted)
    await emojis.sync(disc.api(), reg, wanted, create=True, pace=0)
    gone = reg.emoji("ludix", "L")
    disc.items.pop(gone.id)  # an admin deletes it while the bot runs
    monkeypatch.setattr(emojis, "_sync", emojis._Sync(disc.api(), create=True))
    assert not emojis.refused(_http_error(400, 50035, "Invalid Form Body",
                                          {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "too long"}]}}))
    assert not emojis.refused(_http_error(403, 50013, "Missing Permissions"))
    assert reg.emoji("ludix", "X") is not None, "other refusals change nothing"
    err = _http_error(400, 50035, "Invalid Form Body", {"components": {"0": {"components": {"0": {"emoji": {"id": {
        "_errors": [{"code": "COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}]}}}}}}})
    assert emojis.refused(err)
    assert reg.emoji("ludix", "X") is None, "the retry goes out with texts"
    await emojis._sync.task
    assert reg.emoji("ludix", "L") is not None and reg.emoji("ludix", "L").id != gone.id
    assert reg.emoji("ludix", "X") is not None
    task = emojis._sync.task
    assert emojis.refused(err) and emojis._sync.task is task, "at most one sync again a minute"


@pytest.fixture
def all_known(monkeypatch):
    """A registry that knows every emoji of the catalog (ids made up)."""
    reg = emojis.Registry()
    for n, (name, (kind, key)) in enumerate(emojis.wanted_names().items()):
        reg.add(kind, key, {"id": str(10**17 + n), "name": name})
    monkeypatch.setattr(emojis, "REGISTRY", reg)
    return reg


def test_texts_keep_their_words_and_add_glyphs(all_known):
    from bot.safe import Safe, escape

    assert emojis.tile_text("1-11-10") == (f"{all_known.emoji('limit', '1')}{all_known.emoji('limit', '11')}"
                                           f"{all_known.emoji('limit', '10')} 1-11-10")
    assert emojis.tile_text("nonsense") == "nonsense" and emojis.tile_text("1-13-10") == "1-13-10"
    shown = emojis.letters_text(["a", "B"], "A B")
    assert shown.endswith(" A B") and shown.count("<:lm_") == 2
    params = emojis.event_glyphs("ludix", {"faces": "IXXL"}, {"faces": escape("IXXL")})
    assert isinstance(params["faces"], Safe) and params["faces"].endswith(" IXXL")
    assert [e.group(1) for e in __import__("re").finditer(r"<:dx_(\w)_", params["faces"])] == list("IXXL")
    # anything that is not a roll of Ludix faces stays as it is
    assert emojis.event_glyphs("ludix", {"faces": "I<X"}, {"faces": "I<X"}) == {"faces": "I<X"}
    assert emojis.event_glyphs("ludime", {"faces": "IX"}, {"faces": "IX"}) == {"faces": "IX"}
    assert emojis.event_glyphs("limit", {"tile": "4-2-3"}, {"tile": "4-2-3"})["tile"].endswith(" 4-2-3")
    rolled = {"type": "rolled", "round": 1, "dice": [3, 6, 1], "d1": 3, "d2": 6, "d3": 1}
    params = emojis.event_glyphs("ranta", rolled, {"round": 1, "d1": 3, "d2": 6, "d3": 1})
    assert params["round"] == 1 and [params[k].split(" ")[1] for k in ("d1", "d2", "d3")] == ["3", "6", "1"]
    assert params["d2"].startswith(f"{all_known.emoji('ranta', '6')} ")
    assert emojis.event_glyphs("ranta", {**rolled, "d1": 7}, {"d1": 7})["d1"] == 7


def test_texts_without_emojis_are_unchanged(monkeypatch):
    monkeypatch.setattr(emojis, "REGISTRY", emojis.Registry())
    assert emojis.tile_text("1-11-10") == "1-11-10"
    assert emojis.letters_text("AB", "A B") == "A B"
    assert emojis.event_glyphs("ludix", {"faces": "IXXL"}, {"faces": "IXXL"}) == {"faces": "IXXL"}


def test_the_switch_in_the_settings():
    from bot.config import load_settings

    assert load_settings({}, dotenv=None).app_emojis is True
    for off in ("0", "off", "FALSE", "no"):
        assert load_settings({"LUDIBOT_APP_EMOJIS": off}, dotenv=None).app_emojis is False
    bot = SimpleNamespace(settings=load_settings({"LUDIBOT_APP_EMOJIS": "off"}, dotenv=None), application_id=1)
    assert emojis.start(bot) is None
