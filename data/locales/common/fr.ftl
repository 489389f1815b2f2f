## error
error-bad_option = L'option « { $option } » ne peut pas valoir « { $value } » (valeurs possibles : { $allowed }).
error-unknown_option = Option inconnue « { $option } » (options possibles : { $allowed }).
error-bad_pace = Rythme inconnu « { $pace } » (rythmes possibles : { $allowed }).
error-player_count = Cette partie se joue de { $min } à { $max } joueurs (vous êtes { $count }).
error-game_over = Cette partie est terminée.
error-not_your_turn = Ce n'est pas votre tour.
error-unknown_action = Action inconnue : « { $action } ».
error-no_such_game = La partie n°{ $game } n'existe pas.
error-not_started = La partie n°{ $game } n'a pas encore commencé.
error-already_started = La partie n°{ $game } a déjà commencé.
error-game_finished = La partie n°{ $game } est terminée.
error-game_cancelled = La partie n°{ $game } a été annulée.
error-wrong_game = La partie n°{ $game } n'est pas une partie de ce jeu.
error-no_game_here = Aucune partie de ce jeu n'est en cours dans ce salon. Lancez-en une avec la commande start.
error-ambiguous = Plusieurs parties sont ouvertes ici : { $games }. Précisez laquelle avec l'option « partie ».
error-busy = Trop de monde clique en même temps : réessayez.
error-not_a_player = Vous ne jouez pas dans la partie n°{ $game }.
error-already_played = Ce coup a déjà été joué : ce bouton n'est plus à jour. Regardez le dernier message de la partie.
error-forged_button = Ce bouton n'est pas valide.
error-select_one = Une seule option se choisit dans cette liste (reçu : { $count }) : rien n'a changé.
error-not_offered = « { $value } » n'est pas une des options proposées : rien n'a changé. Choisissez dans la liste.
error-internal = Oups, une erreur interne est survenue. La partie n'a pas changé ; réessayez.
error-unwritable = Le bot ne peut pas enregistrer pour l'instant : rien n'a changé. Réessayez plus tard (les administrateurs du bot en sont avertis).
error-no_permission = Vous n'avez pas la permission de faire cela.
error-no_private_view = Ce jeu n'a pas d'information secrète à vous montrer.
error-game_unavailable = Ce jeu n'est pas disponible sur ce bot.
error-board_off = Le plateau n'est pas activé sur ce bot : jouez avec les boutons de la partie.

## event
event-started = La partie commence !
event-final = **Fin de la partie.** Classement :
event-your_turn = À vous de jouer : { $players } (partie n°{ $game }).
event-waiting_for = En attente de : { $players }.
event-skipped = … ({ $count } { $count ->
        [one] autre action
       *[other] autres actions
    }) …
event-vote_open = 🗳️ { $seat } n'a pas joué à temps. Les { $voters } autres joueurs votent (le vote se clôt <t:{ $due }:R>) : { $ai ->
        [yes] attendre encore, laisser le bot jouer à sa place ou retirer { $seat } de la partie
       *[no] attendre encore ou retirer { $seat } de la partie
    }. Une majorité décide tout de suite ; vous pouvez changer votre vote jusque-là.
event-vote_decided = 🗳️ Les joueurs ont décidé : { $choice ->
        [wait] attendre encore { $seat }, avec un nouveau délai.
        [ai] laisser le bot jouer pour { $seat } jusqu'à son retour (bouton « Reprendre ma place »).
       *[remove] retirer { $seat } de la partie.
    } ({ $wait } pour attendre, { $ai } pour le bot, { $remove } pour retirer)
event-seat_back = 🙋 { $seat } reprend sa place : le bot ne joue plus pour { $seat }.
event-seat_removed = 🚪 La partie continue sans { $seat }.
event-removed_end = 🚪 La partie ne peut pas continuer sans { $seat } : elle s'arrête, { $seat } au dernier rang.

## status
status-lobby = en attente de joueurs
status-running = en cours
status-finished = terminée
status-cancelled = annulée

