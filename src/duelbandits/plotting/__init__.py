"""The style every study's figures share (:mod:`.style`); the figures are their studies' own
(:mod:`duelbandits.studies`), plain ``matplotlib.figure.Figure`` objects that never touch pyplot or the
global rcParams."""
