# The seats of a game's card (issue 24): one section per player (name, score, clock)

## seat
seat-profile = Profile
seat-ai = 🤖 { $level }
seat-points = { $n } { $n ->
        [one] point
       *[other] points
    }
seat-mushrooms = { $n } { $n ->
        [one] mushroom
       *[other] mushrooms
    }
seat-away = on vacation until { $until }
seat-deadline = ⏳ { $deadline }
seat-bank = ⏳ { $time }

## error
