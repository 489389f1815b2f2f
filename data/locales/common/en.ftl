## error
error-bad_option = Option “{ $option }” cannot be “{ $value }” (allowed: { $allowed }).
error-unknown_option = Unknown option “{ $option }” (allowed: { $allowed }).
error-bad_pace = Unknown pace “{ $pace }” (allowed: { $allowed }).
error-player_count = This game is for { $min } to { $max } players (you are { $count }).
error-game_over = This game is over.
error-not_your_turn = It is not your turn.
error-unknown_action = Unknown action: “{ $action }”.
error-no_such_game = Game #{ $game } does not exist.
error-not_started = Game #{ $game } has not started yet.
error-already_started = Game #{ $game } has already started.
error-game_finished = Game #{ $game } is over.
error-game_cancelled = Game #{ $game } was cancelled.
error-wrong_game = Game #{ $game } is not a game of this kind.
error-no_game_here = No game of this kind is running in this channel. Open one with the start command.
error-ambiguous = Several games are open here: { $games }. Say which one with the “game” option.
error-busy = Too many clicks at once: please try again.
error-not_a_player = You are not playing in game #{ $game }.
error-already_played = This move was already played: this button is out of date. Look at the game's latest message.
error-forged_button = This button is not valid.
error-select_one = This list takes exactly one option (received: { $count }): nothing changed.
error-not_offered = “{ $value }” is not one of the options offered: nothing changed. Pick one from the list.
error-internal = Oops, an internal error happened. The game did not change; please try again.
error-unwritable = The bot cannot save anything right now: nothing changed. Please try again later (the bot's administrators are told).
error-no_permission = You do not have permission to do that.
error-no_private_view = This game has no secret information to show you.
error-game_unavailable = This game is not available on this bot.
error-board_off = The board is not enabled on this bot: play with the game's buttons.

## event
event-started = The game begins!
event-final = **Game over.** Ranking:
event-your_turn = Your turn: { $players } (game #{ $game }).
event-waiting_for = Waiting for: { $players }.
event-skipped = … ({ $count } { $count ->
        [one] more action
       *[other] more actions
    }) …
event-vote_open = 🗳️ { $seat } did not play in time. The { $voters } other players vote (the vote closes <t:{ $due }:R>): { $ai ->
        [yes] wait longer, let the bot play for them or remove { $seat } from the game
       *[no] wait longer or remove { $seat } from the game
    }. A majority decides at once; you may change your vote until then.
event-vote_decided = 🗳️ The players decided: { $choice ->
        [wait] wait longer for { $seat }, with a new time limit.
        [ai] the bot plays for { $seat } until they are back (the “Take my seat back” button).
       *[remove] { $seat } is removed from the game.
    } ({ $wait } to wait, { $ai } for the bot, { $remove } to remove)
event-seat_back = 🙋 { $seat } takes their seat back: the bot no longer plays for { $seat }.
event-seat_removed = 🚪 The game goes on without { $seat }.
event-removed_end = 🚪 The game cannot go on without { $seat }: it ends, { $seat } ranked last.

## status
status-lobby = waiting for players
status-running = running
status-finished = over
status-cancelled = cancelled

## label
label-ai = AI
label-game_listed = #{ $id } ({ $players }, { $status })
label-game_choice = #{ $id } — { $players } ({ $status })
label-rank_line = { $rank }. { $player } — { $score }
label-private_view = Your private view of game #{ $id } (only you can see it).
label-status_head = **{ $game }** — game #{ $id }, { $status }.

## button
button-join = Join
button-leave = Leave
button-add_ai = Add an AI
button-start = Start
button-cancel = Cancel

## lobby
lobby-text =
    {"*"}*{ $game }** — game #{ $id }, opened by { $creator }
    Players ({ $count }{ $fixed ->
        [yes] {" "}of { $max }
       *[no] {" "}of { $min } to { $max }
    }):
    { $seats }
    Options: { $options }
    { $reserved ->
        [none] Click “Join” to take a seat; the creator starts the game.
       *[other] Only { $reserved } can join: the game starts as soon as they do.
    }
lobby-started = **The game has started.**
lobby-cancelled = { $game } game #{ $id } was cancelled by { $by }.
lobby-joined = { $player } joins game #{ $id } ({ $count }/{ $max }).
lobby-left = { $player } leaves game #{ $id }.

## cmd
cmd-join = Join the game waiting in this channel
cmd-leave = Leave the game waiting in this channel
cmd-status = See the game's public state
cmd-rules = Rules summary
cmd-cancel = Cancel the game (creator or moderator)
cmd-rythme = How fast the game is played (default: the server's pace)
cmd-fil = Play in a thread of its own (default: the server's setting)
cmd-partie = Game number (if several games run in this channel)

## format
# a date as the language writes it (records table)
format-date = { DATETIME($date, dateStyle: "medium") }

## merged from main
error-already_played_link = That move was already played: this { $control ->
        [menu] menu
        [form] form
       *[button] button
    } is out of date. { $link }
error-dm_elsewhere = Games in direct messages are handled by another instance of the bot: please try again in a moment.
error-missing_permissions = Ludibot cannot host a game here: it lacks { $permissions }. Ask a server admin to grant them in this channel, then run the command again.
error-dm_game = Games are played in a server's channel or thread, not in direct messages: run the command in your server.
permission-view_channel = “View Channel”
permission-send_messages = “Send Messages”
permission-send_messages_in_threads = “Send Messages in Threads”
permission-attach_files = “Attach Files”
permission-embed_links = “Embed Links”
permission-read_message_history = “Read Message History”
permission-create_public_threads = “Create Public Threads”
permission-create_private_threads = “Create Private Threads”
paused-player = ⚠️ Game #{ $id } is paused: Ludibot can no longer post in this channel (it lacks { $permissions }). Your moves count, but no clock runs and the channel no longer shows the game until an admin gives these permissions back.
paused-creator = ⚠️ Your game of { $game } (#{ $id }) in { $channel } is paused: { $reason } No clock runs against its players. It resumes by itself once Ludibot can post there again.
paused-missing_access = Ludibot no longer has access to that channel.
paused-missing_permissions = Ludibot may no longer post, attach a picture or embed a link there.
paused-unknown_channel = the channel no longer exists.
paused-thread_locked = the thread was locked.

## merged from main
error-other_channel = Game #{ $game } is played in { $channel }: type the command there.
error-game_broken = Game #{ $game } cannot be read (a bot update?) and was set aside: a server admin can cancel it with { COMMAND("ludibot casse") }.
error-number_out_of_range = The number given for “{ $option }” is out of range ({ $min } to { $max }).
error-bad_choice = “{ $value }” is not a choice for “{ $option }” (choices: { $allowed }).
error-wrong_component = This button or menu is not of the right type: nothing was done.
error-bad_value = “{ $value }” is not a valid value for “{ $option }”.
button-rematch = Rematch
button-board = Play on the board
lobby-rematch_exists = The rematch of this game is already open: game #{ $id } ({ $link }). Join it with its “Join” button.
lobby-rematch_call = Rematch of game #{ $id }: { $players }, join it to confirm.

## level
level-easy = Easy
level-medium = Medium
level-hard = Hard

## pace
pace-direct = Live (5 min a player, +1 min a move)
pace-rapide = Fast (2 h a player, +30 min a move)
pace-normal = Normal (the server's timeout, 2 days by default, +1 day a move)
pace-lent = Slow (7 days a player, +3 days a move)

## thread
thread-name = { $game } #{ $id } — { $players }
thread-started = The game is played in its own thread: { $thread }
thread-elsewhere = Game #{ $id } is played in its own thread: { $thread }. Your move is posted there.
thread-result = **{ $game } #{ $id }: game over.** The game's thread: { $link }
thread-pending = Your move is recorded; it will be posted in the thread of game #{ $id } as soon as Ludibot can write there.

## clock
clock-line = ⏳ Time left: { $clocks }
clock-seat = { $name } { $time }
clock-away = { $name } on vacation until { $until }
clock-days = { $n } { $n ->
        [one] day
       *[other] days
    }
clock-hours = { $n } h
clock-minutes = { $n } min
clock-seconds = { $n } s

## rules
rules-footer = Page { $page } of { $pages } · the complete rules, inside Discord
rules-previous = Previous
rules-next = Next
rules-pick = Go to page…
rules-page_time =
    {"*"}*Time and absent players**
    Every game has a **pace** (the `pace` option of `start`): each player has a time bank that runs during their turn and grows back with every move they make.
    • Live: 5 min, +1 min per move; Fast: 2 h, +30 min; Normal: the server's timeout (2 days by default), +half of it; Slow: 7 days, +3 days.
    • A reminder comes before the bank runs out. When it is empty, the bot plays the game's default move for the absent player; in Tectonic and L'Invincible Armada, three absences in a row lose the game by forfeit.
    • With at least two other humans at the table, they vote instead: wait, let the bot play for the player (until they click "Take my seat back") or remove them from the game.
    • { COMMAND("ludibot vacances") } `days:` stops your clocks in all your games (at most 30 days a year).
rules-page_undo =
    {"*"}*Taking a move back**
    • As long as nobody has played after you, `undo` (or the "Take my move back" button) takes your last move back: at once if it is still your turn or no other human plays, otherwise once every other human player has accepted. A move made meanwhile cancels the request; unanswered, it expires.
    • Never a move that revealed something (dice rolled, a card drawn, a tile announced, gestures shown, a round scored), nor the end of the game: in Ludix and Lutinades no move can be taken back.
    • The server decides whether takebacks are allowed and how many each player has per game ({ COMMAND("ludibot config") }, 3 by default).
