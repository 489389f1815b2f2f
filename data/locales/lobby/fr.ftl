## error
error-no_ai = Ce jeu ne se joue pas contre l'IA.
error-too_many_ai = Trop de joueurs IA : { $max } au plus.
error-full = La partie est complète ({ $max } joueurs au plus).
error-challenge_ai = Cette partie est un défi : elle attend le membre défié, pas une IA.
error-only_creator = Seul le créateur de la partie (ou un modérateur du serveur) peut faire cela.
error-only_creator_cancel = Seul le créateur de la partie (ou un modérateur du serveur) peut l'annuler.
error-already_joined = Vous avez déjà rejoint cette partie.
error-not_joined = Vous n'avez pas rejoint cette partie.
error-creator_leaves = Vous avez créé cette partie : annulez-la plutôt que de la quitter.
error-not_enough = Il faut au moins { $min } joueurs pour lancer la partie (à la table : { $count }).

## merged from main
error-bad_level = Le niveau de l'IA va de { $min } à { $max } (vous avez demandé { $value }).
