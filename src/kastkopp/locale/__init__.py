"""The gettext catalogs: ``messages`` for the pages, ``errors`` for the engine's errors."""
