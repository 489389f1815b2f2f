"""Lutinades end to end: whole games through the fake Discord, and the picker never learns the card.

Each turn the test reads the hidden card from the bot's database (the test may; the
players may not), plays the turn through buttons, and once the card is revealed it
scans every output the picker could see since the turn began — public messages,
their ephemeral answers, images, autocomplete — for the card: no card picture, no
card description, no reveal sentence. Gestures are checked hidden from everyone but
their maker until every lutin has chosen.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from bot import i18n
from cogs.lutinades.cog import gesture_name, own_gesture_text
from engines.lutinades import EN_GRAND, ENGINE, KINDS, MALINS, SIDES, card_dict, deck, mirror
from render.lutinades import CARD_H, CARD_W, TABLE_W, render_card
from tests.e2e.harness import check_table_cards, followed, last_control, mentioned, read_game_row

pytestmark = pytest.mark.e2e

FR_GESTURES = [gesture_name(k, "fr") for k in KINDS]
CARD_PHRASES = ("visible des lutins seulement", "only you lutins can see", "La carte est révélée", "Le panneau",
                "The card is revealed", "The signpost", "gros chiffre", "big number")


def published(res) -> bool:
    """A gesture is answered at once (ephemeral), then the public message follows: wait for both."""
    return bool(res.public_messages) and bool(res.ephemeral_messages)


def lang_of(user) -> str:
    return i18n.lang_of(user.locale)


def read_game(world, game_id: int):
    game = read_game_row(world.bot.db, game_id)
    return ENGINE.from_dict(game.state), game.status


def game_id_of(msg) -> int:
    return int(msg.buttons[0]["custom_id"].split(":")[1])


def gesture_label(kind: str, side: str | None, variant: str) -> str:
    label = own_gesture_text(kind, side, "fr")
    if variant == EN_GRAND and kind == "small":
        label = i18n.t("lutinades.button.forbidden", "fr", gesture=label)
    return label


def output_id(o) -> tuple:
    return ("m", o.message.id) if o.kind == "message" else ("a", o.interaction_id, o.at)


def output_text(o, labels: bool = False) -> str:
    """The words of an output (with its buttons' labels if ``labels``: gesture buttons name gestures)."""
    if o.kind == "message":
        return "\n".join([o.message.text, *(o.message.button_labels if labels else [])])
    return " ".join(str(c.get("name")) for c in o.choices or [])


@dataclass
class Table:
    world: object
    variant: str
    seats: dict[int, object]  # seat -> FakeUser for the humans
    rng: random.Random
    game_id: int = 0
    checked_turns: int = 0
    outcomes: set = field(default_factory=set)
    concurrent_done: bool = False

    @property
    def fake(self):
        return self.world.fake

    def seat_of(self, user) -> int:
        return next(s for s, u in self.seats.items() if u.id == user.id)


async def open_table(world, variant: str, joiners, **opts):
    fake, u = world.fake, world.u
    res = await fake.run_command(u.alice, "jeux", "lutinades start", variante=variant, **opts)
    lobby = res.message
    assert not res.ephemeral and "Lutinades" in lobby.content
    for user in joiners:
        res = await fake.click(user, lobby, label="Rejoindre")
        assert res.response_type == 7 and user.name in lobby.content
    res = await fake.click(u.alice, lobby, label="Lancer",
                           until=lambda r: any(m.visible_to is None and m.buttons for m in r.created))
    assert "La partie est lancée" in lobby.content
    msg = last_control(fake)
    assert msg is not None
    return msg


def choose_gestures(t: Table, state, lutins: list[int]) -> dict[int, tuple[str, str | None]]:
    """A mix of truths, bluffs, unanimity, wrong sides and forbidden gestures, to meet every case."""
    card = deck()[state.card]
    allowed = [k for k in KINDS if not (t.variant == EN_GRAND and k == "small")]
    mode = t.rng.random()
    out = {}
    for s in lutins:
        kind = t.rng.choice(allowed)
        if mode < 0.15:
            kind = card.kind if card.kind in allowed else allowed[0]
        elif t.variant == EN_GRAND and t.rng.random() < 0.12:
            kind = "small"
        side = None
        if t.variant == MALINS:
            side = mirror(card.side) if t.rng.random() < 0.7 or mode < 0.15 else t.rng.choice(SIDES)
        out[s] = (kind, side)
    return out


async def check_card_view(t: Table, user, msg, state) -> None:
    """A lutin sees the card, alone, exactly as the engine's lutin view says."""
    res = await t.fake.click(user, msg, label="Voir la carte")
    assert res.ephemeral and res.message.visible_to == user.id, res.content
    (att,) = res.attachments
    assert att.dimensions == (CARD_W, CARD_H)
    card = card_dict(deck()[state.card], state.variant)
    lg = lang_of(user)
    assert att.bytes == render_card(card, {k: gesture_name(k, lg) for k in KINDS})
    assert gesture_name(card["kind"], lg) in res.content
    assert all(m.visible_to == user.id for m in res.messages)


async def check_picker_refusals(t: Table, picker_user, msg, extra: bool) -> None:
    fake = t.fake
    lg = lang_of(picker_user)
    res = await fake.click(picker_user, msg, label="Voir la carte")
    assert res.ephemeral and res.content == i18n.t("lutinades.label.card_for_picker", lg)
    assert res.attachments == [] and all(m.visible_to == picker_user.id for m in res.messages)
    if not extra:
        return
    res = await fake.click(picker_user, msg, label=gesture_label("up", "left" if t.variant == MALINS else None,
                                                                  t.variant))
    assert res.ephemeral and res.content == i18n.t("lutinades.error.picker_cannot_gesture", lg)
    res = await fake.run_command(picker_user, "jeux", "lutinades status")
    assert res.ephemeral and res.attachments[0].dimensions[0] == TABLE_W
    choices = await fake.autocomplete(picker_user, "jeux", "lutinades status", {"partie": ""}, focused="partie")
    assert choices and all("Alice" in c["name"] for c in choices)


async def play_turn(t: Table, msg):
    """One whole turn; returns the newest control message (None once the game is over)."""
    fake = t.fake
    state, status = read_game(t.world, t.game_id)
    assert status == "running"
    turn, picker = state.turn, state.picker
    seen_before = {output_id(o) for o in fake.all_outputs()}
    lutins = [s for s in range(state.players) if s != picker]
    human_lutins = [s for s in lutins if s in t.seats]
    extra_checks = t.checked_turns < 2
    t.checked_turns += 1
    # the picker (if human) is refused the card; a lutin sees it
    if human_lutins:
        if picker in t.seats:
            await check_picker_refusals(t, t.seats[picker], msg, extra_checks)
        await check_card_view(t, t.seats[human_lutins[turn % len(human_lutins)]], msg, state)
        if extra_checks:
            res = await fake.click(t.world.u.modo, msg, label="Voir la carte")
            assert res.ephemeral and "Vous ne jouez pas" in res.content and not res.attachments
    else:
        assert "Voir la carte" not in msg.button_labels  # nobody human to show it to
    gestures = choose_gestures(t, state, lutins)
    for s in lutins:
        if state.gestures[s] is not None:  # the AIs have already chosen
            gestures[s] = state.gestures[s]
    pending = [s for s in human_lutins if state.gestures[s] is None] if state.phase == "gestures" else []
    if not t.concurrent_done and len(pending) >= 3:
        t.concurrent_done = True  # two lutins click at once on the same message: both count
        a, b = pending[0], pending[1]
        ra = await fake.click(t.seats[a], msg, label=gesture_label(*gestures[a], t.variant), wait=False,
                             until=published)
        rb = await fake.click(t.seats[b], msg, label=gesture_label(*gestures[b], t.variant), wait=False,
                             until=published)
        # (``until`` is not kept by a click sent with wait=False: given again here, so that both public
        # messages are in before the newest control message is read)
        await ra.wait(until=published)
        await rb.wait(until=published)
        for r, s in ((ra, a), (rb, b)):
            assert r.ephemeral and r.message.visible_to == t.seats[s].id, r.content
            assert own_gesture_text(*gestures[s], lang_of(t.seats[s])) in r.message.content
        pending = pending[2:]
        msg = last_control(fake)
    # the lutins gesture; the public only learns who has chosen
    for i, s in enumerate(pending):
        user = t.seats[s]
        kind, side = gestures[s]
        res = await click_gesture(t, user, msg, kind, side)
        ack = res.message
        assert res.ephemeral and ack.visible_to == user.id
        assert own_gesture_text(kind, side, lang_of(user)) in ack.content
        (public,) = res.public_messages
        if i < len(pending) - 1:
            assert f"{user.name} a fait son geste" in public.content
            assert mentioned(public) == [], "a gesture must not ping the other lutins again"
            assert not any(g in public.content for g in FR_GESTURES), public.content
            assert public.attachments == []  # a small step: text only, no table picture
            msg = public
            if extra_checks:
                res = await fake.click(user, msg, label=gesture_label(kind, side, t.variant))
                assert res.ephemeral and res.content == i18n.t("lutinades.error.already_chosen", lang_of(user))
        else:
            assert "les voici" in public.content
            for s2 in lutins:
                assert f"• {name_of(t, s2)}\u00a0: **" in public.content
    state_now, status = read_game(t.world, t.game_id)
    if status == "running" and state_now.turn == turn and state_now.phase == "choice":
        msg = last_control(fake)
        follow_labels = [lbl for lbl in msg.button_labels if lbl.startswith("Suivre ")]
        assert len(follow_labels) == len(ENGINE.followable(state_now)), msg.button_labels
        if human_lutins:  # only the picker may follow
            lutin_user = t.seats[human_lutins[0]]
            res = await fake.click(lutin_user, msg, label=follow_labels[0])
            assert res.ephemeral and res.content == i18n.t("lutinades.error.not_picker", lang_of(lutin_user))
        followable = ENGINE.followable(state_now)
        wrong_side = [s for s in followable if t.variant == MALINS
                      and state_now.gestures[s][1] != mirror(deck()[state_now.card].side)]
        chosen = t.rng.choice(wrong_side if wrong_side and t.rng.random() < 0.5 else followable)
        # the button of the chosen lutin (by its custom id: a long gesture may cut the name, "Suivre Chl… (…)")
        label = next(b["label"] for b in msg.buttons
                     if b.get("custom_id", "").split(":")[2] == "follow" and b["custom_id"].endswith(f":{chosen}"))
        name = name_of(t, chosen)
        assert label.startswith(f"Suivre {name} (") or (label.startswith(f"Suivre {name[:1]}") and "…" in label)
        res = await fake.click(t.seats[picker], msg, label=label)
        assert not res.ephemeral, res.content
        # the click takes its message's buttons off first; the reveal follows, after the settle time under load
        revealed = await followed(fake, res, msg)
        assert "La carte est révélée" in revealed.content, revealed.content
    reveal = next(o.message for o in reversed(fake.all_outputs())
                  if o.kind == "message" and o.message.visible_to is None and "La carte est révélée" in o.message.text)
    check_hidden(t, seen_before, reveal, picker, state, gestures)
    final, status = read_game(t.world, t.game_id)
    summary = final.history[turn - 1]
    assert summary["turn"] == turn
    t.outcomes.add(summary["outcome"])
    assert gesture_name(summary["card"]["kind"], "fr") in reveal.content
    assert i18n.t(f"lutinades.outcome.{summary['outcome']}", "fr",
                  picker=name_of(t, picker), lutin=name_of(t, summary["followed"]) if summary["followed"] is not None
                  else "", big=summary["card"]["big"], small=summary["card"]["small"]) in reveal.content
    if status == "finished":
        assert "Fin de la partie" in reveal.content and reveal.button_labels == ["Revanche"]
        return None
    nxt = last_control(fake)
    if final.turn == turn + 1:  # the new turn pings its human lutins (or the picker if the AIs are done)
        assert set(mentioned(nxt)) == {t.seats[s].id for s in ENGINE.expected(final) if s in t.seats}
    return nxt


async def click_gesture(t: Table, user, msg, kind: str, side: str | None):
    """A lutin's gesture button; in "en grand" the forbidden one is warned about first (privately,
    nothing recorded) and made by « Confirmer » under the warning."""
    label = gesture_label(kind, side, t.variant)
    if t.variant == EN_GRAND and kind == "small":
        warn = await t.fake.click(user, msg, label=label)
        assert warn.ephemeral and warn.public_messages == [] and warn.message.visible_to == user.id, warn.content
        assert i18n.t("lutinades.label.forbidden_warning", lang_of(user), turn=int(
            msg.buttons[0]["custom_id"].split(":")[4].split(".")[0]), gesture=gesture_name(kind, lang_of(user))) \
            == warn.content
        confirm = i18n.t("lutinades.button.confirm_forbidden", lang_of(user))
        return await t.fake.click(user, warn.message, label=confirm, until=published)
    return await t.fake.click(user, msg, label=label, until=published)


def name_of(t: Table, seat: int) -> str:
    if seat in t.seats:
        return t.seats[seat].name
    return f"Bot {sorted(s for s in range(7) if s not in t.seats).index(seat) + 1}"


def check_hidden(t: Table, seen_before: set, reveal, picker: int, state, gestures) -> None:
    """Everything shown since the turn began, up to the reveal: no card for the picker, no gesture
    for anyone but its maker before the gestures are revealed."""
    outs = [o for o in t.fake.all_outputs() if output_id(o) not in seen_before]
    upto = next(i for i, o in enumerate(outs) if o.kind == "message" and o.message.id == reveal.id)
    window = outs[:upto]
    card = card_dict(deck()[state.card], state.variant)
    card_images = {render_card(card, {k: gesture_name(k, lg) for k in KINDS}) for lg in ("fr", "en")}
    picker_id = t.seats[picker].id if picker in t.seats else None
    for o in window:
        if o.audience is not None and o.audience != picker_id:
            continue
        text = output_text(o, labels=True)
        assert not any(p in text for p in CARD_PHRASES), (t.variant, state.turn, text)
        for att in (o.message.attachments if o.kind == "message" else []):
            assert att.dimensions != (CARD_W, CARD_H) and "card" not in att.filename
            assert att.bytes not in card_images
    # gestures: hidden until the message that reveals them
    revealed_at = next((i for i, o in enumerate(window) if o.kind == "message" and o.message.visible_to is None
                        and "les voici" in o.message.text), len(window))
    for o in window[:revealed_at]:
        text = output_text(o)
        if o.audience is None:
            assert not any(g in text for g in FR_GESTURES), (state.turn, text)
            continue
        names = {g for g in FR_GESTURES + [gesture_name(k, "en") for k in KINDS] if f"**{g}" in text}
        seat = next((s for s, u in t.seats.items() if u.id == o.audience), None)
        allowed = {gesture_name(card["kind"], lg) for lg in ("fr", "en")} if seat != picker else set()
        if seat in gestures:
            allowed |= {gesture_name(gestures[seat][0], lg) for lg in ("fr", "en")}
        assert names <= allowed, (state.turn, o.audience, text)


async def drive(t: Table, msg, max_turns: int = 60) -> None:
    t.game_id = game_id_of(msg)
    for _ in range(max_turns):
        msg = await play_turn(t, msg)
        if msg is None:
            return
    pytest.fail("the game did not end")


def check_result(t: Table) -> None:
    state, status = read_game(t.world, t.game_id)
    assert status == "finished" and ENGINE.is_over(state)
    res = ENGINE.result(state)
    final = next(m for m in reversed(t.fake.messages("jeux")) if "Fin de la partie" in (m.content or ""))
    for seat, user in t.seats.items():
        assert f"{res.ranks[seat]}. {user.name} — {res.scores[seat]}" in final.content


async def test_whole_four_player_standard_game_the_picker_never_sees_the_card(world):
    fake, u = world.fake, world.u
    msg = await open_table(world, "standard", (u.bruno, u.chloe, u.dave))
    assert msg.button_labels == [*FR_GESTURES, "Voir la carte"]
    assert set(mentioned(msg)) == {u.bruno.id, u.chloe.id, u.dave.id}  # the lutins of turn 1
    assert "Premier tour\u00a0: c'est à Alice de cueillir" in msg.content
    t = Table(world, "standard", {0: u.alice, 1: u.bruno, 2: u.chloe, 3: u.dave}, random.Random(8))
    await drive(t, msg)
    check_result(t)
    assert t.concurrent_done and len(t.outcomes) >= 2
    # rules and status still answer once the game is over
    res = await fake.run_command(u.chloe, "jeux", "lutinades rules")
    assert res.ephemeral and "cueilleur" in res.content
    res = await fake.run_command(u.dave, "jeux", "lutinades status")
    assert res.ephemeral and "over" in res.content and res.attachments
    assert fake.errors == []
    assert world.bot.tracebacks() == []
    check_table_cards(fake, [])  # issue 24: every public message a card, pictures and pings in it


async def test_whole_four_player_lutins_malins_game(world):
    fake, u = world.fake, world.u
    msg = await open_table(world, "lutins-malins", (u.bruno, u.chloe, u.dave))
    assert "Vers le haut · ma gauche" in msg.button_labels and len(msg.button_labels) == 9
    t = Table(world, MALINS, {0: u.alice, 1: u.bruno, 2: u.chloe, 3: u.dave}, random.Random(3))
    t.checked_turns = 2  # the detailed refusals are covered by the standard game
    await drive(t, msg)
    check_result(t)
    assert "wrong_side" in t.outcomes
    assert fake.errors == []
    assert world.bot.tracebacks() == []


async def test_whole_en_grand_game_against_three_ais(world):
    fake, u = world.fake, world.u
    msg = await open_table(world, "en-grand", (), ia=3, niveau=2)
    assert "Premier tour\u00a0: c'est à Alice de cueillir" in msg.content
    t = Table(world, EN_GRAND, {0: u.alice}, random.Random(5))
    t.checked_turns = 2
    await drive(t, msg)
    check_result(t)
    assert fake.errors == []
    assert world.bot.tracebacks() == []


async def test_buttons_survive_a_sigkill_mid_turn(world):
    """Three players; a gesture, SIGKILL, restart: the old "Voir la carte" and gesture buttons still work."""
    fake, u = world.fake, world.u
    msg = await open_table(world, "standard", (u.bruno, u.chloe))
    assert "Options\u00a0: variante\u00a0: Standard" in fake.messages("jeux")[0].content
    game_id = game_id_of(msg)
    res = await fake.click(u.bruno, msg, label="Vers le bas", until=published)
    msg = last_control(fake)
    world.bot.kill()
    await fake.wait_disconnected(timeout=10)
    world.bot.start()
    await fake.wait_ready(timeout=60, fresh=True)
    state, _ = read_game(world, game_id)
    res = await fake.click(u.chloe, msg, label="Voir la carte")
    assert res.ephemeral and res.attachments[0].dimensions == (CARD_W, CARD_H)
    assert res.attachments[0].bytes == render_card(card_dict(deck()[state.card], "standard"),
                                                   {k: gesture_name(k, "fr") for k in KINDS})
    res = await fake.click(u.alice, msg, label="Voir la carte")
    assert res.ephemeral and res.content == i18n.t("lutinades.label.card_for_picker", "fr")
    res = await fake.click(u.chloe, msg, label="Vers le haut", until=published)
    assert "les voici" in res.public_messages[0].content
    msg = last_control(fake)
    res = await fake.click(u.alice, msg, label="Suivre Chloé (Vers le haut)")
    assert not res.ephemeral, res.content
    revealed = await followed(fake, res, msg)  # (the reveal follows the click's own answer)
    assert "La carte est révélée" in revealed.content and "Tour 2" in revealed.content, revealed.content
    assert fake.errors == []
