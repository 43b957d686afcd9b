"""Plain-Python MultiSBM and Doubler (Ailon, Karnin & Joachims, ICML 2014), written out literally with
their singleton bandit machine, UCB, as a small class. They draw their random numbers by the same calls
in the same order as ``duelbandits.algorithms.multisbm`` and ``.doubler`` (UCB's ties and the first
action by ``rng.integers``; Doubler's draw from ``L`` only when ``L`` has more than one element).
"""

from __future__ import annotations

import math

from literal import Trace, counters, pick


class UCB:
    """UCB over ``K`` arms: an unplayed arm if any, else the largest ``mean + sqrt(alpha log n / pulls)``."""

    def __init__(self, K, alpha):
        self.pulls, self.rewards, self.alpha = [0] * K, [0] * K, alpha

    def pick(self, rng):
        K, n = len(self.pulls), sum(self.pulls)
        index = [
            math.inf
            if self.pulls[k] == 0
            else self.rewards[k] / self.pulls[k] + math.sqrt(self.alpha * math.log(n) / self.pulls[k])
            for k in range(K)
        ]
        return pick([k for k in range(K) if index[k] == max(index)], rng)

    def learn(self, k, reward):
        self.pulls[k] += 1
        self.rewards[k] += reward


def _play(X, x, y, rng, out, events):
    events["self-duel"] += x == y
    return 1 - out.duel(X, x, y, rng)  # the reward of y, the machine's pick


def multisbm(X, T, rng, events=None, alpha=2.01):
    """One literal MultiSBM run; ``events`` counts the self-duels (its sign of convergence)."""
    A = X.shape[0]
    events = counters(events, "self-duel")
    machines = [UCB(A, alpha) for _ in range(A)]
    y = int(rng.integers(0, A))
    out = Trace()
    for _ in range(T):
        x = y
        y = machines[x].pick(rng)
        machines[x].learn(y, _play(X, x, y, rng, out, events))
    return out.arrays()


def doubler(X, T, rng, events=None, alpha=2.01):
    """One literal Doubler run; ``events`` counts the epochs and self-duels."""
    A = X.shape[0]
    events = counters(events, "epoch", "self-duel")
    L = [int(rng.integers(0, A))]
    out = Trace()
    i = 0
    while len(out) < T:
        i += 1
        events["epoch"] += 1
        machine, ys = UCB(A, alpha), []
        for _ in range(2**i):
            if len(out) == T:
                break
            x = pick(L, rng)
            y = machine.pick(rng)
            machine.learn(y, _play(X, x, y, rng, out, events))
            ys.append(y)
        L = ys
    return out.arrays()
