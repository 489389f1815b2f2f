# The living table (issue 24): what a lobby card shows besides its seats, the cards' own lines.

## lobby
lobby-pace = Rythme : { $pace } — { $bank } par joueur, +{ $increment } par coup
lobby-pace_untimed = Rythme : { $pace } — sans limite de temps
lobby-thread_own = Fil : la partie se joue dans un fil à elle
lobby-thread_here = Fil : la partie se joue dans ce salon
lobby-ai = IA, niveau { $level }
lobby-cancelled = **Partie annulée.**

## pace
pace-direct = En direct
pace-rapide = Rapide
pace-normal = Normal
pace-lent = Lent

## value
value-yes = oui
value-no = non

## stale
stale-ended_link = Ce bouton n'est plus à jour. Le message actuel de la partie : { $link }
