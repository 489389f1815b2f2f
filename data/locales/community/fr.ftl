## cmd
cmd-classement = Classement du serveur pour un jeu (image)
cmd-records = Meilleurs scores en solo pour un jeu
cmd-profil = Statistiques d'un membre : cotes, records, parties menées à terme, temps par coup
cmd-parties = D'abord celles où c'est à vous de jouer, puis les autres parties en cours sur ce serveur
cmd-historique = Rejouer le journal d'une partie terminée, ou l'exporter en JSON
cmd-ludibot = Réglages de Ludibot
cmd-config = Rappels et délais du serveur, par jeu (gestion du serveur)
cmd-preferences = Vos préférences personnelles (rappels en message privé)
cmd-jeu = Le jeu
cmd-jeu_config = Le jeu à régler (vide ou « tous » : réglage par défaut du serveur)
cmd-periode = La période
cmd-membre = Le membre (vous par défaut)
cmd-partie = Numéro de la partie terminée
cmd-format = Texte (par défaut) ou fichier JSON
cmd-rappel = Rappel après ce nombre d'heures (0 : pas de rappel)
cmd-delai = Coup par défaut après ce nombre d'heures (0 : jamais)
cmd-forfait = Forfait au N-ième délai dépassé d'affilée (0 : jamais)
cmd-rythme_config = Rythme des parties lancées sans « rythme » (normal : rappel et délai ci-dessus)
cmd-vacances = Vacances : vos horloges s'arrêtent dans toutes vos parties (jours:0 pour revenir)
cmd-jours = Nombre de jours de vacances à partir de maintenant (0 : fin des vacances)
cmd-reinitialiser = Effacer d'abord le réglage de ce jeu (revenir au défaut)
cmd-rappels_mp = Recevoir aussi les rappels en message privé

## choice
choice-week = 7 derniers jours
choice-month = 30 derniers jours
choice-all = Depuis toujours
choice-text = Texte
choice-json = JSON
choice-all_games = Tous les jeux (défaut du serveur)

## error
error-guild_only = Cette commande ne s'utilise que sur un serveur.
error-manage_only = Seuls les membres qui ont la permission « Gérer le serveur » peuvent changer les réglages de Ludibot.
error-unknown_game = Jeu inconnu : « { $game } ». Jeux possibles : { $allowed }.
error-pick_game = Choisissez un jeu précis (par exemple ludix).
error-bad_period = Période inconnue : « { $period } ». Choisissez semaine, mois ou tout.
error-bad_format = Format inconnu : « { $format } ». Choisissez texte ou json.
error-negative_reminder = Le rappel ne peut pas être négatif (reçu : { $value } h). Mettez 0 pour ne pas envoyer de rappel.
error-negative_timeout = Le délai ne peut pas être négatif (reçu : { $value } h). Mettez 0 pour ne jamais jouer à la place d'un absent.
error-negative_forfeit = Le nombre de délais avant forfait ne peut pas être négatif (reçu : { $value }). Mettez 0 pour ne jamais déclarer forfait.
error-reminder_too_long = Le rappel ne peut pas dépasser { $max } heures (reçu : { $value } h).
error-timeout_too_long = Le délai ne peut pas dépasser { $max } heures (reçu : { $value } h).
error-forfeit_too_big = Le forfait doit venir au plus tard au { $max }e délai dépassé d'affilée (reçu : { $value }).
error-timeout_before_reminder = Pour { $game }, le délai ({ $timeout } h) doit être plus long que le rappel ({ $reminder } h) : sinon le coup serait joué avant le rappel.
error-no_solo = { $game } ne se joue pas en solo : pas de records solo. Voyez plutôt { COMMAND("classement") }.
error-vacation_days = Le nombre de jours de vacances va de 0 à { $max } (reçu : { $days }).
error-vacation_allowance = Impossible de partir { $days } { $days ->
        [one] jour
       *[other] jours
    } : il vous reste { $left } { $left ->
        [one] jour
       *[other] jours
    } de vacances sur les 365 derniers jours ({ $allowance } jours par an au plus).
error-not_finished = La partie n°{ $game } n'est pas terminée : son historique sera disponible à la fin.

