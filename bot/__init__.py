"""The Ludibot process: configuration, storage, sessions, lobby, i18n."""
