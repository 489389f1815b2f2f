## general
no_token =
    Ludibot needs a Discord bot token, and DISCORD_TOKEN is not set.

    To get one:
    {" "} 1. Open https://discord.com/developers/applications and click “New Application”; name it (e.g. Ludibot).
    {" "} 2. “Bot” tab: click “Reset Token” and copy the token. No privileged intent is needed
    {" "}    (no Message Content, Server Members or Presence): the bot only uses slash commands.
    {" "} 3. Put the token in a .env file at the project's root (copy .env.example):
    {" "}       DISCORD_TOKEN=your-token
    {" "}    and, to try it on a test server with instant command sync:
    {" "}       LUDIBOT_DEV_GUILD=server-id
    {" "} 4. Invite the bot to your server with this address (the application id is on the “General Information” page):
    {" "}       { $invite }
    {" "}    Permissions asked ({ $permissions }): view channels, send messages (and in threads), embed links,
    {" "}    attach files, read message history. Scopes: bot, applications.commands.
    {" "} 5. Run again: make run

    Never share your token; Ludibot never writes it to its logs.
bad_token = Discord refuses this token (DISCORD_TOKEN). Reset it in the developer portal's “Bot” tab and put it in .env.
## error
error-dev_guild = LUDIBOT_DEV_GUILD must be a server's numeric id (got “{ $value }”).
error-log_level = LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL (got “{ $value }”).

## merged from main
error-shard_count = LUDIBOT_SHARD_COUNT must be a whole number of shards, at least 1 (got “{ $value }”).
error-shard_ids = LUDIBOT_SHARD_IDS must list shard numbers, such as “0,1” or “0-3” (got “{ $value }”).
error-shard_ids_without_count = LUDIBOT_SHARD_IDS (“{ $value }”) also needs LUDIBOT_SHARD_COUNT, the total number of shards over all processes.
error-shard_ids_range = LUDIBOT_SHARD_IDS (“{ $value }”) names shard { $shard }, but LUDIBOT_SHARD_COUNT is { $count }: shards go from 0 to { $last }.
error-metrics_port = LUDIBOT_METRICS_PORT must be a TCP port between 1 and 65535 (got “{ $value }”).
error-activity_port = LUDIBOT_ACTIVITY_PORT must be a TCP port between 1 and 65535 (got “{ $value }”).
gateway-auth_failed = Discord closed the connection (code 4004): the token (DISCORD_TOKEN) is not accepted. Reset it in the developer portal's “Bot” tab and put it in .env.
gateway-invalid_shard = Discord closed shard { $shard }'s connection (code 4010): no such shard. Check LUDIBOT_SHARD_IDS and LUDIBOT_SHARD_COUNT (or leave them empty).
gateway-sharding_required = Discord closed the connection (code 4011): the bot is in too many servers for one shard. Leave LUDIBOT_SHARD_COUNT empty (Discord picks the number of shards) or raise it, then start again.
gateway-invalid_api_version = Discord closed the connection (code 4012): API version refused. Update Ludibot (and discord.py).
gateway-invalid_intents = Discord closed the connection (code 4013): invalid intents. This is a bug in Ludibot: please report it.
gateway-disallowed_intents = Discord closed the connection (code 4014): a privileged intent is requested but not enabled. Ludibot asks for none: update Ludibot, or enable the intent in the developer portal's “Bot” tab.
gateway-closed = Discord closed shard { $shard }'s connection (code { $code }: { $reason }) and the bot stops.
