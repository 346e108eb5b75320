"""What a player keeps between games: accounts and names, ratings, quick match, the daily
challenge, replays of stored games.

May import: :mod:`..protocol`, :mod:`..config`, :mod:`..ops`, :mod:`..store`.
"""
