## name
name-title = L'Invincible Armada


## side
side-spain = Espagne
side-england = Angleterre

## option
option-plateau = plateau
option-11x11 = 11 × 11 intersections (plateau de 10 × 10 cases, bords compris)
option-10x10 = 10 × 10 intersections
option-9x9 = 9 × 9 intersections (sans les bords)

## error
error-missing_point = Il manque l'intersection (« { $field } »).
error-bad_point = « { $point } » n'est pas une intersection du plateau (de A1 en bas à gauche à { $last } en haut à droite).
error-occupied = L'intersection { $point } est déjà occupée.
error-spain_reserve_empty = Vos { $fleet } navires sont tous posés : déplacez-en un avec { COMMAND("armada deplacer") } `de: vers:` (le navire à lever, puis sa nouvelle intersection).
error-reserve_empty = Vous n'avez plus de navire en réserve.
error-reserve_left = Il vous reste { $count } { $count ->
        [one] navire
       *[other] navires
    } à poser : vous ne pouvez déplacer un navire qu'une fois les 20 posés.
error-move_spain_only = Seule l'Espagne déplace ses navires ; l'Angleterre pose ({ COMMAND("armada placer") }) ou pivote ({ COMMAND("armada pivoter") }).
error-pivot_england_only = Seule l'Angleterre peut pivoter ; l'Espagne pose (ou déplace) un navire.
error-not_your_ship = Il n'y a pas de navire à vous en { $point }.
error-same_point = Le navire est déjà en { $point } : choisissez une autre intersection.
error-fleet_full = Vous avez déjà { $limit } navires sur le plateau : faites pivoter un navire d'un ensemble avec { COMMAND("armada pivoter") } `de: vers:`.
error-three_aligned = En { $point }, vous aligneriez trois navires anglais ({ $line }) : deux au plus.
error-must_pair = Vos 4 navires sont libres : le 5e doit former un ensemble, à côté de l'un d'eux ({ $point } ne touche aucun de vos navires).
error-not_in_pair = Le navire en { $point } ne fait partie d'aucun ensemble : seul un navire d'un ensemble peut pivoter.
error-not_a_pivot = Le navire en { $point } ne peut pas aller en { $to } : il doit tourner autour de son voisin, sur une intersection voisine de celui-ci.
error-capture_pending = Choisissez d'abord le navire à prendre : { $choices }.
error-no_capture_pending = Il n'y a aucune prise à choisir.
error-not_a_target = Impossible de prendre { $point } avec ce coup (prises possibles : { $choices }).
error-cannot_pass = Vous avez un coup possible : vous ne pouvez pas passer.
error-not_your_button = Ce bouton de confirmation ne vous est pas destiné.

## event
event-placed = ⚓ { $seat } pose un navire en { $point }.
event-moved = ⛵ { $seat } déplace un navire de { $from } en { $to }.
event-pivoted = 🔄 { $seat } fait pivoter le navire de { $from } en { $to } autour de { $around }.
event-captured = 💥 { $seat } prend le navire en { $point } ({ $total }/{ $needed } prises).
event-capture_pending = 🎯 { $seat } peut prendre un navire au choix : { $choices }.
event-passed = { $seat } n'a aucun coup possible et passe.
event-turn = Au tour { ELISION($seat) ->
        [vowel] d'{ $seat }
       *[consonant] de { $seat }
    }.
event-round_over = 🏁 Fin de la manche { $round } : { $winner } l'emporte ({ $spain_captures } { $spain_captures ->
        [one] prise espagnole
       *[other] prises espagnoles
    }, { $england_captures } { $england_captures ->
        [one] anglaise
       *[other] anglaises
    }) et marque { $points } { $points ->
        [one] point
       *[other] points
    }.
event-round_drawn = 🏁 Manche { $round } arrêtée après { $limit } coups sans vainqueur ({ $spain_captures } prises de chaque côté) : aucun point.
event-round_started = 🔔 Manche { $round } : { $spain_seat } joue l'Espagne (rouge), { $england_seat } l'Angleterre (blanc). L'Espagne commence.
event-tiebreak = ⚖️ Égalité après deux manches : manche décisive, avec les rôles de la première manche.
event-resigned = 🏳️ { $seat } abandonne.
event-game_over = 🏆 Vainqueur : { $winners } !
event-game_drawn = 🤝 Partie nulle !
event-sides_swapped = 🔄 Changement de camp : les rôles s'inversent.

## label
label-round = Manche { $round }
label-tiebreak = Manche décisive
label-spain = Espagne
label-england = Angleterre
label-captures = Prises
label-score = Points
label-reserve = Réserve
label-on_board = En mer
label-turn = À jouer
label-range = Portée { $range }
label-must_move = Déplacement
label-must_pivot = Pivot obligatoire
label-must_pair = 5e navire : ensemble obligatoire
label-must_pass = Aucun coup possible : passer
label-choose_capture = Prise à choisir
label-final = Position finale
label-over = Partie terminée
label-winner = Vainqueur : { $name }

## button
button-place = Placer
button-pivot = Pivoter
button-move = Déplacer
button-capture = Prendre { $point }
button-resign = Abandonner
button-keep = Continuer la partie
button-pass = Passer

