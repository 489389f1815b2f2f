# The living table (issue 24): what a lobby card shows besides its seats, the cards' own lines.

## lobby
lobby-pace = Rythme : { $pace } — { $bank } par joueur, +{ $increment } par coup
lobby-pace_untimed = Rythme : { $pace } — sans limite de temps
lobby-thread_own = Fil : la partie se joue dans un fil à elle
lobby-thread_here = Fil : la partie se joue dans ce salon
lobby-ai = IA, { $level }
lobby-cancelled = **Partie annulée.**

## pace
pace-direct = En direct
pace-rapide = Rapide
pace-normal = Normal
pace-lent = Lent

## value
value-yes = oui
value-no = non

## stale
stale-ended_link = { $control ->
        [menu] Ce menu
        [form] Ce formulaire
       *[button] Ce bouton
    } n'est plus à jour. { $link }
stale-link_text = Aller au message actuel de la partie

## ludime
ludime-button_word = Poser un mot
ludime-modal_title = Poser un mot
ludime-modal_label = Mot à poser
ludime-modal_hint = Avec les lettres de votre main ; plusieurs mots : séparez-les par une virgule.
ludime-no_word = Écrivez au moins un mot.

## limit
limit-preview = Aperçu : la tuile { $tile } en { $position }. Si la partie s'arrêtait là, votre plateau passerait de { $before } à { $after } points ({ $gain }). Rien n'est posé tant que vous n'avez pas confirmé.
limit-preview_fill = Aperçu : la tuile { $tile } en { $position }, dans la Déchetterie { ELISION($owner) ->
        [vowel] d'{ $owner }
       *[consonant] de { $owner }
    }. Si la partie s'arrêtait là, son plateau passerait de { $before } à { $after } points ({ $gain }). Rien n'est posé tant que vous n'avez pas confirmé.
limit-preview_penalty = ⚠️ { $reason } Ce total la compte. { $left ->
        [0] C'est la dernière tuile.
        [one] Encore { $left } tuile à venir.
       *[other] Encore { $left } tuiles à venir.
    }
limit-confirm = Confirmer
limit-change = Changer

## tectonic
tectonic-button_play = Jouer un coup
tectonic-modal_title = Votre coup
tectonic-placeholder = Choisissez un coup…
tectonic-group = Pièces de { $first } à { $last }
tectonic-group_one = Pièce en { $cell }
tectonic-flips = (retourne { $cells })
tectonic-pick_one = Choisissez un coup, un seul, dans une des listes.
