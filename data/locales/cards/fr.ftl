# Les places d'une carte de partie (issue 24) : une section par joueur (nom, score, pendule)

## seat
seat-profile = Profil
seat-ai = 🤖 { $level }
seat-points = { $n } { $n ->
        [one] point
       *[other] points
    }
seat-mushrooms = { $n } { $n ->
        [one] champignon
       *[other] champignons
    }
seat-away = en vacances jusqu'au { $until }
seat-deadline = ⏳ { $deadline }
seat-bank = ⏳ { $time }

## error
