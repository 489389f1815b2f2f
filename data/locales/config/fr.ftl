## general
no_token =
    Ludibot a besoin d'un jeton (token) de bot Discord, et DISCORD_TOKEN n'est pas défini.

    Pour en obtenir un :
    {" "} 1. Ouvrez https://discord.com/developers/applications et cliquez « New Application » ; donnez-lui un nom (par ex. Ludibot).
    {" "} 2. Onglet « Bot » : cliquez « Reset Token », copiez le jeton. Aucun intent privilégié n'est nécessaire
    {" "}    (ni Message Content, ni Server Members, ni Presence) : le bot n'utilise que les commandes slash.
    {" "} 3. Mettez le jeton dans un fichier .env à la racine du projet (copiez .env.example) :
    {" "}       DISCORD_TOKEN=votre-jeton
    {" "}    et, pour essayer sur un serveur de test avec une synchronisation immédiate des commandes :
    {" "}       LUDIBOT_DEV_GUILD=identifiant-du-serveur
    {" "} 4. Invitez le bot sur votre serveur avec cette adresse (l'identifiant d'application est sur la page « General Information ») :
    {" "}       { $invite }
    {" "}    Permissions demandées ({ $permissions }) : voir les salons, envoyer des messages (et dans les fils),
    {" "}    intégrer des liens, joindre des fichiers, lire l'historique. Portées : bot, applications.commands.
    {" "} 5. Relancez : make run

    Ne partagez jamais votre jeton ; Ludibot ne l'écrit jamais dans ses journaux.
bad_token = Discord refuse ce jeton (DISCORD_TOKEN). Régénérez-le dans l'onglet « Bot » du portail développeur et mettez-le dans .env.
intents = Discord refuse les intents demandés : vérifiez l'onglet « Bot » du portail développeur.

## error
error-dev_guild = LUDIBOT_DEV_GUILD doit être l'identifiant numérique d'un serveur (reçu : « { $value } »).
error-log_level = LOG_LEVEL doit valoir DEBUG, INFO, WARNING, ERROR ou CRITICAL (reçu : « { $value } »).
