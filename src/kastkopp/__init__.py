"""kastkopp — the Scandinavian dice games."""

__version__ = "0.1.0"
