# Reprendre un coup (issue 26)

## cmd
cmd-annuler_coup = Reprendre votre dernier coup (tout de suite pendant votre tour, sinon avec l'accord des autres)
cmd-reprises = Reprises de coups permises sur ce serveur
cmd-reprises_max = Reprises au plus par joueur et par partie, après la fin de son tour (0 à 20)

## button
button-undo = Reprendre mon coup
button-accept = Accepter : { $player } reprend
button-refuse = Refuser la reprise { ELISION($player) ->
        [vowel] d'{ $player }
       *[consonant] de { $player }
    }

## label
label-call = 🔔 { $players } : acceptez ou refusez ci-dessous.

## event
event-takeback = ↩️ { $mode ->
        [turn] { $seat } a repris sa dernière action.
        [alone] { $seat } a repris son coup.
       *[vote] { $seat } a repris son coup, accepté par { $players }.
    }
event-takeback_asked = ↩️ { $seat } demande à reprendre son dernier coup. { $players }, acceptez-vous ? La demande expire <t:{ $due }:R> sans réponse ; un coup joué entre-temps l'annule.
event-takeback_refused = ↩️ La reprise du coup { ELISION($seat) ->
        [vowel] d'{ $seat }
       *[consonant] de { $seat }
    } est refusée par { $by_seat }.
event-takeback_expired = ↩️ La demande de reprise { ELISION($seat) ->
        [vowel] d'{ $seat }
       *[consonant] de { $seat }
    } a expiré : le coup est maintenu.

## reason
reason-pile = une carte a été piochée.
reason-shuffle = la pioche a été mélangée.
reason-dice = un dé a été lancé.
reason-tile = une nouvelle tuile a été annoncée.
reason-round_closed = la manche est close et ses placements sont révélés.
reason-round_scored = une manche a été comptée.
reason-game_over = la partie est terminée.
reason-ludix = à Ludix, chaque étape lance les dés : aucun coup ne se reprend.
reason-lutinades = aux Lutinades, les gestes sont révélés ensemble : aucun coup ne se reprend.

## error
error-revealed = Ce coup ne peut pas être repris : { $reason }
error-nothing = Vous n'avez aucun coup à reprendre ici (seul votre dernier coup se reprend, et une seule fois).
error-not_last = Un autre joueur a joué depuis votre dernier coup : il ne peut plus être repris.
error-not_allowed = Les reprises de coups ne sont pas permises pour la partie n°{ $game }.
error-limit = Vous avez déjà repris { $count ->
        [one] { $count } coup
       *[other] { $count } coups
    } dans la partie n°{ $game } : c'est le maximum de ce serveur.
error-pending = Une demande de reprise attend déjà la réponse des joueurs dans la partie n°{ $game }.
error-closed = Cette demande de reprise de la partie n°{ $game } est close (décidée, expirée, ou un coup a été joué depuis).
error-own_request = Vous ne répondez pas à votre propre demande de reprise (partie n°{ $game }).
error-not_voter = Seuls les autres joueurs de la partie n°{ $game } répondent à cette demande.
error-replay = Le journal de la partie n°{ $game } ne se rejoue pas exactement : aucune reprise n'est possible.
error-bad_limit = Le nombre de reprises doit aller de 0 à { $max } (reçu : { $value }).

## done
done-taken = ↩️ Coup repris (partie n°{ $id }).
done-asked = ↩️ Demande envoyée aux autres joueurs de la partie n°{ $id }.
done-cast = { $choice ->
        [accept] ✅ Vous acceptez la reprise.
       *[refuse] ✖️ Vous refusez la reprise.
    }

## config
config-line = Reprises de coups : { $allowed ->
        [on] permises, { $count } au plus par joueur et par partie.
       *[off] interdites.
    }
