## name
name-title = Take it to the Limit


## error
error-missing_field = The action lacks “{ $field }”.
error-unknown_tile = “{ $tile }” is not a tile of the game (a tile reads vertical-diagonal↗-diagonal↘, e.g. 1-11-10).
error-stale_tile = The announced tile is { $current }, not { $tile }: this placement is stale, nothing changed.
error-already_placed = You already placed tile { $tile } (on { $position }): wait for the other players.
error-unknown_position = “{ $position }” is not a position: pick one of the names printed on your board.
error-wrong_board = “{ $position }” does not exist on the { $plateau } board.
error-occupied = Position { $position } already holds tile { $tile }.
error-no_dechetterie = There is no Scrapyard in this game: “{ $position }” is not available.
error-dechetterie_cell = Name a cell of your Scrapyard (X1 to X7), not “{ $position }”.
error-passed_dechetterie = Your Scrapyard is with your neighbour, so not “{ $position }”: to discard, choose “{ $name }”; they place the tile.
error-dechetterie_full = Your Scrapyard is full (“{ $position }” impossible): the tile must go on the Nexus.
error-orchid_full = The big orchid ({ $position }) already holds { $capacity } tiles: the tile must go on a hex.
error-hole_at_end = The small orchid { $position } is only filled at the end, from the big orchid.
error-relocation_phase = Every tile is placed: now move (or not) the tiles of the big orchid.
error-not_relocation_phase = Big-orchid tiles are only moved at the end of the game.
error-already_relocated = You already made your big-orchid choice.
error-bad_moves = Unreadable moves: “{ $moves }” (map a small orchid A, B or C to a tile).
error-bad_hole = “{ $hole }” is not a small orchid (A, B or C).
error-hole_twice = Small orchid { $hole } takes one tile only.
error-tile_not_on_orchid = Tile { $tile } is not on your big orchid.
error-tile_twice = Tile { $tile } cannot go on two small orchids.
error-no_fill = In the “{ $variante }” variant nobody fills another player's Scrapyard.
error-bad_board = Unknown board “{ $board }”.
error-not_holder = You do not hold this Scrapyard (board { $board }).
error-no_fill_pending = No tile is waiting for this Scrapyard (board { $board }).
error-not_dechetterie_cell = “{ $position }” is not a Scrapyard cell (X1 to X7).
error-variant_board = The “{ $variante }” variant is not played on the { $plateau } board.
error-pairs_even = Pairs need an even number of players (you are { $count }).
error-too_many_boards = { $count } { $count ->
        [one] board
       *[other] boards
    } is too many: { $max } at most.
error-variant_needs_boards = The “{ $variante }” variant needs at least { $min } boards.
error-tiles_option = “tuiles: { $tuiles }” only applies to the standard Orchidée (here: { $plateau } board, “{ $variante }” variant).
error-no_seat = Seat { $seat } does not play in this game.
error-bad_choice = This choice cannot be read: “{ $choice }”. Pick one of the positions offered.
error-stale_game = This choice was for game { $game } of the series; we are now in game { $current }: nothing changed.

## event
event-announced = Tile { $round }/{ $rounds }: **{ $tile }**.
event-placed = You placed { $tile } on { $position }.
event-passed = { $seat } hands you tile { $tile }: place it on their Scrapyard.
event-filled = You placed { $tile } on { $position } of the Scrapyard you hold.
event-waiting = { $seat } has placed ({ $remaining } { $remaining ->
        [one] player still to place
       *[other] players still to place
    }).
event-round_closed = { $boards ->
        [1] Tile { $round } ({ $tile }) placed.
       *[other] Everyone placed tile { $round } ({ $tile }): the boards are revealed.
    }
event-relocation = Every tile is placed: each player may move their big-orchid tiles onto the small orchids A, B and C.
event-relocated = { $moved ->
        [0] { $seat } leaves their big-orchid tiles where they are.
       *[other] { $seat } moved { $moved } { $moved ->
            [one] big-orchid tile
           *[other] big-orchid tiles
        } ({ $gain } { $gain ->
            [one] point
           *[other] points
        }).
    }
event-game_scored = { $games ->
        [1] {""}
       *[other] Game { $game }/{ $games } is over: here are the scores.
    }
event-next_game = Game { $game }/{ $games }: a fresh shuffle, here we go!
event-game_over = Here are all the boards and their scores.

