# Taking a move back (issue 26)

## cmd
cmd-annuler_coup = Take back your last move (at once during your turn, otherwise with the others' consent)
cmd-reprises = Whether takebacks are allowed on this server
cmd-reprises_max = Takebacks at most per player per game, after their turn (0 to 20)

## button
button-undo = Take my move back
button-accept = Accept: { $player } takes back
button-refuse = Refuse { $player }'s takeback

## label
label-call = 🔔 { $players }: accept or refuse below.

## event
event-takeback = ↩️ { $mode ->
        [turn] { $seat } took back their last action.
        [alone] { $seat } took back their move.
       *[vote] { $seat } took back their move, accepted by { $players }.
    }
event-takeback_asked = ↩️ { $seat } asks to take back their last move. { $players }, do you accept? Without an answer the request expires <t:{ $due }:R>; a move played meanwhile cancels it.
event-takeback_refused = ↩️ { $seat }'s takeback is refused by { $by_seat }.
event-takeback_expired = ↩️ { $seat }'s takeback request expired: the move stands.

## reason
reason-pile = a card was drawn.
reason-shuffle = the draw pile was shuffled.
reason-dice = a die was rolled.
reason-tile = a new tile was announced.
reason-round_closed = the round is closed and its placements are revealed.
reason-round_scored = a round was scored.
reason-game_over = the game is over.
reason-ludix = in Ludix every step rolls the dice: no move is ever taken back.
reason-lutinades = in Lutinades the gestures are revealed together: no move is ever taken back.

## error
error-revealed = This move cannot be taken back: { $reason }
error-nothing = You have no move to take back here (only your last move, and only once).
error-not_last = Another player has played since your last move: it can no longer be taken back.
error-not_allowed = Takebacks are not allowed in game #{ $game }.
error-limit = You have already taken back { $count ->
        [one] { $count } move
       *[other] { $count } moves
    } in game #{ $game }: that is this server's maximum.
error-pending = A takeback request is already waiting for the players' answers in game #{ $game }.
error-closed = This takeback request of game #{ $game } is closed (decided, expired, or a move was played since).
error-own_request = You do not answer your own takeback request (game #{ $game }).
error-not_voter = Only the other players of game #{ $game } answer this request.
error-replay = The log of game #{ $game } does not replay exactly: no takeback is possible.
error-bad_limit = The number of takebacks must be from 0 to { $max } (got: { $value }).

## done
done-taken = ↩️ Move taken back (game #{ $id }).
done-asked = ↩️ Request sent to the other players of game #{ $id }.
done-cast = { $choice ->
        [accept] ✅ You accept the takeback.
       *[refuse] ✖️ You refuse the takeback.
    }

## config
config-line = Takebacks: { $allowed ->
        [on] allowed, { $count } at most per player per game.
       *[off] not allowed.
    }
