## name
name-title = Take it to the Limit


## error
error-missing_field = Il manque « { $field } » dans l'action.
error-unknown_tile = « { $tile } » n'est pas une tuile du jeu (une tuile s'écrit verticale-diagonale↗-diagonale↘, par exemple 1-11-10).
error-stale_tile = La tuile annoncée est { $current }, pas { $tile } : ce placement est périmé, rien n'a changé.
error-already_placed = Vous avez déjà posé la tuile { $tile } (en { $position }) : attendez les autres joueurs.
error-unknown_position = « { $position } » n'est pas un emplacement : choisissez une des positions écrites sur votre plateau.
error-wrong_board = « { $position } » n'existe pas sur le plateau { $plateau }.
error-occupied = L'emplacement { $position } est déjà occupé par la tuile { $tile }.
error-no_dechetterie = Pas de Déchetterie dans cette partie : « { $position } » n'est pas disponible.
error-dechetterie_cell = Choisissez une case précise de votre Déchetterie (X1 à X7), pas « { $position } ».
error-passed_dechetterie = Votre Déchetterie est chez votre voisin ou voisine, pas de « { $position } » : pour vous en défausser, choisissez « { $name } » ; c'est cette personne qui place la tuile.
error-dechetterie_full = Votre Déchetterie est pleine (« { $position } » impossible) : la tuile doit aller sur le Nexus.
error-orchid_full = La grande orchidée ({ $position }) porte déjà { $capacity } tuiles : la tuile doit aller sur un hexagone.
error-hole_at_end = La petite orchidée { $position } ne se remplit qu'à la fin, depuis la grande orchidée.
error-relocation_phase = Toutes les tuiles sont posées : c'est le moment de déplacer (ou non) les tuiles de la grande orchidée.
error-not_relocation_phase = On ne déplace les tuiles de la grande orchidée qu'à la fin de la partie.
error-already_relocated = Vous avez déjà fait votre choix pour la grande orchidée.
error-bad_moves = Déplacements illisibles : « { $moves } » (il faut associer une petite orchidée A, B ou C à une tuile).
error-bad_hole = « { $hole } » n'est pas une petite orchidée (A, B ou C).
error-hole_twice = La petite orchidée { $hole } ne peut recevoir qu'une tuile.
error-tile_not_on_orchid = La tuile { $tile } n'est pas sur votre grande orchidée.
error-tile_twice = La tuile { $tile } ne peut pas aller sur deux petites orchidées.
error-no_fill = Dans la variante « { $variante } », personne ne remplit la Déchetterie d'un autre.
error-bad_board = Plateau « { $board } » inconnu.
error-not_holder = Ce n'est pas vous qui tenez cette Déchetterie (plateau { $board }).
error-no_fill_pending = Aucune tuile n'attend d'être posée sur cette Déchetterie (plateau { $board }).
error-not_dechetterie_cell = « { $position } » n'est pas une case de Déchetterie (X1 à X7).
error-variant_board = La variante « { $variante } » ne se joue pas sur le plateau { $plateau }.
error-pairs_even = En paires, il faut un nombre pair de joueurs (vous êtes { $count }).
error-too_many_boards = { $count } { $count ->
        [one] plateau
       *[other] plateaux
    }, c'est trop : { $max } au plus.
error-variant_needs_boards = La variante « { $variante } » se joue à { $min } plateaux au moins.
error-tiles_option = Le choix « tuiles : { $tuiles } » ne vaut que pour l'Orchidée standard (ici : plateau { $plateau }, variante « { $variante } »).
error-no_seat = Le siège { $seat } ne joue pas dans cette partie.
error-bad_choice = Ce choix est illisible : « { $choice } ». Prends une des positions proposées.
error-stale_game = Ce choix visait la partie { $game } de la série ; on en est à la partie { $current } : rien n'a changé.

