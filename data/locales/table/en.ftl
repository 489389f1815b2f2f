# The living table (issue 24): what a lobby card shows besides its seats, the cards' own lines.

## lobby
lobby-pace = Pace: { $pace } — { $bank } per player, +{ $increment } per move
lobby-pace_untimed = Pace: { $pace } — no time limit
lobby-thread_own = Thread: the game is played in a thread of its own
lobby-thread_here = Thread: the game is played in this channel
lobby-ai = AI, { $level }
lobby-cancelled = **Game cancelled.**

## pace
pace-direct = Live
pace-rapide = Fast
pace-normal = Normal
pace-lent = Slow

## value
value-yes = yes
value-no = no

## stale
stale-ended_link = This { $control ->
        [menu] menu
        [form] form
       *[button] button
    } is out of date. { $link }
stale-link_text = Go to the game's current message

## ludime
ludime-button_word = Lay a word
ludime-modal_title = Lay a word
ludime-modal_label = Word to lay
ludime-modal_hint = With the letters of your hand; several words: separate them with commas.
ludime-no_word = Type at least one word.

## limit
limit-preview = Preview: tile { $tile } on { $position }. If the game ended now, your board would go from { $before } to { $after } points ({ $gain }). Nothing is placed until you confirm.
limit-preview_fill = Preview: tile { $tile } on { $position }, in { $owner }'s Déchetterie. If the game ended now, their board would go from { $before } to { $after } points ({ $gain }). Nothing is placed until you confirm.
limit-preview_penalty = ⚠️ { $reason } This total counts it. { $left ->
        [0] This is the last tile.
        [one] { $left } more tile to come.
       *[other] { $left } more tiles to come.
    }
limit-confirm = Confirm
limit-change = Change

## tectonic
tectonic-button_play = Play a move
tectonic-modal_title = Your move
tectonic-placeholder = Choose a move…
tectonic-group = Pieces from { $first } to { $last }
tectonic-group_one = Piece on { $cell }
tectonic-flips = (flips { $cells })
tectonic-pick_one = Choose one move, only one, in one of the lists.
