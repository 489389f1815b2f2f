## name
name-title = Range ta Ludothèque


## error
error-missing_round = Action sans numéro de manche : on en est à la manche { $current }.
error-stale_round = Ce placement visait la manche { $round }, mais on en est à la manche { $current } : rien n'a changé, choisissez à nouveau.
error-already_placed = Vous avez déjà rangé votre boîte de la manche { $round } : attendez les autres joueurs.
error-bad_dice = Attribution des dés invalide ({ $dice }) : il faut un dé pour la taille, un pour la catégorie et un pour la mécanique (0, 1 et 2, chacun une fois).
error-bad_dice_typed = « { $typed } » n'est pas une attribution des dés : choisissez-en une dans la liste que propose l'option « des » (un dé pour la taille, un pour la catégorie, un pour la mécanique).
error-bad_orientation = Orientation inconnue « { $orientation } » : horizontale ou verticale.
error-bad_cell = « { $cell } » n'est pas une case de la kallax (de A1 en bas à gauche à F6 en haut à droite).
error-outside = Posée en { $cell }, la boîte dépasse de la kallax (case { $over }).
error-crosses_cubby = Posée en { $cell }, la boîte traverse la paroi du casier { $cubby } (la case { $over } est dans un autre casier).
error-overlap = Posée en { $cell }, la boîte chevauche la case { $over }, déjà occupée.
error-unsupported = Posée en { $cell }, la boîte serait en l'air : rien ne soutient la case { $over } (ni tablette ni jeu en dessous).
error-must_place = Il reste de la place (par exemple un tapis en { $cell }) : vous ne pouvez pas passer.
error-bad_choice = Ce choix n'est pas valide (« { $choice } ») : repars du message de la manche ou de { COMMAND("ranta placer") }.
error-not_in_game = { $player } ne joue pas dans la partie n°{ $game }.
error-too_few_left = Il resterait moins de { $min } joueur : la partie ne peut pas continuer sans ce joueur.
error-removed = Les autres joueurs ont voté votre retrait de cette partie : vous n'y jouez plus.

## event
event-placed = { $waiting ->
        [0] { $seat } a fini de ranger pour la manche { $round }.
       *[other] { $seat } a fini de ranger pour la manche { $round } ({ $waiting } { $waiting ->
            [one] joueur en attente
           *[other] joueurs en attente
        }).
    }
event-passed = { $seat } a une kallax pleine et passe la manche { $round }.
event-box_placed = Vous avez rangé { $category ->
        [T] un casse-tête
        [A] un jeu d'adresse
        [C] un jeu de cartes
        [P] un jeu de plateau
        [F] un jeu de figurines
        [R] un jeu de rôle
       *[other] un jeu
    } { $symbol } de { $size } { $size ->
        [one] case
       *[other] cases
    } en { $cell }.
event-mat_placed = Vous avez posé un tapis en { $cell }.
event-round_closed = { $players ->
        [1] Manche { $round } terminée.
       *[other] Manche { $round } terminée : toutes les kallax sont révélées, les voici.
    }
event-rolled = Manche { $round } : les dés donnent { $d1 }, { $d2 } et { $d3 }.
event-game_over = Voici les kallax et leurs scores.
event-seat_removed = 🚪 La partie continue sans { $seat } : son kallax reste tel quel.

## mode
mode-classique = Classique
mode-expert = Expert

## orientation
orientation-horizontal = Horizontale
orientation-vertical = Verticale

## category
# The letter drawn on a box and in the legend (the category's initial in each language)
code-T = T
code-A = A
code-C = C
code-P = P
code-F = F
code-R = R
category-T = Casse-tête
category-A = Jeu d'adresse
category-C = Jeu de cartes
category-P = Jeu de plateau
category-F = Jeu de figurines
category-R = Jeu de rôle

## mechanic
mechanic-bluff = Bluff
mechanic-deduction = Déduction
mechanic-deck_building = Deck building
mechanic-programming = Programmation
mechanic-memory = Mémorisation
mechanic-secret_role = Rôle secret

## why
why-category_group = groupes de catégories
why-mechanic_group = groupes de mécaniques
why-empty_cells = cases vides
why-full_cubby = casiers pleins
why-category_T = casse-tête
why-category_A = adresse
why-category_C = cartes
why-category_P = plateau
why-category_F = figurines
why-category_R = jeu de rôle
why-mechanic_bluff = bluff
why-mechanic_deduction = déduction
why-mechanic_deck_building = deck building
why-mechanic_programming = programmation
why-mechanic_memory = mémorisation
why-mechanic_secret_role = rôle secret

