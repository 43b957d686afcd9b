"""The style every study's figures share (:mod:`.style`); the figures, their studies' own, are plain
``matplotlib.figure.Figure`` objects that never touch pyplot or the global rcParams."""
