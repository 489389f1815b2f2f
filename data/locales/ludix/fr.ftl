## name
name-title = Ludix

## error
error-roll_first = Lancez d'abord les dés : on ne peut pas s'arrêter avant d'avoir lancé.
error-pass_after_roll = Vous avez déjà lancé : arrêtez-vous ou relancez.
error-too_few_left = Il resterait moins de { $min } joueurs : la partie ne peut pas continuer sans ce joueur.

## event
event-rolled = 🎲 { $seat } lance { $faces } → **{ $numeral }** = { $value } (total du tour : { $turn_total }).
event-bust = 💥 { $seat } lance { $faces } : aucun nombre romain ! { $lost ->
        [0] Aucun point perdu.
        [one] { $lost } point perdu.
       *[other] { $lost } points perdus.
    }
event-banked = ✅ { $seat } s'arrête et marque { $points } { $points ->
        [one] point
       *[other] points
    } (score : { $score }).
event-turn = Au tour { ELISION($seat) ->
        [vowel] d'{ $seat }
       *[consonant] de { $seat }
    }.
event-target_reached = 🔔 { $seat } atteint l'objectif ({ $target }) : dernier tour ! On finit le tour de table, puis la partie s'arrête.
event-game_over = 🏆 Vainqueur : { $winners } !

## option
option-target = objectif

## button
button-roll = Lancer les dés
button-reroll = Relancer
button-stop = Stop (marquer)

## label
label-turn_total = Total du tour
label-target = Objectif
label-bust = Raté !
label-round = Tour
label-last_round = Dernier tour
label-others = Autres

## cmd
cmd-start = Ouvrir une partie de Ludix (dés en chiffres romains)
cmd-objectif = Score à atteindre (300 par défaut)
cmd-ia = Nombre de joueurs IA à ajouter (0 à 5)
cmd-niveau = Niveau de l'IA

## rules
rules-summary =
    {"*"}*Ludix** — dés en chiffres romains (2 à 6 joueurs).
    • À votre tour, lancez les 4 dés (faces L X X V I I) : le bot forme le meilleur nombre romain valide et l'ajoute au total du tour.
    • Puis **Relancer** (pour accumuler) ou **Stop** (pour marquer le total du tour).
    • Si les dés ne forment aucun nombre romain (environ 28 % des lancers), vous perdez le total du tour.
    • Le premier à atteindre l'objectif (300) déclenche la fin : on termine le tour de table pour que tous aient joué autant de tours. Le plus haut score gagne ; en cas d'égalité, victoire partagée.
    Commandes : /ludix start, join, leave, status, rules, cancel ; boutons Lancer / Stop sous le message de la partie.

## merged from main
label-final = Partie terminée
