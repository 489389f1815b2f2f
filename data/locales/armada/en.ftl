## name
name-title = The Invincible Armada


## side
side-spain = Spain
side-england = England

## option
option-plateau = board
option-11x11 = 11 × 11 intersections (10 × 10-square board, edges included)
option-10x10 = 10 × 10 intersections
option-9x9 = 9 × 9 intersections (no edges)

## error
error-missing_point = The intersection is missing (“{ $field }”).
error-bad_point = “{ $point }” is not an intersection of the board (A1 bottom left to { $last } top right).
error-occupied = Intersection { $point } is already taken.
error-spain_reserve_empty = All your { $fleet } ships are down: move one with { COMMAND("armada deplacer") } `from: to:` (the ship to lift, then its new intersection).
error-reserve_empty = You have no ship left in reserve.
error-reserve_left = You still have { $count } { $count ->
        [one] ship
       *[other] ships
    } to place: you may move a ship only once all 20 are down.
error-move_spain_only = Only Spain moves ships around; England places ({ COMMAND("armada placer") }) or pivots ({ COMMAND("armada pivoter") }).
error-pivot_england_only = Only England pivots; Spain places (or moves) a ship.
error-not_your_ship = You have no ship on { $point }.
error-same_point = The ship is already on { $point }: choose another intersection.
error-fleet_full = You already have { $limit } ships on the board: pivot a ship of a pair with { COMMAND("armada pivoter") } `from: to:`.
error-three_aligned = On { $point } you would align three English ships ({ $line }): two at most.
error-must_pair = Your 4 ships are all free: the 5th must form a pair next to one of them ({ $point } touches none of your ships).
error-not_in_pair = The ship on { $point } is not part of a pair: only a ship of a pair may pivot.
error-not_a_pivot = The ship on { $point } cannot go to { $to }: it must turn around its neighbour, onto a point next to that neighbour.
error-capture_pending = First choose the ship to take: { $choices }.
error-no_capture_pending = There is no capture to choose.
error-not_a_target = This move cannot take { $point } (possible captures: { $choices }).
error-cannot_pass = You have a legal move: you cannot pass.
error-not_your_button = This confirmation button is not meant for you.

## event
event-placed = ⚓ { $seat } places a ship on { $point }.
event-moved = ⛵ { $seat } moves a ship from { $from } to { $to }.
event-pivoted = 🔄 { $seat } pivots the ship from { $from } to { $to } around { $around }.
event-captured = 💥 { $seat } takes the ship on { $point } ({ $total }/{ $needed } captures).
event-capture_pending = 🎯 { $seat } may take one ship of: { $choices }.
event-passed = { $seat } has no legal move and passes.
event-turn = { $seat } to play.
event-round_over = 🏁 End of round { $round }: { $winner } wins it ({ $spain_captures } Spanish { $spain_captures ->
        [one] capture
       *[other] captures
    }, { $england_captures } English) and scores { $points } { $points ->
        [one] point
       *[other] points
    }.
event-round_drawn = 🏁 Round { $round } stopped after { $limit } moves with no winner ({ $spain_captures } captures each): no points.
event-round_started = 🔔 Round { $round }: { $spain_seat } plays Spain (red), { $england_seat } England (white). Spain starts.
event-tiebreak = ⚖️ Tied after two rounds: a deciding round, with the first round's sides.
event-resigned = 🏳️ { $seat } resigns.
event-game_over = 🏆 Winner: { $winners }!
event-game_drawn = 🤝 The game is a draw!
event-sides_swapped = 🔄 Change of sides: the roles are swapped.

## label
label-round = Round { $round }
label-tiebreak = Deciding round
label-spain = Spain
label-england = England
label-captures = Captures
label-score = Points
label-reserve = Reserve
label-on_board = At sea
label-turn = To play
label-range = Range { $range }
label-must_move = Moving
label-must_pivot = Must pivot
label-must_pair = 5th ship: must pair
label-must_pass = No move possible: pass
label-choose_capture = Capture to choose
label-final = Final position
label-over = Game over
label-winner = Winner: { $name }

## button
button-place = Place
button-pivot = Pivot
button-move = Move
button-capture = Take { $point }
button-resign = Resign
button-keep = Keep playing
button-pass = Pass

