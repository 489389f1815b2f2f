"""Taking a move back (issue 26): within one's own turn at once, after it with the others' consent.

Nothing is erased. A takeback is a new entry of the game's log (``{"type": "takeback", "to": v,
"of": w}``) whose state is the state the game had at version ``v`` (just before the move logged at
``w``), recomputed by replaying the seed and the log (:func:`replay`): the replay of a log holding
takebacks is exact, since a takeback entry is replayed as "the state of version ``to``".

* **What may be taken back**: the asking player's last move, with the AI's (or forced) moves that
  followed it, while nobody else moved, the game is running and no move among them revealed
  anything — each engine's ``takeback_refusal`` says why not (a die rolled, a card drawn…).
* **At once** when the player is still to play (a step of a turn of several steps), or when no
  other human plays (AI seats accept).
* **Otherwise a request** to the other human players, reusing the stalled-player vote's machinery:
  the request sits in the game's settings (``takeback``: seat, epoch, due, the versions), written in
  the same compare-and-swap as its log entry (``takeback_asked``); each answer is a ballot
  (``ballots``, keyed by the requester's seat and the epoch); its expiry is a claimed ``vote``
  deadline of the requester's seat at that epoch. It is decided when every other human accepted
  (the takeback is applied), at the first refusal, or at its expiry; any later entry of the log (the
  next player's move) cancels it, since the decision commits on the epoch's version only.
* **The log**: the entries are the requester's seat's, without a user id (they are not moves: no
  time per move is counted from them).
* **The clock**: a takeback after the turn passed carries the requester's bank as it was before the
  move (``_bank``: the one stored with its previous action; ``None`` = the full bank); a step taken
  back within the turn keeps the clock running (what is left now), so that stepping back and forth
  never winds it back. The seats expected again get new deadlines from there.
* **Limits** (``/ludibot config``): allowed or not, how many per player per game (the takebacks
  the others accepted; a step taken back within one's own turn is not counted). A game's own
  ``takeback`` policy in its settings (``policy``), which a tournament would write for its games,
  comes before the server's. Never after the game ended.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import discord

from bot import i18n, timers
from bot.pace import profile
from bot.safe import Safe, ping
from bot.sessions import Outcome, SessionError, SessionService, ai_played
from bot.sessions import voters as vote_voters
from bot.storage import DONE, RUNNING, VOID, VOTE, Deadline, EventRow, GameRow, Store
from bot.ui import Click, button, label_with_name, lang, refuse, send_card
from engines.base import Engine, Phrase, RuleError

log = logging.getLogger("ludibot.takeback")

#: the game settings key of the open request
KEY = "takeback"
#: the guild settings key of the server's limits, and a game's own (a tournament's) policy
POLICY = "takeback"
ACCEPT, REFUSE = "accept", "refuse"
CHOICES = (ACCEPT, REFUSE)
#: default limits: allowed, this many takebacks per player per game
DEFAULT_ALLOWED, DEFAULT_MAX = True, 3
MAX_LIMIT = 20
#: how long the others have when the game has no clock
DEFAULT_DELAY_S = 12 * 3600.0

#: log entries that leave the engine state as it is (``vote_decided`` "remove" aside: see replay)
NOTES = frozenset({"vote_open", "vote_decided", "seat_back", "forfeit", "takeback_asked",
                   "takeback_refused", "takeback_expired"})
#: notes a takeback may look past (an earlier request about the same move)
REQUEST_NOTES = frozenset({"takeback_asked", "takeback_refused", "takeback_expired"})


# --- replay: the state is the replay of seed + log ------------------------------------------------
def replay(engine: Engine, game: GameRow, rows: list[EventRow]) -> dict[int, Any]:
    """``version -> engine state`` for the game's start and every logged entry, from the seed.

    A move is applied again; a takeback is the state of the version it went back to; a vote that
    removed a seat is the engine's ``remove_seat`` again; every other note leaves the state."""
    state = engine.new_game(len(game.seats), game.options, game.seed)
    start = rows[0].version - 1 if rows else game.version
    states: dict[int, Any] = {start: state}
    for row in rows:
        kind = row.action.get("type")
        if kind == "takeback":
            state = states[int(row.action["to"])]
        elif kind == "vote_decided" and row.action.get("choice") == "remove":
            remove = getattr(engine, "remove_seat", None)
            if remove is not None and row.seat is not None:
                try:
                    state, _ = remove(state, row.seat)
                except RuleError:
                    pass  # the game ended without the seat: the state was left as it was
        elif kind not in NOTES:
            action = {k: v for k, v in row.action.items() if not k.startswith("_")}
            state, _ = engine.apply(state, row.seat, action)
        states[row.version] = state
    return states


