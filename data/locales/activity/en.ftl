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
preview-limit_pass = { $tile }: hand it to your neighbour ({ $name }), who places it on your scrapyard.
preview-limit_fill = { $tile } on { $position } of your neighbour's scrapyard.
preview-limit_relocate = Move the big orchid's tiles: { $moves } ({ $gain } points).
preview-limit_relocate_none = Move nothing: the tiles stay on the big orchid (+0 points).
choice-relocate_none = Move nothing
preview-move = { $move }
preview-pass = Pass: no other move is possible.
choice-flip = Flip { $cell }
choice-capture = Capture { $cell }
preview-roll = Roll the dice: { $total ->
    [0] nothing is at stake yet this turn.
    [one] { $total } point at stake this turn.
   *[other] { $total } points at stake this turn.
} The result is known only once they are rolled.
preview-stop = Stop: { $before } → { $after } points, and the turn passes.
preview-follow = Follow { $name }: the card is revealed once you confirm.
preview-gesture = Your gesture: { $gesture }. It stays secret until every lutin has chosen.
preview-gesture_forbidden = Your gesture: { $gesture }, forbidden in “Think big”: you will be ignored and give back your last mushroom won.
preview-ranta_box = Box on { $cells }: { $before } → { $after } points.
preview-ranta_mat = Mat on { $cells }: { $before } → { $after } points.
preview-ludime_pile = Draw from the pile: the card is known only once drawn.
preview-ludime_take = Take the { $letter } from the discard.
preview-ludime_word = Lay { $word }: +{ $points } points.
preview-ludime_lengthened = Lengthen { $old } into { $word }: the word is worth { $points } points.
preview-ludime_took = Take { $old } from { $name }: { $word }, { $points } points for you.
preview-ludime_exchange = Exchange { $letters }: { $count ->
    [one] one card from the pile, unknown until you receive it.
   *[other] { $count } cards from the pile, unknown until you receive them.
}
preview-ludime_discard = Discard the { $letter }: your turn ends.

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
page-touch-ranta = A box: touch the die for its size, then the die for its category. A mat: touch its cell.
page-touch_next-ranta = Then the category die, the box's bottom-left cell and, when it fits both ways, its top-right cell.
page-touch_next-ludime = Touch the next letter of your word (after a single card: the discard, to throw it away).
page-touch-lutinades = Touch your gesture under your card (the picker: the row of the lutin to follow).
page-region-pass = Pass
page-touch_outside = No move on the picture: touch the button under it.
page-confirm = Confirm
page-change = Change
page-preview_alt = Your move, before you confirm
page-connecting = Connecting to Discord…
page-open_from_discord = Open this board from Discord, with a game's “Play on the board” button.
page-error = The board could not reach the bot. Nothing changed; close it and open it again.
