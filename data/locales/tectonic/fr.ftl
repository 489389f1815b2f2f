## name
name-title = Tectonic


## error
error-off_board = « { $cell } » n'est pas une case du plateau (de A1 à J10).
error-empty_cell = Il n'y a aucune pièce en { $cell }.
error-red_piece = La pièce en { $cell } ({ $piece }) est rouge : elle est neutre et ne peut pas bouger.
error-enemy_piece = La pièce en { $cell } ({ $piece }) appartient à votre adversaire.
error-same_cell = La pièce doit quitter sa case ({ $cell }).
error-wrong_pattern = { $from } → { $to } n'est pas un déplacement de { $piece }.
error-too_far = { $from } → { $to } est trop loin : un déplacement de { $piece } fait au plus { $max } { $max ->
        [one] case
       *[other] cases
    }.
error-blocked = { $from } → { $to } est bloqué : la case { $cell } est occupée et on ne passe jamais par-dessus une pièce.
error-occupied = La case d'arrivée { $cell } est déjà occupée.
error-flip_required = Plusieurs pièces adverses peuvent être retournées : choisissez-en une ({ $choices }).
error-bad_flip = Ce déplacement ne permet pas de retourner la pièce en { $cell } (choix possibles : { $choices }).
error-no_flip = Ce déplacement ne retourne aucune pièce : impossible de retourner { $cell }.
error-not_your_button = Ce bouton n'est pas pour vous.

## event
event-moved = { $seat } déplace { $piece_kind ->
        [colline] sa colline
       *[other] son { $piece }
    } de { $from } à { $to }.
event-flipped = 🔴 { $seat } retourne le pion adverse en { $cell } ({ $piece }) : il devient rouge.
event-recoloured = ↩️ { $seat } récupère son pion rouge en { $cell } ({ $piece }).
event-substituted = 🔁 { $seat } remplace le pion rouge en { $cell } ({ $piece }) par un pion de sa réserve ; celui-ci retourne dans la réserve { ELISION($owner) ->
        [vowel] d'{ $owner }
       *[consonant] de { $owner }
    }.
event-stays_red = { $seat } n'a plus de { $piece } en réserve : le pion rouge en { $cell } reste rouge.
event-turn = Au tour { ELISION($seat) ->
        [vowel] d'{ $seat }
       *[consonant] de { $seat }
    }.
event-resigned = 🏳️ { $seat } abandonne : victoire { ELISION($winner) ->
        [vowel] d'{ $winner }
       *[consonant] de { $winner }
    }.
event-won_region = 🏆 { $winner } réunit colline, pic et mont dans la région { $region } et gagne la partie !
event-won_all_red = 🏆 Toutes les pièces { ELISION($loser) ->
        [vowel] d'{ $loser }
       *[consonant] de { $loser }
    } sur le plateau sont rouges : victoire { ELISION($winner) ->
        [vowel] d'{ $winner }
       *[consonant] de { $winner }
    } !
event-won_no_moves = 🏆 { $loser } ne peut plus jouer : victoire { ELISION($winner) ->
        [vowel] d'{ $winner }
       *[consonant] de { $winner }
    } !
event-draw_repetition = 🤝 La même position est apparue trois fois : partie nulle.
event-sides = ⚪ { $white_seat } joue les Blancs (en bas, commence) ; ⚫ { $black_seat } joue les Noirs (en haut).

## reason
reason-region = trois pièces réunies dans une région adverse
reason-all_red = toutes les pièces adverses sont rouges
reason-no_moves = l'adversaire n'a plus de coup possible
reason-repetition = position répétée trois fois
reason-resign = abandon
reason-timeout = forfait après des absences répétées

## piece
piece-colline = colline
piece-pic = pic
piece-mont = mont

## colour
colour-blanc = Blanc
colour-noir = Noir

## region
region-NO = nord-ouest
region-NE = nord-est
region-SO = sud-ouest
region-SE = sud-est

## option
option-pic_backward = recul du pic

## choice
choice-droit = tout droit
choice-diagonale = en diagonale


## button
button-flip = Retourner { $cell } ({ $piece })
button-resign = Abandonner
button-keep = Continuer la partie

## label
label-move = { $from } → { $to }
label-move_flip = { $from } → { $to } (retourne { $cell })
label-seat_colour = { $player } ({ $colour })
label-move_flips = { $from } → { $to } (retourne au choix { $cells })
label-source = { $cell } ({ $piece })

