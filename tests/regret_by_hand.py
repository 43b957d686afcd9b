"""The four per-step regrets computed by hand from the matrix, with no code of duelbandits.regret or
duelbandits.winners: the independent reference of the aggregation tests (unit and end to end).

Only for matrices with a Condorcet winner (the condorcet and borda scenarios): that action beats
every other, so its row minimum is the diagonal 1/2 while every other row has an entry < 1/2, and
it is also the unique Maximin winner the Maximin and Exp3.P regrets compare with.
"""

import numpy as np


def condorcet_winner(X):
    A = len(X)
    found = [i for i in range(A) if all(X[i][j] > 0.5 for j in range(A) if j != i)]
    assert len(found) == 1, "these hand computations need a Condorcet winner"
    return found[0]


def per_step_regrets(X, I, J):
    """``{kind: array}`` of the expected regret of each step (I[t], J[t]), kind as in docs/paper.md."""
    X = [list(map(float, row)) for row in np.asarray(X)]
    A = len(X)
    star = condorcet_winner(X)
    borda = [sum(row) / A for row in X]  # row means, the diagonal 1/2 included
    copeland = [sum(1 for j in range(A) if j != i and X[i][j] > 0.5) / (A - 1) for i in range(A)]
    best_borda, best_copeland = max(borda), max(copeland)
    out = {kind: np.empty(len(I)) for kind in ("maximin", "borda", "exp3p", "copeland")}
    for t, (i, j) in enumerate(zip(np.asarray(I).tolist(), np.asarray(J).tolist())):
        out["maximin"][t] = (X[star][i] + X[star][j] - 1.0) / 2.0
        out["borda"][t] = (2.0 * best_borda - borda[i] - borda[j]) / 2.0
        out["exp3p"][t] = (X[star][j] - X[i][j] + X[star][i] - X[j][i]) / 2.0
        out["copeland"][t] = (2.0 * best_copeland - copeland[i] - copeland[j]) / 2.0
    return out
