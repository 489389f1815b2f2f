## name
name-title = Ludix

## error
error-roll_first = Lancez d'abord les dés : on ne peut pas s'arrêter avant d'avoir lancé.
error-pass_after_roll = Vous avez déjà lancé : arrêtez-vous ou relancez.
error-too_few_left = Il resterait moins de { $min } joueurs : la partie ne peut pas continuer sans ce joueur.

## event
event-rolled = 🎲 { $seat } lance { $faces } → **{ $numeral }** = { $value } (total du tour : { $turn_total }).
event-bust = 💥 { $seat } lance { $faces } : aucun nombre romain ! { $lost ->
        [0] Aucun point perdu.
        [one] { $lost } point perdu.
       *[other] { $lost } points perdus.
    }
event-banked = ✅ { $seat } s'arrête et marque { $points } { $points ->
        [one] point
       *[other] points
    } (score : { $score }).
event-turn = Au tour { ELISION($seat) ->
        [vowel] d'{ $seat }
       *[consonant] de { $seat }
    }.
event-target_reached = 🔔 { $seat } atteint l'objectif ({ $target }) { $game_ends ->
        [1] et ferme le tour de table.
       *[other] : dernier tour ! On finit le tour de table, puis la partie s'arrête.
    }
event-game_over = 🏆 Vainqueur : { $winners } !

## option
option-target = objectif

## button
button-roll = Lancer les dés
button-reroll = Relancer
button-stop = Stop (marquer)

## label
label-turn_total = Total du tour
label-target = Objectif
label-bust = Raté !
label-round = Tour
label-last_round = Dernier tour
label-others = Autres
label-colon = {" : "}

## cmd
cmd-start = Ouvrir une partie de Ludix (dés en chiffres romains)
cmd-objectif = Score à atteindre (300 par défaut)
cmd-ia = Nombre de joueurs IA à ajouter (0 à 5)
cmd-niveau = Niveau de l'IA


## merged from main
label-final = Partie terminée

## rules
rules-page_1 =
    {"*"}*Ludix — le but**
    Un jeu de dés en chiffres romains, de 2 à 6 joueurs. À tour de rôle, chacun lance 4 dés aux faces L X X V I I et accumule des points ; le premier à atteindre **{ $target } points** déclenche la fin de la partie.
    • Le créateur de la partie commence, puis les joueurs dans l'ordre où ils ont rejoint.
    • Le plus haut score gagne ; en cas d'égalité, la victoire est partagée.
rules-page_2 =
    {"*"}*Un tour**
    • Cliquez sur « { button-roll } » : le bot range les 4 dés en **meilleur nombre romain valide**, c'est-à-dire l'écriture romaine correcte de sa valeur (XL = 40, LXI = 61, mais IL ne s'écrit pas), et l'ajoute au total du tour. L'image montre aussi les autres nombres possibles.
    • Puis « { button-reroll } » pour accumuler, ou « { button-stop } » pour ajouter le total du tour à votre score.
    • Si les dés ne forment **aucun nombre romain** (environ 28 % des lancers), le total du tour est perdu et c'est au joueur suivant.
    • On ne peut pas s'arrêter avant d'avoir lancé.
rules-page_3 =
    {"*"}*La fin de la partie**
    • Dès qu'un joueur atteint { $target } points, c'est le **dernier tour** : on finit le tour de table pour que chacun ait joué autant de tours, puis la partie s'arrête.
    • Un joueur absent : quand son temps est écoulé, le bot s'arrête pour lui et marque son total du tour.
rules-page_4 =
    {"*"}*Commandes**
    • { COMMAND("ludix start") } : objectif (de 50 à 1000, 300 par défaut), joueurs IA et leur niveau, rythme, fil.
    • { COMMAND("ludix join") }, { COMMAND("ludix leave") }, { COMMAND("ludix cancel") } pour la table ; { COMMAND("ludix status") } pour le score et le temps de chacun.
    • Les boutons « { button-roll } » et « { button-stop } » sont sous le dernier message de la partie : seul le joueur dont c'est le tour peut s'en servir.
