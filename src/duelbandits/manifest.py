"""A checksum manifest of a results tree, and its verification.

The manifest is ``sha256sum``-style lines (``<hex>  <path>``), one per result
and figure, sorted by path, preceded by ``#`` lines that record the Python
and dependency versions and the config used. It holds no timestamps, so the
same inputs and environment give the same manifest.
"""

from __future__ import annotations

import hashlib
import json
import platform
import sys
from importlib import metadata
from pathlib import Path

PACKAGES = ("duelbandits", "numpy", "numba", "llvmlite", "pandas", "pyarrow", "matplotlib", "seaborn", "snakemake")
"""Distributions whose versions the manifest records."""


class ManifestError(ValueError):
    """A manifest is unreadable or names files that cannot be hashed."""


def sha256(path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def environment() -> dict:
    """Python and dependency versions of this interpreter."""
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return {"python": platform.python_version(), "implementation": sys.implementation.name, **versions}


def build(root, files, config: dict) -> str:
    """Manifest text for ``files`` (paths relative to ``root``)."""
    root = Path(root)
    lines = [
        "# duelbandits results manifest: sha256 of every result and figure",
        "# verify with: duelbandits manifest verify results/MANIFEST.sha256",
        f"# environment: {json.dumps(environment(), sort_keys=True)}",
        f"# config: {json.dumps(config, sort_keys=True)}",
    ]
    for rel in sorted({Path(f).as_posix() for f in files}):
        path = root / rel
        if not path.is_file():
            raise ManifestError(f"{path}: not a file, cannot be listed in the manifest")
        lines.append(f"{sha256(path)}  {rel}")
    return "\n".join(lines) + "\n"


def read(path) -> tuple[dict, dict]:
    """``(header, {path: hex})`` of a manifest file."""
    path = Path(path)
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as err:
        raise ManifestError(f"{path}: cannot read manifest ({err})") from None
    header, entries = {}, {}
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("# ") and ": " in line:
            key, _, value = line[2:].partition(": ")
            header[key] = value
        elif line and not line.startswith("#"):
            digest, sep, rel = line.partition("  ")
            if not sep or len(digest) != 64 or not rel:
                raise ManifestError(f"{path}:{number}: not a '<sha256>  <path>' line")
            entries[rel] = digest
    if not entries:
        raise ManifestError(f"{path}: lists no files")
    return header, entries


def verify(manifest, root) -> list[str]:
    """Problems found checking the tree at ``root`` against ``manifest`` (empty: all good)."""
    _, entries = read(manifest)
    root = Path(root)
    problems = []
    for rel, digest in entries.items():
        path = root / rel
        if not path.is_file():
            problems.append(f"missing: {rel}")
        elif sha256(path) != digest:
            problems.append(f"changed: {rel}")
    return problems
