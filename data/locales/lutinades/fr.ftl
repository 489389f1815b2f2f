## name
name-title = Lutinades



## option
option-variante = Variante

## variant
variant-standard = Standard
variant-lutins-malins = Lutins malins
variant-en-grand = Voir les choses en grand

## gesture
gesture-up = Vers le haut
gesture-down = Vers le bas
gesture-horizontal = À l'horizontale
gesture-small = De petite taille

## side
side-left = Gauche
side-right = Droite

## side_button
side_button-left = ma gauche
side_button-right = ma droite

## role
role-picker = Cueilleur
role-lutin = Lutin

## label
label-deck = Pioche
label-discard = Défausse
label-turn = Tour { $turn }
label-picker = Cueilleur
label-mushrooms = Champignons
label-waiting = réfléchit…
label-chosen = a choisi
label-ignored = ignoré
label-followed = suivi
label-revealed_card = Carte révélée au tour { $turn }
label-hidden_card = Carte cachée
label-see_card = Voir la carte
label-call = Lutins, vauriens, rendez-moi mon chemin !
label-small_forbidden = Geste « de petite taille » interdit : le lutin qui l'utilise est ignoré et rend un champignon.
label-mirror_hint = Vous faites face au cueilleur : votre gauche est sa droite.
label-card_for_picker = Vous êtes le cueilleur : vous ne pouvez pas voir la carte avant d'avoir choisi.
label-how_to = Lutins : « Voir la carte » pour la regarder (visible des lutins seulement), puis faites votre geste avec les boutons.
label-first_picker = Premier tour : c'est à { $picker } de cueillir.
label-your_card = Tour { $turn } — la carte, visible des lutins seulement : **{ $kind }** (gros chiffre { $big }, petit chiffre { $small }).
label-your_card_side = Tour { $turn } — la carte, visible des lutins seulement : **{ $kind }**, le panneau pointe **{ $side }** (gros chiffre { $big }, petit chiffre { $small }). Pour montrer ce côté au cueilleur, qui vous fait face : « { $button } ».
label-your_gesture = Votre geste pour ce tour : **{ $gesture }**.
label-gesture_recorded = Geste enregistré pour le tour { $turn } : **{ $gesture }**. Il reste secret jusqu'à ce que tous les lutins aient choisi.
label-gesture_line = • { $seat } : **{ $gesture }**
label-gesture_line_ignored = • { $seat } : **{ $gesture }** — ignoré (geste interdit)
label-gesture_with_side = { $gesture }, { $side }
label-card_revealed = Le panneau : **{ $kind }**.
label-card_revealed_side = Le panneau : **{ $kind }**, { $side }.
label-options = variante : { $variant }
label-followed_auto = 🤖 Suivi automatique : { $picker } suit { $lutin }, le seul lutin qui peut être suivi (les autres ont fait le geste interdit).
label-forbidden_warning = ⚠️ Tour { $turn } : le geste « { $gesture } » est interdit dans « Voir les choses en grand ». Si vous le confirmez, votre geste sera ignoré (le cueilleur ne pourra pas vous suivre) et vous rendrez à la pioche votre dernier champignon gagné (si vous en avez un). Confirmez-le ci-dessous, ou choisissez un autre geste.

## outcome
outcome-unanimous = Tous les lutins ont fait le même geste : { $picker } cueille { $big } { $big ->
        [one] champignon
       *[other] champignons
    }, les lutins rien.
outcome-match = Bon chemin ! { $picker } cueille { $big } { $big ->
        [one] champignon
       *[other] champignons
    } et { $lutin } { $small }.
outcome-mismatch = { $lutin } a égaré { $picker } : { $lutin } prend { $small } { $small ->
        [one] champignon
       *[other] champignons
    }, le cueilleur rien.
outcome-wrong_side = { $lutin } a montré le mauvais côté : { $picker } cueille { $big } { $big ->
        [one] champignon
       *[other] champignons
    }, { $lutin } rien.

## error
error-picker_cannot_gesture = Vous êtes le cueilleur : ce sont les lutins qui font des gestes.
error-gestures_closed = Les gestes de ce tour sont déjà révélés.
error-already_chosen = Vous avez déjà fait votre geste pour ce tour.
error-unknown_gesture = Geste inconnu « { $gesture } » (gestes possibles : { $allowed }).
error-side_required = Variante lutins malins : indiquez aussi le côté (gauche ou droite).
error-bad_side = Côté inconnu « { $side } » (côtés possibles : { $allowed }).
error-no_side = Le côté (gauche ou droite) ne compte que dans la variante lutins malins.
error-not_picker = Seul le cueilleur choisit le lutin à suivre.
error-gestures_pending = Les lutins n'ont pas encore tous choisi leur geste ({ $missing } en attente).
error-not_a_lutin = « { $lutin } » n'est pas un lutin de cette partie.
error-follow_self = Vous êtes le cueilleur : suivez l'un des lutins, pas vous-même.
error-follow_ignored = { $lutin } a fait le geste interdit « de petite taille » : ce geste est ignoré, vous ne pouvez pas suivre ce lutin.
error-stale_turn = Ce bouton date du tour { $turn } ; la partie en est au tour { $current }. Utilisez le dernier message de la partie.
error-too_few_left = Il resterait moins de { $min } joueurs : la partie ne peut pas continuer sans ce joueur.
error-removed = Les autres joueurs ont voté votre retrait de cette partie : vous n'y jouez plus.