## cmd
cmd-start = Open a game of L'Invincible Armada (2 players)
cmd-plateau = Board size (11 × 11 intersections by default)
cmd-placer = Place a ship on an intersection
cmd-point = Intersection (e.g. C4)
cmd-pivoter = Pivot an English ship around its neighbour
cmd-de = Ship that pivots
cmd-vers = Destination intersection
cmd-adversaire = Who to play against: another player (default) or the bot
cmd-vs_player = Another player (waiting room)
cmd-vs_bot = The bot (the game starts at once)
cmd-niveau = AI level
cmd-deplacer = Move a Spanish ship (once all 20 are down)
cmd-deplacer_de = Spanish ship to lift
cmd-deplacer_vers = Empty intersection to put it on
cmd-abandon = Resign the game (your opponent wins it)

## ui
ui-hint_spain_place = ➡️ Spain: place a ship with { COMMAND("armada placer") } `point:`.
ui-hint_spain_move = ➡️ Spain: all 20 ships are down; move one (“Move” button).
ui-hint_england_place = ➡️ England: place a ship with { COMMAND("armada placer") } `point:`.
ui-hint_england_any = ➡️ England: place a ship ({ COMMAND("armada placer") } `point:`) or pivot a ship of a pair ({ COMMAND("armada pivoter") } `from: to:`).
ui-hint_england_pivot = ➡️ England: 5 ships at sea, pivot a ship of a pair (“Pivot” button).
ui-hint_capture = 🎯 Choose the ship to take with the buttons below.
ui-hint_pass = ⛔ No legal move: click "Pass".
ui-pivot_choice = { $to } (around { $around })
ui-resign_confirm = Resign game #{ $id }? { $opponent } will win it, whatever the points.
ui-resign_done = You resigned game #{ $id }.
ui-resign_kept = Game #{ $id } goes on.

## form
form-title_place = Place a ship
form-title_move = Move a ship
form-title_pivot = Pivot a ship
form-placeholder = Choose…
form-ship = Ship to lift
form-points = Intersections { $first } to { $last }
form-points_one = Intersection { $point }
form-pivots = Ships from { $first } to { $last }
form-pivots_one = Ship { $ship }
form-pivot = { $from } → { $to } (around { $around })
form-pick_one = Choose one pivot, only one, in one of the lists.
form-incomplete = Choose one intersection, only one, in one of the lists (and, to move, the ship to lift).
form-not_now = “{ $move }” is not a legal move this turn: use another button of the board.

## rules
rules-page_1 =
    {"*"}*L'Invincible Armada — the goal**
    2 players, 2 rounds: each plays Spain (20 red ships) once and England (20 white ships) once.
    • Ships stand on the **intersections** (A1 bottom left, K11 top right on the 11 × 11 board). Spain starts; one ship per turn.
    • A round ends at **11 captures**; the winner scores 11 minus the loser's captures. After two rounds the higher total wins; on a tie a 3rd round is played like the first.
rules-page_2 =
    {"*"}*Spain**
    • An unbroken straight line of Spanish ships (horizontal, vertical or diagonal) has a **range** equal to its number of ships.
    • When the placed ship makes or extends a line, Spain takes **one** English ship in that alignment within range beyond either end (Spain chooses if several; nothing shields).
    • Once all 20 ships are down, Spain moves one anywhere each turn instead.
rules-page_3 =
    {"*"}*England**
    • Never more than 5 ships on the board, never 3 aligned. Two neighbouring ships form a **pair**; with 4 free ships, the 5th must form a pair.
    • Instead of placing, England may **pivot** a ship of a pair around the other (onto one of its 7 other neighbouring points); at 5 ships it must pivot.
    • A pair takes the Spanish ship right beyond either end of its alignment when the placed or pivoted ship forms it so.
rules-page_4 =
    {"*"}*Commands**
    • { COMMAND("armada start") }: against a player or the bot, bot level, board size, pace, thread.
    • { COMMAND("armada placer") } `point:`, { COMMAND("armada deplacer") } `from: to:` (Spain, once its 20 ships are down), { COMMAND("armada pivoter") } `from: to:`; when several captures are possible, "Take …" buttons under the board.
    • { COMMAND("armada status") }, { COMMAND("armada abandon") } to resign.
