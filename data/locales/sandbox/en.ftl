## general
players = Virtual players
channels = Channels
playing_as = you play: { $name }
only_you = Only you can see this
dismiss = Dismiss message
send = Send
command_placeholder = e.g. ludix start
unknown_command = Unknown command: pick one from the list.
client_language = { $name }: Discord client language (tap to change)
option_required = This field is required.
option_range = The value must be between { $min } and { $max }.
option_min = The value must be at least { $min }.
option_max = The value must be at most { $max }.
option_integer = A whole number, please.
option_length = { $min } to { $max } characters (here { $count }).
options_hide = Hide options
options_show = Show options
bot_online = Bot connected
bot_offline = Bot starting…
error = Error
yes = yes
no = no

lang = en
unknown_channel = unknown channel
spoiler = Spoiler: tap to reveal
close = Close
modal_submit = Submit
modal_cancel = Cancel
modal_unsupported = (a field the sandbox cannot show)
modal_gone = This form is no longer open: do again what opened it.

## console
console-ready = Ludibot sandbox ready: open { $url } (listening on 127.0.0.1 only). Ctrl+C to stop.
console-no_token = No Discord token: starting the local sandbox (fake Discord + real bot).

## merged from main
older_messages = Older messages
