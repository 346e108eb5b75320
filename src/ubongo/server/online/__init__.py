"""What a player keeps between games: accounts and names, ratings, quick match, the daily
challenge, replays of stored games, and fair play (what a result is worth: the floors, play
traces, plausibility, who may be seated with whom).

May import: :mod:`..protocol`, :mod:`..config`, :mod:`..ops`, :mod:`..store`.
"""
