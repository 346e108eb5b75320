"""Ubongo: the engine, generator, rules, server and clients of the Ubongo puzzle-race games.

The layers, inner to outer (an inner layer never imports an outer one)::

    geometry -> pieces -> board -> solver -> puzzles -> rules -> server -> clients
"""

__version__ = "0.1.0"
