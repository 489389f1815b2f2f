## cmd
cmd-classement = The server's leaderboard for a game (picture)
cmd-records = Best solo scores for a game
cmd-profil = A member's statistics: ratings, records, games seen through, time per move
cmd-parties = First the games where it is your turn, then the other running games on this server
cmd-historique = Replay a finished game's log, or export it as JSON
cmd-ludibot = Ludibot settings
cmd-config = The server's reminders and timeouts, per game (Manage Server)
cmd-preferences = Your own preferences (reminders by direct message)
cmd-jeu = The game
cmd-rythme_config = Pace of games started without “pace” (normal: the reminder and timeout above)
cmd-vacances = Vacation: your clocks stop in all your games (days:0 to come back)
cmd-jours = Days of vacation from now (0: the vacation ends)
cmd-jeu_config = The game to set (empty or "all": the server's default)
cmd-periode = The period
cmd-membre = The member (you by default)
cmd-partie = Number of the finished game
cmd-format = Text (default) or a JSON file
cmd-rappel = Reminder after this many hours (0: no reminder)
cmd-delai = Default move after this many hours (0: never)
cmd-forfait = Forfeit at the N-th timeout in a row (0: never)
cmd-reinitialiser = First clear this game's own setting (back to the default)
cmd-rappels_mp = Also get reminders by direct message

## choice
choice-week = Last 7 days
choice-month = Last 30 days
choice-all = All time
choice-text = Text
choice-json = JSON
choice-all_games = All games (the server's default)

## error
error-guild_only = This command only works on a server.
error-manage_only = Only members with the Manage Server permission can change Ludibot's settings.
error-unknown_game = Unknown game: "{ $game }". Games: { $allowed }.
error-pick_game = Pick one game (for example ludix).
error-bad_period = Unknown period: "{ $period }". Pick one from the list: last 7 days, last 30 days or all time.
error-bad_format = Unknown format: "{ $format }". Pick one from the list: text or JSON.
error-negative_reminder = The reminder cannot be negative (got { $value } h). Use 0 for no reminder.
error-negative_timeout = The timeout cannot be negative (got { $value } h). Use 0 to never play for an absent player.
error-negative_forfeit = The number of timeouts before a forfeit cannot be negative (got { $value }). Use 0 to never forfeit.
error-reminder_too_long = The reminder cannot be longer than { $max } hours (got { $value } h).
error-timeout_too_long = The timeout cannot be longer than { $max } hours (got { $value } h).
error-forfeit_too_big = The forfeit must come at the latest at the { $max }th timeout in a row (got { $value }).
error-timeout_before_reminder = For { $game }, the timeout ({ $timeout } h) must be longer than the reminder ({ $reminder } h): otherwise the move would be played before the reminder.
error-no_solo = { $game } has no solo mode, so no solo records. Try { COMMAND("classement") } instead.
error-vacation_days = A vacation lasts 0 to { $max } days (got: { $days }).
error-vacation_allowance = You cannot go away for { $days } { $days ->
        [one] day
       *[other] days
    }: you have { $left } { $left ->
        [one] day
       *[other] days
    } of vacation left in the last 365 days ({ $allowance } days a year at most).
error-not_finished = Game #{ $game } is not finished: its history will be available at the end.

## board
board-title = Leaderboard — { $game }
board-subtitle = { $period } · { $server } · { $count } { $count ->
        [one] player
       *[other] players
    }
board-week = Last 7 days
board-month = Last 30 days
board-all = All time
board-rank = #
board-player = Player
board-rating = Rating
board-games = Games
board-wins = Wins
board-best = Best score
board-empty = Nobody has finished a game in this period yet.
board-caption = **{ $game }** leaderboard, { $period ->
        [week] last 7 days
        [month] last 30 days
       *[other] all time
    }.

## records
records-title = Solo records — { $game }
records-subtitle = { $server } · { $count ->
        [one] the best score
       *[other] the { $count } best scores
    }
records-rank = #
records-player = Player
records-score = Score
records-date = Date
records-game = Game
records-empty = No solo game finished yet.
records-caption = Solo records of **{ $game }**.


## daily challenge (issue 37)
daily-cmd = The daily challenge: the same draw for the whole server, once a day (or its boards)
daily-cmd-jeu = The game and its variant
daily-cmd-classement = Show the day's or the week's board instead of playing
daily-choice-limit-nexus = Take it to the Limit — Nexus
daily-choice-limit-orchidee = Take it to the Limit — Orchidée
daily-choice-ranta-classique = Range ta Ludothèque — classic
daily-choice-ranta-expert = Range ta Ludothèque — expert
daily-board-day = Today's board
daily-board-week = This week's board
daily-variant-limit-nexus = Nexus
daily-variant-limit-orchidee = Orchidée
daily-variant-ranta-classique = classic
daily-variant-ranta-expert = expert
daily-name = { $game } · { $variant }
daily-bad_game = “{ $value }” is not a daily challenge: pick a game from the list.
daily-already = You have already taken today's challenge — { $game } · { $variant }: one try a day, resigning included. A new draw tomorrow (midnight UTC).
daily-over = This challenge ({ $challenge }) was another day's: start today's with { COMMAND("defi-du-jour") }.
daily-private = Game #{ $game } is a daily challenge: it is played in private, its player's only, until the day is over ({ $until }). Take yours with { COMMAND("defi-du-jour") }!
daily-replay_closed = Game #{ $game } is a daily challenge: its history and animated summary open to everyone when the day is over ({ $until }).
daily-in_thread = Start the daily challenge from a channel: it is played in a private thread, yours only.
daily-opening = 🎯 Your daily challenge ({ $challenge }) is ready: its private thread, yours only, opens in a moment, and the link follows here. Nobody else sees the draw.
daily-where = 🎯 Your daily challenge ({ $challenge }) is played in a private thread, yours only: { $thread }. Nobody else sees the draw.
daily-started = 🎯 **Daily challenge** — { $challenge }, { $day }: { $player } takes the challenge, alone on today's draw.
daily-board-head-jour = 🎯 **Daily challenge — { $challenge }** · { $day }
daily-board-head-semaine = 🎯 **Weekly challenge — { $challenge }** · week of { $day }
daily-played = { $count ->
        [0] Nobody has taken the challenge today yet.
        [one] One member has taken the challenge today.
       *[other] { $count } members have taken the challenge today.
    }
daily-mark = Mark to beat: the AI ({ $level }) scores **{ $score }** on this draw.
daily-mark_pending = Mark to beat: the AI ({ $level }) is playing this draw, its score follows shortly.
daily-hidden = Today's scores stay hidden until you have finished the challenge ({ COMMAND("defi-du-jour") }).
daily-row = { $rank }. { $player } — { $score }
daily-row-week = { $rank }. { $player } — { $score } ({ $days } { $days ->
        [one] day
       *[other] days
    })
daily-row-playing = · { $player } — playing
daily-row-resigned = · { $player } — resigned
daily-ai = AI ({ $level })
daily-cell-playing = playing
daily-cell-resigned = resigned
daily-col-rank = #
daily-col-player = Player
daily-col-score = Score
daily-col-days = Days
daily-col-empty = No score to show yet.
daily-board-title-jour = Daily challenge — { $challenge }
daily-board-title-semaine = Weekly challenge — { $challenge }
daily-board-subtitle-jour = { $day } · { $server }
daily-board-subtitle-semaine = Week up to { $day } · { $server }
daily-share = 🎯 { $player } took the daily challenge — { $challenge }, { $day }: **{ $score }** { $score ->
        [one] point
       *[other] points
    }.
daily-share-resigned = 🎯 { $player } resigned from the daily challenge — { $challenge }, { $day }.
daily-share-mark = The AI ({ $level }) scored { $mark }: { $beaten ->
        [yes] mark beaten!
        [tie] a tie.
       *[no] the mark stands.
    }
daily-share-call = Your turn: same draw, one try today.
daily-button-play = Play the challenge
daily-shape-limit = Shape: { $total ->
        [0] no complete line
        [one] one complete line ({ $directions })
       *[other] { $total } complete lines ({ $directions })
    }
daily-direction-vertical = ↕
daily-direction-sw_ne = ↗
daily-direction-nw_se = ↘
daily-shape-ranta = Shape: { $groups } scoring { $groups ->
        [one] combination
       *[other] combinations
    }, { $empty } empty { $empty ->
        [one] cell
       *[other] cells
    }

## profile
profile-head = **{ $name }'s profile** on { $server }
profile-ai_head = 🤖 **{ $name }** — AI, level **{ $level }**
    -# { $game }
profile-ai_head_only = 🤖 **{ $name }** — AI
    -# { $game }
profile-ai_setting-limit-nexus = Nexus board
profile-ai_setting-limit-orchidee = Orchidée board
profile-ai_setting-ranta-classique = classic mode
profile-ai_setting-ranta-expert = expert mode
profile-ai_solo = • Solo, { $setting }: **{ $mean } points** on average over { NUMBER($games, useGrouping: 1) } games.
profile-ai_solo_above = • Solo, { $setting }: **{ $mean } points** on average over { NUMBER($games, useGrouping: 1) } games, against { $below } for the { $other } bot.
profile-ai_duel = • Against the { $other } bot: wins **{ $share }%** of games (out of { NUMBER($games, useGrouping: 1) }).
profile-ai_duel_beaten = • The { $other } bot beats it in **{ $share }%** of games (out of { NUMBER($games, useGrouping: 1) }).
profile-ai_table = • At a table of four, against three { $other } bots: wins **{ $share }%** of { NUMBER($games, useGrouping: 1) } games (an even share would be 25%).
profile-ai_random = • Against a player who moves at random: wins **{ $wins }** of { NUMBER($games, useGrouping: 1) } games.
profile-ai_word = • Finds the best-scoring word its hand allows **{ $share }%** of the time ({ NUMBER($games, useGrouping: 1) } hands checked against every possible word).
profile-ai_none = Its strength has not been measured yet.
profile-ai_note = Figures from the project's tests, not this server.
profile-empty = { $name } has not finished any game on this server yet.
profile-game_line = **{ $game }** — rating { $rating } (ranked { $rank } of { $total }) · { $games } { $games ->
        [one] game
       *[other] games
    } · { $wins } { $wins ->
        [one] win
       *[other] wins
    } · best score { $best }
profile-solo_line = **{ $game }** (solo) — record { $best } · { $games } { $games ->
        [one] game
       *[other] games
    }
profile-recent_head = Recent games:
profile-recent_line = • #{ $id } { $game } — finished { $rank } of { $players }{ $score } · { $when }
profile-recent_solo_line = • #{ $id } { $game } (solo){ $score } · { $when }
profile-no_score = —
profile-points = {" "}· { $score } { $score ->
        [one] pt
       *[other] pts
    }

profile-completion = Games seen through: **{ $percent }%** ({ $finished } of { $total }; { $cancelled } cancelled, { $forfeited } forfeited)
profile-median = Median time per move: **{ $duration }** (over { $moves } { $moves ->
        [one] move
       *[other] moves
    })
profile-seconds = { $n } { $n ->
        [one] second
       *[other] seconds
    }
profile-minutes = { $n } { $n ->
        [one] minute
       *[other] minutes
    }
profile-hours = { $n } { $n ->
        [one] hour
       *[other] hours
    }
profile-days = { $n } { $n ->
        [one] day
       *[other] days
    }

## games
games-head = **Running games on this server** ({ $count }):
games-line = • **{ $game }** #{ $id } in <#{ $channel }> — { $players } to play, turn started { $since } — { $link }
games-nobody = nobody
games-empty = No game is running on this server. Start one with { COMMAND("ludix start") } (or another game)!
games-more = … and { $count } more.
games-link = open
games-mine_head = **Your turn** ({ $count }):
games-others_head = **Other running games on this server** ({ $count }):
games-mine_line = • **{ $game }** #{ $id } in <#{ $channel }> — your turn, started { $since } — { $link }

## history
history-choice = #{ $id } — { $game } — { $players }
history-line = `{ $n }` **{ $player }**: { $text }
history-by_timeout = (timed out: default move)
history-forfeit = { $player } forfeits (too many timeouts)
history-hidden = (secret move)
history-json_ready = JSON export of game #{ $id } (game, players, options, public log, results).

## config
config-saved = Settings saved for { $scope }.
config-head = **Reminders and timeouts on this server** (in hours):
config-defaults = • By default: reminder { $reminder }, timeout { $timeout }, forfeit { $forfeit }, default pace: { $pace }
config-line = • { $game }: { $changes }{ $own }
config-same = • { $games } { $count ->
        [one] follows
       *[other] follow
    } the default.
config-same_own = • { $game }: as by default{ $own }
config-part_reminder = reminder { $value }
config-part_timeout = timeout { $value }
config-part_forfeit = forfeit { $value }
config-part_pace = pace: { $value }
config-own = {" "}(this game's own setting)
config-off = none
config-never = never
config-hours = after { $value } h
config-forfeit_after = after { $value } { $value ->
        [one] timeout in a row
       *[other] timeouts in a row
    }
config-scope_all = all games (the server's default)
config-note = Deadlines already planned keep their time; new ones follow these settings.

## prefs
prefs-on = You will also get your reminders by direct message.
prefs-off = You will not get reminders by direct message (only the mention in the channel).
prefs-show_on = Reminders by direct message: on.
prefs-show_off = Reminders by direct message: off. Turn them on with { COMMAND("ludibot preferences") } and its “dm_reminders” option.

## reminder
reminder-channel = ⏰ Reminder: { $players }, it is your turn in { $game } game #{ $id } (turn started { $since }). { $link }
reminder-dm = ⏰ It is your turn in { $game } game #{ $id } on { $server } (turn started { $since }): { $link }

## timeout
timeout-played = ⌛ { $player } did not play in time: the default move was played for them.
timeout-forfeit = 🏳️ { $player } timed out too many times in a row: forfeit, the game ends.

## language
language-fr = French (Français)
language-en = English
cmd-langue = The language of the server's public messages (French by default)
config-language = **Language of public messages**: { $language }
config-language_saved = This server's public messages (games, buttons, pictures, reminders) will now be in: { $language }.
cmd-fil = By default, play each game in a thread of its own (the channel keeps lobby and result)
config-thread = **A thread per game**: { $value ->
    [on] yes, games started without the “thread” option are played in a thread of their own
   *[off] no, games are played in the channel (unless started with the “thread” option)
}
config-thread_saved = From now on, by default: { $value ->
    [on] each new game will be played in a thread of its own.
   *[off] new games will be played in the channel.
} Lobbies already open keep their choice.
error-unknown_language = "{ $language }" is not an offered language ({ $allowed }).

## merged from main
cmd-casse = This server's unreadable games (set aside): list them, cancel one (Manage Server)
cmd-annuler = Number of the unreadable game to cancel
cmd-export = Export the server's finished games, results and ratings as JSON (Manage Server)
error-not_broken = Game #{ $game } is not unreadable: cancel it with its game's cancel command.
broken-none = No unreadable game on this server.
broken-head = Unreadable games, set aside ({ $count }):
broken-line = • #{ $id } — { $game } in { $channel }: { $reason }
broken-how = Other games are not affected. To cancel one: { COMMAND("ludibot casse") } `cancel:<number>`.
broken-cancelled = Game #{ $id } is cancelled.
export-ready = Here is the server's export: { $games } finished { $games ->
        [one] game
       *[other] games
    }, { $ratings } { $ratings ->
        [one] rating
       *[other] ratings
    }.

## merged from main
records-mode = Mode

## vacation
vacation-started = Enjoy your vacation! Your clocks are stopped in all your games until { $until } ({ $relative }). Come back earlier with { COMMAND("ludibot vacances") } `days:0`.
vacation-ended = Welcome back! Your clocks run again in all your games.
vacation-none = You are not on vacation: your clocks run as usual.

## a stalled player: the others vote (issue 15)
vote-button_wait = Wait for { $player } ({ $count })
vote-button_ai = Bot for { $player } ({ $count })
vote-button_remove = Remove { $player } ({ $count })
vote-button_reclaim = Take my seat back
vote-cast = 🗳️ Your vote is recorded: { $choice ->
        [wait] wait
        [ai] let the bot play
       *[remove] remove the player
    }. You may change it until the decision ({ $due }).
vote-closed = This vote of game #{ $game } is over: the decision is made (or the player came back).
vote-not_voter = Only the other players of game #{ $game } vote about this player.
vote-own_seat = You do not vote about your own seat: play your move in game #{ $game } to take it back.
vote-taken_over = The bot plays for you in game #{ $game }: click “Take my seat back” to play yourself again.
vote-not_taken_over = The bot is not playing for you in game #{ $game }.
vote-no_removal = This game's rules cannot go on without this player.