def replay_matches(engine: Engine, game: GameRow, rows: list[EventRow]) -> dict[int, Any]:
    """:func:`replay`, checked against the stored state (a takeback is only built on an exact replay)."""
    try:
        states = replay(engine, game, rows)
    except (RuleError, KeyError, ValueError, TypeError) as err:
        log.warning("game %s does not replay (%s)", game.id, err)
        raise SessionError("undo.error.replay", game=game.id) from err
    if as_stored(engine, states[max(states)]) != game.state:
        log.warning("game %s: the replay of its log differs from its stored state", game.id)
        raise SessionError("undo.error.replay", game=game.id)
    return states


def as_stored(engine: Engine, state: Any) -> Any:
    """A state as the database gives it back (JSON: tuples become lists)."""
    return json.loads(json.dumps(engine.to_dict(state)))


# --- what would be taken back ---------------------------------------------------------------------
def by_of(row: EventRow) -> str | None:
    return row.action.get("_by")


def last_move(rows: list[EventRow], seat: int) -> int:
    """Index in ``rows`` of ``seat``'s move that a takeback would undo (with the AI's or forced
    moves after it), or a refusal: nothing to take back, another player moved since."""
    for i in range(len(rows) - 1, -1, -1):
        row = rows[i]
        kind = row.action.get("type")
        if kind in REQUEST_NOTES:
            continue
        if kind == "takeback" or kind in NOTES:
            break
        if row.seat == seat and row.user_id is not None and by_of(row) not in ("ai", "auto", "timeout"):
            return i
        if by_of(row) in ("ai", "auto") and row.user_id is None:
            continue  # the AI's answer (or a forced move) goes back with the move it answered
        if any(r.seat == seat and r.user_id is not None for r in rows[:i]):
            raise SessionError("undo.error.not_last")
        break  # the seat has not moved yet
    raise SessionError("undo.error.nothing")


def check_moves(engine: Engine, states: dict[int, Any], rows: list[EventRow], first: int) -> None:
    """Refuse (with the engine's reason) if any move from ``rows[first]`` on revealed something."""
    for row in rows[first:]:
        if row.action.get("type") in NOTES:
            continue
        action = {k: v for k, v in row.action.items() if not k.startswith("_")}
        events = [{k: v for k, v in e.items() if k != "_seat"} for e in row.events]
        reason = engine.takeback_refusal(states[row.version - 1], row.seat, action, states[row.version], events)
        if reason is not None:
            raise SessionError("undo.error.revealed", reason=Phrase(reason))


def bank_before(rows: list[EventRow], seat: int, first: int) -> float | None:
    """The bank ``seat`` had before ``rows[first]``: the one kept with its previous logged action
    (None: none yet, the full bank)."""
    for row in reversed(rows[:first]):
        if row.seat != seat or "_bank" not in row.action:
            continue
        bank = row.action.get("_bank")
        if bank is None or (isinstance(bank, int | float) and not isinstance(bank, bool)):
            return bank
    return None


# --- limits (/ludibot config) ---------------------------------------------------------------------
def limits(guild_settings: dict[str, Any], game: GameRow) -> tuple[bool, int]:
    """``(allowed, per player per game)``: the game's own policy (a tournament's hook: it writes
    ``{"takeback": {"allowed": …, "max": …}}`` in the settings of the games it opens) first, then the
    server's, then the defaults."""
    allowed, most = DEFAULT_ALLOWED, DEFAULT_MAX
    if game.settings.get("daily"):  # a daily challenge (issue 37): one try at the day's draw, no peeking ahead
        return False, 0
    for scope in (guild_settings.get(POLICY), game.settings.get(POLICY)):
        if isinstance(scope, dict):
            if isinstance(scope.get("allowed"), bool):
                allowed = scope["allowed"]
            if isinstance(scope.get("max"), int) and not isinstance(scope.get("max"), bool):
                most = scope["max"]
    return allowed, most


