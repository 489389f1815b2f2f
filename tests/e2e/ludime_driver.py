"""Drive a Ludime game through the fake Discord, the way its players would.

The driver decides a seat's move with the engine's own simple AI (``ENGINE.ai_action``) on
the state read from the bot's database (a fresh store on ``world.bot.db``),
then plays it with the seat's Discord user: buttons of the public turn message, slash
commands, the discard select of the player's private hand message. After every accepted
move it checks the private answer: the hand's letters and picture are exactly the mover's
(the picture is compared byte for byte with ``render_hand`` of the mover's own view), and it
remembers every hand picture and hand text it saw, with its owner, for the leak scans.
"""

from __future__ import annotations

import re
from typing import Any

from bot.storage import Store, open_store
from cogs.ludime.views import labels
from engines.ludime import ENGINE, normalize
from render.ludime import render_hand
from tests.e2e.harness import last_control

BUTTONS = {"pile": "Piocher", "discard": "Prendre la défausse", "undo": "Reposer la défausse",
           "pass": "Passer", "menu": "Se défausser", "hand": "Ma main"}
#: variant 2's pass button says what it does: abandon the round (no letter added yet) or end the turn
PASS_LABELS = ("Passer", "Passer (abandonner la manche)", "Finir mon tour")


#: the hand in words (its letters' application emojis in front once they exist: bot/emojis.py)
HAND_LINE = re.compile(r"(?:Votre main\u00a0:|Your hand:) (?:<:\w+:\d+>)* ?([A-Z](?: [A-Z])*) \(")


def hand_letters(hand) -> str:
    return " ".join(hand)


def contains_hand(text: str, letters: str) -> bool:
    """Whether ``text`` spells this whole hand ("A B E ...", not a part of a longer run of letters)."""
    return re.search(rf"(?<![A-Z])(?<![A-Z] ){re.escape(letters)}(?![A-Z])(?! [A-Z])", text) is not None


def started(res) -> bool:
    """The lobby's « Lancer » is answered: the first public turn message (with its picture) is posted
    (created by this click: not an older card of the channel edited meanwhile)."""
    return res.ephemeral or any(m.visible_to is None and m.attachments for m in res.created)


def refusal(res) -> bool:
    """The answer is a refusal: a private message that says why, with no picture (the mover's hand is
    private too, but it has its picture, and it may come before the move's public message)."""
    return not res.public_messages and any(m.ephemeral and m.text and not m.attachments for m in res.messages)


def answered(res) -> bool:
    """A move's whole answer is in: a refusal, or the public message and the mover's private hand
    (none once the game is over)."""
    if refusal(res):
        return True
    publics = res.public_messages
    if not publics:
        return False
    over = any("Fin de la partie" in (m.content or "") for m in publics)
    return over or any(m.ephemeral and m.attachments for m in res.messages)