## button
button-follow = Suivre { $lutin } ({ $gesture })
button-gesture_side = { $gesture } · { $side }
button-forbidden = { $gesture } (interdit)
button-confirm_forbidden = Confirmer ce geste interdit

## side_seen
side_seen-left = vers la gauche du cueilleur
side_seen-right = vers la droite du cueilleur

## side_card
side_card-left = vers la gauche
side_card-right = vers la droite

## cmd
cmd-start = Ouvrir une partie de Lutinades (bluff, 3 à 7 joueurs)
cmd-variante = Variante : standard, lutins malins ou voir les choses en grand
cmd-ia = Nombre de joueurs IA à ajouter (0 à 6)
cmd-niveau = Niveau de l'IA

## event
event-turn = Tour { $turn } : c'est à { $picker } de cueillir. Lutins, vauriens, rendez-lui son chemin ! ({ $deck } { $deck ->
        [one] carte
       *[other] cartes
    } dans la pioche)
event-gesture_chosen = { $waiting ->
        [0] { $seat } a fait son geste.
       *[other] { $seat } a fait son geste ({ $waiting } { $waiting ->
            [one] lutin en attente
           *[other] lutins en attente
        }).
    }
event-gestures_revealed = Tous les lutins ont fait leur geste : les voici !
event-ignored = { $seat } a fait le geste interdit : ce geste est ignoré, et { $seat } rend { $returned } { $returned ->
        [one] champignon
       *[other] champignons
    } à la pioche ({ $mushrooms } { $mushrooms ->
        [one] restant
       *[other] restants
    }).
event-reshuffled = La pioche est mélangée ({ $deck } { $deck ->
        [one] carte
       *[other] cartes
    }).
event-choose = { $picker }, quel lutin suivez-vous ?
event-followed = { $picker } suit { $lutin }.
event-revealed = La carte est révélée (gros chiffre { $big }, petit chiffre { $small }).
event-gained = { $count ->
        [0] La pioche est épuisée : { $seat } ne cueille rien.
       *[other] La pioche s'épuise : { $seat } ne cueille que { $count } { $count ->
            [one] champignon
           *[other] champignons
        } sur { $wanted }.
    }
event-game_over = La pioche est vide.
event-turn_abandoned = Le tour { $turn } est abandonné sans cueilleur : sa carte est défaussée sans compter (gros chiffre { $big }, petit chiffre { $small }).

## totals after a turn (the outcome line has said what each one picked)
label-totals = 🍄 Champignons en tout : { $totals }

## merged from main
side_short-left = ←
side_short-right = →

## rules
rules-page_1 =
    {"*"}*Lutinades — le but**
    De 3 à 7 joueurs, bluff et champignons. À chaque tour, un joueur est le **cueilleur** ; les autres sont les **lutins**. Le plus de champignons à la fin gagne.
    La carte du dessus de la pioche est retournée : seuls les lutins la voient (bouton « Voir la carte »), jamais le cueilleur. Son panneau montre un geste, et deux chiffres : le gros et le petit.
rules-page_2 =
    {"*"}*Un tour**
    • Chaque lutin choisit en secret un geste — **vers le haut**, **vers le bas**, **à l'horizontale** ou **de petite taille** — vrai ou faux. Quand tous ont choisi, les gestes sont montrés et le cueilleur **suit** un lutin ; puis la carte est révélée :
    • le geste du lutin suivi correspond au panneau : le cueilleur prend le **gros chiffre** de champignons, le lutin le **petit** ;
    • il ne correspond pas : le lutin prend le **petit chiffre**, le cueilleur rien ;
    • tous les lutins ont fait le même geste : le cueilleur prend le **gros chiffre**, les lutins rien (pas de choix à faire).
rules-page_3 =
    {"*"}*La pioche et la fin**
    • Les champignons sont des cartes prises dans la pioche ; si elle s'épuise, le cueilleur se sert en premier.
    • La carte révélée est défaussée et le rôle de cueilleur passe au joueur suivant.
    • La partie s'arrête quand la pioche est vide (ou qu'il n'y reste qu'une carte).
    • Sur l'image, à côté de chaque joueur : son geste du tour en cours et celui du tour précédent.
rules-variant_lutins-malins =
    {"*"}*Variante : lutins malins**
    Le lutin montre aussi le côté vers lequel pointe le panneau, tel que le cueilleur le voit : en face de lui, **votre** gauche est la droite du cueilleur ! Un lutin suivi qui se trompe de côté donne le gros chiffre au cueilleur et ne gagne rien.
rules-variant_en-grand =
    {"*"}*Variante : voir les choses en grand**
    Le geste « de petite taille » est interdit : le lutin qui l'utilise est ignoré (on ne peut pas le suivre) et rend un de ses champignons à la pioche, qui est mélangée.