## board
board-title = Classement — { $game }
board-subtitle = { $period } · { $server } · { $count } { $count ->
        [one] joueur
       *[other] joueurs
    }
board-week = 7 derniers jours
board-month = 30 derniers jours
board-all = Depuis toujours
board-rank = #
board-player = Joueur
board-rating = Cote
board-games = Parties
board-wins = Victoires
board-best = Meilleur score
board-empty = Personne n'a encore terminé de partie sur cette période.
board-caption = Classement { ELISION($game) ->
        [vowel] d'**{ $game }**
       *[consonant] de **{ $game }**
    } { $period ->
        [week] des 7 derniers jours
        [month] des 30 derniers jours
       *[other] depuis toujours
    }.

## records
records-title = Records solo — { $game }
records-subtitle = { $server } · { $count ->
        [one] le meilleur score
       *[other] les { $count } meilleurs scores
    }
records-rank = #
records-player = Joueur
records-score = Score
records-date = Date
records-game = Partie
records-empty = Aucune partie solo terminée pour l'instant.
records-caption = Records solo de **{ $game }**.


## daily challenge (issue 37)
daily-cmd = Le défi du jour : le même tirage pour tout le serveur, une fois par jour (ou ses classements)
daily-cmd-jeu = Le jeu et sa variante
daily-cmd-classement = Voir le classement du jour ou de la semaine au lieu de jouer
daily-choice-limit-nexus = Take it to the Limit — Nexus
daily-choice-limit-orchidee = Take it to the Limit — Orchidée
daily-choice-ranta-classique = Range ta Ludothèque — classique
daily-choice-ranta-expert = Range ta Ludothèque — expert
daily-board-day = Classement du jour
daily-board-week = Classement de la semaine
daily-variant-limit-nexus = Nexus
daily-variant-limit-orchidee = Orchidée
daily-variant-ranta-classique = classique
daily-variant-ranta-expert = expert
daily-name = { $game } · { $variant }
daily-bad_game = « { $value } » n'est pas un défi du jour : choisissez un jeu dans la liste.
daily-already = Vous avez déjà relevé le défi du jour — { $game } · { $variant } : un seul essai par jour, abandon compris. Nouveau tirage demain (minuit UTC).
daily-over = Ce défi ({ $challenge }) était celui d'un autre jour : lancez celui d'aujourd'hui avec { COMMAND("defi-du-jour") }.
daily-private = La partie n°{ $game } est un défi du jour : elle se joue en privé, rien qu'à son joueur, jusqu'à la fin de la journée ({ $until }). Relevez le vôtre avec { COMMAND("defi-du-jour") } !
daily-replay_closed = La partie n°{ $game } est un défi du jour : son historique et son résumé animé s'ouvrent à tous quand la journée se termine ({ $until }).
daily-in_thread = Le défi du jour se lance depuis un salon : il se joue dans un fil privé, rien qu'à vous.
daily-opening = 🎯 Votre défi du jour ({ $challenge }) est prêt : son fil privé, rien qu'à vous, s'ouvre dans un instant, et le lien suit ici. Personne d'autre ne voit le tirage.
daily-where = 🎯 Votre défi du jour ({ $challenge }) se joue dans un fil privé, rien qu'à vous : { $thread }. Personne d'autre ne voit le tirage.
daily-started = 🎯 **Défi du jour** — { $challenge }, { $day } : { $player } relève le défi, seul sur le tirage du jour.
daily-board-head-jour = 🎯 **Défi du jour — { $challenge }** · { $day }
daily-board-head-semaine = 🎯 **Défi de la semaine — { $challenge }** · semaine du { $day }
daily-played = { $count ->
        [0] Personne n'a encore relevé le défi aujourd'hui.
        [one] Un membre a relevé le défi aujourd'hui.
       *[other] { $count } membres ont relevé le défi aujourd'hui.
    }
daily-mark = Marque à battre : l'IA ({ $level }) fait **{ $score }** sur ce tirage.
daily-mark_pending = Marque à battre : l'IA ({ $level }) joue ce tirage, son score arrive dans un instant.
daily-hidden = Les scores du jour restent cachés tant que vous n'avez pas terminé le défi ({ COMMAND("defi-du-jour") }).
daily-row = { $rank }. { $player } — { $score }
daily-row-week = { $rank }. { $player } — { $score } ({ $days } { $days ->
        [one] jour
       *[other] jours
    })
