"""MergeRUCB (Zoghi, Whiteson & de Rijke, WSDM 2015, Algorithm 1), as a plain-Python duelbandits algorithm.

MergeRUCB runs RUCB's optimistic comparisons inside small batches of arms instead of over all pairs:

- **Partition.** The ``A`` arms are split at random into ``ceil(A / P)`` batches, ``P`` the batch size
  (the paper uses 4), of sizes as equal as possible (so none exceeds ``P``): :func:`initial_partition`.
- **Estimates.** ``W[i][j]`` counts the wins of ``i`` over ``j``, ``n_ij = W[i][j] + W[j][i]`` and, with
  ``t`` the 1-based step and ``C`` the log offset::

      u_ij = W[i][j] / n_ij + sqrt(alpha ln(t + C) / n_ij),     u_ij = 2 when n_ij = 0 (RUCB's x/0 := 1)

- **Each step** visits the next batch ``B`` in round-robin order and

  1. *eliminates* from ``B`` every arm ``i`` that another arm ``j`` of ``B`` beats with confidence,
     ``u_ij < 1/2`` (all at once; if that would empty ``B``, which needs a cycle, nothing is eliminated);
  2. *merges*: a batch left with one arm joins the smallest other batch; and when the arms left number at
     most half of the batches' capacity (``remaining <= P * batches / 2``), the batches are merged in pairs
     (the smallest with the largest, and so on), bringing the mean batch size back to about ``P``;
  3. *duels* inside the (possibly merged) batch: the candidate ``c`` uniform over ``B``, the challenger
     ``d = argmax_{j in B} u_jc`` (``u_cc = 1/2``; ties uniform, ``d != c`` on a tie), as RUCB does.

  Once a single arm remains in a single batch, it duels itself, ``(a, a)``, for the rest of the run.

A duel of an arm with itself teaches nothing and leaves ``W`` unchanged. Every random draw (the
partition, the candidate, the tie-breaks of the challenger and of merging) comes from the run's
generator; the instance holds all of its state. The choices the paper leaves open are in the
example's README ("Open choices").
"""

from __future__ import annotations

import math

import numpy as np

from duelbandits.algorithms import Algorithm, DuelingAlgorithm, Param

SLUG = "merge-rucb"
DEFAULT_BATCH_SIZE = 4
"""P, the size of the initial batches (the paper's experiments use 4)."""

DEFAULT_LOG_OFFSET = 1.0e6
"""C of ``ln(t + C)``: the paper's analysis takes C large (it sets the failure probability of the
confidence bounds); 1e6 makes ``ln(t + C) >= 13.8`` from the first step, so that an early unlucky
streak does not eliminate the Condorcet winner for good (README, "Open choices")."""