## event
event-announced = Tuile { $round }/{ $rounds } : **{ $tile }**.
event-placed = Vous avez posé { $tile } en { $position }.
event-passed = { $seat } vous confie la tuile { $tile } : posez-la sur sa Déchetterie.
event-filled = Vous avez posé { $tile } en { $position } sur la Déchetterie qui vous est confiée.
event-waiting = { $seat } a posé ({ $remaining } { $remaining ->
        [one] joueur en attente
       *[other] joueurs en attente
    }).
event-round_closed = { $boards ->
        [1] Tuile { $round } ({ $tile }) posée.
       *[other] Tout le monde a posé la tuile { $round } ({ $tile }) : les plateaux sont révélés.
    }
event-relocation = Toutes les tuiles sont posées : chacun peut déplacer les tuiles de sa grande orchidée vers les petites orchidées A, B et C.
event-relocated = { $moved ->
        [0] { $seat } laisse les tuiles de sa grande orchidée en place.
       *[other] { $seat } a déplacé { $moved } { $moved ->
            [one] tuile
           *[other] tuiles
        } de la grande orchidée ({ $gain } { $gain ->
            [one] point
           *[other] points
        }).
    }
event-game_scored = { $games ->
        [1] {""}
       *[other] Partie { $game }/{ $games } terminée : voici les scores.
    }
event-next_game = Partie { $game }/{ $games } : c'est reparti, nouveau mélange !
event-game_over = Voici tous les plateaux et leurs scores.

## option
option-plateau = Plateau
option-variante = Variante
option-tuiles = Tuiles (Orchidée)
option-paires = Jeu en paires
option-serie = Nombre de parties (série)

## choice
choice-nexus = Nexus (+ Déchetterie)
choice-orchidee = Orchidée
choice-standard = Standard
choice-dechetterie-basse = La plus basse Déchetterie paie
choice-passe-dechetterie = Passez la Déchetterie
choice-sans-dechetterie = Sans Déchetterie
choice-orchidee-64 = Orchidée avec les 64 tuiles
choice-soleil = Soleils
choice-lune = Lunes

## colour
colour-grey = gris
colour-blue = bleu
colour-yellow = jaune
colour-violet = violet
colour-pink = rose
colour-red = rouge
colour-green = vert
colour-white = blanc
colour-cherry = cerise
colour-turquoise = turquoise
colour-orange = orange
colour-black = noir

## direction
direction-vertical = verticale
direction-sw_ne = diagonale ↗
direction-nw_se = diagonale ↘

## board
board-nexus = Nexus
board-dechetterie = Déchetterie
board-orchidee = Orchidée
board-big_orchid = Grande orchidée

## button
button-my_board = Mon plateau
button-place = Placer
button-relocate = Déplacer
button-keep = Ne rien déplacer
button-best = Appliquer la meilleure

## label
label-round = Tuile { $round }/{ $rounds }
label-game = Partie { $game }/{ $games }
label-announced = Tuile annoncée
label-lines = Alignements
label-bonuses = Bonus
label-ray = Rayon
label-penalty = Pénalité
label-total = Total
label-dechetterie_value = Valeur de Déchetterie
label-sun = soleil
label-moon = lune
label-gold = or
label-silver = argent
label-full = entier
label-half = moitié
label-unplaced = Restées sur la grande orchidée
label-relocation = Déplacement conseillé
label-gain = { $gain } { $gain ->
        [one] point
       *[other] points
    }
label-hidden = Cadre bleu : votre tuile de ce tour, visible de vous seulement jusqu'à la fin du tour.
label-legend_sun = Anneau doré : le plus long rayon de soleils (10 points par tuile).
label-legend_moon = Anneau argenté : le plus long rayon de lunes (10 points par tuile).
label-legend_bonus = Cadre or ou argent : tuile bonus (80 ou 40 points).
label-waiting = En attente : { $players }
label-final = Fin de partie
label-relocation_title = Avant le décompte : les déplacements
label-penalty_threshold = Pénalité { $penalty } : Déchetterie à { $value }, sous le seuil de { $threshold }.
label-penalty_lowest = Pénalité { $penalty } : la Déchetterie la plus basse de la table ({ $value }).
label-penalty_highest = Pénalité { $penalty } : la Déchetterie la plus haute de la table ({ $value }).
label-series_total = Total de la série : { $total }
label-pass = X : donner à votre voisin
label-holder = Déchetterie tenue par { $player }
label-fill = { $player } vous passe sa tuile : touchez sa Déchetterie

