# Ce que Discord envoie et que Ludibot ne peut pas lire (issue 23)

error-stale_command = Cette commande vient de changer ; Discord met à jour votre liste de commandes. Réessayez dans une minute.
error-unreadable = Cette demande est arrivée abîmée ou incomplète : Ludibot n'a pas pu la lire. Rien n'a changé ; réessayez.
error-missing_field = Cette demande est arrivée incomplète (il y manque « { $field } ») : Ludibot n'a pas pu la lire. Rien n'a changé ; réessayez.
error-bad_field = Cette demande est arrivée abîmée (« { $field } » manque ou n'est pas valide) : Ludibot n'a pas pu la lire. Rien n'a changé ; réessayez.
