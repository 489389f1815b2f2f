## name
name-title = Ludime

## error
error-no_word = Give a word.
error-not_letters = “{ $word }” contains something other than letters: compound words (hyphen, apostrophe) are not allowed.
error-not_a_word = { $word } is not in the dictionary.
error-too_short = { $word } is too short: at least { $min } letters.
error-first_word_short = First turn: your word needs at least { $min } letters ({ $word } is too short).
error-first_word_single = First turn: you lay exactly one word of at least { $min } letters (or exchange cards).
error-first_turn_extend = First turn: you may only lay one word of at least { $min } letters, not change a word on the table.
error-missing_letter = You are missing the letter { $letter } for { $word }.
error-foreign_letter = { $letter } is not a French letter: type { $word }, with or without French accents (é, è, ê, à, ç, ô, î, ï, ù, û, œ…).
error-not_in_hand = You have no { $letter } in your hand.
error-bad_letter = “{ $letter }” is not a letter.
error-bad_source = Draw from the pile or the discard, not “{ $source }”.
error-draw_first = Draw a card first (pile or discard).
error-already_drew = You already drew this turn: lay your words, then discard a card.
error-discard_first_turn = On your first turn you cannot take the discard: draw from the pile.
error-discard_returned = You put the discard back: draw from the pile.
error-discard_empty = The discard pile is empty.
error-discard_not_used = You took the { $letter } from the discard: use it in a word before ending your turn (or put it back).
error-nothing_to_return = You have no discard card to put back.
error-no_such_word = No word “{ $target }” on the table.
error-must_keep_letters = { $word } must keep every letter of { $old } ({ $letter } is missing).
error-must_add_letter = { $word } must add at least one of your cards to { $old }.
error-take_needs_word = To take { $word } you must first own a word on the table: lay a new one.
error-take_too_early = You just laid your first word: you may take { $word } from your next turn.
error-exchange_first_turn_only = Exchanging cards is only allowed on your first turn of the round.
error-exchange_after_word = You already laid your word: no exchange this turn.
error-already_exchanged = You already exchanged cards this turn.
error-exchange_empty = Name the letters to exchange.
error-exchanged_this_turn = You exchanged cards: you will lay your first word next turn.
error-opening_length = The opening word must have exactly { $length } letters ({ $word } does not).
error-opening_single = Lay a single { $length }-letter word to open the round.
error-one_word_only = There is only one word on the table ({ $word }): add a letter to it.
error-no_word_yet = There is no word on the table yet.
error-must_add_one = Add one letter at a time: { $word } is not { $old } plus one letter.
error-declare_length = Your word must use your whole hand: { $length } letters ({ $word } does not).
error-wrong_command = { $command } is not used in this variant ({ $variant }). Use: { $use }.
error-no_hand_here = You are not playing in any Ludime game running in this channel: there is no hand to show you here.

## event
event-die_rolled = 🎲 { $seat } rolls the die: { $die } → { $cards } { $cards ->
        [one] card
       *[other] cards
    } each.
event-dealt = 🃏 Round { $round }: { $dealer } deals { $cards } { $cards ->
        [one] card
       *[other] cards
    } to everyone.
event-turn = { $seat } to play.
event-drew = { $seat } draws a card.
event-took_discard = { $seat } takes the **{ $letter }** from the discard.
event-drew_card = You draw a **{ $letter }**.
event-pile_empty = The draw pile is empty: no card to draw.
event-reshuffled = 🔀 The draw pile ran out: the discard is shuffled ({ $count } { $count ->
        [one] card
       *[other] cards
    }).
event-played = 📝 { $seat } lays **{ $word }** ({ $value } { $value ->
        [one] pt
       *[other] pts
    }).
event-lengthened = ➕ { $seat } lengthens { $old } into **{ $word }** ({ $value } { $value ->
        [one] pt
       *[other] pts
    }).
event-took = 🏴 { $seat } takes { $old } from { $from_seat } and makes **{ $word }** ({ $value } { $value ->
        [one] pt
       *[other] pts
    }).
event-exchanged = 🔁 { $seat } exchanges { $count } { $count ->
        [one] card
       *[other] cards
    }.