class LudimeTable:
    def __init__(self, world, players: list, *, ai: int = 0) -> None:
        self.world = world
        self.fake = world.fake
        self.players = players  # FakeUsers in seat order (creator first, then in joining order)
        self.ai = ai  # AI seats, after the creator (players then holds only the creator)
        self.store: Store | None = None
        self.game_id: int | None = None
        #: every hand picture the bot sent, -> the seat it belongs to
        self.hand_images: dict[bytes, int] = {}
        #: every hand (as the letters line) each seat held, to look for in others' outputs
        self.hand_texts: dict[int, set[str]] = {}
        self.all_hands: dict[int, set[str]] = {}
        self.table_words: set[str] = set()
        self.moves = 0
        #: variant 2: letters added by one player in one turn without a public message of their own
        self.within_turn_adds: list[int] = []

    # --- setup / reading the game ------------------------------------------------------
    async def open(self, variant: str = "main") -> None:
        fake, creator = self.fake, self.players[0]
        res = await fake.run_command(creator, "jeux", "ludime start", variant=variant, ia=self.ai)
        lobby = res.message
        assert not res.ephemeral and "Ludime" in lobby.content, res.content
        self.game_id = int(lobby.buttons[0]["custom_id"].split(":")[1])
        for user in self.players[1:]:
            res = await fake.click(user, lobby, label="Rejoindre")
            assert res.response_type == 7, res.content
        res = await fake.click(creator, lobby, label="Lancer", until=started)
        assert "La partie est lancée" in lobby.content, lobby.content
        self.store = open_store(str(self.world.bot.db))
        await self.store.open()
        await self.remember_hands()

    async def close(self) -> None:
        if self.store is not None:
            await self.store.close()

    async def game(self):
        return await self.store.get_game(self.game_id)

    async def state(self):
        game = await self.game()
        return ENGINE.from_dict(game.state), game

    async def snapshot(self) -> tuple[int, str, Any]:
        """What must not change when a move is refused: version, status, the whole state."""
        game = await self.game()
        return game.version, game.status, game.state

    async def remember_hands(self) -> None:
        state, _ = await self.state()
        for seat, hand in enumerate(state.hands):
            self.all_hands.setdefault(seat, set()).add(hand_letters(hand))
            if len(hand) >= 4:  # shorter runs of letters could appear in any text
                self.hand_texts.setdefault(seat, set()).add(hand_letters(hand))
        self.table_words.update(w for _, w, _ in state.words)

    def seat_of(self, user) -> int:
        return self.players.index(user)

    def control(self):
        return last_control(self.fake)

    def public_count(self) -> int:
        return sum(1 for m in self.fake.messages("jeux") if m.visible_to is None)

    # --- checking the private answer -----------------------------------------------------
    def lang(self, seat: int) -> str:
        return "en" if self.players[seat].locale.startswith("en") else "fr"

    async def check_hand_message(self, msg, seat: int) -> None:
        """``msg`` is the seat's private hand: its letters and picture are the seat's own, now
        (in the seat's language)."""
        state, game = await self.state()
        assert msg.visible_to == self.players[seat].id, msg
        view = ENGINE.view(state, seat)
        hand = state.hands[seat]
        if hand:
            assert hand_letters(hand) in msg.content, (msg.content, hand)
        (att,) = msg.attachments
        assert att.filename.endswith("-private.png")
        expected = render_hand(view, game.names, labels(self.lang(seat)))
        assert att.bytes == expected, "the hand picture is not the owner's current hand"
        self.hand_images[att.bytes] = seat

    async def show_hand(self, user) -> None:
        """« Ma main » on the public message: the clicker's hand, privately."""
        res = await self.fake.click(user, self.control(), label=BUTTONS["hand"])
        assert res.ephemeral and res.attachments, res.content
        await self.check_hand_message(res.message, self.seat_of(user))

    # --- playing -------------------------------------------------------------------------
    def _latest_select(self, user):
        for msg in reversed(self.fake.messages("jeux", visible_to=user)):
            if msg.visible_to == user.id and msg.selects and not msg.deleted:
                return msg
        return None

    async def send(self, seat: int, action: dict[str, Any]):
        """Play ``action`` for ``seat`` through Discord; returns the InteractionResult (not checked).

        The public message's buttons are in the server's language (French here), whoever clicks.
        """
        fake, user = self.fake, self.players[seat]
        kw = {"until": answered}
        kind = action["type"]
        if kind == "draw":
            return await fake.click(user, self.control(), label=BUTTONS[action.get("source", "pile")], **kw)
        if kind == "undo_take":
            return await fake.click(user, self.control(), label=BUTTONS["undo"], **kw)
        if kind == "pass":
            private = await self.private_end_turn(user)
            if private is not None:  # variant 2, letters added: « Finir mon tour » of the private answer
                return await fake.click(user, private, label=PASS_LABELS[2], **kw)
            control = self.control()
            label = next(lb for lb in PASS_LABELS if lb in control.button_labels)
            return await fake.click(user, control, label=label, **kw)
        if kind == "discard":
            msg = self._latest_select(user)
            if msg is None or action["letter"] not in [o["value"] for o in msg.selects[0]["options"]]:
                res = await fake.click(user, self.control(), label=BUTTONS["menu"])
                assert res.ephemeral and res.message.selects, res.content
                msg = res.message
            return await fake.select(user, msg, [action["letter"]], **kw)
        if kind == "play":
            return await fake.run_command(user, "jeux", "ludime poser", mot=", ".join(action["words"]), **kw)
        if kind == "extend":
            choices = await fake.autocomplete(user, "jeux", "ludime allonger", {"mot": ""}, focused="mot")
            target = f"#{action['target']}"
            assert target in choices.values, (target, choices)
            return await fake.run_command(user, "jeux", "ludime allonger", mot=target, nouveau=action["word"], **kw)
        if kind == "exchange":
            return await fake.run_command(user, "jeux", "ludime echanger", lettres=" ".join(action["letters"]), **kw)
        if kind == "add":
            return await fake.run_command(user, "jeux", "ludime ajouter", mot=action["word"], **kw)
        if kind == "declare":
            return await fake.run_command(user, "jeux", "ludime declarer", mot=action["word"], **kw)
        raise AssertionError(f"no Discord gesture for {action}")

    async def play(self, seat: int, action: dict[str, Any]):
        """Play an action that must be accepted, and check what the players were shown."""
        state, game = await self.state()
        if action["type"] == "add":
            after, events = ENGINE.apply(state, seat, action)
            if after.current == seat and not {"passed", "turn", "round_end"} & {e["type"] for e in events}:
                return await self.add_within_turn(seat, action)
        version, _, _ = await self.snapshot()
        res = await self.send(seat, action)
        assert res.public_messages and not refusal(res), (action, res.content, res)
        public = res.public_messages
        assert public and public[0].attachments and public[0].attachments[0].bytes[:4] == b"\x89PNG", action
        game = await self.game()
        if any(s.is_ai for s in game.seats):  # the AI seats then play their turns in the same answer
            assert game.version > version, (action, res.content)
        else:
            assert game.version == version + 1, (action, res.content)
        self.moves += 1
        if game.status == "running":
            mine = [m for m in res.ephemeral_messages if m.attachments]
            assert len(mine) == 1, (action, res.content)
            await self.check_hand_message(mine[0], seat)
        await self.remember_hands()
        return res

    async def add_within_turn(self, seat: int, action: dict[str, Any]):
        """Variant 2: a letter added by a player who keeps playing. The answer is private (the
        addition told, the hand); nothing new is posted publicly (no ping): the turn's public message
        is edited in place — the word added, the new picture, the buttons of the new version."""
        fake, user = self.fake, self.players[seat]
        control = self.control()
        revisions = len(control.revisions)
        publics = self.public_count()
        version, _, _ = await self.snapshot()
        res = await fake.run_command(user, "jeux", "ludime ajouter", mot=action["word"],
                                     until=lambda r: r.ephemeral and r.attachments)
        assert res.ephemeral and res.public_messages == [], (action, res.content)
        game = await self.game()
        assert game.version == version + 1, (action, res.content)
        word = normalize(action["word"])
        assert f"**{word}**" in res.content and user.name in res.content, res.content  # the move, told privately
        mine = [m for m in res.ephemeral_messages if m.attachments]
        assert len(mine) == 1, res.content
        await self.check_hand_message(mine[0], seat)

        def edited() -> bool:
            ids = [b.get("custom_id", "").split(":") for b in control.buttons]
            return any(len(i) > 3 and i[2] == "pass" and i[3] == str(version + 1) for i in ids)

        await fake.wait_until(edited, timeout=20)
        assert self.control() is control and self.public_count() == publics, "an addition posted a message"
        assert len(control.revisions) > revisions and f"**{word}**" in control.content
        assert control.allowed_mentions is not None and not control.allowed_mentions.get("users") \
            and "users" not in control.allowed_mentions.get("parse", []), control.allowed_mentions
        assert control.attachments and control.attachments[0].bytes[:4] == b"\x89PNG"
        if self.within_turn_adds and getattr(self, "_chain_version", None) == version:
            self.within_turn_adds[-1] += 1
        else:
            self.within_turn_adds.append(1)
        self._chain_version = version + 1
        self.moves += 1
        await self.remember_hands()
        return res

    async def private_end_turn(self, user):
        """The user's newest private message with « Finir mon tour » for the game's current version."""
        version = (await self.game()).version
        for msg in reversed(self.fake.messages("jeux", visible_to=user)):
            if msg.visible_to != user.id or msg.deleted:
                continue
            for b in msg.buttons:
                parts = b.get("custom_id", "").split(":")
                if len(parts) > 3 and parts[2] == "pass" and parts[3] == str(version):
                    return msg
        return None

    async def step(self):
        """The expected seat plays the engine AI's move."""
        state, _ = await self.state()
        seat = state.current
        return await self.play(seat, ENGINE.ai_action(state, seat))

    async def refused(self, user, send, *needles: str):
        """``send()`` is refused privately with a message containing ``needles``; nothing changed."""
        before = await self.snapshot()
        publics = self.public_count()
        res = await send()
        assert res.ephemeral and len(res.messages) == 1, res.content  # one private answer, said once
        for needle in needles:
            assert needle in res.content, (needle, res.content)
        assert not res.attachments
        assert await self.snapshot() == before, "a refused move changed the game"
        assert self.public_count() == publics, "a refused move posted publicly"
        return res


