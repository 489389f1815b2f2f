## name
name-title = Range ta Ludothèque (Shelve your game library)


## error
error-missing_round = This action has no round number: we are in round { $current }.
error-stale_round = This placement was for round { $round }, but we are in round { $current }: nothing changed, choose again.
error-already_placed = You already placed your box for round { $round }: wait for the other players.
error-bad_dice = Invalid dice assignment ({ $dice }): one die for the size, one for the category and one for the mechanic (0, 1 and 2, once each).
error-bad_dice_typed = “{ $typed }” is not a dice assignment: pick one from the list the “dice” option offers (one die for the size, one for the category, one for the mechanic).
error-bad_orientation = Unknown orientation "{ $orientation }": horizontal or vertical.
error-bad_cell = "{ $cell }" is not a cell of the kallax (from A1 bottom-left to F6 top-right).
error-outside = Placed at { $cell }, the box sticks out of the kallax (cell { $over }).
error-crosses_cubby = Placed at { $cell }, the box goes through the wall of cubby { $cubby } (cell { $over } is in another cubby).
error-overlap = Placed at { $cell }, the box overlaps cell { $over }, which is already taken.
error-unsupported = Placed at { $cell }, the box would float: nothing holds cell { $over } (no shelf, no game below).
error-must_place = There is still room (a mat at { $cell }, for instance): you cannot pass.
error-bad_choice = This choice is not valid ("{ $choice }"): start again from the round's message or { COMMAND("ranta placer") }.
error-not_in_game = { $player } is not playing in game #{ $game }.
error-too_few_left = Fewer than { $min } player would be left: the game cannot go on without this player.
error-removed = The other players removed you from this game: you no longer play in it.

## event
event-placed = { $waiting ->
        [0] { $seat } is done for round { $round }.
       *[other] { $seat } is done for round { $round } ({ $waiting } { $waiting ->
            [one] player still to place
           *[other] players still to place
        }).
    }
event-passed = { $seat }'s kallax is full: they pass round { $round }.
event-box_placed = You stored { $category ->
        [T] a puzzle
        [A] a dexterity game
        [C] a card game
        [P] a board game
        [F] a miniatures game
        [R] a role-playing game
       *[other] a game
    } { $symbol } of { $size } { $size ->
        [one] cell
       *[other] cells
    } at { $cell }.
event-mat_placed = You laid a mat at { $cell }.
event-round_closed = { $players ->
        [1] Round { $round } is over.
       *[other] Round { $round } is over: every kallax is revealed, here they are.
    }
event-rolled = Round { $round }: the dice show { $d1 }, { $d2 } and { $d3 }.
event-game_over = Here are the kallaxes and their scores.
event-seat_removed = 🚪 The game goes on without { $seat }: their kallax stays as it is.

## mode
mode-classique = Classic
mode-expert = Expert

## orientation
orientation-horizontal = Horizontal
orientation-vertical = Vertical

## category
# The letter drawn on a box and in the legend (the category's initial in each language)
code-T = P
code-A = D
code-C = C
code-P = B
code-F = M
code-R = R
category-T = Puzzle
category-A = Dexterity game
category-C = Card game
category-P = Board game
category-F = Miniatures game
category-R = Role-playing game

## mechanic
mechanic-bluff = Bluff
mechanic-deduction = Deduction
mechanic-deck_building = Deck building
mechanic-programming = Programming
mechanic-memory = Memory
mechanic-secret_role = Secret role

## why
why-category_group = category groups
why-mechanic_group = mechanic groups
why-empty_cells = empty cells
why-full_cubby = full cubbies
why-category_T = puzzle
why-category_A = dexterity
why-category_C = cards
why-category_P = board game
why-category_F = miniatures
why-category_R = role-playing
why-mechanic_bluff = bluff
why-mechanic_deduction = deduction
why-mechanic_deck_building = deck building
why-mechanic_programming = programming
why-mechanic_memory = memory
why-mechanic_secret_role = secret role

## rule
rule-category_group = { $name } group: { $games } { $games ->
        [one] game
       *[other] games
    }
rule-mechanic_group = { $name } group: { $games } { $games ->
        [one] game
       *[other] games
    }
rule-empty_cells = { $empty } { $empty ->
        [one] empty cell
       *[other] empty cells
    }
rule-full_cubby = Cubby { $cubby } full: { $games } { $games ->
        [one] game
       *[other] games
    } × 2
rule-category_T = Puzzle: cubby with nothing in common
rule-category_A = Dexterity: off the shelf
rule-category_C = Cards: other card games in the cubby
rule-category_P = Board: stored horizontally
rule-category_F = Miniatures: 6-cell box
rule-category_R = Role-playing: stored vertically
rule-mechanic_bluff = Bluff: neighbours with something in common
rule-mechanic_deduction = Deduction: 2-cell box
rule-mechanic_deck_building = Deck building: other games in the cubby
rule-mechanic_programming = Programming: programming neighbours
rule-mechanic_memory = Memory: memory games (max 3)
rule-mechanic_secret_role = Secret role: the only one in the kallax

## label
label-round = Round { $round }/{ $rounds }
label-dice = Round { $round }/{ $rounds }: the dice
label-total = Total
label-size = Size
label-category = Category
label-mechanic = Mechanic
label-mat = Mat (1 cell, 0 points)
label-hidden = Yellow outline: your box of this round, seen only by you until the round ends.
label-preview = Preview: the box would go here.
label-preview_mat = Preview: the mat would go here.
label-final = Game over
label-cells = { $size } { $size ->
        [one] cell
       *[other] cells
    }
label-box = Box
label-mat_choice = Mat
label-position = Cell (bottom-left)
label-assignment = { $size } { $size ->
        [one] cell
       *[other] cells
    } · { $category } · { $symbol } { $mechanic }
