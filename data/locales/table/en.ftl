# The living table (issue 24): what a lobby card shows besides its seats, the cards' own lines.

## lobby
lobby-pace = Pace: { $pace } — { $bank } per player, +{ $increment } per move
lobby-pace_untimed = Pace: { $pace } — no time limit
lobby-thread_own = Thread: the game is played in a thread of its own
lobby-thread_here = Thread: the game is played in this channel
lobby-ai = AI, level { $level }
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
stale-ended_link = This button is out of date. The game's current message: { $link }
