"""The schema: one list of numbered migrations, each written once with the dialect's words.

A migration is a template (``str.format`` fields: ``{serial}`` an auto-numbered primary key,
``{bigint}`` a Discord id or a game id, ``{real}`` a float, ``{blob}`` bytes, and the few phrases
the dialects spell differently, see :class:`bot.storage.sql.Dialect`), or a tuple of parts where a
part is such a template or, when the change itself differs (SQLite rebuilds a table to change a
CHECK, PostgreSQL alters the constraint), ``{"sqlite": ..., "postgresql": ...}``. JSON defaults are
written ``'{{}}'`` (the template's escape for ``'{}'``).

Adding a table, a column or an index: append one migration at the end of :data:`MIGRATIONS` (never
edit an applied one); both backends apply it at start, numbered by its position.
"""

from __future__ import annotations

from typing import Any

Migration = str | tuple[Any, ...]

MIGRATIONS: list[Migration] = [
    # 1: the foundation
    """
    CREATE TABLE games (
        id {serial},
        guild_id {bigint},
        channel_id {bigint} NOT NULL,
        kind TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{{}}',
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        seed {bigint} NOT NULL,
        creator_id {bigint} NOT NULL,
        lobby_message_id {bigint},
        control_message_id {bigint},
        created_at {real} NOT NULL,
        updated_at {real} NOT NULL,
        finished_at {real}
    );
    CREATE INDEX games_channel ON games (channel_id, status);
    CREATE INDEX games_guild ON games (guild_id, status, kind);
    CREATE TABLE seats (
        game_id {bigint} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id {bigint},
        name TEXT NOT NULL,
        ai_level INTEGER,
        locale TEXT NOT NULL DEFAULT 'fr',
        PRIMARY KEY (game_id, seat)
    );
    CREATE UNIQUE INDEX seats_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
    CREATE INDEX seats_by_user ON seats (user_id);
    CREATE TABLE events (
        id {serial},
        game_id {bigint} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        seat INTEGER,
        user_id {bigint},
        action TEXT NOT NULL,
        events TEXT NOT NULL,
        created_at {real} NOT NULL,
        UNIQUE (game_id, version)
    );
    CREATE TABLE results (
        game_id {bigint} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id {bigint},
        score INTEGER,
        rank INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_user ON results (user_id);
    CREATE TABLE guild_settings (
        guild_id {bigint} PRIMARY KEY,
        settings TEXT NOT NULL DEFAULT '{{}}'
    );
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 2: playing over days (issue 9): deadlines, user preferences, ratings
    """
    CREATE TABLE deadlines (
        game_id {bigint} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('reminder', 'timeout')),
        version INTEGER NOT NULL,
        due {real} NOT NULL,
        since {real} NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'void', 'failed')),
        lease_until {real},
        attempts INTEGER NOT NULL DEFAULT 0,
        fired_at {real},
        PRIMARY KEY (game_id, seat, kind, version)
    );
    CREATE INDEX deadlines_due ON deadlines (due) WHERE state = 'pending';
    CREATE INDEX events_seat ON events (game_id, seat, version);
    CREATE TABLE user_prefs (
        user_id {bigint} PRIMARY KEY,
        prefs TEXT NOT NULL DEFAULT '{{}}'
    );
    CREATE TABLE rated_games (
        game_id {bigint} PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        guild_id {bigint},
        kind TEXT NOT NULL,
        finished_at {real} NOT NULL,
        solo INTEGER NOT NULL,
        humans INTEGER NOT NULL
    );
    CREATE INDEX rated_games_board ON rated_games (guild_id, kind, solo, finished_at);
    CREATE INDEX results_user_game ON results (user_id, game_id);
    CREATE INDEX games_finished ON games (status, finished_at);
    CREATE TABLE ratings (
        guild_id {bigint} NOT NULL,
        kind TEXT NOT NULL,
        user_id {bigint} NOT NULL,
        name TEXT NOT NULL,
        mu {real} NOT NULL,
        sigma {real} NOT NULL,
        ordinal {real} NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        best_score INTEGER,
        last_played {real},
        PRIMARY KEY (guild_id, kind, user_id)
    );
    CREATE INDEX ratings_board ON ratings (guild_id, kind, ordinal);
    CREATE INDEX ratings_player ON ratings (guild_id, user_id);
    """,
    # 3: the field (issues 13-17): the outbox, paused and broken games, a game's own thread
    """
    ALTER TABLE games ADD COLUMN published_version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN paused TEXT;
    ALTER TABLE games ADD COLUMN broken TEXT;
    ALTER TABLE games ADD COLUMN thread_id {bigint};
    UPDATE games SET published_version = version;
    CREATE INDEX games_unpublished ON games (updated_at) WHERE published_version < version
        AND status IN ('running', 'finished');
    CREATE INDEX games_paused ON games (guild_id) WHERE paused IS NOT NULL;
    """,
    # 4: lean storage (issue 14): closed deadlines are not history (events and results are); keep only
    # each seat's newest epoch while its game runs. Indexes for the community queries. An ended game's
    # state and log are archived, compressed, in one row.
    """
    DELETE FROM deadlines WHERE game_id IN (SELECT id FROM games WHERE status IN ('finished', 'cancelled'));
    DELETE FROM deadlines WHERE state = 'void';
    DELETE FROM deadlines WHERE state <> 'pending' AND version < (SELECT MAX(d.version) FROM deadlines d
        WHERE d.game_id = deadlines.game_id AND d.seat = deadlines.seat);
    CREATE INDEX games_guild_finished ON games (guild_id, status, id);
    CREATE INDEX rated_games_unrated ON rated_games (finished_at);
    CREATE TABLE archives (
        game_id {bigint} PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        state {blob} NOT NULL,
        events {blob} NOT NULL
    );
    """,
    # 5: table settings chosen at start (issue 15): the pace and whether the game has its own thread
    """
    ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{{}}';
    """,
    # 6: a game in its own thread (issue 15): commands typed in the thread find the game
    """
    CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL;
    """,
    # 7: vacations (issue 15): each player's vacations, the running one included (the yearly allowance reads them)
    """
    CREATE TABLE vacations (
        user_id {bigint} NOT NULL,
        starts_at {real} NOT NULL,
        ends_at {real} NOT NULL,
        PRIMARY KEY (user_id, starts_at)
    );
    CREATE INDEX vacations_end ON vacations (user_id, ends_at);
    """,
    # 8: a stalled player (issue 15): the other players' ballots, one per voter and vote (the vote itself is
    # a 'vote' deadline of the stalled seat; its decision goes in the event log)
    ("""
    CREATE TABLE ballots (
        game_id {bigint} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        epoch INTEGER NOT NULL,
        voter {bigint} NOT NULL,
        choice TEXT NOT NULL,
        cast_at {real} NOT NULL,
        PRIMARY KEY (game_id, seat, epoch, voter)
    );
    """, {"sqlite": """
    CREATE TABLE deadlines_new (
        game_id {bigint} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('reminder', 'timeout', 'vote')),
        version INTEGER NOT NULL,
        due {real} NOT NULL,
        since {real} NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'void', 'failed')),
        lease_until {real},
        attempts INTEGER NOT NULL DEFAULT 0,
        fired_at {real},
        PRIMARY KEY (game_id, seat, kind, version)
    );
    INSERT INTO deadlines_new (game_id, seat, kind, version, due, since, state, lease_until, attempts, fired_at)
        SELECT game_id, seat, kind, version, due, since, state, lease_until, attempts, fired_at FROM deadlines;
    DROP TABLE deadlines;
    ALTER TABLE deadlines_new RENAME TO deadlines;
    CREATE INDEX deadlines_due ON deadlines (due) WHERE state = 'pending';
    """, "postgresql": """
    ALTER TABLE deadlines DROP CONSTRAINT IF EXISTS deadlines_kind_check;
    ALTER TABLE deadlines ADD CONSTRAINT deadlines_kind_check CHECK (kind IN ('reminder', 'timeout', 'vote'));
    """}),
    # 9: whose turn, since when (issue 16): kept with every commit so that /parties and the scheduler's
    # sweep read indexes, not every running game's state. Running games start stale (turn_version
    # NULL): the bot refreshes them at start (SessionService.refresh_turns), in batches.
    """
    ALTER TABLE games ADD COLUMN turn_since {real};
    ALTER TABLE games ADD COLUMN turn_version INTEGER;
    ALTER TABLE seats ADD COLUMN turn_since {real};
    UPDATE games SET turn_version = version WHERE status <> 'running';
    CREATE INDEX games_turns ON games (guild_id, turn_since{nulls_first}, id) WHERE status = 'running' AND broken IS NULL;
    CREATE INDEX games_turn_stale ON games (id) WHERE status = 'running' AND broken IS NULL
        AND turn_version {is_distinct} version;
    CREATE INDEX seats_turns ON seats (user_id, turn_since) WHERE turn_since IS NOT NULL;
    CREATE INDEX seats_expected ON seats (game_id, seat) WHERE turn_since IS NOT NULL AND ai_level IS NULL;
    """,
    # 10: lobbies and cancellations go through the outbox too (issue 24): a lobby's card shows its
    # newest version, a cancelled game's card loses its controls. What is already shown stays as it is.
    """
    UPDATE games SET published_version = version WHERE status IN ('lobby', 'cancelled');
    DROP INDEX games_unpublished;
    CREATE INDEX games_unpublished ON games (updated_at) WHERE published_version < version;
    """,
    # 11: tournaments and queues (issue 28) in the database, so that they survive a restart and run across
    # shard processes: a tournament moves under a claimed lease (``lease_until``) and a compare-and-swap on
    # its ``version``; its entrants (``position``: the order they entered), each round's tables (a table's
    # game recorded once, found back from the game's end) and byes (points as a fraction). A queue entry is
    # one member waiting in one queue (``pace`` '' when none); a full queue becomes a match, whose game is
    # recorded once.
    """
    CREATE TABLE tournaments (
        id {serial},
        guild_id {bigint} NOT NULL,
        channel_id {bigint} NOT NULL,
        kind TEXT NOT NULL,
        format TEXT NOT NULL,
        rounds INTEGER NOT NULL,
        places INTEGER NOT NULL,
        creator_id {bigint} NOT NULL,
        pace TEXT,
        reliability INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL,
        round INTEGER NOT NULL DEFAULT 0,
        total INTEGER NOT NULL DEFAULT 0,
        version INTEGER NOT NULL DEFAULT 1,
        created_at {real} NOT NULL,
        lease_until {real} NOT NULL DEFAULT 0,
        seeds TEXT NOT NULL DEFAULT '[]',
        table_size INTEGER
    );
    CREATE INDEX tournaments_guild ON tournaments (guild_id, status);
    CREATE INDEX tournaments_status ON tournaments (status, id);
    CREATE TABLE tournament_entries (
        tournament_id {bigint} NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        user_id {bigint} NOT NULL,
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        rating {real} NOT NULL,
        locale TEXT NOT NULL DEFAULT 'fr',
        withdrawn INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE TABLE tournament_tables (
        tournament_id {bigint} NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        players TEXT NOT NULL,
        game_id {bigint},
        ranks TEXT,
        ended INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tournament_id, round, table_no)
    );
    CREATE INDEX tournament_tables_game ON tournament_tables (game_id) WHERE game_id IS NOT NULL;
    CREATE TABLE tournament_byes (
        tournament_id {bigint} NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        player {bigint} NOT NULL,
        points_num INTEGER NOT NULL,
        points_den INTEGER NOT NULL,
        PRIMARY KEY (tournament_id, round, player)
    );
    CREATE TABLE queue_entries (
        guild_id {bigint} NOT NULL,
        user_id {bigint} NOT NULL,
        kind TEXT NOT NULL,
        players INTEGER NOT NULL,
        pace TEXT NOT NULL DEFAULT '',
        channel_id {bigint} NOT NULL,
        name TEXT NOT NULL,
        since {real} NOT NULL,
        locale TEXT NOT NULL DEFAULT 'fr',
        PRIMARY KEY (guild_id, user_id, kind, players, pace)
    );
    CREATE INDEX queue_entries_queue ON queue_entries (guild_id, kind, players, pace, since);
    CREATE TABLE queue_matches (
        id {serial},
        guild_id {bigint} NOT NULL,
        channel_id {bigint} NOT NULL,
        kind TEXT NOT NULL,
        pace TEXT,
        members TEXT NOT NULL,
        created_at {real} NOT NULL,
        game_id {bigint}
    );
    CREATE INDEX queue_matches_unopened ON queue_matches (id) WHERE game_id IS NULL;
    """,
    # 12: a season's end is a claimed deadline of its server (issue 28): the podium is posted when the season
    # ends, by the process that claims the row (a lease, like a timeout's), once per server and season. A
    # queue's match is ``opened`` once its game has started: a crash between recording the game and starting
    # it leaves the match to the periodic tick (matches already recorded count as opened)
    """
    ALTER TABLE queue_matches ADD COLUMN opened INTEGER NOT NULL DEFAULT 0;
    UPDATE queue_matches SET opened = 1 WHERE game_id IS NOT NULL;
    CREATE INDEX queue_matches_unstarted ON queue_matches (id) WHERE opened = 0;
    CREATE TABLE season_ends (
        guild_id {bigint} NOT NULL,
        period TEXT NOT NULL,
        label TEXT NOT NULL,
        due {real} NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'void', 'failed')),
        lease_until {real},
        attempts INTEGER NOT NULL DEFAULT 0,
        fired_at {real},
        PRIMARY KEY (guild_id, period, label)
    );
    CREATE INDEX season_ends_due ON season_ends (due) WHERE state = 'pending';
    """,
    # 13: the round a tournament announced last (issue 28): a round is announced once all its games are open,
    # then marked by a compare-and-swap, so that a restart or another process announces a round the dead
    # process opened but did not announce (only a death between the post and the mark repeats it).
    """
    ALTER TABLE tournaments ADD COLUMN announced INTEGER NOT NULL DEFAULT 0;
    UPDATE tournaments SET announced = round;
    """,
    # 14: the board's live pages (bot/activity/live.py): PostgreSQL tells every process, at commit, that a game
    # has a new version or status ("game:version:channel" on the channel ludibot_games), whichever process
    # or tool wrote it. SQLite has one process, whose session service tells its pages itself.
    ({"sqlite": "SELECT 1;", "postgresql": """
    CREATE OR REPLACE FUNCTION ludibot_game_changed() RETURNS trigger AS $$
    BEGIN
        PERFORM pg_notify('ludibot_games', NEW.id::text || ':' || NEW.version::text || ':' || NEW.channel_id::text);
        RETURN NEW;
    END
    $$ LANGUAGE plpgsql;
    CREATE TRIGGER games_changed AFTER INSERT OR UPDATE OF version, status ON games
        FOR EACH ROW EXECUTE FUNCTION ludibot_game_changed();
    """},),
    # 15: the daily challenge (issue 37): a server's secret (drawn once, never shown) from which each day's
    # draw is derived; one play per member, game, variant and UTC day (the primary key is the once-a-day
    # rule, whatever the number of processes or clicks); the best AI's score on the day's draw, once
    """
    CREATE TABLE daily_secrets (
        guild_id {bigint} NOT NULL PRIMARY KEY,
        secret TEXT NOT NULL,
        created_at {real} NOT NULL
    );
    CREATE TABLE daily_plays (
        guild_id {bigint} NOT NULL,
        day TEXT NOT NULL,
        kind TEXT NOT NULL,
        variant TEXT NOT NULL,
        user_id {bigint} NOT NULL,
        name TEXT NOT NULL,
        game_id {bigint},
        started_at {real} NOT NULL,
        PRIMARY KEY (guild_id, kind, variant, day, user_id)
    );
    CREATE INDEX daily_plays_game ON daily_plays (game_id) WHERE game_id IS NOT NULL;
    CREATE TABLE daily_marks (
        guild_id {bigint} NOT NULL,
        day TEXT NOT NULL,
        kind TEXT NOT NULL,
        variant TEXT NOT NULL,
        score INTEGER NOT NULL,
        level INTEGER NOT NULL,
        PRIMARY KEY (guild_id, kind, variant, day)
    );
    """,
]


def render(migration: Migration, dialect: Any) -> str:
    """The SQL script of one migration for ``dialect`` (a :class:`bot.storage.sql.Dialect`)."""
    parts = migration if isinstance(migration, tuple) else (migration,)
    text = []
    for part in parts:
        if isinstance(part, dict):
            part = part[dialect.name]
        text.append(part.format(**dialect.ddl))
    return "".join(text)