def change_limits(settings: dict[str, Any], allowed: bool | None, most: int | None) -> dict[str, Any]:
    """The guild settings after ``/ludibot config reprises:… reprises_max:…`` (refusals are RuleErrors)."""
    if most is not None and not 0 <= most <= MAX_LIMIT:
        raise RuleError("undo.error.bad_limit", value=most, max=MAX_LIMIT)
    entry = dict(settings.get(POLICY) or {})
    if allowed is not None:
        entry["allowed"] = bool(allowed)
    if most is not None:
        entry["max"] = int(most)
    return {**settings, POLICY: entry}


def describe_limits(settings: dict[str, Any], lg: str) -> str:
    entry = settings.get(POLICY) or {}
    allowed = entry.get("allowed", DEFAULT_ALLOWED)
    return i18n.t("undo.config.line", lg, allowed="on" if allowed else "off",
                  count=int(entry.get("max", DEFAULT_MAX)))


def taken(rows: list[EventRow], seat: int) -> int:
    """The takebacks of ``seat`` the others accepted (or that no other human had to accept)."""
    return sum(1 for r in rows if r.action.get("type") == "takeback" and r.seat == seat
               and r.action.get("mode") != "turn")


def open_request(game: GameRow) -> dict[str, Any] | None:
    """The request waiting for the others' answers, if it is still current (made at this version)."""
    req = game.settings.get(KEY)
    if not isinstance(req, dict) or game.status != RUNNING or req.get("epoch") != game.version:
        return None
    return req


def deciders(game: GameRow, seat: int) -> list[int]:
    """The users who must accept: the other human players (AI seats, and seats the AI plays, accept)."""
    played = ai_played(game)
    return [u for u in vote_voters(game, seat) if game.seat_of(u) not in played]


