## name
name-title = Ludime

## error
error-no_word = Indiquez un mot.
error-not_letters = « { $word } » contient autre chose que des lettres : les mots composés (trait d'union, apostrophe) sont exclus.
error-not_a_word = { $word } n'est pas dans le dictionnaire.
error-too_short = { $word } est trop court : { $min } lettres au minimum.
error-first_word_short = Premier tour : votre mot doit avoir au moins { $min } lettres ({ $word } est trop court).
error-first_word_single = Premier tour : vous ne posez qu'un seul mot, d'au moins { $min } lettres (ou vous échangez des cartes).
error-first_turn_extend = Premier tour : vous ne pouvez que poser un seul mot d'au moins { $min } lettres, pas modifier un mot de la table.
error-missing_letter = Il vous manque la lettre { $letter } pour { $word }.
error-foreign_letter = { $letter } n'est pas une lettre du français : tapez { $word }, avec ou sans les accents du français (é, è, ê, à, ç, ô, î, ï, ù, û, œ…).
error-not_in_hand = Vous n'avez pas de { $letter } en main.
error-bad_letter = « { $letter } » n'est pas une lettre.
error-bad_source = On pioche dans la pioche ou la défausse, pas « { $source } ».
error-draw_first = Piochez d'abord une carte (pioche ou défausse).
error-already_drew = Vous avez déjà pioché ce tour-ci : posez vos mots puis défaussez une carte.
error-discard_first_turn = Au premier tour, on ne prend pas la défausse : piochez dans la pioche.
error-discard_returned = Vous avez reposé la défausse : piochez dans la pioche.
error-discard_empty = La défausse est vide.
error-discard_not_used = Vous avez pris le { $letter } de la défausse : vous devez l'utiliser dans un mot avant de finir votre tour (ou le reposer).
error-nothing_to_return = Vous n'avez pas de carte de la défausse à reposer.
error-no_such_word = Aucun mot « { $target } » sur la table.
error-must_keep_letters = { $word } doit garder toutes les lettres de { $old } (il manque { $letter }).
error-must_add_letter = { $word } doit ajouter au moins une de vos cartes à { $old }.
error-take_needs_word = Pour prendre { $word }, vous devez d'abord avoir un mot à vous sur la table : posez-en un nouveau.
error-take_too_early = Vous venez de poser votre premier mot : vous pourrez prendre { $word } au tour suivant.
error-exchange_first_turn_only = L'échange de cartes n'est permis qu'au premier tour de la manche.
error-exchange_after_word = Vous avez déjà posé votre mot : pas d'échange ce tour-ci.
error-already_exchanged = Vous avez déjà échangé des cartes ce tour-ci.
error-exchange_empty = Indiquez les lettres à échanger.
error-exchanged_this_turn = Vous avez échangé des cartes : vous poserez votre premier mot au prochain tour.
error-opening_length = Le premier mot doit avoir exactement { $length } lettres ({ $word } ne convient pas).
error-opening_single = Posez un seul mot de { $length } lettres pour ouvrir la manche.
error-one_word_only = Il n'y a qu'un mot sur la table ({ $word }) : ajoutez-y une lettre.
error-no_word_yet = Aucun mot sur la table pour l'instant.
error-must_add_one = Ajoutez une seule lettre à la fois : { $word } n'est pas { $old } plus une lettre.
error-declare_length = Votre mot doit utiliser toute votre main : { $length } lettres ({ $word } ne convient pas).
error-wrong_command = { $command } ne sert pas dans cette variante ({ $variant }). Utilisez : { $use }.
error-no_hand_here = Vous ne jouez dans aucune partie de Ludime en cours dans ce salon : il n'y a pas de main à vous montrer ici.

## event
event-die_rolled = 🎲 { $seat } lance le dé : { $die } → { $cards } { $cards ->
        [one] carte
       *[other] cartes
    } chacun.
event-dealt = 🃏 Manche { $round } : { $dealer } distribue { $cards } { $cards ->
        [one] carte
       *[other] cartes
    } à chacun.
event-turn = Au tour { ELISION($seat) ->
        [vowel] d'{ $seat }
       *[consonant] de { $seat }
    }.
event-drew = { $seat } pioche une carte.
event-took_discard = { $seat } prend le **{ $letter }** de la défausse.
event-drew_card = Vous piochez un **{ $letter }**.
event-pile_empty = La pioche est vide : pas de carte à piocher.
event-reshuffled = 🔀 La pioche est épuisée : la défausse est mélangée ({ $count } { $count ->
        [one] carte
       *[other] cartes
    }).
event-played = 📝 { $seat } pose **{ $word }** ({ $value } { $value ->
        [one] pt
       *[other] pts
    }).
event-lengthened = ➕ { $seat } allonge { $old } en **{ $word }** ({ $value } { $value ->
        [one] pt
       *[other] pts
    }).
event-took = 🏴 { $seat } prend { $old } à { $from_seat } et en fait **{ $word }** ({ $value } { $value ->
        [one] pt
       *[other] pts
    }).
event-exchanged = 🔁 { $seat } échange { $count } { $count ->
        [one] carte
       *[other] cartes
    }.
event-exchanged_cards = Vous rendez les lettres { $returned } et recevez { $received }.
event-returned = ↩️ { $seat } repose le { $letter } sur la défausse.
event-discarded = { $seat } se défausse d'un **{ $letter }**.
event-went_out = 🏁 { $seat } n'a plus de carte ! On finit le tour de table.
event-round_end = Fin de la manche { $round }.
event-round_void = Manche { $round } : personne ne marque.
event-scored = 🏆 { $seat } marque **{ $word }** : { $value } { $value ->
        [one] pt
       *[other] pts
    } (total { $score }).
event-game_over = 🏆 Vainqueur : { $winners } !
event-opened = 📝 { $seat } ouvre avec **{ $word }** ({ $value } { $value ->
        [one] pt
       *[other] pts
    }).
event-added = ➕ { $seat } ajoute { $letter } : **{ $word }** ({ $value } { $value ->
        [one] pt
       *[other] pts
    }).
event-passed = { $seat } finit son tour.
event-abandoned = { $seat } abandonne la manche.
event-opening_passed = { $seat } ne peut pas ouvrir : la main passe.
event-declared = 🎉 { $seat } abat toute sa main : **{ $word }** ({ $value } { $value ->
        [one] pt
       *[other] pts
    }) !
event-round_points = 📊 Points de la manche { $round } : { $points }.

## option
option-variant = variante

## variant
variant-main = Partie principale (3 manches)
variant-mot-unique = Un seul mot sur la table (premier à 100)
variant-main-entiere = Une main, un mot (premier à 100)

## label
label-hand = Ma main
label-table = Table
label-discard = Défausse
label-pile = Pioche
label-round = Manche
label-score = Score
label-scores = Scores
label-points = pts
label-cards = cartes
label-penalty = Pénalité
label-dealer = Donneur
label-turn = À jouer
label-first_turn = Premier tour : un mot de 6 lettres ou plus
label-must_use = À utiliser dans un mot
label-drawn = Piochée
label-giving = Rendues à la pioche
label-no_word = Aucun mot sur la table
label-last_round = Manche précédente
label-target = Objectif
label-abandoned = abandon
label-die = Dé
label-went_out = Plus de cartes : dernier tour de table
label-winner = Vainqueur
label-finished = Partie terminée
label-hand_text = Votre main : { $letters } ({ $points } { $points ->
        [one] pt
       *[other] pts
    })
label-hand_empty = Votre main est vide.
label-letter_option = { $letter } ({ $value } { $value ->
        [one] pt
       *[other] pts
    })
label-discard_placeholder = Choisissez la carte à défausser (fin du tour)
label-table_head = **Ludime** — partie n°{ $id }, manche { $round } : la table.
label-table_word = { $word } — { $owner }, { $value } { $value ->
        [one] pt
       *[other] pts
    }
label-table_empty = Aucun mot sur la table pour l'instant.
label-word_choice = { $word } — { $owner }, { $value } { $value ->
        [one] pt
       *[other] pts
    }

## button
button-hand = Ma main
button-draw_pile = Piocher
button-draw_discard = Prendre la défausse
button-discard = Se défausser
button-undo_take = Reposer la défausse
button-pass = Passer
button-abandon = Passer (abandonner la manche)
button-end_turn = Finir mon tour

## hint
hint-draw = À vous : piochez (« { $draw } », ou « { $discard } » pour l'utiliser dans un mot ce tour-ci).
hint-first = Premier tour : posez un mot d'au moins 6 lettres ({ COMMAND("ludime poser") }) ou échangez des cartes ({ COMMAND("ludime echanger") }), puis défaussez-vous.
hint-play = Posez des mots ({ COMMAND("ludime poser") }), allongez ou prenez-en ({ COMMAND("ludime allonger") }), puis défaussez-vous ci-dessous pour finir le tour.
hint-play_own = Posez des mots ({ COMMAND("ludime poser") }) ou allongez les vôtres ({ COMMAND("ludime allonger") }), puis défaussez-vous ci-dessous pour finir le tour. Vous pourrez prendre les mots des autres à partir de votre prochain tour.
hint-play_new = Posez des mots ({ COMMAND("ludime poser") }), puis défaussez-vous ci-dessous pour finir le tour. Pour allonger ou prendre un mot, il vous faut d'abord un mot à vous sur la table.
hint-must_use = Utilisez le { $letter } pris à la défausse dans un mot, ou reposez-le (« { $put_back } »).
hint-single_open = Ouvrez avec un mot de 3 lettres ({ COMMAND("ludime poser") }) ou passez.
hint-single_add = Ajoutez une lettre au mot ({ COMMAND("ludime ajouter") }), autant de fois que vous le pouvez, puis finissez votre tour ; passer sans rien ajouter abandonne la manche.
hint-whole_draw = Piochez, ou abattez votre main si elle forme un mot ({ COMMAND("ludime declarer") }).
hint-whole_play = Abattez votre main ({ COMMAND("ludime declarer") }) ou défaussez-vous ci-dessous.

## cmd
cmd-start = Ouvrir une partie de Ludime (jeu de lettres)
cmd-variant_name = variante
cmd-variant = Partie principale, un seul mot sur la table, ou une main un mot
cmd-ia = Nombre de joueurs IA à ajouter (0 à 3)
cmd-poser = Poser un ou plusieurs mots avec vos cartes
cmd-poser_mot = Le ou les mots, séparés par des espaces ou des virgules
cmd-allonger = Allonger votre mot, ou prendre celui d'un autre joueur en le modifiant
cmd-allonger_mot = Le mot de la table à modifier
cmd-allonger_nouveau = Le nouveau mot : toutes les lettres de l'ancien et au moins une des vôtres
cmd-echanger = Premier tour : échanger des cartes contre la pioche
cmd-echanger_lettres = Les lettres à rendre (par exemple : K W)
cmd-ajouter = Un seul mot : ajouter une de vos lettres au mot de la table
cmd-ajouter_mot = Le nouveau mot (l'ancien plus une lettre, dans l'ordre voulu)
cmd-declarer = Une main, un mot : abattre toute votre main en un seul mot
cmd-declarer_mot = Le mot formé avec toutes vos cartes
cmd-table = Montrer la table : chaque mot, son propriétaire et sa valeur
cmd-main = Voir votre main (en privé), à tout moment


## picture: counts and the colon as the language writes them
label-colon = {" : "}
label-cards_word = { $count ->
        [one] carte
       *[other] cartes
    }
label-points_word = { $count ->
        [one] pt
       *[other] pts
    }

## hints that follow the first turn's limits
hint-draw_pile_only = À vous : piochez (« { $draw } »).
hint-discard_only = Premier tour fait : défaussez-vous ci-dessous pour finir le tour.

## rules
rules-page_1 =
    {"*"}*Ludime — le but**
    Un jeu de lettres de 2 à 4 joueurs, avec 120 cartes lettres : une voyelle vaut 2 points, une consonne 3 points. On forme des mots français sur la table pour marquer leurs points.
    • Les mots viennent du dictionnaire du bot : accents ignorés ; noms propres, sigles, abréviations, onomatopées et mots composés exclus.
    • Trois façons de jouer (option `variante`) : la **partie principale**, **Un seul mot** et **Une main, un mot** ; chacune a sa page.
rules-page_2 =
    {"*"}*Commandes**
    • { COMMAND("ludime start") } : variante, joueurs IA, rythme, fil ; { COMMAND("ludime join") }, { COMMAND("ludime leave") }, { COMMAND("ludime cancel") }.
    • « Ma main » (ou { COMMAND("ludime main") }) montre vos cartes, à vous seulement, avec les actions possibles.
    • { COMMAND("ludime poser") }, { COMMAND("ludime allonger") }, { COMMAND("ludime echanger") }, { COMMAND("ludime ajouter") }, { COMMAND("ludime declarer") } selon la variante ; { COMMAND("ludime table") } montre les mots posés ; { COMMAND("ludime status") } les scores.
rules-variant_main =
    {"*"}*Partie principale** (3 manches, premier donneur au hasard)
    • Chacun reçoit 15 cartes ; le donneur commence. À votre tour : **piochez** une carte (la pioche, ou la carte du dessus de la défausse, seulement pour l'utiliser dans un mot ce tour-ci), **posez** si vous voulez, puis **défaussez** une carte pour finir le tour.
    • Premier tour : un seul mot d'au moins **6 lettres** ; sinon, échangez des cartes : vous poserez au tour suivant et toucherez aux mots des autres au tour d'après.
    • Ensuite : posez autant de mots de 3 lettres ou plus que vous voulez, **allongez** les vôtres, et **prenez** ceux des autres en les modifiant (toutes leurs lettres plus au moins une des vôtres, dans l'ordre que vous voulez), seulement si vous avez déjà un mot à vous sur la table.
    • Quand un joueur n'a plus de carte, on finit le tour de table. Chaque mot possédé rapporte ses points, chaque carte restée en main en coûte. Après 3 manches, le plus haut total gagne ; égalité : le mot le plus coté l'emporte.
rules-variant_mot-unique =
    {"*"}*Un seul mot** (premier à 100 points)
    • Chacun reçoit 12 cartes, le donneur 15 ; le donneur ouvre avec un mot de 3 lettres (ou passe, et la main passe au suivant).
    • À votre tour, ajoutez **une lettre** de votre main au mot de la table, dans l'ordre que vous voulez, pour former un nouveau mot ; vous pouvez enchaîner plusieurs ajouts, puis « Finir mon tour ». Passer sans rien ajouter vous fait abandonner la manche.
    • Quand plus personne ne peut jouer, le dernier à avoir modifié le mot marque ses points. Le premier à 100 points gagne.
rules-variant_main-entiere =
    {"*"}*Une main, un mot** (premier à 100 points)
    • Un dé fixe la taille des mains, de 5 à 10 cartes.
    • À votre tour, piochez une carte puis défaussez-en une.
    • Le premier qui forme un mot avec **toute sa main** l'abat ({ COMMAND("ludime declarer") }) et marque ses points. Le premier à 100 points gagne.
