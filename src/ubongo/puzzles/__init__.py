"""Puzzles made by the project: the deck model, the generator and the difficulty score."""
