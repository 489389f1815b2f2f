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
intents = Discord refuses the requested intents: check the developer portal's “Bot” tab.

## error
error-dev_guild = LUDIBOT_DEV_GUILD must be a server's numeric id (got “{ $value }”).
error-log_level = LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL (got “{ $value }”).
