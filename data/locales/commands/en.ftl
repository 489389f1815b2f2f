# Command and option names (Discord name localizations, see bot/translator.py).
# Key: command-<base name> / option-<base name>. The base names are French (a few
# early ones are English: join, leave, status, rules, cancel, start); each language
# gives the name its clients see. Rule: ^[-_\p{L}\p{N}]{1,32}$, lower case, unique
# within its parent (tests/test_i18n.py checks it on the real command tree).

## command
command-abandon = resign
command-annuler-coup = undo
command-ajouter = add
command-allonger = lengthen
command-cancel = cancel
command-classement = leaderboard
command-config = config
command-declarer = declare
command-deplacer = move
command-echanger = exchange
command-historique = history
command-join = join
command-jouer = play
command-kallax = kallax
command-main = hand
command-leave = leave
command-ludibot = ludibot
command-parties = games
command-pivoter = pivot
command-placer = place
command-poser = lay
command-preferences = preferences
command-vacances = vacation
command-profil = profile
command-records = records
command-rules = rules
command-start = start
command-status = status
command-table = table
command-tapis = mat
command-armada = armada
command-limit = limit
command-ludime = ludime
command-ludix = ludix
command-lutinades = lutinades
command-ranta = ranta
command-tectonic = tectonic
command-casse = broken
command-export = export

## option
option-a = a
option-adversaire = opponent
option-b = b
option-c = c
option-case = cell
option-de = from
option-delai = timeout
option-des = dice
option-format = format
option-forfait = forfeit
option-ia = ai
option-jeu = game
option-joueur = player
option-langue = language
option-lettres = letters
option-membre = member
option-mode = mode
option-mot = word
option-niveau = level
option-nouveau = new
option-objectif = target
option-orientation = orientation
option-paires = pairs
option-partie = game
option-periode = period
option-plateau = board
option-point = point
option-position = position
option-rappel = reminder
option-rappels_mp = dm_reminders
option-recul_pic = peak_backward
option-reinitialiser = reset
option-retourner = flip
option-serie = series
option-solo = solo
option-tuiles = tiles
option-variant = variant
option-variante = variant
option-vers = to
option-annuler = cancel
option-fil = thread
option-reprises = takebacks
option-reprises_max = takebacks_max
option-rythme = pace
option-jours = days

## command (tournaments, issue 28)
command-tournoi = tournament
command-creer = create
command-inscrire = join
command-desinscrire = leave
command-lancer = start
command-etat = status
command-annuler = cancel

## option (tournaments, issue 28)
option-rondes = rounds
option-places = places
option-fiabilite = reliability
option-tournoi = tournament
option-organisateur = organiser
option-saison = season
command-chercher = find
command-defi = challenge
command-defi-du-jour = daily-challenge
option-classement = board
option-joueurs = players
option-quitter = leave
