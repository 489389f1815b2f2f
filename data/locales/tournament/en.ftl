## cmd
cmd-tournoi = Server tournaments: Swiss, round-robin groups or single elimination
cmd-creer = Create a tournament in this channel (Manage Server or the organisers' role)
cmd-jeu = The tournament's game
cmd-format = Swiss (default), round-robin groups (everyone meets everyone) or single elimination
cmd-rondes = Number of rounds (Swiss); round-robin: opponents per group
cmd-rythme = Pace of the tournament's games (else the server's default)
cmd-places = Number of places (16 by default)
cmd-fiabilite = Least share of games seen through to enter, in % (0: none)
cmd-tournoi_id = The tournament's number (this channel's by default)
cmd-inscrire = Enter an open tournament
cmd-desinscrire = Leave a tournament (running: no longer paired in the next rounds)
cmd-lancer = Launch the tournament: the first round opens
cmd-etat = Where the tournament stands: round, games in progress, standings picture
cmd-annuler = Cancel the tournament (games in progress go on outside it)
cmd-organisateur = Role that may create tournaments (besides Manage Server)
cmd-saison_config = Leaderboard seasons: monthly or quarterly
cmd-chercher = Find opponents: the game opens as soon as the queue is full
cmd-jeu_chercher = The game wanted
cmd-joueurs = Number of players at the table (the game's least by default)
cmd-rythme_chercher = The game's pace (else the server's default)
cmd-quitter = Leave all your queues
cmd-defi = Challenge a member: a game only that member can join
cmd-membre_defi = The member challenged
cmd-jeu_defi = The challenge's game
cmd-joueurs_table = Players per table (2: in pairs; by default 2 for a two-player game, else 4 where the game allows)
cmd-saison = A season: 2026-11, or 2026-q4 when the server counts in quarters (empty: the current one)

## format
format-swiss = Swiss
format-round_robin = Round-robin groups
format-elimination = Single elimination

## status
status-open = entries open
status-running = in progress
status-finished = finished
status-cancelled = cancelled

## button
button-join = Sign up
button-leave = Withdraw

## text
text-label = Tournament #{ $id } — { $game }, { $format } ({ $status })
text-created = 🏆 Tournament #{ $id }: **{ $game }**, { $format }, { $rounds ->
    [one] { $rounds } round
   *[other] { $rounds } rounds
}, { $places } places{ $reliability ->
    [0] {""}
   *[other] , at least { $reliability } % of games seen through to enter
}. Organiser: { $organiser }. Sign up with the button below.
text-entered = ✅ { $player } entered tournament #{ $id } (rating { $rating }): { $count } of { $places } { $places ->
    [one] place taken
   *[other] places taken
}.
text-left = You are no longer in tournament #{ $id }.
text-withdrawn = You leave tournament #{ $id }: no longer paired in the next rounds. A game in progress goes on.
text-launched = 🏁 Tournament #{ $id } begins: { $count } players, { $total ->
    [one] { $total } round
   *[other] { $total } rounds
}.
text-cancelled = Tournament #{ $id } is cancelled. Games in progress go on outside it.