daily-row-playing = · { $player } — en cours
daily-row-resigned = · { $player } — abandon
daily-ai = IA ({ $level })
daily-cell-playing = en cours
daily-cell-resigned = abandon
daily-col-rank = #
daily-col-player = Joueur
daily-col-score = Score
daily-col-days = Jours
daily-col-empty = Aucun score à montrer pour l'instant.
daily-board-title-jour = Défi du jour — { $challenge }
daily-board-title-semaine = Défi de la semaine — { $challenge }
daily-board-subtitle-jour = { $day } · { $server }
daily-board-subtitle-semaine = Semaine jusqu'au { $day } · { $server }
daily-share = 🎯 { $player } a relevé le défi du jour — { $challenge }, { $day } : **{ $score }** { $score ->
        [one] point
       *[other] points
    }.
daily-share-resigned = 🎯 { $player } a abandonné le défi du jour — { $challenge }, { $day }.
daily-share-mark = L'IA ({ $level }) a fait { $mark } : { $beaten ->
        [yes] marque battue !
        [tie] égalité.
       *[no] marque à battre.
    }
daily-share-call = À vous : même tirage, un seul essai aujourd'hui.
daily-button-play = Jouer le défi
daily-shape-limit = Forme : { $total ->
        [0] aucune ligne complète
        [one] une ligne complète ({ $directions })
       *[other] { $total } lignes complètes ({ $directions })
    }
daily-direction-vertical = ↕
daily-direction-sw_ne = ↗
daily-direction-nw_se = ↘
daily-shape-ranta = Forme : { $groups } { $groups ->
        [one] combinaison qui rapporte
       *[other] combinaisons qui rapportent
    }, { $empty } { $empty ->
        [one] case vide
       *[other] cases vides
    }

## profile
profile-head = **Profil { ELISION($name) ->
        [vowel] d'{ $name }
       *[consonant] de { $name }
    }** sur { $server }
profile-ai_head = 🤖 **{ $name }** — IA, niveau **{ $level }**
    -# { $game }
profile-ai_head_only = 🤖 **{ $name }** — IA
    -# { $game }
profile-ai_setting-limit-nexus = plateau Nexus
profile-ai_setting-limit-orchidee = plateau Orchidée
profile-ai_setting-ranta-classique = mode classique
profile-ai_setting-ranta-expert = mode expert
profile-ai_solo = • En solo, { $setting } : **{ $mean } points** en moyenne sur { NUMBER($games, useGrouping: 1) } parties.
profile-ai_solo_above = • En solo, { $setting } : **{ $mean } points** en moyenne sur { NUMBER($games, useGrouping: 1) } parties, contre { $below } pour le bot { $other }.
profile-ai_duel = • Face au bot { $other } : il gagne **{ $share } %** des parties (sur { NUMBER($games, useGrouping: 1) }).
profile-ai_duel_beaten = • Le bot { $other } le bat dans **{ $share } %** des parties (sur { NUMBER($games, useGrouping: 1) }).
profile-ai_table = • À quatre, face à trois bots de niveau { $other } : il gagne **{ $share } %** de { NUMBER($games, useGrouping: 1) } parties (à force égale, ce serait 25 %).
profile-ai_random = • Face à un joueur qui joue au hasard : il gagne **{ $wins }** parties sur { NUMBER($games, useGrouping: 1) }.
profile-ai_word = • Il trouve le mot le plus payant que permet sa main dans **{ $share } %** des cas ({ NUMBER($games, useGrouping: 1) } mains comparées à tous les mots possibles).
profile-ai_none = Sa force n'a pas encore été mesurée.
profile-ai_note = Mesures des tests du projet, hors de ce serveur.
profile-empty = { $name } n'a encore terminé aucune partie sur ce serveur.
profile-game_line = **{ $game }** — cote { $rating } (place { $rank }/{ $total }) · { $games } { $games ->
        [one] partie
       *[other] parties
    } · { $wins } { $wins ->
        [one] victoire
       *[other] victoires
    } · meilleur score { $best }
