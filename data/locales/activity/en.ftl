# The board inside Discord (an Activity): its API's refusals, in the player's language

error-no_token = Open the board from Discord: this page does not know who you are.
error-bad_token = Discord did not recognise your session (it may have expired). Close the board and open it again.
error-bad_code = Discord refused this page's authorisation. Close the board and open it again.
error-discord_down = Discord is not answering right now; try again in a moment. Nothing changed.
error-no_instance = This Activity is no longer open in Discord. Open the board again from the game.
error-not_in_instance = You are not in this Activity: join it from Discord.
error-elsewhere = This game is played in another channel: open the board from its channel.
error-no_game = There is no game #{ $game } in this channel.
error-not_running = Game #{ $game } is not running.
error-stale = Another move was made meanwhile: the board has just been updated. Nothing changed.
error-bad_request = This request is incomplete or damaged ({ $field }). Nothing changed.
error-too_many = Too many requests at once: wait { $seconds } s. Nothing changed.
error-internal = The bot could not handle this request. Nothing changed; please try again.
error-no_page = This page does not exist.
error-no_seat = You have no seat in game #{ $game }: there is nothing private to show you.
error-no_picture = This game has no such picture.
error-no_touch = This game cannot be played by touching the board yet: play it from the chat.
error-no_move = That is not a possible move now: touch a highlighted cell. Nothing changed.

# The preview of a move chosen on the board, before “Confirm”
preview-limit = { $tile } on { $position }: { $before } → { $after } points if the game ended now ({ $gain })
preview-move = { $move }
preview-roll = Roll the dice: { $total ->
    [0] nothing is at stake yet this turn.
    [one] { $total } point at stake this turn.
   *[other] { $total } points at stake this turn.
} The result is known only once they are rolled.
preview-stop = Stop: { $before } → { $after } points, and the turn passes.
preview-follow = Follow { $name }: the card is revealed once you confirm.

# The board's page (activity/src/main.js): its words come from here (GET api/config)
page-title = { $kind } #{ $game }
page-your_turn = Your turn.
page-waiting = { $names } to play.
page-lobby = The game has not started yet.
page-over = The game is over.
page-choose = Choose a game of this channel:
page-none = No game is running in this channel: start one with a command of the bot.
page-mine = Your own view (only you can see it)
page-board_alt = The game's board
page-touch = Touch what is highlighted on the picture to choose your move.
page-touch_next = Now touch where it goes (or another highlighted cell).
page-confirm = Confirm
page-change = Change
page-preview_alt = Your move, before you confirm
page-connecting = Connecting to Discord…
page-open_from_discord = Open this board from Discord, with a game's “Play on the board” button.
page-error = The board could not reach the bot. Nothing changed; close it and open it again.