## cmd
cmd-start = Lancer une partie de Take it to the Limit
cmd-plateau = Le plateau : Nexus (+ Déchetterie) ou Orchidée
cmd-variante = La variante de la règle (standard en cas de doute)
cmd-tuiles = Orchidée standard : jouer avec les soleils ou avec les lunes
cmd-paires = Jouer en paires : deux joueurs par plateau
cmd-serie = Nombre de parties de la série (scores additionnés)
cmd-solo = Jouer seul : la partie commence tout de suite
cmd-ia = Nombre de joueurs IA
cmd-niveau = Niveau de l'IA
cmd-placer = Poser la tuile annoncée sur votre plateau
cmd-position = Où poser la tuile (seules les positions libres sont proposées)
cmd-deplacer = Orchidée, à la fin : déplacer les tuiles de la grande orchidée (sans option : le conseil du bot)
cmd-a = La tuile de votre grande orchidée à mettre sur la petite orchidée A
cmd-b = La tuile de votre grande orchidée à mettre sur la petite orchidée B
cmd-c = La tuile de votre grande orchidée à mettre sur la petite orchidée C

## prompt
prompt-place = Tuile { $round }/{ $rounds } : **{ $tile }**. Où la posez-vous ? Seules les positions libres sont proposées.
prompt-placeholder = Position ({ $first } … { $last })
prompt-fill = { $owner } vous a confié la tuile **{ $tile }** : choisissez une case de sa Déchetterie.
prompt-fill_placeholder = Déchetterie { ELISION($owner) ->
        [vowel] d'{ $owner }
       *[consonant] de { $owner }
    }
prompt-placed_round_closed = { $boards ->
        [1] C'est posé : la tuile suivante est annoncée dans le salon.
       *[other] Tout le monde a posé : la tuile suivante est annoncée dans le salon.
    }
prompt-placed_wait = Les autres joueurs ne verront votre tuile qu'à la fin du tour.
prompt-relocation =
    {"*"}*Grande orchidée** : { $tiles }.
    Meilleur déplacement : **{ $moves }** ({ $gain } { $gain ->
        [one] point
       *[other] points
    }).
prompt-relocation_empty = Votre grande orchidée est vide : il n'y a rien à déplacer.
prompt-relocation_placeholder = { $count ->
        [one] Déplacer une tuile…
       *[other] Déplacer { $count } tuiles…
    }
prompt-move = { $tile } en { $hole }
prompt-no_move = rien
prompt-option = { $moves } ({ $gain } { $gain ->
        [one] point
       *[other] points
    })
prompt-relocated = C'est noté : { $moves } ({ $gain } { $gain ->
        [one] point
       *[other] points
    }).
prompt-kept = C'est noté : vous ne déplacez rien.
prompt-game_boards = Partie { $game }/{ $games } : les plateaux et leurs scores.
prompt-serie = série de { $count } { $count ->
        [one] partie
       *[other] parties
    }

## position
position-nexus = { $position } — Nexus
position-orchidee = { $position } — Orchidée
position-dechetterie = { $position } — Déchetterie
position-big_orchid = { $position } — grande orchidée (déplaçable à la fin)
position-pass = { $position } — confier la tuile à { $holder } pour votre Déchetterie
position-fill = { $position } — Déchetterie { ELISION($owner) ->
        [vowel] d'{ $owner }
       *[consonant] de { $owner }
    }

