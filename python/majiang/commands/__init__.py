"""Subcommands of the ``majiang`` command line, one module each.

Every module here defines ``register(subparsers)``, which adds its parser and sets
``func`` to the function that runs it; :mod:`majiang.cli` discovers them.
"""