event-exchanged_cards = You give back the letters { $returned } and receive { $received }.
event-returned = ↩️ { $seat } puts the { $letter } back on the discard.
event-discarded = { $seat } discards the letter **{ $letter }**.
event-went_out = 🏁 { $seat } has no card left! The lap is finished.
event-round_end = End of round { $round }.
event-round_void = Round { $round }: nobody scores.
event-scored = 🏆 { $seat } scores **{ $word }**: { $value } { $value ->
        [one] pt
       *[other] pts
    } (total { $score }).
event-game_over = 🏆 Winner: { $winners }!
event-opened = 📝 { $seat } opens with **{ $word }** ({ $value } { $value ->
        [one] pt
       *[other] pts
    }).
event-added = ➕ { $seat } adds { $letter }: **{ $word }** ({ $value } { $value ->
        [one] pt
       *[other] pts
    }).
event-passed = { $seat } ends their turn.
event-abandoned = { $seat } gives up this round.
event-opening_passed = { $seat } cannot open: the next player opens.
event-declared = 🎉 { $seat } lays down the whole hand: **{ $word }** ({ $value } { $value ->
        [one] pt
       *[other] pts
    })!
event-round_points = 📊 Round { $round } points: { $points }.

## option
option-variant = variant

## variant
variant-main = Main game (3 rounds)
variant-mot-unique = One word on the table (first to 100)
variant-main-entiere = One hand, one word (first to 100)

## label
label-hand = My hand
label-table = Table
label-discard = Discard
label-pile = Draw pile
label-round = Round
label-score = Score
label-scores = Scores
label-points = pts
label-cards = cards
label-penalty = Penalty
label-dealer = Dealer
label-turn = To play
label-first_turn = First turn: one word of 6+ letters
label-must_use = Must be used in a word
label-drawn = Drawn
label-giving = Given back
label-no_word = No word on the table
label-last_round = Previous round
label-target = Target
label-abandoned = out
label-die = Die
label-went_out = Out of cards: last lap
label-winner = Winner
label-finished = Game over
label-hand_text = Your hand: { $letters } ({ $points } { $points ->
        [one] pt
       *[other] pts
    })
label-hand_empty = Your hand is empty.
label-letter_option = { $letter } ({ $value } { $value ->
        [one] pt
       *[other] pts
    })
label-discard_placeholder = Choose the card to discard (ends your turn)
label-table_head = **Ludime** — game #{ $id }, round { $round }: the table.
label-table_word = { $word } — { $owner }, { $value } { $value ->
        [one] pt
       *[other] pts
    }
label-table_empty = No word on the table yet.
label-word_choice = { $word } — { $owner }, { $value } { $value ->
        [one] pt
       *[other] pts
    }

## button
button-hand = My hand
button-draw_pile = Draw
button-draw_discard = Take the discard
button-discard = Discard
button-undo_take = Put the discard back
button-pass = Pass
button-abandon = Pass (give up the round)
button-end_turn = End my turn

## hint
hint-draw = Your turn: draw (“{ $draw }”, or “{ $discard }” to use it in a word this turn).
hint-first = First turn: lay one word of at least 6 letters ({ COMMAND("ludime poser") }) or exchange cards ({ COMMAND("ludime echanger") }), then discard.
hint-play = Lay words ({ COMMAND("ludime poser") }), lengthen or take some ({ COMMAND("ludime allonger") }), then discard below to end your turn.
hint-play_own = Lay words ({ COMMAND("ludime poser") }) or lengthen yours ({ COMMAND("ludime allonger") }), then discard below to end your turn. You may take other players' words from your next turn.
hint-play_new = Lay words ({ COMMAND("ludime poser") }), then discard below to end your turn. To lengthen or take a word, you first need a word of your own on the table.
hint-must_use = Use the { $letter } taken from the discard in a word, or put it back (“{ $put_back }”).
hint-single_open = Open with a 3-letter word ({ COMMAND("ludime poser") }) or pass.
hint-single_add = Add a letter to the word ({ COMMAND("ludime ajouter") }), as many times as you can, then end your turn; passing without adding anything gives up the round.
hint-whole_draw = Draw, or lay down your hand if it makes one word ({ COMMAND("ludime declarer") }).
hint-whole_play = Lay down your hand ({ COMMAND("ludime declarer") }) or discard below.