## rules
rules-page_1 =
    {"*"}*Take it to the Limit — le but**
    Pour 1 joueur ou plus, chacun sur son plateau. Le bot est l'annonceur : il tire les tuiles d'un sac mélangé et annonce la même à tout le monde ; chacun la pose en secret sur son plateau, et la tuile suivante vient quand tous ont posé. Une tuile posée ne bouge plus et n'est jamais tournée. Le plus haut score gagne.
    Chaque tuile porte trois traits de couleur, un par direction, avec sa valeur : vertical (1 gris, 4 bleu, 9 jaune, 12 violet), diagonale ↗ (2 rose, 6 rouge, 7 vert, 11 blanc), diagonale ↘ (3 cerise, 5 turquoise, 8 orange, 10 noir).
rules-page_2 =
    {"*"}*Le plateau Nexus** (37 cases A1…G4) **et sa Déchetterie** (7 cases X1…X7) : 44 tuiles
    • Posez chaque tuile sur le Nexus ou dans la Déchetterie ; une fois un plateau plein, le reste va sur l'autre.
    • Un **alignement** complet (toute une ligne du plateau dans une direction) d'une seule couleur rapporte valeur × nombre de tuiles.
    • Tuile **bonus** (or 80, argent 40) : traversée par 3 alignements complets, bonus entier ; par 2, la moitié.
    • Le plus long **rayon** de soleils ou de lunes : 10 points par tuile (un seul rayon compte).
    • **Déchetterie** : elle vaut le meilleur de ses 3 meilleurs alignements, de ses 2 meilleurs bonus argent ou de son meilleur bonus or ; moins de 60 → −60 au score.
rules-page_3 =
    {"*"}*Le plateau Orchidée** (22 cases 1…22 et la grande orchidée O, qui prend 3 tuiles) : 25 tuiles, soleils seuls ou lunes seules (option `tuiles`)
    • Les alignements comptent comme sur le Nexus ; pas de rayon, pas de Déchetterie.
    • À la fin, vous pouvez déplacer les tuiles de la grande orchidée sur les petites orchidées A, B et C ; le bot calcule et propose le meilleur choix.
rules-page_4 =
    {"*"}*Commandes**
    • { COMMAND("limit start") } : plateau, variante, tuiles, paires, série, solo, joueurs IA, rythme, fil.
    • À chaque tuile annoncée, choisissez sa case avec le bouton sous le message (ou { COMMAND("limit placer") }).
    • { COMMAND("limit deplacer") } pour la grande orchidée à la fin ; { COMMAND("limit status") } pour qui n'a pas encore posé.
rules-page_5 =
    {"*"}*En paires, en série**
    • `paires` : deux joueurs par plateau (sièges 1 et 2, 3 et 4…) ; l'un ou l'autre pose la tuile annoncée, et les deux partenaires marquent le score du plateau.
    • `serie` : plusieurs parties de suite, avec un nouveau mélange à chaque fois ; les scores sont additionnés.
rules-variant_dechetterie-basse =
    {"*"}*Variante : la plus basse Déchetterie paie**
    La Déchetterie ne coûte plus 60 sous un seuil : la plus basse de la table paie 60 points (partagés en cas d'égalité).
rules-variant_passe-dechetterie =
    {"*"}*Variante : passez la Déchetterie**
    Votre voisin remplit votre Déchetterie : une tuile que vous y envoyez lui est confiée et c'est lui qui choisit la case. À la fin, la Déchetterie la plus haute paie.
rules-variant_sans-dechetterie =
    {"*"}*Variante : sans Déchetterie**
    37 tuiles, toutes sur le Nexus : idéal en solo.
rules-variant_orchidee-64 =
    {"*"}*Variante : Orchidée à 64 tuiles**
    Le plateau Orchidée avec toutes les tuiles, soleils et lunes ; les rayons comptent.

## meta
# the language of this catalog, passed to the renderers with their labels (render/catalog.py chooses plurals by it)
meta-lang = fr
