"""What a preference matrix is (:func:`validate_matrix`) and the matrices read from CSV files: a
user's (the ``file`` scenario, config ``matrix_file``) and the field's published benchmarks shipped as
package data (:data:`BENCHMARKS`)."""

from __future__ import annotations

import csv
from importlib import resources
from pathlib import Path

import numpy as np

from .errors import MatrixError, ScenarioError, why_unreadable

BENCHMARKS = {
    "arithmetic": (
        "arithmetic.csv",
        "Komiyama et al. (COLT 2015), RMED experiments: X[i, j] = 0.5 + 0.05 (j - i); action 0 the Condorcet winner",
    ),
    "mslr5": (
        "mslr5.csv",
        "Wu & Liu (NeurIPS 2016), DTS experiments: 5 MSLR rankers, action 0 (the first ranker) the Condorcet winner",
    ),
}
"""Published benchmark matrices: name -> (file in ``duelbandits/data``, one-line source). Each file's
``#`` header cites the publication and the repository, path and commit its numbers come from."""

MATRIX_ATOL = 1e-12
"""Tolerance of the preference-matrix identities (``X + X^T = 1``, diagonal 1/2) of computed matrices."""

FILE_ATOL = 1e-6
"""Tolerance of the same identities for a matrix read from a file: spreadsheets and exports write
6 or 7 decimals, and two entries rounded to 6 decimals miss a sum of 1 by up to 1e-6. A matrix
within this tolerance but not within :data:`MATRIX_ATOL` is then symmetrised
(``X <- (X + 1 - X^T) / 2``, diagonal 1/2), so every algorithm sees a preference matrix."""


def validate_matrix(matrix, atol: float = MATRIX_ATOL) -> np.ndarray:
    """``matrix`` as a float array, or MatrixError naming the fault (what a preference matrix is:
    docs/paper.md)."""
    try:
        X = np.array(matrix, dtype=float)
    except (TypeError, ValueError) as err:
        raise MatrixError(f"preference matrix is not numeric: {err}") from None
    if X.ndim != 2 or X.shape[0] != X.shape[1]:
        raise MatrixError(f"preference matrix must be square, got shape {X.shape}")
    if X.shape[0] < 2:  # pragma: no mutate -- shape[1] for shape[0]: checked square before
        # mutmut equivalent: shape[1] for shape[0]: checked square before
        raise MatrixError(f"preference matrix needs at least 2 actions, got {X.shape[0]}")  # pragma: no mutate
    for bad, fault in ((~np.isfinite(X), "has a non-finite entry"), ((X < 0) | (X > 1), "entries must lie in [0, 1]")):
        if bad.any():  # the first entry at fault, row by row
            i, j = map(int, np.argwhere(bad)[0])
            raise MatrixError(f"preference matrix {fault}, X[{i}, {j}] = {float(X[i, j])!r}", (i, j))
    diag = np.abs(np.diag(X) - 0.5)
    if diag.max() > atol * (1 + 1e-9):
        i = int(np.argmax(diag))
        raise MatrixError(f"preference matrix diagonal must be 1/2, X[{i}, {i}] = {float(X[i, i])!r}", (i, i))
    gap = np.abs(X + X.T - 1.0)
    np.fill_diagonal(gap, 0.0)
    if gap.max() > atol * (1 + 1e-9):  # the slack: the rounding of the sum itself
        i, j = map(int, np.unravel_index(int(np.argmax(gap)), gap.shape))
        raise MatrixError(
            f"preference matrix must satisfy X[i, j] + X[j, i] = 1 (tolerance {atol:g}); "
            f"X[{i}, {j}] + X[{j}, {i}] = {float(X[i, j])!r} + {float(X[j, i])!r} = {float(X[i, j] + X[j, i])!r}",
            (i, j),
        )
    return X


def read_matrix_file(path) -> np.ndarray:
    """Read a preference matrix from a CSV file (its format: docs/beyond-the-paper.md); errors name the
    file and the problem. It must pass :func:`validate_matrix` with :data:`FILE_ATOL`; it is returned
    symmetrised."""
    if path is None:
        raise ScenarioError("the file scenario needs the path of a CSV matrix file")
    path = Path(path)
    problem = why_unreadable(path)
    if problem:
        raise ScenarioError(f"matrix file {path}: {problem}")
    try:
        text = path.read_text(encoding="utf-8-sig")  # pragma: no mutate -- 'UTF-8-SIG': codec names ignore case
    except (OSError, UnicodeDecodeError) as err:
        raise ScenarioError(f"matrix file {path}: cannot be read ({err})") from None
    rows, lines = [], []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = next(csv.reader([line]))
        row = []
        for col, value in enumerate(fields, start=1):
            try:
                row.append(float(value.strip()))
            except ValueError:
                raise ScenarioError(
                    f"matrix file {path}: line {lineno}, column {col}: {value.strip()!r} is not a number"
                ) from None
        rows.append(row)
        lines.append(lineno)
    if not rows:
        raise ScenarioError(f"matrix file {path}: no matrix rows found")
    for lineno, row in zip(lines, rows):
        if len(row) != len(rows):
            raise ScenarioError(
                f"matrix file {path}: not a square matrix: {len(rows)} rows, but line {lineno} has {len(row)} entries"
            )
    try:
        X = validate_matrix(rows, atol=FILE_ATOL)
    except MatrixError as err:
        where = f" (line {lines[err.position[0]]}, column {err.position[1] + 1})" if err.position else ""
        raise ScenarioError(f"matrix file {path}: {err}{where}") from None
    try:
        return validate_matrix(X)
    except MatrixError:  # within FILE_ATOL, not within MATRIX_ATOL: make it exact
        X = (X + 1.0 - X.T) / 2.0
        np.fill_diagonal(X, 0.5)
        return X


def fitted_utilities(matrix: np.ndarray, clip: float = 1e-3) -> np.ndarray:
    """Least-squares Bradley-Terry utilities ``u[i] = mean_j logit X[i, j]``, shifted to min 0: the
    ``file`` scenario's stand-in for latent utilities (entries clipped so that 0 and 1 stay finite)."""
    # mutmut equivalent: dtype=None or dtype dropped: np.clip to float bounds gives floats
    X = np.clip(np.asarray(matrix, dtype=float), clip, 1.0 - clip)  # pragma: no mutate
    u = np.log(X / (1.0 - X)).mean(axis=1)
    return u - u.min()


def benchmark_matrix(name: str) -> np.ndarray:
    """The :data:`BENCHMARKS` matrix ``name``, read from the package data (:func:`read_matrix_file`)."""
    with resources.as_file(resources.files(__package__).joinpath("data", BENCHMARKS[name][0])) as path:
        return read_matrix_file(path)