## render
render-red = Rouges
render-reserve = Réserve
render-on_board = En jeu
render-turn = à jouer
render-winner = vainqueur
render-corner_NO = NO
render-corner_NE = NE
render-corner_SO = SO
render-corner_SE = SE
render-draw = Partie nulle
render-ply = Coup { $n }
render-white = Blanc
render-black = Noir

## cmd
cmd-start = Ouvrir une partie de Tectonic (contre un joueur ou l'IA)
cmd-adversaire = Adversaire : un joueur (par défaut) ou le bot
cmd-niveau = Niveau de l'IA
cmd-recul_pic = Recul du pic : tout droit (par défaut) ou en diagonale
cmd-jouer = Déplacer une de vos pièces
cmd-de = Case de départ (ex. C2)
cmd-vers = Case d'arrivée (ex. C6)
cmd-retourner = Pièce adverse à retourner si plusieurs sont possibles
cmd-abandon = Abandonner la partie
cmd-vs_player = Un autre joueur (salon d'attente)
cmd-vs_bot = Le bot (la partie commence tout de suite)

## ui
ui-hint_move = ➡️ Jouez avec { COMMAND("tectonic jouer") } `de: vers:` (l'autocomplétion ne propose que vos coups permis).
ui-flip_pick = Cliquez sur la pièce à retourner (ou rejouez avec l'option `retourner`).
ui-flip_done = Vous jouez { $from } → { $to } et retournez { $cell }.
ui-resign_confirm = Abandonner la partie n°{ $id } ? { $opponent } la gagnera.
ui-resign_done = Vous avez abandonné la partie n°{ $id }.
ui-resign_kept = La partie n°{ $id } continue.
ui-final_win = **Fin de la partie** : victoire { ELISION($winner) ->
        [vowel] d'{ $winner }
       *[consonant] de { $winner }
    } ({ $reason }).
ui-final_draw = **Fin de la partie** : partie nulle ({ $reason }).

## rules
rules-page_1 =
    {"*"}*Tectonic — le but**
    Un jeu abstrait à 2 joueurs : Blanc (commence, en bas, rangées 1-2) contre Noir (en haut, rangées 9-10), sur un plateau de 10 × 10 (colonnes A-J, rangées 1-10). Chaque coin est une **région** montagneuse de 6 cases : les deux du bas sont à Blanc, les deux du haut à Noir.
    Chacun a 6 pièces en jeu et une colline, un pic et un mont en **réserve**.
    {"*"}*Victoire** : réunir une colline, un pic et un mont de votre couleur dans une même région adverse, ou rendre rouges toutes les pièces adverses sur le plateau. Un joueur sans coup possible perd ; la même position trois fois donne une partie nulle.
rules-page_2 =
    {"*"}*Déplacements** (jamais par-dessus ni sur une pièce)
    • **colline** (rond) : 1 case dans les 8 directions ;
    • **pic** (triangle) : jusqu'à 3 cases en diagonale vers l'avant, ou jusqu'à 3 cases tout droit vers l'arrière (option `recul_pic` : en diagonale vers l'arrière) ;
    • **mont** (carré) : jusqu'à 4 cases en ligne droite (horizontale ou verticale).
rules-page_3 =
    {"*"}*Retournements**
    • La pièce déplacée qui arrive orthogonalement à côté d'une pièce adverse la retourne face **rouge** (s'il y en a plusieurs, vous choisissez laquelle). Une pièce rouge est neutre et immobile.
    • **Retour des rouges** : toute pièce rouge orthogonalement voisine de la pièce déplacée reprend la couleur du joueur : la sienne est simplement retournée ; celle de l'adversaire est remplacée par une pièce du même type prise dans votre réserve (la pièce rouge retourne dans la réserve de son propriétaire). Sans pièce de ce type en réserve, elle reste rouge. On rend les rouges d'abord, puis on retourne.
rules-page_4 =
    {"*"}*Commandes**
    • { COMMAND("tectonic start") } : adversaire (un joueur ou le bot), niveau du bot, recul du pic, rythme, fil.
    • { COMMAND("tectonic jouer") } `de: vers:` : l'autocomplétion ne propose que vos coups permis ; si plusieurs pièces peuvent être retournées, un bouton par pièce.
    • { COMMAND("tectonic status") }, { COMMAND("tectonic abandon") } pour abandonner.
