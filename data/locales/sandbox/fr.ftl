## general
players = Joueurs virtuels
channels = Salons
playing_as = vous jouez : { $name }
only_you = Visible par vous seulement
dismiss = Ignorer ce message
send = Envoyer
command_placeholder = ex. : ludix lancer
unknown_command = Commande inconnue : choisissez-en une dans la liste.
client_language = { $name } : langue du client Discord (touchez pour changer)
option_required = Champ obligatoire.
option_range = La valeur doit être comprise entre { $min } et { $max }.
option_min = La valeur doit être au moins { $min }.
option_max = La valeur doit être au plus { $max }.
option_integer = Un nombre entier, s’il vous plaît.
option_length = De { $min } à { $max } caractères (ici { $count }).
options_hide = Masquer les options
options_show = Afficher les options
bot_online = Bot connecté
bot_offline = Bot en cours de démarrage…
error = Erreur
yes = oui
no = non

lang = fr
unknown_channel = salon inconnu
spoiler = Divulgâcheur : touchez pour voir
close = Fermer
activity_title = Plateau
modal_submit = Envoyer
modal_cancel = Annuler
modal_unsupported = (champ que le bac à sable ne sait pas afficher)
modal_gone = Ce formulaire n’est plus ouvert : refaites l’action qui l’a ouvert.

## console
console-ready = Bac à sable Ludibot prêt : ouvrez { $url } (écoute sur 127.0.0.1 seulement). Ctrl+C pour arrêter.
console-no_token = Pas de jeton Discord : démarrage du bac à sable local (faux Discord + vrai bot).

## merged from main
older_messages = Messages plus anciens
