## error
error-no_ai = This game cannot be played against the AI.
error-too_many_ai = Too many AI players: { $max } at most.
error-full = The game is full ({ $max } players at most).
error-challenge_ai = This game is a challenge: it waits for the member challenged, not for an AI.
error-only_creator = Only the game's creator (or a server moderator) can do that.
error-only_creator_cancel = Only the game's creator (or a server moderator) can cancel it.
error-already_joined = You have already joined this game.
error-not_joined = You have not joined this game.
error-creator_leaves = You created this game: cancel it instead of leaving.
error-not_enough = At least { $min } players are needed to start (joined: { $count }).

## merged from main
error-bad_level = The AI level goes from { $min } to { $max } (you asked for { $value }).
