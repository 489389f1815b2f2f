## name
name-title = Lutinades



## option
option-variante = Variant

## variant
variant-standard = Standard
variant-lutins-malins = Clever lutins
variant-en-grand = Think big

## gesture
gesture-up = Up
gesture-down = Down
gesture-horizontal = Horizontal
gesture-small = Small

## side
side-left = Left
side-right = Right

## side_button
side_button-left = my left
side_button-right = my right

## role
role-picker = Picker
role-lutin = Lutin

## label
label-deck = Deck
label-discard = Discard
label-turn = Turn { $turn }
label-picker = Picker
label-mushrooms = Mushrooms
label-waiting = thinking…
label-chosen = has chosen
label-ignored = ignored
label-followed = followed
label-revealed_card = Card revealed in turn { $turn }
label-hidden_card = Hidden card
label-see_card = See the card
label-call = Come on, you rascally lutins, give me back my path!
label-small_forbidden = The "small" gesture is forbidden: a lutin who uses it is ignored and returns a mushroom.
label-mirror_hint = You face the picker: your left is their right.
label-card_for_picker = You are the picker: you may not see the card before choosing.
label-how_to = Lutins: "See the card" to look at it (only you can see it), then make your gesture with the buttons.
label-first_picker = { $picker } is the first picker.
label-your_card = Turn { $turn } — the card, which only you lutins can see: **{ $kind }** (big number { $big }, small number { $small }).
label-your_card_side = Turn { $turn } — the card, which only you lutins can see: **{ $kind }**, the signpost points **{ $side }** (big number { $big }, small number { $small }). To show that side to the picker, who faces you: "{ $button }".
label-your_gesture = Your gesture this turn: **{ $gesture }**.
label-gesture_recorded = Gesture recorded for turn { $turn }: **{ $gesture }**. It stays secret until every lutin has chosen.
label-gesture_line = • { $seat }: **{ $gesture }**
label-gesture_line_ignored = • { $seat }: **{ $gesture }** — ignored (forbidden gesture)
label-gesture_with_side = { $gesture }, { $side }
label-card_revealed = The signpost: **{ $kind }**.
label-card_revealed_side = The signpost: **{ $kind }**, { $side }.
label-options = variant: { $variant }
label-followed_auto = 🤖 Automatic follow: { $picker } follows { $lutin }, the only lutin who can be followed (the others made the forbidden gesture).
label-forbidden_warning = ⚠️ Turn { $turn }: the “{ $gesture }” gesture is forbidden in “Think big”. If you confirm it, your gesture will be ignored (the picker cannot follow you) and you will return your last mushroom won to the deck (if you have one). Confirm it below, or choose another gesture.

## outcome
outcome-unanimous = Every lutin made the same gesture: { $picker } picks { $big } { $big ->
        [one] mushroom
       *[other] mushrooms
    }, the lutins nothing.
outcome-match = Right path! { $picker } picks { $big } { $big ->
        [one] mushroom
       *[other] mushrooms
    } and { $lutin } { $small }.
outcome-mismatch = { $lutin } led { $picker } astray: { $lutin } takes { $small } { $small ->
        [one] mushroom
       *[other] mushrooms
    }, the picker nothing.
outcome-wrong_side = { $lutin } showed the wrong side: { $picker } picks { $big } { $big ->
        [one] mushroom
       *[other] mushrooms
    }, { $lutin } nothing.

## error
error-picker_cannot_gesture = You are the picker: only the lutins make gestures.
error-gestures_closed = This turn's gestures are already revealed.
error-already_chosen = You have already made your gesture this turn.
error-unknown_gesture = Unknown gesture "{ $gesture }" (possible gestures: { $allowed }).
error-side_required = Clever lutins variant: also give the side (left or right).
error-bad_side = Unknown side "{ $side }" (possible sides: { $allowed }).
error-no_side = The side (left or right) only counts in the clever lutins variant.
error-not_picker = Only the picker chooses which lutin to follow.
error-gestures_pending = Not every lutin has chosen a gesture yet ({ $missing } still thinking).
error-not_a_lutin = "{ $lutin }" is not a lutin in this game.
error-follow_self = You are the picker: follow one of the lutins, not yourself.
error-follow_ignored = { $lutin } made the forbidden "small" gesture: they are ignored, you cannot follow them.
error-stale_turn = This button is from turn { $turn }; the game is at turn { $current }. Use the game's latest message.
error-too_few_left = Fewer than { $min } players would be left: the game cannot go on without this player.
error-removed = The other players removed you from this game: you no longer play in it.

