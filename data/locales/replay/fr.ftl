# Replays (issue 27): the move-by-move viewer of /historique, the animated summary, « Partager ».

## the viewer
viewer-head = **{ $game }** — partie n°{ $id } ({ $players }) — { $status }
viewer-finished = terminée { $when }
viewer-running = en cours : { $total ->
        [one] { $total } coup joué
       *[other] { $total } coups joués
    } jusqu'ici
viewer-start = Début de la partie.
viewer-position = **Coup { $n } sur { $total }** · { $group }
viewer-position_start = **Position de départ**
viewer-move = **Coup { $n } sur { $total }**
viewer-tile = **Tuile { $round } sur { $rounds }**
viewer-end = fin de la partie
viewer-secret = (coup secret : rien de visible à la table)
viewer-by_timeout = (délai dépassé : coup par défaut)
viewer-no_picture = (pas d'image pour cette position)
group-round = Manche { $round }
group-turn = Tour { $round }
group-moves = Coups { $first } à { $last }
group-move = Coup { $n }
group-tile = Tuile { $round }
button-first = Début
button-prev = Coup précédent
button-next = Coup suivant
button-last = Dernier coup
button-prev_tile = Tuile précédente
button-next_tile = Tuile suivante
button-last_tile = Dernière tuile
select-placeholder = Aller à…
select-option = { $group } (coup { $n })
select-option_start = { $group } (départ)

## the journal (a text file that reads like the game)
log-head = { $game } — partie n°{ $id } — { $players }
log-finished = Terminée le { DATETIME($when, dateStyle: "long", timeStyle: "short") } (UTC).
log-running = En cours (journal arrêté le { DATETIME($when, dateStyle: "long", timeStyle: "short") }, UTC).
log-line = { $n }. { $player } : { $text }
log-inline = Journal, coup par coup :
log-attached = Le journal complet ({ $count ->
        [one] { $count } coup
       *[other] { $count } coups
    }) est dans le fichier joint ; le résumé animé aussi, quand la partie est terminée.
log-attached_running = Le journal complet ({ $count ->
        [one] { $count } coup
       *[other] { $count } coups
    }) est dans le fichier joint.
log-final = Classement final :
log-final_file = Classement final

## rankings (no score where the game did not reach its end)
rank-score = { $rank }. { $player } — { $score ->
        [one] { $score } point
       *[other] { $score } points
    }
rank-plain = { $rank }. { $player }
rank-resigned = { $rank }. { $player } — abandon
rank-forfeit = { $rank }. { $player } — forfait
rank-removed = { $rank }. { $player } — retiré de la partie
rank-note_resigned = Partie terminée par abandon : pas de score.
rank-note_forfeit = Partie terminée par forfait : pas de score.
rank-note_removed = Partie arrêtée par un vote de la table : pas de score.

## the animated summary and « Partager »
animation-title = { $game } n°{ $id } — classement final
animation-caption = Résumé animé de la partie ({ $frames ->
        [one] { $frames } image
       *[other] { $frames } images
    }).
animation-none = (pas de résumé animé pour cette partie)
button-share = Partager
share-post = { $player } partage la partie { ELISION($game) ->
        [vowel] d'{ $game }
       *[consonant] de { $game }
    } n°{ $id } :

## refusals
error-not_started = La partie n°{ $game } n'a pas encore commencé : il n'y a rien à rejouer.
error-schema = La partie n°{ $game } a été jouée sous une version antérieure des règles : elle ne se rejoue plus coup par coup ici. Son journal texte reste disponible ci-dessous.
error-share_unfinished = Seule une partie terminée se partage : la partie n°{ $game } est encore en cours.
error-share_wait = Vous avez déjà partagé une partie il y a moins de { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    } : vous pourrez de nouveau partager { $when }.
error-share_no_animation = La partie n°{ $game } n'a pas de résumé animé à partager.
error-wrong_server = Ce bouton appartient à un autre serveur : la partie n°{ $game } n'existe pas ici.
error-bad_position = Cette position n'existe pas dans la partie n°{ $game } ({ $total ->
        [one] { $total } position
       *[other] { $total } positions
    }).
