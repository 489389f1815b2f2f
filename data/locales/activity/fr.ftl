# Le plateau dans Discord (une Activité) : les refus de son API, dans la langue du joueur

error-no_token = Ouvrez le plateau depuis Discord : cette page ne sait pas qui vous êtes.
error-bad_token = Discord n'a pas reconnu votre session (elle a peut-être expiré). Fermez le plateau et rouvrez-le.
error-bad_code = Discord a refusé l'autorisation de cette page. Fermez le plateau et rouvrez-le.
error-discord_down = Discord ne répond pas pour l'instant ; réessayez dans un moment. Rien n'a changé.
error-no_instance = Cette Activité n'est plus ouverte dans Discord. Rouvrez le plateau depuis la partie.
error-not_in_instance = Vous n'êtes pas dans cette Activité : rejoignez-la depuis Discord.
error-elsewhere = Cette partie se joue dans un autre salon : ouvrez le plateau depuis son salon.
error-no_game = Il n'y a pas de partie n° { $game } dans ce salon.
error-not_running = La partie n° { $game } n'est pas en cours.
error-stale = Un autre coup a été joué entre-temps : le plateau vient d'être mis à jour. Rien n'a changé.
error-bad_request = Cette demande est incomplète ou abîmée ({ $field }). Rien n'a changé.
error-too_many = Trop de demandes d'un coup : attendez { $seconds } s. Rien n'a changé.
error-internal = Le bot n'a pas pu traiter cette demande. Rien n'a changé ; réessayez.
error-no_page = Cette page n'existe pas.
error-no_seat = Vous n'avez pas de place dans la partie n° { $game } : il n'y a rien de privé à vous montrer.
error-no_picture = Ce jeu n'a pas cette image.
error-no_touch = Ce jeu ne se joue pas encore en touchant le plateau : jouez depuis la discussion.
error-no_move = Ce n'est pas un coup possible maintenant : touchez une case en surbrillance. Rien n'a changé.

# L'aperçu d'un coup choisi sur le plateau, avant « Confirmer »
preview-limit = { $tile } en { $position } : { $before } → { $after } points si la partie s'arrêtait là ({ $gain })
preview-limit_pass = { $tile } : donner à votre voisin ({ $name }), qui le posera sur votre Déchetterie.
preview-limit_fill = { $tile } en { $position } de la Déchetterie de votre voisin.
preview-limit_relocate = Déplacer les tuiles de la grande orchidée : { $moves } ({ $gain } points).
preview-limit_relocate_none = Ne rien déplacer : les tuiles restent sur la grande orchidée (+0 point).
choice-relocate_none = Ne rien déplacer
preview-move = { $move }
preview-pass = Passer : aucun autre coup n'est possible.
choice-flip = Retourner { $cell }
choice-capture = Prendre { $cell }
preview-roll = Lancer les dés : { $total ->
    [0] rien n'est encore en jeu ce tour-ci.
    [one] { $total } point en jeu ce tour-ci.
   *[other] { $total } points en jeu ce tour-ci.
} Le résultat n'est connu qu'une fois les dés lancés.
preview-stop = Stop : { $before } → { $after } points, et la main passe.
preview-follow = Suivre { $name } : la carte sera révélée une fois le choix confirmé.
preview-gesture = Votre geste : { $gesture }. Il reste secret jusqu'à ce que tous les lutins aient choisi.
preview-gesture_forbidden = Votre geste : { $gesture }, interdit dans « Voir les choses en grand » : vous serez ignoré et rendrez votre dernier champignon gagné.
preview-ranta_box = Boîte en { $cells } : { $before } → { $after } points.
preview-ranta_mat = Tapis en { $cells } : { $before } → { $after } points.
preview-ludime_pile = Piocher : la carte n'est connue qu'une fois piochée.
preview-ludime_take = Prendre le { $letter } de la défausse.
preview-ludime_word = Poser { $word } : +{ $points } points.
preview-ludime_lengthened = Allonger { $old } en { $word } : le mot vaut { $points } points.
preview-ludime_took = Prendre { $old } à { $name } : { $word }, { $points } points pour vous.
preview-ludime_exchange = Échanger { $letters } : { $count ->
    [one] une carte de la pioche, inconnue tant qu'elle n'est pas reçue.
   *[other] { $count } cartes de la pioche, inconnues tant qu'elles ne sont pas reçues.
}
preview-ludime_discard = Défausser le { $letter } : votre tour se termine.

# La page du plateau (activity/src/main.js) : ses mots viennent d'ici (GET api/config)
page-title = { $kind } n° { $game }
page-your_turn = À vous de jouer.
page-waiting = Au tour de { $names }.
page-lobby = La partie n'a pas encore commencé.
page-over = La partie est terminée.
page-choose = Choisissez une partie de ce salon :
page-none = Aucune partie en cours dans ce salon : lancez-en une avec une commande du bot.
page-mine = Votre vue (vous seul la voyez)
page-board_alt = Le plateau de la partie
page-touch = Touchez ce qui est en surbrillance sur l'image pour choisir votre coup.
page-touch_next = Touchez maintenant où aller (ou une autre case en surbrillance).
page-touch-ranta = Une boîte : touchez le dé de sa taille puis celui de sa catégorie. Un tapis : touchez sa case.
page-touch_next-ranta = Puis le dé de la catégorie, la case en bas à gauche de la boîte et, si elle tient dans les deux sens, sa case en haut à droite.
page-touch_next-ludime = Touchez la lettre suivante de votre mot (après une seule carte : la défausse, pour la jeter).
page-touch-lutinades = Touchez votre geste sous votre carte (le cueilleur : la rangée du lutin à suivre).
page-region-pass = Passer
page-touch_outside = Aucun coup sur l'image : touchez le bouton sous l'image.
page-confirm = Confirmer
page-change = Changer
page-preview_alt = Votre coup, avant confirmation
page-connecting = Connexion à Discord…
page-open_from_discord = Ouvrez ce plateau depuis Discord, avec le bouton « Jouer sur le plateau » d'une partie.
page-error = Le plateau n'a pas pu joindre le bot. Rien n'a changé ; fermez-le et rouvrez-le.
