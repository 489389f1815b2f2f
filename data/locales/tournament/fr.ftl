## cmd
cmd-tournoi = Tournois du serveur : suisse, poules ou élimination directe
cmd-creer = Créer un tournoi dans ce salon (gestion du serveur ou rôle d'organisation)
cmd-jeu = Le jeu du tournoi
cmd-format = Suisse (par défaut), poules (toutes et tous se rencontrent) ou élimination directe
cmd-rondes = Nombre de rondes (suisse) ; en poules : adversaires par poule
cmd-rythme = Rythme des parties du tournoi (défaut du serveur sinon)
cmd-places = Nombre de places (16 par défaut)
cmd-fiabilite = Part minimale de parties menées à terme pour s'inscrire, en % (0 : aucune)
cmd-tournoi_id = Numéro du tournoi (celui du salon par défaut)
cmd-inscrire = S'inscrire à un tournoi ouvert
cmd-desinscrire = Quitter un tournoi (en cours : plus d'appariement aux rondes suivantes)
cmd-lancer = Lancer le tournoi : la première ronde s'ouvre
cmd-etat = Où en est le tournoi : ronde, parties en cours, classement en image
cmd-annuler = Annuler le tournoi (les parties en cours continuent hors tournoi)
cmd-organisateur = Rôle qui peut créer des tournois (en plus de « Gérer le serveur »)
cmd-saison_config = Saisons du classement : mensuelles ou trimestrielles
cmd-chercher = Chercher des adversaires : la partie s'ouvre dès que la file est pleine
cmd-jeu_chercher = Le jeu cherché
cmd-joueurs = Nombre de joueurs à la table (le minimum du jeu par défaut)
cmd-rythme_chercher = Rythme de la partie (défaut du serveur sinon)
cmd-quitter = Quitter toutes vos files d'attente
cmd-defi = Défier un membre : une partie que seul ce membre peut rejoindre
cmd-membre_defi = Le membre défié
cmd-jeu_defi = Le jeu du défi
cmd-joueurs_table = Joueurs par table (2 : par paires ; par défaut 2 pour un jeu à deux, sinon 4 si le jeu le permet)
cmd-saison = Une saison : 2026-11, ou 2026-q4 si le serveur compte par trimestres (vide : la saison en cours)

## format
format-swiss = Suisse
format-round_robin = Poules
format-elimination = Élimination directe

## status
status-open = inscriptions ouvertes
status-running = en cours
status-finished = terminé
status-cancelled = annulé

## button
button-join = S'inscrire
button-leave = Se désinscrire

## text
text-label = Tournoi n°{ $id } — { $game }, { $format } ({ $status })
text-created = 🏆 Tournoi n°{ $id } : **{ $game }**, { $format }, { $rounds ->
    [one] { $rounds } ronde
   *[other] { $rounds } rondes
}, { $places } places{ $reliability ->
    [0] {""}
   *[other] , au moins { $reliability } % de parties menées à terme pour s'inscrire
}. Organisation : { $organiser }. Inscrivez-vous avec le bouton ci-dessous.
text-entered = ✅ { $player } participe au tournoi n°{ $id } (cote { $rating }) : { $count } sur { $places } { $places ->
    [one] place prise
   *[other] places prises
}.
text-left = Vous ne participez plus au tournoi n°{ $id }.
text-withdrawn = Vous quittez le tournoi n°{ $id } : plus d'appariement aux rondes suivantes. Une partie en cours continue.
text-launched = 🏁 Le tournoi n°{ $id } commence : { $count } personnes en lice, { $total ->
    [one] { $total } ronde
   *[other] { $total } rondes
}.
text-cancelled = Le tournoi n°{ $id } est annulé. Les parties en cours continuent hors tournoi.

## round
round-head = **Tournoi n°{ $id } — ronde { $round } sur { $total }** : { $count ->
    [one] { $count } partie, chacune dans son fil
   *[other] { $count } parties, chacune dans son fil
}.
round-table = Table { $table } : { $players } (partie n°{ $game })
round-table_link = Table { $table } : { $players } — [partie n°{ $game }](<{ $link }>)
round-byes = { $count ->
    [one] Au repos (1 point en suisse) : { $players }
   *[other] Au repos : { $players }
}
round-many = Toutes les tables : { COMMAND("tournoi etat") } `tournoi:{ $id }`. Chaque partie s'ouvre dans son propre fil.

## state
state-open = { $count ->
    [0] Aucune inscription pour l'instant ({ $places } places).
   *[other] { $count } sur { $places } { $places ->
        [one] place prise
       *[other] places prises
    } : { $players }
}
state-round = Ronde { $round } sur { $total } : { $running } { $running ->
    [one] partie en cours
   *[other] parties en cours
} sur { $count }.

## podium
podium-head = 🏆 **Fin du tournoi n°{ $id } — { $game }.** Le podium :
podium-line = { $rank ->
    [1] 🥇
    [2] 🥈
   *[other] 🥉
} { $player } — { $points } pt

## card
card-title = Tournoi n°{ $id } — { $game }
card-subtitle = { $format }, ronde { $round } sur { $total } · { $count } personnes · départage : Buchholz (Buch.), puis Sonneborn-Berger (S-B), puis cote
card-rank = Rang
card-player = Nom
card-points = Points
card-games = Parties
card-buchholz = Buch.
card-sb = S-B
card-rating = Cote
card-empty = Personne encore
card-half = ½

## error
error-no_such = Aucun tournoi n°{ $id } sur ce serveur.
error-status_open = Le tournoi n°{ $id } n'a pas encore commencé.
error-status_running = Le tournoi n°{ $id } a déjà commencé : les inscriptions sont closes.
error-status_finished = Le tournoi n°{ $id } est terminé.
error-status_cancelled = Le tournoi n°{ $id } a été annulé.
error-game = Jeu inconnu : « { $game } ».
error-format = Format inconnu : choisissez suisse, poules ou élimination directe.
error-rounds = Le nombre de rondes va de 1 à { $max }.
error-places = Le nombre de places va de { $min } à { $max }.
error-reliability = La part de parties menées à terme se donne en pour cent, de 0 à 100.
error-unreliable = Ce tournoi demande { $required } % de parties menées à terme ; vous en êtes à { $percent } % (voir { COMMAND("profil") }).
error-already_in = Vous participez déjà à ce tournoi.
error-full = Le tournoi est complet ({ $places } places).
error-not_in = Vous ne participez pas à ce tournoi.
error-no_withdrawal = En élimination directe, on ne quitte pas un tournoi en cours : abandonnez la partie si vous le souhaitez.
error-only_organiser = Seule la personne qui a créé le tournoi, ou un membre avec « Gérer le serveur », peut faire cela.
error-organiser_only = Créer un tournoi demande la permission « Gérer le serveur » ou le rôle d'organisation choisi avec { COMMAND("ludibot config") }.
error-not_enough = Il faut au moins { $min } personnes inscrites pour lancer ce tournoi ({ $count } pour l'instant).
error-busy = Le tournoi vient de changer : réessayez.
error-game_cancel = Cette partie compte pour le tournoi n°{ $id } : seul un membre avec « Gérer le serveur » peut l'annuler.
error-none_here = Aucun tournoi ouvert ou en cours dans ce salon : précisez son numéro (option « tournoi »).
error-queue_game = Choisissez le jeu cherché (option « jeu »), ou l'option « quitter » pour quitter vos files.
error-queue_players = À ce jeu, une table compte de { $min } à { $max } joueurs.
error-queue_already = Vous attendez déjà dans cette file.
error-queue_too_many = Vous attendez déjà dans { $max } files : quittez-les d'abord ({ COMMAND("chercher") }, option « quitter »).
error-challenge_self = Vous ne pouvez pas vous défier vous-même.
error-challenge_bot = On ne défie pas un bot : pour jouer contre l'IA, lancez une partie avec l'option « ia ».
error-reserved = Cette partie est un défi : seul { $member } peut la rejoindre.
error-season = Saison inconnue : « { $value } ». Écrivez-la comme { $example } (la saison en cours), ou choisissez-la dans la liste.
error-ambiguous = Plusieurs tournois dans ce salon ({ $list }) : précisez lequel, par exemple `tournoi:{ $example }` ({ $label }).

## config
config-role = Organisation des tournois : « Gérer le serveur » ou le rôle { $role }
config-role_none = Organisation des tournois : « Gérer le serveur » (aucun rôle d'organisation choisi)
config-season = Saisons du classement : { $season }
config-role_saved = Le rôle { $role } peut désormais créer des tournois.
config-season_saved = Saisons du classement : { $season }. Elles se voient avec { COMMAND("classement") } `saison:`.

## season
season-board = saison { $season }
season-caption = Classement { ELISION($game) ->
        [vowel] d'**{ $game }**
       *[consonant] de **{ $game }**
    }, saison { $season }.
season-month = mensuelles
season-quarter = trimestrielles
season-quarter_name = { $index }{ $index ->
    [1] er
   *[other] e
} trimestre { $year }

## month
month-m1 = janvier { $year }
month-m2 = février { $year }
month-m3 = mars { $year }
month-m4 = avril { $year }
month-m5 = mai { $year }
month-m6 = juin { $year }
month-m7 = juillet { $year }
month-m8 = août { $year }
month-m9 = septembre { $year }
month-m10 = octobre { $year }
month-m11 = novembre { $year }
month-m12 = décembre { $year }

## queue
queue-waiting = 🔎 Vous attendez une partie { ELISION($game) ->
    [vowel] d'{ $game }
   *[consonant] de { $game }
} à { $players } : { $count } sur { $players } en attente. Une mention vous préviendra dès que la table sera complète (pour arrêter : { COMMAND("chercher") }, option « quitter »).
queue-found = 🎲 Partie trouvée : { $game } n°{ $id } pour { $players }. Bon jeu ! { $link }
queue-left = { $count ->
    [0] Vous n'attendiez dans aucune file.
    [one] Vous quittez votre file d'attente.
   *[other] Vous quittez vos { $count } files d'attente.
}

## challenge
challenge-head = ⚔️ { $creator } défie { $member } à { $game }.
challenge-dm = ⚔️ { $creator } vous défie à { $game } (partie n°{ $id }) : { $link }

## season_end
season_end-head = 🏆 **Fin de la saison : { $season }.** Les podiums du serveur :
season_end-line = { $game } : { $podium }
season_end-place = { $rank ->
    [1] 🥇
    [2] 🥈
   *[other] 🥉
} { $player } ({ $rating })

## profile
profile-season_line = Saison { $season } — { $game } : { $rank ->
    [1] 1re place
   *[other] { $rank }e place
} sur { $total } (cote de saison { $rating }, { $games ->
    [one] { $games } partie
   *[other] { $games } parties
})