profile-solo_line = **{ $game }** (solo) — record { $best } · { $games } { $games ->
        [one] partie
       *[other] parties
    }
profile-recent_head = Dernières parties :
profile-recent_line = • n°{ $id } { $game } — place { $rank }/{ $players }{ $score } · { $when }
profile-recent_solo_line = • n°{ $id } { $game } (solo){ $score } · { $when }
profile-no_score = —
profile-points = {" "}· { $score } { $score ->
        [one] pt
       *[other] pts
    }

profile-completion = Parties menées à terme : **{ $percent } %** ({ $finished } sur { $total } ; { $cancelled } { $cancelled ->
        [one] annulée
       *[other] annulées
    }, { $forfeited } par forfait)
profile-median = Temps médian par coup : **{ $duration }** (sur { $moves } { $moves ->
        [one] coup
       *[other] coups
    })
profile-seconds = { $n } { $n ->
        [one] seconde
       *[other] secondes
    }
profile-minutes = { $n } { $n ->
        [one] minute
       *[other] minutes
    }
profile-hours = { $n } { $n ->
        [one] heure
       *[other] heures
    }
profile-days = { $n } { $n ->
        [one] jour
       *[other] jours
    }

## games
games-head = **Parties en cours sur ce serveur** ({ $count }) :
games-line = • **{ $game }** n°{ $id } dans <#{ $channel }> — au tour { ELISION($players) ->
        [vowel] d'{ $players }
       *[consonant] de { $players }
    }, tour commencé { $since } — { $link }
games-nobody = personne
games-empty = Aucune partie en cours sur ce serveur. Lancez-en une avec { COMMAND("ludix start") } (ou un autre jeu) !
games-more = … et { $count } { $count ->
        [one] autre
       *[other] autres
    }.
games-link = voir
games-mine_head = **À vous de jouer** ({ $count }) :
games-others_head = **Autres parties en cours sur ce serveur** ({ $count }) :
games-mine_line = • **{ $game }** n°{ $id } dans <#{ $channel }> — à vous, tour commencé { $since } — { $link }

## history
history-choice = n°{ $id } — { $game } — { $players }
history-line = `{ $n }` **{ $player }** : { $text }
history-by_timeout = (délai dépassé : coup par défaut)
history-forfeit = { $player } déclare forfait (trop de délais dépassés)
history-hidden = (coup secret)
history-json_ready = Export JSON de la partie n°{ $id } (partie, joueurs, options, journal public, résultats).

## config
config-saved = Réglages enregistrés pour { $scope }.
config-head = **Rappels et délais sur ce serveur** (en heures) :
config-defaults = • Par défaut : rappel { $reminder }, délai { $timeout }, forfait { $forfeit }, rythme par défaut : { $pace }
config-line = • { $game } : { $changes }{ $own }
config-same = • { $count ->
        [one] { $games } suit
       *[other] { $games } suivent
    } le réglage par défaut.
config-same_own = • { $game } : comme par défaut{ $own }
config-part_reminder = rappel { $value }
config-part_timeout = délai { $value }
config-part_forfeit = forfait { $value }
config-part_pace = rythme : { $value }
config-own = {" "}(réglage propre à ce jeu)
config-off = aucun
config-never = jamais
config-hours = après { $value } h
config-forfeit_after = dès { $value } { $value ->
        [one] délai dépassé
       *[other] délais dépassés
    } d'affilée
config-scope_all = tous les jeux (défaut du serveur)
config-note = Les échéances déjà prévues gardent leur heure ; les nouvelles suivent ces réglages.

## prefs
prefs-on = Vous recevrez aussi vos rappels en message privé.
prefs-off = Vous ne recevrez pas de rappel en message privé (seulement la mention dans le salon).
prefs-show_on = Rappels en message privé : activés.
prefs-show_off = Rappels en message privé : désactivés. Activez-les avec { COMMAND("ludibot preferences") }, option « rappels_mp ».

## reminder
reminder-channel = ⏰ Rappel : { $players }, c'est à vous de jouer dans la partie { ELISION($game) ->
        [vowel] d'{ $game }
       *[consonant] de { $game }
    } n°{ $id } (tour commencé { $since }). { $link }
