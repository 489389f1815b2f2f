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
event-target_reached = 🔔 { $seat } reaches the target ({ $target }){ $game_ends ->
        [1] {" "}and closes the round.
       *[other] : last round! The round is played to its end, then the game is over.
    }
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
label-colon = {": "}

## cmd
cmd-start = Open a game of Ludix (Roman-numeral dice)
cmd-objectif = Score to reach (300 by default)
cmd-ia = Number of AI players to add (0 to 5)
cmd-niveau = AI level


## merged from main
label-final = Game over

## rules
rules-page_1 =
    {"*"}*Ludix — the goal**
    A Roman-numeral dice game for 2 to 6 players. In turn, each player rolls 4 dice with faces L X X V I I and builds up points; the first to reach **{ $target } points** triggers the end of the game.
    • The game's creator starts, then the players in the order they joined.
    • The highest score wins; a tie shares the victory.
rules-page_2 =
    {"*"}*A turn**
    • Click "{ button-roll }": the bot arranges the 4 dice into the **best valid Roman numeral**, the correct Roman writing of its value (XL = 40, LXI = 61, but IL is not a numeral), and adds it to your turn total. The picture also shows the other possible numerals.
    • Then "{ button-reroll }" to build up, or "{ button-stop }" to add the turn total to your score.
    • If the dice form **no Roman numeral** (about 28% of rolls), the turn total is lost and the next player plays.
    • You cannot stop before rolling.
rules-page_3 =
    {"*"}*The end of the game**
    • As soon as a player reaches { $target } points, it is the **last round**: the round is played to its end so that everyone has played as many turns, then the game is over.
    • An absent player: when their time runs out, the bot stops for them and banks their turn total.
rules-page_4 =
    {"*"}*Commands**
    • { COMMAND("ludix start") }: target (50 to 1000, 300 by default), AI players and their level, pace, thread.
    • { COMMAND("ludix join") }, { COMMAND("ludix leave") }, { COMMAND("ludix cancel") } for the table; { COMMAND("ludix status") } for everyone's score and time.
    • The "{ button-roll }" and "{ button-stop }" buttons are under the game's latest message: only the player whose turn it is can use them.