class Takebacks:
    """The service: asking, answering, expiring. Every change is one compare-and-swap commit."""

    def __init__(self, store: Store, sessions: SessionService) -> None:
        self.store = store
        self.sessions = sessions

    async def _delay(self, game: GameRow) -> float:
        """The others' time to answer, after the game's pace: its reminder delay (the time a player
        is given before being reminded), else half its bank, else half a day."""
        t = timers.resolve(await self.store.guild_settings(game.guild_id) if game.guild_id else {}, game.kind)
        p = profile(game.settings.get("pace") or t.pace, t.reminder_s, t.timeout_s)
        if p.reminder_s > 0:
            return p.reminder_s
        return p.bank_s / 2 if p.timed else DEFAULT_DELAY_S

    async def _plan(self, game: GameRow, seat: int) -> tuple[list[EventRow], dict[int, Any], int]:
        """The log, its replay and the index of the move to take back (or a refusal). A game whose rules
        never let a move be taken back (``takeback_never``: Ludix, Lutinades) says so first."""
        engine = self.sessions.engine(game.kind)
        never = getattr(engine, "takeback_never", None)
        if never:
            raise SessionError("undo.error.revealed", reason=Phrase(never))
        rows = await self.store.events(game.id)
        first = last_move(rows, seat)
        states = replay_matches(engine, game, rows)
        check_moves(engine, states, rows, first)
        return rows, states, first

    async def _checked(self, game: GameRow, user_id: int) -> tuple[int, list[EventRow], dict[int, Any], int, bool,
                                                                   list[int]]:
        """Every check :meth:`ask` makes before it writes: ``(seat, log, replay, index of the move, within
        the player's turn, the users to ask)``, or the refusal."""
        self.sessions.require_status(game, RUNNING)
        seat = game.seat_of(user_id)
        if seat is None:
            raise SessionError("common.error.not_a_player", game=game.id)
        if seat in ai_played(game):  # the bot plays this seat until its player takes it back
            raise SessionError("community.vote.taken_over", game=game.id)
        allowed, most = limits(await self.store.guild_settings(game.guild_id) if game.guild_id else {}, game)
        if not allowed:
            raise SessionError("undo.error.not_allowed", game=game.id)
        if open_request(game) is not None:
            raise SessionError("undo.error.pending", game=game.id)
        rows, states, first = await self._plan(game, seat)
        engine = self.sessions.engine(game.kind)
        moves_after = [r for r in rows[first + 1:] if r.action.get("type") not in NOTES]
        within_turn = not moves_after and seat in engine.expected(states[max(states)])
        if not within_turn and taken(rows, seat) >= most:
            raise SessionError("undo.error.limit", game=game.id, count=most)
        return seat, rows, states, first, within_turn, deciders(game, seat)

    async def refusal(self, game: GameRow, user_id: int) -> SessionError | None:
        """Why :meth:`ask` would refuse this user now, or None when it would take the move back (or ask
        the others): the same checks, nothing written. « Reprendre mon coup » is offered only then."""
        try:
            await self._checked(game, user_id)
        except SessionError as err:
            return err
        return None

    async def ask(self, game_id: int, user_id: int, *, now: float) -> Outcome:
        """The player asks to take their last move back: applied at once within their own turn (or
        with no other human to ask), else the request to the others is opened."""
        sessions = self.sessions
        async with sessions._lock(game_id):
            game = await sessions.get(game_id)
            seat, rows, states, first, within_turn, others = await self._checked(game, user_id)
            engine = sessions.engine(game.kind)
            current = states[max(states)]
            if within_turn or not others:
                outcome = await self._apply(game, engine, rows, states, first, seat, None,
                                            mode="turn" if within_turn else "alone", accepted=[])
            else:
                due = now + await self._delay(game)
                # the deadline first, for the epoch the opening makes: if the opening loses its race,
                # the deadline finds no request and is void (as a stalled player's vote)
                await self.store.schedule_deadlines(game.id, game.version + 1, now, [(seat, VOTE, due)])
                request = {"seat": seat, "epoch": game.version + 1, "due": due, "of": rows[first].version,
                           "to": rows[first].version - 1}
                event = {"type": "takeback_asked", "seat": seat, "players": [game.seat_of(u) for u in others],
                         "due": int(due), "_seat": seat}
                row = await self.store.commit_action(
                    game.id, game.version, state=game.state or {}, seat=seat, user_id=None,
                    action={"type": "takeback_asked", "of": rows[first].version, "_by": "player"},
                    events=[event], settings={**game.settings, KEY: request},
                    expected=engine.expected(current))
                if row is None:
                    raise SessionError("common.error.already_played")
                # still to play (moves followed): its clock goes on at this epoch (the request's
                # deadline replaced the seat's older ones)
                outcome = Outcome(game=row, events=[event], newly_expected=engine.expected(current) & {seat})
        await sessions._notify(outcome)
        return outcome

    async def _apply(self, game: GameRow, engine: Engine, rows: list[EventRow], states: dict[int, Any],
                     first: int, seat: int, user_id: int | None, *, mode: str, accepted: list[int]) -> Outcome:
        target = rows[first]
        restored = states[target.version - 1]
        before = engine.expected(states[max(states)])
        after = engine.expected(restored)
        event = {"type": "takeback", "seat": seat, "mode": mode, "players": accepted,
                 "moves": sum(1 for r in rows[first:] if r.action.get("type") not in NOTES), "_seat": seat}
        action: dict[str, Any] = {"type": "takeback", "to": target.version - 1, "of": target.version,
                                  "mode": mode, "_by": "player" if mode == "turn" else "vote"}
        if mode != "turn":  # the turn had passed: the bank the seat had before the move
            action["_bank"] = bank_before(rows, seat, first)
        elif self.sessions.clock_bank is not None:
            # a step within the turn: the clock runs on (what is left now, as after any step), so that
            # taking steps back never winds it back
            try:
                bank = await self.sessions.clock_bank(game, seat, False)
            except Exception:
                log.exception("time bank of game %s seat %s", game.id, seat)
                bank = None
            if bank is not None:
                action["_bank"] = bank
        settings = {k: v for k, v in game.settings.items() if k != KEY}
        row = await self.store.commit_action(game.id, game.version, state=engine.to_dict(restored), seat=seat,
                                             user_id=user_id, action=action, events=[event], settings=settings,
                                             expected=after)
        if row is None:
            raise SessionError("common.error.already_played")
        self.sessions._vouch(row)
        # the seats to play again get new deadlines (the requester's from the bank it had)
        return Outcome(game=row, events=[event], newly_expected=(after - before) | (after & {seat}))

    async def answer(self, game_id: int, user_id: int, epoch: int, choice: str, *, now: float) -> Outcome | None:
        """A ballot on the open request; the decision when it is made (None: still waiting)."""
        if choice not in CHOICES:
            raise SessionError("common.error.forged_button")
        game = await self.sessions.get(game_id)
        req = open_request(game)
        if req is None or req.get("epoch") != epoch:
            raise SessionError("undo.error.closed", game=game.id)
        seat = int(req["seat"])
        if game.seats[seat].user_id == user_id:
            raise SessionError("undo.error.own_request", game=game.id)
        others = deciders(game, seat)
        if user_id not in others:
            raise SessionError("undo.error.not_voter", game=game.id)
        await self.store.cast_ballot(game.id, seat, epoch, user_id, choice, now)
        ballots = await self.store.ballots(game.id, seat, epoch)
        if any(ballots.get(u) == REFUSE for u in others):
            return await self.decide(game_id, epoch, REFUSE, by=game.seat_of(user_id), now=now)
        if all(ballots.get(u) == ACCEPT for u in others):
            return await self.decide(game_id, epoch, ACCEPT, now=now)
        return None

    async def decide(self, game_id: int, epoch: int, choice: str, *, by: int | None = None,
                     now: float, expired: bool = False) -> Outcome:
        """Close the request of ``epoch``: applied (accepted), refused, or expired. Once: the commit
        is on the epoch's version, so a move made meanwhile (or another decision) wins instead, and
        the voter is told the request is closed."""
        try:
            return await self._decide(game_id, epoch, choice, by=by, now=now, expired=expired)
        except SessionError as err:  # a move (or a decision) committed between the read and the commit
            if err.key != "common.error.already_played":
                raise
            raise SessionError("undo.error.closed", game=game_id) from err

    async def _decide(self, game_id: int, epoch: int, choice: str, *, by: int | None,
                      now: float, expired: bool) -> Outcome:
        sessions = self.sessions
        async with sessions._lock(game_id):
            game = await sessions.get(game_id)
            req = open_request(game)
            if req is None or req.get("epoch") != epoch:
                raise SessionError("undo.error.closed", game=game.id)
            seat = int(req["seat"])
            engine = sessions.engine(game.kind)
            if choice == ACCEPT:
                rows, states, first = await self._plan(game, seat)
                if rows[first].version != req.get("of"):
                    raise SessionError("undo.error.closed", game=game.id)
                accepted = [game.seat_of(u) for u in deciders(game, seat)]
                outcome = await self._apply(game, engine, rows, states, first, seat, None, mode="vote",
                                            accepted=accepted)
            else:
                kind = "takeback_expired" if expired else "takeback_refused"
                event: dict[str, Any] = {"type": kind, "seat": seat, "_seat": seat}
                if by is not None:
                    event["by_seat"] = by
                settings = {k: v for k, v in game.settings.items() if k != KEY}
                row = await self.store.commit_action(
                    game.id, game.version, state=game.state or {}, seat=seat, user_id=None,
                    action={"type": kind, "of": req.get("of"), "_by": "vote"}, events=[event], settings=settings,
                    expected=sessions.expected_seats(game))
                if row is None:
                    raise SessionError("common.error.already_played")
                outcome = Outcome(game=row, events=[event],
                                  newly_expected=sessions.expected_seats(row) & {seat})
            await self.store.close_deadline((game.id, seat, VOTE, epoch), DONE, now)
        await sessions._notify(outcome)
        return outcome

    # --- the scheduler's side: an expired request ---------------------------------------------------
    @staticmethod
    def owns(game: GameRow, d: Deadline) -> bool:
        """Whether this ``vote`` deadline is a takeback request's (else it is a stalled player's vote)."""
        req = game.settings.get(KEY)  # (a stalled player's vote never has the same epoch: each opening is a version)
        return isinstance(req, dict) and req.get("seat") == d.seat and req.get("epoch") == d.version

    async def fire(self, game: GameRow, due: list[Deadline], now: float, lease: float) -> list[Outcome]:
        """The requests whose time ran out: each claimed (compare-and-swap) and closed as expired;
        a request already decided or cancelled by a later move is void."""
        outcomes = []
        for d in due:
            game = await self.store.get_game(game.id) or game
            req = open_request(game)
            if req is None or req.get("epoch") != d.version or req.get("seat") != d.seat:
                await self.store.close_deadline(d.key, VOID, now)
                continue
            if not await self.store.claim_deadline(d.key, now, lease):
                continue
            try:
                outcomes.append(await self.decide(game.id, d.version, REFUSE, now=now, expired=True))
            except SessionError as err:
                log.info("takeback request of game %s closed meanwhile (%s)", game.id, err.key)
                await self.store.close_deadline(d.key, VOID, now)
        return outcomes


