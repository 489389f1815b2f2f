# Command and option names (Discord name localizations, see bot/translator.py).
# Key: command-<base name> / option-<base name>. The base names are French (a few
# early ones are English: join, leave, status, rules, cancel, start); each language
# gives the name its clients see. Rule: ^[-_\p{L}\p{N}]{1,32}$, lower case, unique
# within its parent (tests/test_i18n.py checks it on the real command tree).

## command
command-abandon = abandon
command-annuler-coup = annuler-coup
command-ajouter = ajouter
command-allonger = allonger
command-cancel = annuler
command-classement = classement
command-config = config
command-declarer = declarer
command-deplacer = deplacer
command-echanger = echanger
command-historique = historique
command-join = rejoindre
command-jouer = jouer
command-kallax = kallax
command-main = main
command-leave = quitter
command-ludibot = ludibot
command-parties = parties
command-pivoter = pivoter
command-placer = placer
command-poser = poser
command-preferences = preferences
command-vacances = vacances
command-profil = profil
command-records = records
command-rules = regles
command-start = lancer
command-status = etat
command-table = table
command-tapis = tapis
command-armada = armada
command-limit = limit
command-ludime = ludime
command-ludix = ludix
command-lutinades = lutinades
command-ranta = ranta
command-tectonic = tectonic
command-casse = casse
command-export = export

## option
option-a = a
option-adversaire = adversaire
option-b = b
option-c = c
option-case = case
option-de = de
option-delai = delai
option-des = des
option-format = format
option-forfait = forfait
option-ia = ia
option-jeu = jeu
option-joueur = joueur
option-langue = langue
option-lettres = lettres
option-membre = membre
option-mode = mode
option-mot = mot
option-niveau = niveau
option-nouveau = nouveau
option-objectif = objectif
option-orientation = orientation
option-paires = paires
option-partie = partie
option-periode = periode
option-plateau = plateau
option-point = point
option-position = position
option-rappel = rappel
option-rappels_mp = rappels_mp
option-recul_pic = recul_pic
option-reinitialiser = reinitialiser
option-retourner = retourner
option-serie = serie
option-solo = solo
option-tuiles = tuiles
option-variant = variant
option-variante = variante
option-vers = vers
option-annuler = annuler
option-fil = fil
option-reprises = reprises
option-reprises_max = reprises_max
option-rythme = rythme
option-jours = jours

## command (tournaments, issue 28)
command-tournoi = tournoi
command-creer = creer
command-inscrire = inscrire
command-desinscrire = desinscrire
command-lancer = lancer
command-etat = etat
command-annuler = annuler

## option (tournaments, issue 28)
option-rondes = rondes
option-places = places
option-fiabilite = fiabilite
option-tournoi = tournoi
option-organisateur = organisateur
option-saison = saison
command-chercher = chercher
command-defi = defi
command-defi-du-jour = defi-du-jour
option-classement = classement
option-joueurs = joueurs
option-quitter = quitter