## button
button-follow = Follow { $lutin } ({ $gesture })
button-gesture_side = { $gesture } · { $side }
button-forbidden = { $gesture } (forbidden)
button-confirm_forbidden = Confirm this forbidden gesture

## side_seen
side_seen-left = to the picker's left
side_seen-right = to the picker's right

## side_card
side_card-left = to the left
side_card-right = to the right

## cmd
cmd-start = Open a game of Lutinades (bluffing, 3 to 7 players)
cmd-variante = Variant: standard, clever lutins or think big
cmd-ia = Number of AI players to add (0 to 6)
cmd-niveau = AI level

## event
event-turn = Turn { $turn }: { $picker } is the picker. Come on, you rascally lutins, give them back their path! ({ $deck } { $deck ->
        [one] card
       *[other] cards
    } in the deck)
event-gesture_chosen = { $waiting ->
        [0] { $seat } has made their gesture.
       *[other] { $seat } has made their gesture ({ $waiting } { $waiting ->
            [one] lutin still thinking
           *[other] lutins still thinking
        }).
    }
event-gestures_revealed = Every lutin has made a gesture: here they are!
event-ignored = { $seat } made the forbidden gesture: ignored, returns { $returned } { $returned ->
        [one] mushroom
       *[other] mushrooms
    } to the deck ({ $mushrooms } left).
event-reshuffled = The deck is shuffled ({ $deck } { $deck ->
        [one] card
       *[other] cards
    }).
event-choose = { $picker }, which lutin do you follow?
event-followed = { $picker } follows { $lutin }.
event-revealed = The card is revealed (big number { $big }, small number { $small }).
event-gained = { $count ->
        [0] The deck has run out: { $seat } picks nothing.
       *[other] The deck runs short: { $seat } picks only { $count } of { $wanted } { $wanted ->
            [one] mushroom
           *[other] mushrooms
        }.
    }
event-game_over = The deck is empty.
event-turn_abandoned = Turn { $turn } is abandoned without its picker: its card is discarded unscored (big number { $big }, small number { $small }).

## totals after a turn (the outcome line has said what each one picked)
label-totals = 🍄 Mushrooms in all: { $totals }

## merged from main
side_short-left = ←
side_short-right = →

## rules
rules-page_1 =
    {"*"}*Lutinades — the goal**
    For 3 to 7 players, bluff and mushrooms. Each turn one player is the **picker**; the others are the **lutins** (elves). Most mushrooms at the end wins.
    The top card of the deck is turned up: only the lutins see it ("See the card" button), never the picker. Its signpost shows a gesture, and two numbers: the big one and the small one.
rules-page_2 =
    {"*"}*A turn**
    • Each lutin secretly chooses a gesture — **up**, **down**, **horizontal** or **small** — true or not. Once all have chosen, the gestures are shown and the picker **follows** one lutin; then the card is revealed:
    • the followed lutin's gesture matches the signpost: the picker takes the **big number** of mushrooms, the lutin the **small** one;
    • it does not: the lutin takes the **small number**, the picker nothing;
    • every lutin made the same gesture: the picker takes the **big number**, the lutins nothing (no choice to make).
rules-page_3 =
    {"*"}*The deck and the end**
    • Mushrooms are cards taken from the deck; when it runs short, the picker is served first.
    • The revealed card is discarded and the picker's role passes to the next player.
    • The game ends when the deck is empty (or holds a single card).
    • On the picture, beside each player: their gesture of this turn and of the previous one.
rules-variant_lutins-malins =
    {"*"}*Variant: clever lutins**
    The lutin also shows the side the signpost points to, as the picker sees it: facing them, **your** left is the picker's right! A followed lutin with the wrong side gives the picker the big number and wins nothing.
rules-variant_en-grand =
    {"*"}*Variant: think big**
    The "small" gesture is forbidden: a lutin who uses it is ignored (cannot be followed) and returns one of their mushrooms to the deck, which is shuffled.