## label
label-ai = IA
label-game_listed = n°{ $id } ({ $players }, { $status })
label-game_choice = n°{ $id } — { $players } ({ $status })
label-rank_line = { $rank }. { $player } — { $score }
label-private_view = Votre vue privée de la partie n°{ $id } (visible de vous seulement).
label-status_head = **{ $game }** — partie n°{ $id }, { $status }.

## button
button-join = Rejoindre
button-leave = Quitter
button-add_ai = Ajouter une IA
button-start = Lancer
button-cancel = Annuler

## lobby
lobby-text =
    {"*"}*{ $game }** — partie n°{ $id }, ouverte par { $creator }
    Joueurs ({ $count }{ $fixed ->
        [yes] {" "}sur { $max }
       *[no] , de { $min } à { $max }
    }) :
    { $seats }
    Options : { $options }
    { $reserved ->
        [none] Cliquez sur « Rejoindre » pour prendre place ; le créateur lance la partie.
       *[other] Seul { $reserved } peut rejoindre : la partie commence dès son arrivée.
    }
lobby-started = **La partie est lancée.**
lobby-cancelled = La partie { ELISION($game) ->
        [vowel] d'{ $game }
       *[consonant] de { $game }
    } n°{ $id } a été annulée par { $by }.
lobby-joined = { $player } rejoint la partie n°{ $id } ({ $count }/{ $max }).
lobby-left = { $player } quitte la partie n°{ $id }.

## cmd
cmd-join = Rejoindre la partie en attente dans ce salon
cmd-leave = Quitter la partie en attente dans ce salon
cmd-status = Voir l'état public de la partie
cmd-rules = Résumé des règles
cmd-cancel = Annuler la partie (créateur ou modérateur)
cmd-rythme = Rythme de la partie (par défaut : celui du serveur)
cmd-fil = Jouer dans un fil à part (par défaut : le réglage du serveur)
cmd-partie = Numéro de la partie (si plusieurs parties dans ce salon)

## format
# a date as the language writes it (records table)
format-date = { DATETIME($date, dateStyle: "medium") }

## merged from main
error-already_played_link = Ce coup a déjà été joué : { $control ->
        [menu] ce menu n'est plus à jour
        [form] ce formulaire n'est plus à jour
       *[button] ce bouton n'est plus à jour
    }. { $link }
error-dm_elsewhere = Les parties en message privé sont gérées par une autre instance du bot : réessayez dans un instant.
error-missing_permissions = Ludibot ne peut pas tenir une partie ici : il lui manque { $permissions }. Demandez à un administrateur du serveur de les lui donner dans ce salon, puis relancez la commande.
error-dm_game = Les parties se jouent dans un salon ou un fil d'un serveur, pas en message privé : lancez la commande sur votre serveur.
permission-view_channel = « Voir le salon »
permission-send_messages = « Envoyer des messages »
permission-send_messages_in_threads = « Envoyer des messages dans les fils »
permission-attach_files = « Joindre des fichiers »
permission-embed_links = « Intégrer des liens »
permission-read_message_history = « Voir les anciens messages »
permission-create_public_threads = « Créer des fils publics »
permission-create_private_threads = « Créer des fils privés »
paused-player = ⚠️ La partie n°{ $id } est en pause : Ludibot ne peut plus écrire dans ce salon (il lui manque { $permissions }). Vos coups comptent, mais aucun délai ne court et le salon ne montre plus la partie tant qu'un administrateur n'a pas rendu ces permissions.
paused-creator = ⚠️ Votre partie { ELISION($game) ->
        [vowel] d'{ $game }
       *[consonant] de { $game }
    } (n°{ $id }) dans { $channel } est en pause : { $reason } Aucun délai ne court contre les joueurs. Elle reprendra d'elle-même quand Ludibot pourra de nouveau y écrire.
paused-missing_access = Ludibot n'a plus accès à ce salon.
paused-missing_permissions = Ludibot n'a plus le droit d'y écrire, d'y joindre une image ou d'y intégrer un lien.
paused-unknown_channel = le salon n'existe plus.
paused-thread_locked = le fil a été verrouillé.