## round
round-head = **Tournament #{ $id } — round { $round } of { $total }**: { $count ->
    [one] { $count } game, each in its own thread
   *[other] { $count } games, each in its own thread
}.
round-table = Table { $table }: { $players } (game #{ $game })
round-table_link = Table { $table }: { $players } — [game #{ $game }](<{ $link }>)
round-byes = { $count ->
    [one] Bye (1 point in Swiss): { $players }
   *[other] Byes: { $players }
}
round-many = Every table: { COMMAND("tournoi etat") } `tournament:{ $id }`. Each game opens in its own thread.

## state
state-open = { $count ->
    [0] Nobody has signed up yet ({ $places } places).
   *[other] { $count } of { $places } { $places ->
        [one] place taken
       *[other] places taken
    }: { $players }
}
state-round = Round { $round } of { $total }: { $running } { $running ->
    [one] game in progress
   *[other] games in progress
} of { $count }.

## podium
podium-head = 🏆 **Tournament #{ $id } — { $game } is over.** The podium:
podium-line = { $rank ->
    [1] 🥇
    [2] 🥈
   *[other] 🥉
} { $player } — { $points } pt

## card
card-title = Tournament #{ $id } — { $game }
card-subtitle = { $format }, round { $round } of { $total } · { $count } players · tie-breaks: Buchholz (Buch.), then Sonneborn-Berger (S-B), then rating
card-rank = Rank
card-player = Player
card-points = Points
card-games = Games
card-buchholz = Buch.
card-sb = S-B
card-rating = Rating
card-empty = Nobody yet
card-half = ½

## error
error-no_such = No tournament #{ $id } on this server.
error-status_open = Tournament #{ $id } has not started yet.
error-status_running = Tournament #{ $id } has already started: entries are closed.
error-status_finished = Tournament #{ $id } is over.
error-status_cancelled = Tournament #{ $id } was cancelled.
error-game = Unknown game: “{ $game }”.
error-format = Unknown format: choose Swiss, round-robin groups or single elimination.
error-rounds = The number of rounds goes from 1 to { $max }.
error-places = The number of places goes from { $min } to { $max }.
error-reliability = The share of games seen through is a percentage, from 0 to 100.
error-unreliable = This tournament requires { $required } % of games seen through; yours is { $percent } % (see { COMMAND("profil") }).
error-already_in = You are already in this tournament.
error-full = The tournament is full ({ $places } places).
error-not_in = You are not in this tournament.
error-no_withdrawal = In single elimination you cannot leave a running tournament: resign the game if you wish.
error-only_organiser = Only whoever created the tournament, or a member with Manage Server, can do that.
error-organiser_only = Creating a tournament requires the Manage Server permission or the organisers' role set with { COMMAND("ludibot config") }.
error-not_enough = This tournament needs at least { $min } players to launch ({ $count } so far).
error-busy = The tournament just changed: try again.
error-game_cancel = This game counts for tournament #{ $id }: only a member with Manage Server can cancel it.
error-none_here = No open or running tournament in this channel: give its number (option “tournament”).
error-queue_game = Choose the game wanted (option “game”), or the “leave” option to leave your queues.
error-queue_players = A table of this game seats { $min } to { $max } players.
error-queue_already = You are already waiting in this queue.
error-queue_too_many = You already wait in { $max } queues: leave them first ({ COMMAND("chercher") } with the “leave” option).
error-challenge_self = You cannot challenge yourself.
error-challenge_bot = You cannot challenge a bot: to play the AI, start a game with the “ai” option.
error-reserved = This game is a challenge: only { $member } can join it.
error-season = Unknown season: “{ $value }”. Write it like { $example } (the current one), or pick it from the list.
error-ambiguous = Several tournaments in this channel ({ $list }): say which, for example `tournament:{ $example }` ({ $label }).

## config
config-role = Tournament organisers: Manage Server or the { $role } role
config-role_none = Tournament organisers: Manage Server (no organisers' role chosen)
config-season = Leaderboard seasons: { $season }
config-role_saved = The { $role } role can now create tournaments.
config-season_saved = Leaderboard seasons: { $season }. See them with { COMMAND("classement") } `season:`.

## season
season-board = season { $season }
season-caption = **{ $game }** leaderboard, season { $season }.
season-month = monthly
season-quarter = quarterly
season-quarter_name = Q{ $index } { $year }

## month
month-m1 = January { $year }
month-m2 = February { $year }
month-m3 = March { $year }
month-m4 = April { $year }
month-m5 = May { $year }
month-m6 = June { $year }
month-m7 = July { $year }
month-m8 = August { $year }
month-m9 = September { $year }
month-m10 = October { $year }
month-m11 = November { $year }
month-m12 = December { $year }

## queue
queue-waiting = 🔎 You are waiting for a { $game } game of { $players }: { $count } of { $players } waiting. You will be mentioned as soon as the table is full (to stop: { COMMAND("chercher") } with the “leave” option).
queue-found = 🎲 Game found: { $game } #{ $id } for { $players }. Have fun! { $link }
queue-left = { $count ->
    [0] You were not waiting in any queue.
    [one] You leave your queue.
   *[other] You leave your { $count } queues.
}

## challenge
challenge-head = ⚔️ { $creator } challenges { $member } to { $game }.
challenge-dm = ⚔️ { $creator } challenges you to { $game } (game #{ $id }): { $link }

## season_end
season_end-head = 🏆 **The { $season } season is over.** The server's podiums:
season_end-line = { $game }: { $podium }
season_end-place = { $rank ->
    [1] 🥇
    [2] 🥈
   *[other] 🥉
} { $player } ({ $rating })

## profile
profile-season_line = Season { $season } — { $game }: #{ $rank } of { $total } (season rating { $rating }, { $games ->
    [one] { $games } game
   *[other] { $games } games
})