## option
option-plateau = Board
option-variante = Variant
option-tuiles = Tiles (Orchidée)
option-paires = Play in pairs
option-serie = Number of games (series)

## choice
choice-nexus = Nexus (+ Scrapyard)
choice-orchidee = Orchidée
choice-standard = Standard
choice-dechetterie-basse = Lowest Scrapyard pays
choice-passe-dechetterie = Pass the Scrapyard
choice-sans-dechetterie = No Scrapyard
choice-orchidee-64 = Orchidée with all 64 tiles
choice-soleil = Suns
choice-lune = Moons

## colour
colour-grey = grey
colour-blue = blue
colour-yellow = yellow
colour-violet = violet
colour-pink = pink
colour-red = red
colour-green = green
colour-white = white
colour-cherry = cherry
colour-turquoise = turquoise
colour-orange = orange
colour-black = black

## direction
direction-vertical = vertical
direction-sw_ne = diagonal ↗
direction-nw_se = diagonal ↘

## board
board-nexus = Nexus
board-dechetterie = Scrapyard
board-orchidee = Orchidée
board-big_orchid = Big orchid

## button
button-my_board = My board
button-place = Place
button-relocate = Move
button-keep = Move nothing
button-best = Apply the best

## label
label-round = Tile { $round }/{ $rounds }
label-game = Game { $game }/{ $games }
label-announced = Announced tile
label-lines = Lines
label-bonuses = Bonuses
label-ray = Ray
label-penalty = Penalty
label-total = Total
label-dechetterie_value = Scrapyard value
label-sun = sun
label-moon = moon
label-gold = gold
label-silver = silver
label-full = full
label-half = half
label-unplaced = Left on the big orchid
label-relocation = Suggested move
label-gain = { $gain } { $gain ->
        [one] point
       *[other] points
    }
label-hidden = Blue frame: your tile this round, seen only by you until the round closes.
label-legend_sun = Golden ring: the longest ray of suns (10 points a tile).
label-legend_moon = Silver ring: the longest ray of moons (10 points a tile).
label-legend_bonus = Gold or silver frame: a bonus tile (80 or 40 points).
label-waiting = Waiting for: { $players }
label-final = Game over
label-relocation_title = Before scoring: moving tiles
label-penalty_threshold = Penalty { $penalty }: Scrapyard worth { $value }, below { $threshold }.
label-penalty_lowest = Penalty { $penalty }: the lowest Scrapyard at the table ({ $value }).
label-penalty_highest = Penalty { $penalty }: the highest Scrapyard at the table ({ $value }).
label-series_total = Series total: { $total }
label-pass = X: hand it to your neighbour
label-holder = Scrapyard held by { $player }
label-fill = { $player } passes you their tile: touch their scrapyard

