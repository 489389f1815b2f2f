"""Try Ludibot without Discord: the real bot against the built-in fake Discord, in a browser page.

``make run`` without a token starts it (see ``bot/launch.py``). Everything listens on
127.0.0.1 only; nothing reaches the internet.
"""
