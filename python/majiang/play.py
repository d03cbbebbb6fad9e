"""The play part of the public API (re-exported by :mod:`majiang`)."""

__all__: list[str] = []
