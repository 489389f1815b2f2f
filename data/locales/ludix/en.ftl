## name
name-title = Ludix

## error
error-roll_first = Roll the dice first: you cannot stop before rolling.
error-pass_after_roll = You have already rolled: stop or roll again.
error-too_few_left = Fewer than { $min } players would be left: the game cannot go on without this player.

## event
event-rolled = 🎲 { $seat } rolls { $faces } → **{ $numeral }** = { $value } (turn total: { $turn_total }).
event-bust = 💥 { $seat } rolls { $faces }: no Roman numeral! { $lost ->
        [0] No points lost.
        [one] { $lost } point lost.
       *[other] { $lost } points lost.
    }
event-banked = ✅ { $seat } stops and scores { $points } { $points ->
        [one] point
       *[other] points
    } (score: { $score }).
event-turn = { $seat }'s turn.
event-target_reached = 🔔 { $seat } reaches the target ({ $target }): last round! The round is played to its end, then the game is over.
event-game_over = 🏆 Winner: { $winners }!

## option
option-target = target

## button
button-roll = Roll the dice
button-reroll = Roll again
button-stop = Stop (bank)

## label
label-turn_total = Turn total
label-target = Target
label-bust = Bust!
label-round = Round
label-last_round = Last round
label-others = Others

## cmd
cmd-start = Open a game of Ludix (Roman-numeral dice)
cmd-objectif = Score to reach (300 by default)
cmd-ia = Number of AI players to add (0 to 5)
cmd-niveau = AI level

## rules
rules-summary =
    {"*"}*Ludix** — Roman-numeral dice (2 to 6 players).
    • On your turn, roll the 4 dice (faces L X X V I I): the bot forms the best valid Roman numeral and adds it to your turn total.
    • Then **Roll again** (to build up) or **Stop** (to bank the turn total).
    • If the dice form no Roman numeral (about 28% of rolls), you lose the turn total.
    • The first to reach the target (300) triggers the end: the round is completed so everyone has played as many turns. Highest score wins; ties share the victory.
    Commands: /ludix start, join, leave, status, rules, cancel; Roll / Stop buttons under the game's message.

## merged from main
label-final = Game over