# --- Discord ---------------------------------------------------------------------------------------
def controls(game: GameRow, lg: str) -> list[discord.ui.Item]:
    """« Accepter » / « Refuser » under the game's newest message while a request is open."""
    req = open_request(game)
    if req is None:
        return []
    seat = int(req["seat"])
    name = game.seats[seat].name if 0 <= seat < len(game.seats) else "?"
    return [button(game.id, "takeback_vote", label_with_name("undo.button.accept", lg, "player", name, emoji=True),
                   version=game.version, arg=f"{seat}-{ACCEPT}", style=discord.ButtonStyle.success, emoji="✅"),
            button(game.id, "takeback_vote", label_with_name("undo.button.refuse", lg, "player", name, emoji=True),
                   version=game.version, arg=f"{seat}-{REFUSE}", style=discord.ButtonStyle.danger, emoji="✖️")]


def undo_button(game: GameRow, lg: str) -> discord.ui.Item:
    """« Reprendre » on a player's own (ephemeral) view: the same as ``/<jeu> annuler-coup``."""
    return button(game.id, "takeback", i18n.t("undo.button.undo", lg), emoji="↩️")


async def undo_items(bot: Any, game: GameRow, user_id: int, lg: str) -> list[discord.ui.Item]:
    """« Reprendre mon coup » when asking would work now (:meth:`Takebacks.refusal`), else nothing: never
    where it always fails (a solo round closed by the move, a player who has not played, Lutinades)."""
    if game.status != RUNNING:
        return []
    try:
        refused = await service(bot).refusal(game, user_id)
    except Exception:  # the private view is shown all the same, without the control
        log.exception("takeback check of game %s", game.id)
        return []
    return [] if refused is not None else [undo_button(game, lg)]