## rule
rule-category_group = Groupe { $name } : { $games } jeux
rule-mechanic_group = Groupe { $name } : { $games } jeux
rule-empty_cells = { $empty } { $empty ->
        [one] case vide
       *[other] cases vides
    }
rule-full_cubby = Casier { $cubby } plein : { $games } { $games ->
        [one] jeu
       *[other] jeux
    } × 2
rule-category_T = Casse-tête : casier sans point commun
rule-category_A = Adresse : pas sur la tablette
rule-category_C = Cartes : autres jeux de cartes du casier
rule-category_P = Plateau : rangé à l'horizontale
rule-category_F = Figurines : boîte de 6 cases
rule-category_R = Jeu de rôle : rangé à la verticale
rule-mechanic_bluff = Bluff : voisins avec un point commun
rule-mechanic_deduction = Déduction : boîte de 2 cases
rule-mechanic_deck_building = Deck building : autres jeux du casier
rule-mechanic_programming = Programmation : voisins programmation
rule-mechanic_memory = Mémorisation : jeux de mémoire (max 3)
rule-mechanic_secret_role = Rôle secret : le seul de la kallax

## label
label-round = Manche { $round }/{ $rounds }
label-dice = Manche { $round }/{ $rounds } : les dés
label-total = Total
label-size = Taille
label-category = Catégorie
label-mechanic = Mécanique
label-mat = Tapis (1 case, 0 point)
label-hidden = Encadré jaune : votre boîte de cette manche, visible de vous seulement jusqu'à la fin de la manche.
label-preview = Aperçu : la boîte irait ici.
label-preview_mat = Aperçu : le tapis irait ici.
label-final = Fin de partie
label-cells = { $size } { $size ->
        [one] case
       *[other] cases
    }
label-box = Boîte
label-mat_choice = Tapis
label-position = Case (en bas à gauche)
label-assignment = { $size } { $size ->
        [one] case
       *[other] cases
    } · { $category } · { $symbol } { $mechanic }
label-waiting = En attente : { $players }
label-everyone_placed = Tout le monde a rangé.
label-box_choice = { $assignment } · { $orientation } ({ $width } × { $height })
label-cell_choice = { $cell } (cases { $cells })

## cmd
cmd-start = Ouvrir une partie de Range ta Ludothèque (roll & write simultané)
cmd-mode = Décompte : classique (groupes) ou expert (effets de chaque jeu)
cmd-solo = Jouer seul : la partie commence tout de suite
cmd-ia = Nombre de joueurs IA à ajouter (0 à 7)
cmd-niveau = Niveau de l'IA
cmd-placer = Ranger un jeu dans votre kallax (aperçu avant de confirmer)
cmd-des = Attribution des dés : taille · catégorie · mécanique
cmd-orientation = Orientation de la boîte
cmd-case = Case en bas à gauche de la boîte
cmd-tapis = Poser un tapis d'une case (aperçu avant de confirmer)
cmd-tapis_case = Case du tapis
cmd-kallax = Voir votre kallax, ou celle d'un autre joueur (sans sa boîte de la manche en cours)
cmd-joueur = Le joueur ou la joueuse dont vous voulez voir la kallax (vous par défaut)

## option
option-mode = mode

## button
button-mine = Ma kallax
button-box = Ranger un jeu
button-mat = Poser un tapis
button-confirm = Confirmer
button-discard = Annuler

## prompt
prompt-pick_box = **Manche { $round }** : choisissez le jeu (attribution des dés) et son orientation.
prompt-pick_cell = **Manche { $round }** : { $box }. Choisissez la case en bas à gauche de la boîte.
prompt-pick_mat = **Manche { $round }** : choisissez la case du tapis.
prompt-no_box_fits = **Manche { $round }** : aucun jeu ne rentre dans votre kallax avec ces dés. Posez un tapis :
prompt-preview_box = **Aperçu, manche { $round }** : { $box }, en { $cell } (cases { $cells }). Confirmer ?
prompt-preview_mat = **Aperçu, manche { $round }** : un tapis en { $cell }. Confirmer ?
prompt-preview_score = Score : { $before } → { $after } ({ $sign }{ $delta } { $delta ->
        [one] point
       *[other] points
    }).
