## general
usage =
    Usage :
    {" "} python -m bot                        lance le bot
    {" "} python -m bot backup [FICHIER]       sauvegarde la base (LUDIBOT_DB)
    {" "} python -m bot migrate-db --to URL    copie la base SQLite (LUDIBOT_DB) dans PostgreSQL

## error
error-too_new =
    La base de données { $path } a été écrite par une version plus récente de Ludibot (schéma { $found } ; cette version connaît jusqu'au schéma { $known }).
    Ludibot ne l'ouvre pas, pour ne rien abîmer. Installez la version plus récente, ou restaurez une sauvegarde faite par cette version (README, section « Backup and restore »).
error-open = Impossible d'ouvrir la base de données { $path } : { $error }
error-unwritable = La base de données { $path } ne peut pas être écrite ({ $reason ->
        [full] le disque est plein
       *[readonly] elle est en lecture seule
    }) : Ludibot ne démarre pas, car aucun coup ne pourrait être enregistré. { $reason ->
        [full] Libérez de la place sur le disque,
       *[readonly] Rendez le fichier (et son dossier) accessible en écriture, ou connectez-vous à un serveur PostgreSQL qui accepte les écritures,
    } puis relancez.

## backup
backup-usage = Usage : python -m bot backup [FICHIER]   (sans FICHIER : à côté de la base, daté)
backup-done = Sauvegarde de { $source } écrite dans { $path }. Pour la restaurer : arrêtez le bot, copiez-la à la place du fichier de la base (et supprimez ses fichiers -wal et -shm), relancez.
backup-missing = Pas de base SQLite à { $path } : rien à sauvegarder (LUDIBOT_DB).
backup-postgres =
    La base est PostgreSQL ({ $url }) : sauvegardez-la avec les outils de PostgreSQL, pendant que le bot tourne :
    {" "} pg_dump --format=custom --file=ludibot.dump "$LUDIBOT_DB"
    Pour restaurer : arrêtez le bot, puis
    {" "} pg_restore --clean --if-exists --no-owner --dbname="$LUDIBOT_DB" ludibot.dump
    et relancez-le.

## migrate
migrate-usage = Usage : python -m bot migrate-db --to postgresql://utilisateur:motdepasse@hôte:5432/base   (la source est le fichier SQLite de LUDIBOT_DB)
migrate-not_sqlite = La source de migrate-db est le fichier SQLite de LUDIBOT_DB, et il n'y en a pas à { $path }.
migrate-not_empty = La base { $url } contient déjà des parties : migrate-db ne copie que dans une base vide.
migrate-count_mismatch = Copie annulée : la table { $table } a { $source } lignes dans SQLite mais { $copied } après la copie.
migrate-checksum_mismatch = Copie annulée : l'état de certaines parties diffère après la copie ({ $games }).
migrate-done =
    Copie terminée de { $source } vers { $url } : { $games } parties, état de chacune vérifié (somme de contrôle).
    Lignes copiées : { $counts }.
    Mettez maintenant LUDIBOT_DB={ $url } et relancez le bot.