reminder-dm = ⏰ C'est à vous de jouer dans la partie { ELISION($game) ->
        [vowel] d'{ $game }
       *[consonant] de { $game }
    } n°{ $id } sur { $server } (tour commencé { $since }) : { $link }

## timeout
timeout-played = ⌛ { $player } n'a pas joué à temps : le coup par défaut a été joué à sa place.
timeout-forfeit = 🏳️ { $player } a dépassé le délai trop de fois d'affilée : forfait, la partie s'arrête.

## language
language-fr = Français
language-en = Anglais (English)
cmd-langue = La langue des messages publics du serveur (français par défaut)
config-language = **Langue des messages publics** : { $language }
config-language_saved = Les messages publics de ce serveur (parties, boutons, images, rappels) seront désormais en : { $language }.
cmd-fil = Par défaut, jouer chaque partie dans un fil à part (le salon garde l'attente et le résultat)
config-thread = **Un fil par partie** : { $value ->
    [on] oui, les parties lancées sans l'option « fil » se jouent dans un fil à part
   *[off] non, les parties se jouent dans le salon (sauf avec l'option « fil »)
}
config-thread_saved = Désormais, par défaut : { $value ->
    [on] chaque nouvelle partie se jouera dans un fil à part.
   *[off] les nouvelles parties se joueront dans le salon.
} Les salons d'attente déjà ouverts gardent leur choix.
error-unknown_language = « { $language } » n'est pas une langue proposée ({ $allowed }).

## merged from main
cmd-casse = Parties illisibles de ce serveur (mises de côté) : les lister, en annuler une (gestion du serveur)
cmd-annuler = Numéro de la partie illisible à annuler
cmd-export = Exporter les parties terminées, résultats et cotes du serveur en JSON (gestion du serveur)
error-not_broken = La partie n°{ $game } n'est pas illisible : annulez-la avec la commande cancel de son jeu.
broken-none = Aucune partie illisible sur ce serveur.
broken-head = Parties illisibles, mises de côté ({ $count }) :
broken-line = • n°{ $id } — { $game } dans { $channel } : { $reason }
broken-how = Les autres parties ne sont pas touchées. Pour en annuler une : { COMMAND("ludibot casse") } `annuler:<numéro>`.
broken-cancelled = La partie n°{ $id } est annulée.
export-ready = Voici l'export du serveur : { $games } { $games ->
        [one] partie terminée
       *[other] parties terminées
    }, { $ratings } { $ratings ->
        [one] cote
       *[other] cotes
    }.

## merged from main
records-mode = Mode

## vacation
vacation-started = Bonnes vacances ! Vos horloges sont arrêtées dans toutes vos parties jusqu'au { $until } ({ $relative }). Revenez plus tôt avec { COMMAND("ludibot vacances") } `jours:0`.
vacation-ended = Bon retour ! Vos horloges repartent dans toutes vos parties.
vacation-none = Vous n'êtes pas en vacances : vos horloges tournent normalement.

## a stalled player: the others vote (issue 15)
vote-button_wait = Attendre { $player } ({ $count })
vote-button_ai = Bot pour { $player } ({ $count })
vote-button_remove = Retirer { $player } ({ $count })
vote-button_reclaim = Reprendre ma place
vote-cast = 🗳️ Votre vote est enregistré : { $choice ->
        [wait] attendre
        [ai] laisser le bot jouer
       *[remove] retirer le joueur
    }. Vous pouvez en changer jusqu'à la décision ({ $due }).
vote-closed = Ce vote de la partie n°{ $game } est terminé : la décision est prise (ou le joueur est revenu).
vote-not_voter = Seuls les autres joueurs de la partie n°{ $game } votent sur ce joueur.
vote-own_seat = Vous ne votez pas sur votre propre place : jouez votre coup dans la partie n°{ $game } pour la reprendre.
vote-taken_over = Le bot joue pour vous dans la partie n°{ $game } : cliquez sur « Reprendre ma place » pour jouer de nouveau vous-même.
vote-not_taken_over = Le bot ne joue pas à votre place dans la partie n°{ $game }.
vote-no_removal = Les règles de ce jeu ne permettent pas de continuer sans ce joueur.