## merged from main
error-other_channel = La partie n°{ $game } se joue dans { $channel } : tapez la commande là-bas.
error-game_broken = La partie n°{ $game } est illisible (mise à jour du bot ?) et a été mise de côté : un administrateur du serveur peut l'annuler avec { COMMAND("ludibot casse") }.
error-number_out_of_range = Le nombre donné pour « { $option } » est hors limites (de { $min } à { $max }).
error-bad_choice = « { $value } » n'est pas un choix possible pour « { $option } » (choix possibles : { $allowed }).
error-wrong_component = Ce bouton ou ce menu n'est pas du bon type : rien n'a été fait.
error-bad_value = « { $value } » n'est pas une valeur possible pour « { $option } ».
button-rematch = Revanche
button-board = Jouer sur le plateau
lobby-rematch_exists = La revanche de cette partie est déjà ouverte : partie n°{ $id } ({ $link }). Rejoignez-la avec son bouton « Rejoindre ».
lobby-rematch_call = Revanche de la partie n°{ $id } : { $players }, rejoignez-la pour confirmer.

## level
level-easy = Facile
level-medium = Moyen
level-hard = Difficile

## pace
pace-direct = En direct (5 min par joueur, +1 min par coup)
pace-rapide = Rapide (2 h par joueur, +30 min par coup)
pace-normal = Normal (le délai du serveur, 2 jours par défaut, +1 jour par coup)
pace-lent = Lent (7 jours par joueur, +3 jours par coup)

## thread
thread-name = { $game } n°{ $id } — { $players }
thread-started = La partie se joue dans son fil : { $thread }
thread-elsewhere = La partie n°{ $id } se joue dans son fil : { $thread }. Votre coup y est publié.
thread-result = **{ $game } n°{ $id } : partie terminée.** Le fil de la partie : { $link }
thread-pending = Votre coup est enregistré ; il sera publié dans le fil de la partie n°{ $id } dès que Ludibot pourra y écrire.

## clock
clock-line = ⏳ Temps restant : { $clocks }
clock-seat = { $name } { $time }
clock-away = { $name } en vacances jusqu'au { $until }
clock-days = { $n } { $n ->
        [one] jour
       *[other] jours
    }
clock-hours = { $n } h
clock-minutes = { $n } min
clock-seconds = { $n } s

## rules
rules-footer = Page { $page } sur { $pages } · règles complètes, dans Discord
rules-previous = Précédente
rules-next = Suivante
rules-pick = Aller à la page…
rules-page_time =
    {"*"}*Le temps et les absents**
    Chaque partie a un **rythme** (option `rythme` de `start`) : chaque joueur a une réserve de temps qui s'écoule pendant son tour et remonte à chaque coup joué.
    • En direct : 5 min, +1 min par coup ; Rapide : 2 h, +30 min ; Normal : le délai du serveur (2 jours par défaut), +la moitié ; Lent : 7 jours, +3 jours.
    • Un rappel arrive avant la fin de la réserve. Quand elle est vide, le bot joue le coup par défaut du jeu pour le joueur absent ; à Tectonic et à L'Invincible Armada, trois absences de suite donnent la partie perdue par forfait.
    • Avec au moins deux autres humains à la table, ils votent plutôt : attendre, laisser le bot jouer à sa place (jusqu'à ce qu'il clique sur « Reprendre ma place ») ou le retirer de la partie.
    • { COMMAND("ludibot vacances") } `jours:` arrête vos horloges dans toutes vos parties (30 jours par an au plus).
rules-page_undo =
    {"*"}*Reprendre un coup**
    • Tant que personne n'a joué après vous, `annuler-coup` (ou le bouton « Reprendre mon coup ») reprend votre dernier coup : aussitôt si c'est encore votre tour ou si aucun autre humain ne joue, sinon quand tous les autres joueurs humains ont accepté. Un coup joué entre-temps annule la demande ; sans réponse, elle expire.
    • Jamais un coup qui a révélé quelque chose (des dés lancés, une carte piochée, une tuile annoncée, des gestes montrés, une manche comptée), ni la fin de la partie : à Ludix et à Lutinades, aucun coup ne se reprend.
    • Le serveur choisit si les reprises sont permises et combien chacun en a par partie ({ COMMAND("ludibot config") }, 3 par défaut).
