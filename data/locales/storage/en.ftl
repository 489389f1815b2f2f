## general
usage =
    Usage:
    {" "} python -m bot                        run the bot
    {" "} python -m bot backup [FILE]          back up the database (LUDIBOT_DB)
    {" "} python -m bot migrate-db --to URL    copy the SQLite database (LUDIBOT_DB) into PostgreSQL

## error
error-too_new =
    The database { $path } was written by a newer release of Ludibot (schema { $found }; this release knows up to schema { $known }).
    Ludibot does not open it, so as to damage nothing. Install the newer release, or restore a backup made by this release (README, “Backup and restore”).
error-open = Cannot open the database { $path }: { $error }
error-unwritable = The database { $path } cannot be written ({ $reason ->
        [full] the disk is full
       *[readonly] it is read-only
    }): Ludibot does not start, as no move could be saved. { $reason ->
        [full] Free some disk space,
       *[readonly] Make the file (and its folder) writable, or connect to a PostgreSQL server that accepts writes,
    } then start it again.

## backup
backup-usage = Usage: python -m bot backup [FILE]   (without FILE: beside the database, dated)
backup-done = Backup of { $source } written to { $path }. To restore it: stop the bot, copy it over the database file (and delete its -wal and -shm files), start again.
backup-missing = No SQLite database at { $path }: nothing to back up (LUDIBOT_DB).
backup-postgres =
    The database is PostgreSQL ({ $url }): back it up with PostgreSQL's tools, while the bot runs:
    {" "} pg_dump --format=custom --file=ludibot.dump "$LUDIBOT_DB"
    To restore: stop the bot, then
    {" "} pg_restore --clean --if-exists --no-owner --dbname="$LUDIBOT_DB" ludibot.dump
    and start it again.

## migrate
migrate-usage = Usage: python -m bot migrate-db --to postgresql://user:password@host:5432/database   (the source is the SQLite file of LUDIBOT_DB)
migrate-not_sqlite = migrate-db copies the SQLite file of LUDIBOT_DB, and there is none at { $path }.
migrate-not_empty = The database { $url } already holds games: migrate-db only copies into an empty database.
migrate-count_mismatch = Copy cancelled: table { $table } has { $source } rows in SQLite but { $copied } after the copy.
migrate-checksum_mismatch = Copy cancelled: the state of some games differs after the copy ({ $games }).
migrate-done =
    Copied { $source } to { $url }: { $games } games, each one's state verified (checksum).
    Rows copied: { $counts }.
    Now set LUDIBOT_DB={ $url } and start the bot again.