## cmd
cmd-start = Ouvrir une partie de L'Invincible Armada (2 joueurs)
cmd-plateau = Taille du plateau (11 × 11 intersections par défaut)
cmd-placer = Poser un navire sur une intersection
cmd-point = Intersection (ex. C4)
cmd-pivoter = Faire pivoter un navire anglais autour de son voisin
cmd-de = Navire qui pivote
cmd-vers = Intersection d'arrivée
cmd-adversaire = Contre qui jouer : un autre joueur (par défaut) ou le bot
cmd-vs_player = Un autre joueur (salon d'attente)
cmd-vs_bot = Le bot (la partie commence tout de suite)
cmd-niveau = Niveau de l'IA
cmd-deplacer = Déplacer un navire espagnol (une fois les 20 posés)
cmd-deplacer_de = Navire espagnol à lever
cmd-deplacer_vers = Intersection libre où le reposer
cmd-abandon = Abandonner la partie (votre adversaire la gagne)

## ui
ui-hint_spain_place = ➡️ Espagne : posez un navire avec { COMMAND("armada placer") } `point:`.
ui-hint_spain_move = ➡️ Espagne : les 20 navires sont posés ; déplacez-en un (bouton « Déplacer »).
ui-hint_england_place = ➡️ Angleterre : posez un navire avec { COMMAND("armada placer") } `point:`.
ui-hint_england_any = ➡️ Angleterre : posez un navire ({ COMMAND("armada placer") } `point:`) ou faites pivoter un navire d'un ensemble ({ COMMAND("armada pivoter") } `de: vers:`).
ui-hint_england_pivot = ➡️ Angleterre : 5 navires en mer, faites pivoter un navire d'un ensemble (bouton « Pivoter »).
ui-hint_capture = 🎯 Choisissez le navire à prendre avec les boutons ci-dessous.
ui-hint_pass = ⛔ Aucun coup possible : cliquez sur « Passer ».
ui-pivot_choice = { $to } (autour de { $around })
ui-resign_confirm = Abandonner la partie n°{ $id } ? { $opponent } la gagnera, quels que soient les points.
ui-resign_done = Vous avez abandonné la partie n°{ $id }.
ui-resign_kept = La partie n°{ $id } continue.

## form
form-title_place = Poser un navire
form-title_move = Déplacer un navire
form-title_pivot = Faire pivoter un navire
form-placeholder = Choisissez…
form-ship = Navire à lever
form-points = Intersections de { $first } à { $last }
form-points_one = Intersection { $point }
form-pivots = Navires de { $first } à { $last }
form-pivots_one = Navire { $ship }
form-pivot = { $from } → { $to } (autour de { $around })
form-pick_one = Choisissez un pivot, un seul, dans une des listes.
form-incomplete = Choisissez une intersection, une seule, dans une des listes (et, pour un déplacement, le navire à lever).
form-not_now = « { $move } » n'est pas un coup permis à ce tour : utilisez un autre bouton du plateau.

## rules
rules-page_1 =
    {"*"}*L'Invincible Armada — le but**
    2 joueurs, 2 manches : chacun joue une fois l'Espagne (20 navires rouges) et une fois l'Angleterre (20 navires blancs).
    • Les navires se posent sur les **intersections** (A1 en bas à gauche, K11 en haut à droite sur le plateau 11 × 11). L'Espagne commence ; un navire par tour.
    • La manche s'arrête à **11 prises** ; le vainqueur marque 11 moins les prises du perdant. Après deux manches, le plus haut total gagne ; en cas d'égalité, une 3e manche se joue comme la première.
rules-page_2 =
    {"*"}*L'Espagne**
    • Une ligne droite ininterrompue de navires espagnols (horizontale, verticale ou diagonale) a une **portée** égale à son nombre de navires.
    • Quand le navire posé forme ou prolonge une ligne, l'Espagne prend **un** navire anglais dans l'alignement, à portée au-delà d'un des bouts (elle choisit s'il y en a plusieurs ; aucun navire ne fait écran).
    • Une fois ses 20 navires posés, elle en déplace un n'importe où à chaque tour.
rules-page_3 =
    {"*"}*L'Angleterre**
    • Jamais plus de 5 navires sur le plateau, jamais 3 alignés. Deux navires voisins forment un **ensemble** ; avec 4 navires libres, le 5e doit former un ensemble.
    • Au lieu de poser, on peut **pivoter** un navire d'un ensemble autour de l'autre (sur une des 7 autres intersections voisines) ; à 5 navires, il faut pivoter.
    • Un ensemble prend le navire espagnol situé juste au bout de son alignement, quand le navire posé ou pivoté le forme ainsi.
rules-page_4 =
    {"*"}*Commandes**
    • { COMMAND("armada start") } : contre un joueur ou le bot, niveau du bot, taille du plateau, rythme, fil.
    • { COMMAND("armada placer") } `point:`, { COMMAND("armada deplacer") } `de: vers:` (l'Espagne, une fois ses 20 navires posés), { COMMAND("armada pivoter") } `de: vers:` ; quand plusieurs prises sont possibles, des boutons « Prendre … » sous le plateau.
    • { COMMAND("armada status") }, { COMMAND("armada abandon") } pour abandonner.
