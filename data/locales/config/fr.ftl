## general
no_token =
    Ludibot a besoin d'un jeton (token) de bot Discord, et DISCORD_TOKEN n'est pas défini.

    Pour en obtenir un :
    {" "} 1. Ouvrez https://discord.com/developers/applications et cliquez « New Application » ; donnez-lui un nom (par ex. Ludibot).
    {" "} 2. Onglet « Bot » : cliquez « Reset Token », copiez le jeton. Aucun intent privilégié n'est nécessaire
    {" "}    (ni Message Content, ni Server Members, ni Presence) : le bot n'utilise que les commandes slash.
    {" "} 3. Mettez le jeton dans un fichier .env à la racine du projet (copiez .env.example) :
    {" "}       DISCORD_TOKEN=votre-jeton
    {" "}    et, pour essayer sur un serveur de test avec une synchronisation immédiate des commandes :
    {" "}       LUDIBOT_DEV_GUILD=identifiant-du-serveur
    {" "} 4. Invitez le bot sur votre serveur avec cette adresse (l'identifiant d'application est sur la page « General Information ») :
    {" "}       { $invite }
    {" "}    Permissions demandées ({ $permissions }) : voir les salons, envoyer des messages (et dans les fils),
    {" "}    intégrer des liens, joindre des fichiers, lire l'historique. Portées : bot, applications.commands.
    {" "} 5. Relancez : make run

    Ne partagez jamais votre jeton ; Ludibot ne l'écrit jamais dans ses journaux.
bad_token = Discord refuse ce jeton (DISCORD_TOKEN). Régénérez-le dans l'onglet « Bot » du portail développeur et mettez-le dans .env.
## error
error-dev_guild = LUDIBOT_DEV_GUILD doit être l'identifiant numérique d'un serveur (reçu : « { $value } »).
error-log_level = LOG_LEVEL doit valoir DEBUG, INFO, WARNING, ERROR ou CRITICAL (reçu : « { $value } »).

## merged from main
error-shard_count = LUDIBOT_SHARD_COUNT doit être un nombre entier de shards, au moins 1 (reçu : « { $value } »).
error-shard_ids = LUDIBOT_SHARD_IDS doit lister des numéros de shards, par exemple « 0,1 » ou « 0-3 » (reçu : « { $value } »).
error-shard_ids_without_count = LUDIBOT_SHARD_IDS (« { $value } ») demande aussi LUDIBOT_SHARD_COUNT, le nombre total de shards de tous les processus.
error-shard_ids_range = LUDIBOT_SHARD_IDS (« { $value } ») nomme le shard { $shard }, mais LUDIBOT_SHARD_COUNT vaut { $count } : les shards vont de 0 à { $last }.
error-metrics_port = LUDIBOT_METRICS_PORT doit être un port TCP entre 1 et 65535 (reçu : « { $value } »).
error-activity_port = LUDIBOT_ACTIVITY_PORT doit être un port TCP entre 1 et 65535 (reçu : « { $value } »).
gateway-auth_failed = Discord a fermé la connexion (code 4004) : le jeton (DISCORD_TOKEN) n'est pas accepté. Régénérez-le dans l'onglet « Bot » du portail développeur et mettez-le dans .env.
gateway-invalid_shard = Discord a fermé la connexion du shard { $shard } (code 4010) : ce numéro de shard n'existe pas. Vérifiez LUDIBOT_SHARD_IDS et LUDIBOT_SHARD_COUNT (ou laissez-les vides).
gateway-sharding_required = Discord a fermé la connexion (code 4011) : le bot est sur trop de serveurs pour un seul shard. Laissez LUDIBOT_SHARD_COUNT vide (Discord choisit le nombre de shards) ou augmentez-le, puis relancez.
gateway-invalid_api_version = Discord a fermé la connexion (code 4012) : version d'API refusée. Mettez à jour Ludibot (et discord.py).
gateway-invalid_intents = Discord a fermé la connexion (code 4013) : intents invalides. C'est un défaut de Ludibot : signalez-le.
gateway-disallowed_intents = Discord a fermé la connexion (code 4014) : un intent privilégié est demandé mais pas activé. Ludibot n'en demande aucun : mettez Ludibot à jour, ou activez l'intent dans l'onglet « Bot » du portail développeur.
gateway-closed = Discord a fermé la connexion du shard { $shard } (code { $code } : { $reason }) et le bot s'arrête.
