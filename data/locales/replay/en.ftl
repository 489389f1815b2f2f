# Replays (issue 27): the move-by-move viewer of /historique, the animated summary, "Share".

## the viewer
viewer-head = **{ $game }** — game #{ $id } ({ $players }) — { $status }
viewer-finished = finished { $when }
viewer-running = in progress: { $total ->
        [one] { $total } move
       *[other] { $total } moves
    } so far
viewer-start = Start of the game.
viewer-position = **Move { $n } of { $total }** · { $group }
viewer-position_start = **Starting position**
viewer-move = **Move { $n } of { $total }**
viewer-tile = **Tile { $round } of { $rounds }**
viewer-end = end of the game
viewer-secret = (secret move: nothing visible at the table)
viewer-by_timeout = (timed out: default move)
viewer-no_picture = (no picture for this position)
group-round = Round { $round }
group-turn = Turn { $round }
group-moves = Moves { $first } to { $last }
group-move = Move { $n }
group-tile = Tile { $round }
button-first = Start
button-prev = Previous move
button-next = Next move
button-last = Last move
button-prev_tile = Previous tile
button-next_tile = Next tile
button-last_tile = Last tile
select-placeholder = Go to…
select-option = { $group } (move { $n })
select-option_start = { $group } (start)

## the journal (a text file that reads like the game)
log-head = { $game } — game #{ $id } — { $players }
log-finished = Finished on { DATETIME($when, dateStyle: "long", timeStyle: "short") } (UTC).
log-running = In progress (log as of { DATETIME($when, dateStyle: "long", timeStyle: "short") }, UTC).
log-line = { $n }. { $player }: { $text }
log-inline = The log, move by move:
log-attached = The full log ({ $count ->
        [one] { $count } move
       *[other] { $count } moves
    }) is in the attached file, with the animated summary when the game is over.
log-attached_running = The full log ({ $count ->
        [one] { $count } move
       *[other] { $count } moves
    }) is in the attached file.
log-final = Final ranking:
log-final_file = Final ranking

## rankings (no score where the game did not reach its end)
rank-score = { $rank }. { $player } — { $score ->
        [one] { $score } point
       *[other] { $score } points
    }
rank-plain = { $rank }. { $player }
rank-resigned = { $rank }. { $player } — resigned
rank-forfeit = { $rank }. { $player } — forfeited
rank-removed = { $rank }. { $player } — removed from the game
rank-note_resigned = The game ended by resignation: no scores.
rank-note_forfeit = The game ended by forfeit: no scores.
rank-note_removed = The table voted to stop the game: no scores.

## the animated summary and "Share"
animation-title = { $game } #{ $id } — final ranking
animation-caption = Animated summary of the game ({ $frames ->
        [one] { $frames } frame
       *[other] { $frames } frames
    }).
animation-none = (no animated summary for this game)
button-share = Share
share-post = { $player } shares { $game } game #{ $id }:

## refusals
error-not_started = Game #{ $game } has not started yet: there is nothing to replay.
error-schema = Game #{ $game } was played under an earlier version of the rules: it can no longer be replayed move by move here. Its text log is still below.
error-share_unfinished = Only a finished game can be shared: game #{ $game } is still in progress.
error-share_wait = You shared a game less than { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    } ago: you can share again { $when }.
error-share_no_animation = Game #{ $game } has no animated summary to share.
error-wrong_server = This button belongs to another server: game #{ $game } does not exist here.
error-bad_position = That position does not exist in game #{ $game } ({ $total ->
        [one] { $total } position
       *[other] { $total } positions
    }).