def service(bot: Any) -> Takebacks:
    svc = getattr(bot, "takebacks", None)
    if svc is None:
        svc = bot.takebacks = Takebacks(bot.store, bot.sessions)
    return svc


async def ask_from(cog: Any, interaction: discord.Interaction, game: GameRow) -> None:
    """``/<jeu> annuler-coup`` or « Reprendre »: at once, or the request is published to the table."""
    bot = cog.bot
    lg = lang(interaction)
    async with cog.game_lock(game.id):
        outcome = await service(bot).ask(game.id, interaction.user.id, now=bot.clock())
        done = outcome.events[0]["type"] == "takeback"
        await send_card(interaction, i18n.t("undo.done.taken" if done else "undo.done.asked", lg, id=game.id),
                        seat=outcome.events[0].get("seat"), ephemeral=True)
        extra = None
        if not done:  # the players asked are called (the bot's own pings of seated players only)
            asked = deciders(outcome.game, outcome.events[0]["seat"])
            extra = [i18n.t("undo.label.call", await cog.public_lang_of(outcome.game),
                            players=Safe(" ".join(ping(u) for u in asked)))]
        await cog.publish(outcome, interaction, extra=extra)


async def on_undo(click: Click) -> None:
    """« Reprendre mon coup » (on the player's private view)."""
    cog = click.interaction.client.game_cogs.get(click.game.kind)  # type: ignore[attr-defined]
    if cog is None:
        await refuse(click.interaction, "common.error.game_unavailable")
        return
    await ask_from(cog, click.interaction, click.game)


async def on_undo_vote(click: Click) -> None:
    """« Accepter » / « Refuser »: a ballot; the decision, once made, is published."""
    inter, game = click.interaction, click.game
    bot: Any = inter.client
    cog = bot.game_cogs.get(game.kind)
    if cog is None:
        await refuse(inter, "common.error.game_unavailable")
        return
    try:
        _, choice = (click.arg or "").split("-", 1)
    except ValueError:
        await refuse(inter, "common.error.forged_button")
        return
    lg = lang(inter)
    async with cog.game_lock(game.id):
        outcome = await service(bot).answer(game.id, inter.user.id, click.version, choice, now=bot.clock())
        await send_card(inter, i18n.t("undo.done.cast", lg, choice=choice), seat=game.seat_of(inter.user.id),
                        ephemeral=True)
        if outcome is not None:  # decided: the table is told (accepted: the game as it was)
            await cog.publish(outcome, inter)


def register(router: Any) -> None:
    router.register("*", "takeback", on_undo)
    router.register("*", "takeback_vote", on_undo_vote)