prompt-preview_why = Pourquoi : { $reasons }
prompt-confirmed = C'est rangé ! Les autres joueurs ne le verront qu'à la fin de la manche { $round }.
prompt-full = **Manche { $round }** : votre kallax est pleine, vous passez cette manche. Confirmer ?
prompt-confirmed_closed = { $players ->
        [1] C'est rangé ! La manche { $round } est terminée.
       *[other] C'est rangé ! Tout le monde a rangé : la manche { $round } est terminée et les kallax sont révélées.
    }
prompt-confirmed_pass = Votre kallax est pleine : vous passez la manche { $round }.
prompt-discarded = Rien n'a été rangé : choisissez à nouveau quand vous voulez.
prompt-sheet_of = Kallax { ELISION($player) ->
        [vowel] d'{ $player }
       *[consonant] de { $player }
    } (partie n°{ $id }) ; sa boîte de la manche en cours reste cachée jusqu'à la fin de la manche.
prompt-placeholder_box = Jeu et orientation
prompt-placeholder_cell = Case en bas à gauche
prompt-placeholder_mat = Case du tapis

## rules
rules-page_1 =
    {"*"}*Range ta Ludothèque — le but**
    Un roll & write pour 1 joueur ou plus : en 12 manches, rangez votre ludothèque dans votre **kallax**, un meuble de 2 × 2 casiers de 3 × 3 cases (A1 en bas à gauche, F6 en haut à droite). Tout le monde joue en même temps, avec les mêmes dés.
    • Le plus haut score gagne ; égalité : le moins de cases vides l'emporte.
rules-page_2 =
    {"*"}*Une manche**
    Le bot lance 3 dés, les mêmes pour tous. Chacun, en secret, attribue :
    • un dé à la **taille** : 1-2 → 2 cases, 3-4 → 3 cases, 5-6 → 6 cases (2 × 3) ;
    • un dé à la **catégorie** : 1 T casse-tête, 2 A adresse, 3 C cartes, 4 P plateau, 5 F figurines, 6 R jeu de rôle ;
    • un dé à la **mécanique** : 1 ☾ bluff, 2 ☆ déduction, 3 ♣ deck building, 4 ⚙ programmation, 5 ♥ mémorisation, 6 ☠ rôle secret.
    Choisissez l'orientation (horizontale ou verticale) et la case en bas à gauche : la boîte tient dans un seul casier, sans chevaucher, posée sur l'étagère ou sur d'autres boîtes ou tapis. À la place, on peut toujours poser un **tapis** d'une case (il remplit sans rien rapporter). Ce que vous rangez reste caché jusqu'à la fin de la manche.
rules-page_3 =
    {"*"}*Décompte classique**
    • Pour chaque catégorie et chaque mécanique : le plus grand groupe de jeux voisins (un côté commun, même d'un casier à l'autre) qui la partagent rapporte 1 point par jeu s'il en compte au moins 2. Les tapis ne comptent pas.
    • −1 point par case vide.
rules-page_4 =
    {"*"}*Décompte expert** : chaque jeu marque sa catégorie et sa mécanique
    • T : autant de points que de jeux dans son casier, si aucun jeu du casier n'a rien en commun avec un autre · A : 2 points s'il ne touche pas le bas de son casier · C : 1 point par autre jeu de cartes du casier · P : 1 point s'il est couché · F : 1 point si la boîte fait 6 cases · R : 1 point s'il est debout.
    • ☾ : 1 point par jeu voisin qui a quelque chose en commun avec lui · ☆ : 1 point si la boîte fait 2 cases · ♣ : 1 point par jeu du casier qui n'est pas un deck building · ⚙ : 1 point par jeu de programmation voisin · ♥ : 1 point par jeu de mémorisation de la kallax (3 au plus) · ☠ : 5 points s'il est le seul jeu à rôle secret.
    • Puis +2 points par jeu dans chaque casier entièrement rempli, et −1 point par case vide.
rules-page_5 =
    {"*"}*Commandes**
    • { COMMAND("ranta start") } : mode (classique ou expert), solo, joueurs IA, rythme, fil.
    • À chaque manche, sous le message des dés : **Ranger un jeu**, **Poser un tapis** et **Ma kallax** ; ou { COMMAND("ranta placer") } et { COMMAND("ranta tapis") }. Seuls les choix permis sont proposés, avec un aperçu de votre kallax et du score avant de confirmer.
    • { COMMAND("ranta kallax") } montre votre kallax ou celle d'un autre joueur (sans sa boîte de la manche en cours) ; { COMMAND("ranta status") } dit qui n'a pas encore rangé.

## meta
# the language of this catalog, passed to the renderers with their labels (render/catalog.py chooses plurals by it)
meta-lang = fr