label-waiting = Waiting for: { $players }
label-everyone_placed = Everyone has placed.
label-box_choice = { $assignment } · { $orientation } ({ $width } × { $height })
label-cell_choice = { $cell } (cells { $cells })

## cmd
cmd-start = Open a game of Range ta Ludothèque (simultaneous roll & write)
cmd-mode = Scoring: classic (groups) or expert (every game's effects)
cmd-solo = Play alone: the game starts at once
cmd-ia = Number of AI players to add (0 to 7)
cmd-placer = Store a game in your kallax (preview before you confirm)
cmd-des = Dice assignment: size · category · mechanic
cmd-orientation = Orientation of the box
cmd-case = Bottom-left cell of the box
cmd-tapis = Lay a 1-cell mat (preview before you confirm)
cmd-tapis_case = Cell of the mat
cmd-kallax = See your kallax, or another player's (without their box of the current round)
cmd-joueur = The player whose kallax you want to see (you by default)

## option
option-mode = mode

## button
button-mine = My kallax
button-box = Store a game
button-mat = Lay a mat
button-confirm = Confirm
button-discard = Cancel

## prompt
prompt-pick_box = **Round { $round }**: pick the game (dice assignment) and its orientation.
prompt-pick_cell = **Round { $round }**: { $box }. Pick the box's bottom-left cell.
prompt-pick_mat = **Round { $round }**: pick the mat's cell.
prompt-no_box_fits = **Round { $round }**: no game fits in your kallax with these dice. Lay a mat:
prompt-preview_box = **Preview, round { $round }**: { $box }, at { $cell } (cells { $cells }). Confirm?
prompt-preview_mat = **Preview, round { $round }**: a mat at { $cell }. Confirm?
prompt-preview_score = Score: { $before } → { $after } ({ $sign }{ $delta } { $delta ->
        [one] point
       *[other] points
    }).
prompt-preview_why = Why: { $reasons }
prompt-confirmed = Stored! The other players will only see it when round { $round } is over.
prompt-full = **Round { $round }**: your kallax is full, you pass this round. Confirm?
prompt-confirmed_closed = { $players ->
        [1] Stored! Round { $round } is over.
       *[other] Stored! Everyone has placed: round { $round } is over and every kallax is revealed.
    }
prompt-confirmed_pass = Your kallax is full: you pass round { $round }.
prompt-discarded = Nothing was stored: pick again whenever you like.
prompt-sheet_of = { $player }'s kallax (game #{ $id }); their box of the current round stays hidden until the round is over.
prompt-placeholder_box = Game and orientation
prompt-placeholder_cell = Bottom-left cell
prompt-placeholder_mat = Cell of the mat

## rules
rules-page_1 =
    {"*"}*Range ta Ludothèque — the goal**
    A roll & write for 1 player or more: over 12 rounds, store your board-game collection in your **kallax**, a shelf of 2 × 2 cubbies of 3 × 3 cells (A1 bottom left, F6 top right). Everyone plays at the same time, with the same dice.
    • The highest score wins; on a tie, fewer empty cells wins.
rules-page_2 =
    {"*"}*A round**
    The bot rolls 3 dice, the same for everyone. Each player secretly assigns:
    • one die to the **size**: 1-2 → 2 cells, 3-4 → 3 cells, 5-6 → 6 cells (2 × 3);
    • one die to the **category**: 1 T puzzle, 2 A dexterity, 3 C cards, 4 P board game, 5 F miniatures, 6 R role-playing;
    • one die to the **mechanic**: 1 ☾ bluff, 2 ☆ deduction, 3 ♣ deck building, 4 ⚙ programming, 5 ♥ memory, 6 ☠ secret role.
    Choose the orientation (horizontal or vertical) and the bottom-left cell: the box fits in one cubby, overlapping nothing, resting on the shelf or on other boxes or mats. Instead, you may always lay a 1-cell **mat** (it fills a cell and scores nothing). What you store stays hidden until the round is over.
rules-page_3 =
    {"*"}*Classic scoring**
    • For each category and each mechanic: the largest group of neighbouring games (sharing a side, across cubby walls too) that share it scores 1 point per game if it has at least 2. Mats do not count.
    • −1 point per empty cell.
rules-page_4 =
    {"*"}*Expert scoring**: each game scores its category and its mechanic
    • T: as many points as games in its cubby, if no two games of the cubby have anything in common · A: 2 points if it does not touch its cubby's bottom · C: 1 point per other card game in the cubby · P: 1 point if stored horizontally · F: 1 point if the box is 6 cells · R: 1 point if stored vertically.
    • ☾: 1 point per neighbouring game it has something in common with · ☆: 1 point if the box is 2 cells · ♣: 1 point per game of the cubby that is not a deck builder · ⚙: 1 point per neighbouring programming game · ♥: 1 point per memory game in the kallax (at most 3) · ☠: 5 points if it is the only secret-role game.
    • Then +2 points per game in each completely filled cubby, and −1 point per empty cell.
rules-page_5 =
    {"*"}*Commands**
    • { COMMAND("ranta start") }: mode (classic or expert), solo, AI players, pace, thread.
    • Each round, under the dice message: **Store a game**, **Lay a mat** and **My kallax**; or { COMMAND("ranta placer") } and { COMMAND("ranta tapis") }. Only legal choices are offered, with a preview of your kallax and score before you confirm.
    • { COMMAND("ranta kallax") } shows your kallax or another player's (without their box of the current round); { COMMAND("ranta status") } tells who has not stored yet.

## meta
# the language of this catalog, passed to the renderers with their labels (render/catalog.py chooses plurals by it)
meta-lang = en