## cmd
cmd-start = Open a game of Ludime (French word game)
cmd-variant_name = variant
cmd-variant = Main game, one word on the table, or one hand one word
cmd-ia = Number of AI players to add (0 to 3)
cmd-poser = Lay one or more words with your cards
cmd-poser_mot = One word or several, separated by spaces or commas
cmd-allonger = Lengthen your word, or take another player's word by changing it
cmd-allonger_mot = The word on the table to change
cmd-allonger_nouveau = The new word: every letter of the old one and at least one of yours
cmd-echanger = First turn: exchange cards with the draw pile
cmd-echanger_lettres = The letters to give back (e.g. K W)
cmd-ajouter = One word: add one of your letters to the word on the table
cmd-ajouter_mot = The new word (the old one plus one letter, in any order)
cmd-declarer = One hand, one word: lay down your whole hand as one word
cmd-declarer_mot = The word made of all your cards
cmd-table = Show the table: every word, its owner and its value
cmd-main = See your hand (privately), at any time


## picture: counts and the colon as the language writes them
label-colon = {": "}
label-cards_word = { $count ->
        [one] card
       *[other] cards
    }
label-points_word = { $count ->
        [one] pt
       *[other] pts
    }

## hints that follow the first turn's limits
hint-draw_pile_only = Your turn: draw (“{ $draw }”).
hint-discard_only = First turn done: discard below to end your turn.

## rules
rules-page_1 =
    {"*"}*Ludime — the goal**
    A French word game for 2 to 4 players, with 120 letter cards: a vowel is worth 2 points, a consonant 3 points. Players form French words on the table to score their points.
    • Words come from the bot's French dictionary: accents are ignored; proper nouns, acronyms, abbreviations, onomatopoeias and compound words are excluded.
    • Three ways to play (the `variant` option): the **main game**, **One word** and **One hand, one word**; each has its own page.
rules-page_2 =
    {"*"}*Commands**
    • { COMMAND("ludime start") }: variant, AI players, pace, thread; { COMMAND("ludime join") }, { COMMAND("ludime leave") }, { COMMAND("ludime cancel") }.
    • "My hand" (or { COMMAND("ludime main") }) shows your cards, to you only, with the moves you can make.
    • { COMMAND("ludime poser") }, { COMMAND("ludime allonger") }, { COMMAND("ludime echanger") }, { COMMAND("ludime ajouter") }, { COMMAND("ludime declarer") } depending on the variant; { COMMAND("ludime table") } shows the words on the table; { COMMAND("ludime status") } the scores.
rules-variant_main =
    {"*"}*Main game** (3 rounds)
    • Everyone gets 15 cards; the dealer starts. On your turn: **draw** a card (from the pile, or the top of the discard pile, only to use it in a word this turn), **lay** words if you like, then **discard** a card to end your turn.
    • First turn: a single word of at least **6 letters**; otherwise exchange cards: you will lay words next turn and touch other players' words the turn after.
    • Then: lay as many words of 3 letters or more as you like, **lengthen** yours, and **take** other players' words by changing them (all their letters plus at least one of yours, in any order), only once you have a word of your own on the table.
    • When a player has no card left, the round is played to its end. Each word you own scores its points, each card left in hand costs its points. After 3 rounds the highest total wins; on a tie, the best word wins.
rules-variant_mot-unique =
    {"*"}*One word** (first to 100 points)
    • Everyone gets 12 cards, the dealer 15; the dealer opens with a 3-letter word (or passes, and the next player may open).
    • On your turn, add **one letter** from your hand to the word on the table, in any order, to form a new word; you may chain several additions, then "End my turn". Passing without adding anything drops you out of the round.
    • When nobody can play any more, the last player who changed the word scores its points. The first to 100 points wins.
rules-variant_main-entiere =
    {"*"}*One hand, one word** (first to 100 points)
    • A die sets the size of the hands, from 5 to 10 cards.
    • On your turn, draw a card, then discard one.
    • The first player to form a word with **their whole hand** lays it down ({ COMMAND("ludime declarer") }) and scores its points. The first to 100 points wins.