## cmd
cmd-start = Start a game of Take it to the Limit
cmd-plateau = The board: Nexus (+ Scrapyard) or Orchidée
cmd-variante = The rules variant (standard if unsure)
cmd-tuiles = Standard Orchidée: play with the suns or with the moons
cmd-paires = Play in pairs: two players per board
cmd-serie = Number of games in the series (scores added up)
cmd-solo = Play alone: the game starts at once
cmd-ia = Number of AI players
cmd-niveau = AI level
cmd-placer = Place the announced tile on your board
cmd-position = Where to place the tile (only free positions are offered)
cmd-deplacer = Orchidée, at the end: move your big-orchid tiles (no option: the bot's advice)
cmd-a = The tile of your big orchid to put on small orchid A
cmd-b = The tile of your big orchid to put on small orchid B
cmd-c = The tile of your big orchid to put on small orchid C

## prompt
prompt-place = Tile { $round }/{ $rounds }: **{ $tile }**. Where do you place it? Only free positions are offered.
prompt-placeholder = Position ({ $first } … { $last })
prompt-fill = { $owner } handed you tile **{ $tile }**: pick a cell of their Scrapyard.
prompt-fill_placeholder = { $owner }'s Scrapyard
prompt-placed_round_closed = { $boards ->
        [1] Placed: the next tile is announced in the channel.
       *[other] Everyone has placed: the next tile is announced in the channel.
    }
prompt-placed_wait = The other players will see your tile only when the round closes.
prompt-relocation =
    {"*"}*Big orchid**: { $tiles }.
    Best move: **{ $moves }** ({ $gain } { $gain ->
        [one] point
       *[other] points
    }).
prompt-relocation_empty = Your big orchid is empty: there is nothing to move.
prompt-relocation_placeholder = { $count ->
        [one] Move one tile…
       *[other] Move { $count } tiles…
    }
prompt-move = { $tile } on { $hole }
prompt-no_move = nothing
prompt-option = { $moves } ({ $gain } { $gain ->
        [one] point
       *[other] points
    })
prompt-relocated = Done: { $moves } ({ $gain } { $gain ->
        [one] point
       *[other] points
    }).
prompt-kept = Done: you move nothing.
prompt-game_boards = Game { $game }/{ $games }: the boards and their scores.
prompt-serie = a series of { $count } { $count ->
        [one] game
       *[other] games
    }

## position
position-nexus = { $position } — Nexus
position-orchidee = { $position } — Orchidée
position-dechetterie = { $position } — Scrapyard
position-big_orchid = { $position } — big orchid (can be moved at the end)
position-pass = { $position } — hand the tile to { $holder } for your Scrapyard
position-fill = { $position } — { $owner }'s Scrapyard

## rules
rules-page_1 =
    {"*"}*Take it to the Limit — the goal**
    For 1 player or more, each on their own board. The bot is the caller: it draws tiles from a shuffled bag and announces the same one to everybody; each player secretly places it on their board, and the next tile comes once everyone has placed. A placed tile never moves and is never turned. The highest score wins.
    Each tile carries three coloured lines, one per direction, with their values: vertical (1 grey, 4 blue, 9 yellow, 12 purple), diagonal ↗ (2 pink, 6 red, 7 green, 11 white), diagonal ↘ (3 cherry, 5 turquoise, 8 orange, 10 black).
rules-page_2 =
    {"*"}*The Nexus board** (37 cells A1…G4) **and its Scrapyard** (7 cells X1…X7): 44 tiles
    • Place each tile on the Nexus or in the Scrapyard; once one board is full, the rest go on the other.
    • A complete **line** (a whole row of the board in one direction) of a single colour scores value × number of tiles.
    • **Bonus** tile (gold 80, silver 40): crossed by 3 complete lines, the whole bonus; by 2, half of it.
    • The longest **ray** of suns or of moons: 10 points per tile (one ray only).
    • **Scrapyard**: it is worth the best of its 3 best lines, its 2 best silver bonuses or its best gold bonus; below 60 → −60 to the score.
rules-page_3 =
    {"*"}*The Orchidée board** (22 cells 1…22 and the big orchid O, which takes 3 tiles): 25 tiles, suns only or moons only (the `tiles` option)
    • Lines score as on the Nexus; no ray, no Scrapyard.
    • At the end you may move the big orchid's tiles onto the small orchids A, B and C; the bot computes and offers the best choice.
rules-page_4 =
    {"*"}*Commands**
    • { COMMAND("limit start") }: board, variant, tiles, pairs, series, solo, AI players, pace, thread.
    • For each announced tile, choose its cell with the button under the message (or { COMMAND("limit placer") }).
    • { COMMAND("limit deplacer") } for the big orchid at the end; { COMMAND("limit status") } for who has not placed yet.
rules-page_5 =
    {"*"}*In pairs, in a series**
    • `pairs`: two players per board (seats 1 and 2, 3 and 4…); either one places the announced tile, and both partners score the board.
    • `series`: several games in a row, with a fresh shuffle each time; the scores are added up.
rules-variant_dechetterie-basse =
    {"*"}*Variant: the lowest Scrapyard pays**
    The Scrapyard no longer costs 60 below a threshold: the lowest one at the table pays 60 points (shared on a tie).
rules-variant_passe-dechetterie =
    {"*"}*Variant: pass the Scrapyard**
    Your neighbour fills your Scrapyard: a tile you send there is handed to them and they choose the cell. At the end, the highest Scrapyard pays.
rules-variant_sans-dechetterie =
    {"*"}*Variant: no Scrapyard**
    37 tiles, all on the Nexus: a fine solo game.
rules-variant_orchidee-64 =
    {"*"}*Variant: Orchidée with 64 tiles**
    The Orchidée board with every tile, suns and moons; rays count.

## meta
# the language of this catalog, passed to the renderers with their labels (render/catalog.py chooses plurals by it)
meta-lang = en