def initial_partition(actions: int, batch_size: int, rng: np.random.Generator) -> list[list[int]]:
    """The arms ``0..actions-1`` in a random order, cut into ``ceil(actions / batch_size)`` batches whose
    sizes differ by at most one (the first ``actions mod k`` batches hold one arm more); each batch sorted."""
    k = -(-actions // batch_size)
    order = [int(a) for a in rng.permutation(actions)]
    size, extra = divmod(actions, k)
    batches, start = [], 0
    for b in range(k):
        stop = start + size + (1 if b < extra else 0)
        batches.append(sorted(order[start:stop]))
        start = stop
    return batches


class MergeRUCB(DuelingAlgorithm):
    """MergeRUCB. Between steps, ``batches`` (lists of arms, in round-robin order), ``eliminated``
    (``(step, arm)``, in the order of elimination) and ``merges`` (``(step, "single" or "pairs")``)
    can be read."""

    def __init__(
        self,
        actions: int,
        horizon: int,
        rng: np.random.Generator,
        alpha: float = 0.51,
        batch_size: int = DEFAULT_BATCH_SIZE,
        log_offset: float = DEFAULT_LOG_OFFSET,
    ):
        super().__init__(actions, horizon, rng)
        params = ALGORITHM.params  # the entry's ranges, as the pipeline checks them
        self.alpha = float(params["alpha"].check(f"{SLUG}: alpha", alpha))
        self.batch_size = int(params["batch_size"].check(f"{SLUG}: batch_size", batch_size))
        self.log_offset = float(params["log_offset"].check(f"{SLUG}: log_offset", log_offset))
        self.wins = [[0] * actions for _ in range(actions)]
        self.batches = initial_partition(actions, self.batch_size, rng)
        self.remaining = actions
        self.eliminated: list[tuple[int, int]] = []
        self.merges: list[tuple[int, str]] = []
        self.t = 0  # the step being played, 1-based once select() ran
        self._next = 0  # index in batches of the batch the next step visits

    def ucb(self, i: int, j: int, log_term: float) -> float:
        """``u_ij``: the optimistic estimate of P(i beats j) (2 when the pair never met, 1/2 when i = j)."""
        if i == j:
            return 0.5
        w = self.wins[i][j]
        n = w + self.wins[j][i]
        if n == 0:
            return 2.0
        return w / n + math.sqrt(self.alpha * log_term / n)

    def _eliminate(self, batch: list[int], log_term: float) -> None:
        """Step 1: drop from ``batch`` (in place) every arm some other arm of it beats with confidence."""
        keep = [i for i in batch if all(self.ucb(i, j, log_term) >= 0.5 for j in batch if j != i)]
        if keep and len(keep) < len(batch):
            self.eliminated.extend((self.t, i) for i in batch if i not in keep)
            self.remaining -= len(batch) - len(keep)
            batch[:] = keep

    def _pick(self, items: list):
        """One of ``items``, uniform (no draw when there is one)."""
        return items[0] if len(items) == 1 else items[int(self.rng.integers(len(items)))]

    def _merge(self, current: list[int]) -> list[int]:
        """Step 2; returns the batch that now holds the arms of ``current``."""
        batches = self.batches
        if len(batches) > 1 and len(current) == 1:
            others = [b for b in batches if b is not current]
            smallest = min(len(b) for b in others)
            target = self._pick([b for b in others if len(b) == smallest])
            target.extend(current)
            target.sort()
            batches[:] = others
            current = target
            self.merges.append((self.t, "single"))
        if len(batches) > 1 and 2 * self.remaining <= self.batch_size * len(batches):
            shuffled = [batches[int(k)] for k in self.rng.permutation(len(batches))]
            by_size = sorted(shuffled, key=len)  # stable: equal sizes in random order
            merged = []
            for k in range(len(by_size) // 2):
                merged.append(sorted(by_size[k] + by_size[-1 - k]))
            if len(by_size) % 2:
                merged.append(by_size[len(by_size) // 2])
            batches[:] = merged
            current = next(b for b in merged if current[0] in b)
            self.merges.append((self.t, "pairs"))
        return current

    def select(self) -> tuple[int, int]:
        self.t += 1
        batches = self.batches
        if len(batches) == 1 and len(batches[0]) == 1:
            a = batches[0][0]
            return a, a
        log_term = math.log(self.t + self.log_offset)
        current = batches[self._next % len(batches)]
        self._eliminate(current, log_term)
        current = self._merge(current)
        self._next = (next(k for k, b in enumerate(batches) if b is current) + 1) % len(batches)
        if len(current) == 1:  # the last arm: it merged into nothing, so it is alone
            return current[0], current[0]
        c = self._pick(current)
        best, ties = -math.inf, []
        for j in current:
            if j == c:
                continue
            u = self.ucb(j, c, log_term)
            if u > best:
                best, ties = u, [j]
            elif u == best:
                ties.append(j)
        d = c if best < 0.5 else self._pick(ties)  # d = c only if c beats every other arm of B with confidence
        return c, d

    def update(self, i: int, j: int, outcome: int) -> None:
        if i == j:
            return
        if outcome == 1:
            self.wins[i][j] += 1
        else:
            self.wins[j][i] += 1


_ALPHA = "RUCB confidence-bound parameter alpha of u_ij (> 0.5 in the analysis)."

ALGORITHM = Algorithm(
    slug=SLUG,
    label="MergeRUCB",
    citation=(
        "Zoghi, Whiteson & de Rijke, MergeRUCB: A Method for Large-Scale Online Ranker Evaluation, "
        "WSDM 2015, Algorithm 1"
    ),
    implementation="duelbandits_mergerucb.mergerucb:MergeRUCB",
    regrets={"condorcet": "maximin", "borda": "borda", "target": "copeland"},
    color="#17becf",
    params={
        "alpha": Param(0.51, _ALPHA, minimum=0.0, exclusive_minimum=True),
        "batch_size": Param(
            DEFAULT_BATCH_SIZE,
            "P: the size of the initial batches, ceil(A / P) of them (the paper's experiments use 4).",
            minimum=2,
            integer=True,
        ),
        "log_offset": Param(
            DEFAULT_LOG_OFFSET,
            "C of the confidence radius sqrt(alpha ln(t + C) / n_ij); larger C eliminates later and more safely.",
            minimum=0.0,
        ),
    },
    horizon_tuned=False,
)
