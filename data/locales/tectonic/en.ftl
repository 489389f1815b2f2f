## name
name-title = Tectonic


## error
error-off_board = “{ $cell }” is not a board cell (A1 to J10).
error-empty_cell = There is no piece on { $cell }.
error-red_piece = The piece on { $cell } ({ $piece }) is red: it is neutral and cannot move.
error-enemy_piece = The piece on { $cell } ({ $piece }) belongs to your opponent.
error-same_cell = The piece must leave its cell ({ $cell }).
error-wrong_pattern = { $from } → { $to } is not a { $piece } move.
error-too_far = { $from } → { $to } is too far: a { $piece } moves at most { $max } cells.
error-blocked = { $from } → { $to } is blocked: { $cell } is occupied and pieces never jump over others.
error-occupied = The destination { $cell } is already occupied.
error-flip_required = Several enemy pieces can be flipped: choose one ({ $choices }).
error-bad_flip = This move cannot flip the piece on { $cell } (possible choices: { $choices }).
error-no_flip = This move flips nothing: { $cell } cannot be flipped.
error-not_your_button = This button is not for you.

## event
event-moved = { $seat } moves { $piece_kind ->
       *[other] a { $piece }
    } from { $from } to { $to }.
event-flipped = 🔴 { $seat } flips the enemy piece on { $cell } ({ $piece }): it turns red.
event-recoloured = ↩️ { $seat } takes back their red piece on { $cell } ({ $piece }).
event-substituted = 🔁 { $seat } replaces the red piece on { $cell } ({ $piece }) with one from their reserve; it goes back to { $owner }'s reserve.
event-stays_red = { $seat } has no { $piece } left in reserve: the red piece on { $cell } stays red.
event-turn = { $seat } to play.
event-resigned = 🏳️ { $seat } resigns: { $winner } wins.
event-won_region = 🏆 { $winner } gathers a hill, a peak and a mount in the { $region } region and wins!
event-won_all_red = 🏆 All of { $loser }'s pieces on the board are red: { $winner } wins!
event-won_no_moves = 🏆 { $loser } has no legal move left: { $winner } wins!
event-draw_repetition = 🤝 The same position occurred three times: draw.
event-sides = ⚪ { $white_seat } plays White (bottom, moves first); ⚫ { $black_seat } plays Black (top).

## reason
reason-region = three pieces gathered in an opponent region
reason-all_red = every enemy piece is red
reason-no_moves = the opponent has no legal move
reason-repetition = position repeated three times
reason-resign = resignation
reason-timeout = forfeit after repeated absences

## piece
piece-colline = hill
piece-pic = peak
piece-mont = mount

## colour
colour-blanc = White
colour-noir = Black

## region
region-NO = north-west
region-NE = north-east
region-SO = south-west
region-SE = south-east

## option
option-pic_backward = Peak's backward move

## choice
choice-droit = straight back
choice-diagonale = diagonally back


## button
button-flip = Flip { $cell } ({ $piece })
button-resign = Resign
button-keep = Keep playing

## label
label-move = { $from } → { $to }
label-move_flip = { $from } → { $to } (flips { $cell })
label-seat_colour = { $player } ({ $colour })
label-move_flips = { $from } → { $to } (flips one of { $cells })
label-source = { $cell } ({ $piece })

## render
render-red = Red
render-reserve = Reserve
render-on_board = In play
render-turn = to play
render-winner = winner
render-corner_NO = NW
render-corner_NE = NE
render-corner_SO = SW
render-corner_SE = SE
render-draw = Draw
render-ply = Move { $n }
render-white = White
render-black = Black

## cmd
cmd-start = Open a game of Tectonic (against a player or the AI)
cmd-adversaire = Opponent: a player (default) or the bot
cmd-niveau = AI level
cmd-recul_pic = Peak's backward move: straight (default) or diagonal
cmd-jouer = Move one of your pieces
cmd-de = From cell (e.g. C2)
cmd-vers = To cell (e.g. C6)
cmd-retourner = Enemy piece to flip when several are possible
cmd-abandon = Resign the game
cmd-vs_player = Another player (lobby)
cmd-vs_bot = The bot (the game starts at once)

## ui
ui-hint_move = ➡️ Play with { COMMAND("tectonic jouer") } `from: to:` (autocomplete only offers your legal moves).
ui-flip_pick = Click the piece to flip (or play again with the `flip` option).
ui-flip_done = You play { $from } → { $to } and flip { $cell }.
ui-resign_confirm = Resign game #{ $id }? { $opponent } will win it.
ui-resign_done = You resigned game #{ $id }.
ui-resign_kept = Game #{ $id } goes on.
ui-final_win = **Game over**: { $winner } wins ({ $reason }).
ui-final_draw = **Game over**: draw ({ $reason }).

## rules
rules-page_1 =
    {"*"}*Tectonic — the goal**
    An abstract game for 2 players: White (moves first, at the bottom, rows 1-2) against Black (at the top, rows 9-10), on a 10 × 10 board (files A-J, rows 1-10). Each corner is a 6-cell mountain **region**: the two at the bottom are White's, the two at the top Black's.
    Each player has 6 pieces on the board and a hill, a peak and a mount in **reserve**.
    {"*"}*Winning**: gather a hill, a peak and a mount of your colour in one opponent region, or turn every enemy piece on the board red. A player with no legal move loses; the same position three times is a draw.
rules-page_2 =
    {"*"}*Moves** (never over nor onto a piece)
    • **hill** (round): 1 cell in any of the 8 directions;
    • **peak** (triangle): up to 3 cells diagonally forward, or up to 3 cells straight back (the `peak_backward` option: diagonally back);
    • **mount** (square): up to 4 cells in a straight line (horizontal or vertical).
rules-page_3 =
    {"*"}*Flips**
    • The moved piece that ends orthogonally next to an enemy piece turns it **red** (if several, you choose which). A red piece is neutral and cannot move.
    • **Red pieces come back**: every red piece orthogonally next to the moved piece takes the mover's colour: their own is simply turned over; the opponent's is replaced by a piece of the same type from the mover's reserve (the red piece goes back to its owner's reserve). With no such piece in reserve, it stays red. Red pieces come back first, then the flip.
rules-page_4 =
    {"*"}*Commands**
    • { COMMAND("tectonic start") }: opponent (a player or the bot), bot level, peak's backward move, pace, thread.
    • { COMMAND("tectonic jouer") } `from: to:`: autocomplete only offers your legal moves; if several pieces can be flipped, one button per piece.
    • { COMMAND("tectonic status") }, { COMMAND("tectonic abandon") } to resign.