def scan_for_leaks(fake, table: LudimeTable, spectators: list) -> int:
    """Everything each player (and spectator) could see: no other player's hand. Returns outputs checked."""
    checked = 0
    seat_of = {u.id: s for s, u in enumerate(table.players)}
    for out in fake.all_outputs():
        if out.kind == "message" and out.message.kind == "user":
            continue
        viewers = [u for u in [*table.players, *spectators] if out.audience in (None, u.id)]
        for viewer in viewers:
            mine = seat_of.get(viewer.id)
            others = [s for s in table.hand_texts if s != mine]
            checked += 1
            if out.kind == "autocomplete":
                for choice in out.choices or []:
                    text = f"{choice.get('name')} {choice.get('value')}"
                    if str(choice.get("value")).startswith("#"):  # a word of the table
                        assert any(w in text for w in table.table_words), ("autocomplete beyond the table", text)
                    for s in others:
                        assert not any(contains_hand(text, h) for h in table.hand_texts[s]), ("autocomplete", text)
                continue
            msg = out.message
            text = msg.text
            if out.audience is None:
                assert "Votre main\u00a0:" not in text and "Your hand:" not in text, text
            for letters in HAND_LINE.findall(text):  # a hand shown in words: the viewer's own, privately
                assert out.audience == viewer.id and letters in table.all_hands.get(mine, set()), (
                    f"a hand shown to {viewer.name}", text)
            for s in others:
                for hand in table.hand_texts[s]:
                    assert not contains_hand(text, hand), (f"seat {s}'s hand shown to {viewer.name}", text)
            for att in msg.attachments:
                owner = table.hand_images.get(att.bytes)
                if out.audience is None:
                    assert owner is None and not att.filename.endswith("-private.png"), att.filename
                elif att.filename.endswith("-private.png"):
                    assert owner is not None, "a hand picture nobody checked"
                    assert owner == mine, f"seat {owner}'s hand picture shown to {viewer.name}"
            if msg.ephemeral:
                assert msg.visible_to == msg.interaction_user_id, "an ephemeral answer to someone else"
    return checked
