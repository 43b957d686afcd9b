"""The archive of the long targets (docs/claims.md#the-archive): the small tables the ledger's rows need from
``asymptotics``, ``maximin_tail`` and ``maximin_bayes``, committed in ``archive/`` with their sha256 in
``archive/MANIFEST.sha256`` (paths relative to the folder above it, so ``duelbandits manifest verify
archive/MANIFEST.sha256`` checks it from the repository's root as it checks a paper run), so that ``claims``
rebuilds the ledger without running them; ``duelbandits archive FOLDER...`` refreshes it from folders where
they were built."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ...errors import InputError

OPTIONAL = {
    "local": ("asymptotics-local", "results/asymptotics/local.parquet"),
    "tail": ("tail-estimates", "results/maximin-tail/estimates.parquet"),
    "family": ("tail-family", "results/maximin-tail/family.parquet"),
    "bayes": ("bayes-estimates", "results/maximin-bayes/estimates.parquet"),
}
"""The ledger's optional inputs: argument -> (table, the file the workflow passes), read if given."""

MANIFEST = "MANIFEST.sha256"
"""The archive's manifest, in the archive's folder."""

BAYES = "maximin-bayes"
"""The folder of the Bayesian estimates in the archive: one file per run, ``{prior}-T{horizon}.parquet``."""


class ArchiveError(InputError):
    """An archive, or a folder to refresh it from, is not what the ledger can read."""


def archived_name(key: str, frame, source) -> str:
    """The path inside the archive of the optional input ``key``'s table ``frame`` (read from ``source``): its
    results path without ``results/``; a Bayesian estimates table by its prior and longest horizon (several
    runs side by side); ArchiveError for a prior not in :data:`duelbandits.schemas.PRIORS`."""
    from ...schemas import PRIORS

    if key != "bayes":
        return OPTIONAL[key][1].removeprefix("results/")
    slugs, name = {name: slug for slug, name in PRIORS.items()}, str(frame["prior"].iloc[0])
    if name not in slugs:
        raise ArchiveError(f"{source}: its prior {name!r} is not one of the priors ({', '.join(slugs)})")
    return f"{BAYES}/{slugs[name]}-T{int(frame['horizon'].max())}.parquet"


def key_of(name: str) -> str | None:
    """The optional input an archived path (inside the archive) is read as, None for another file."""
    if name.startswith(f"{BAYES}/") and name.endswith(".parquet"):
        return "bayes"
    return next((k for k, (_, path) in OPTIONAL.items() if k != "bayes" and path == f"results/{name}"), None)


def _refuse_changed(folder: Path, status: dict, rels, advice: str) -> None:
    """ArchiveError naming the first of ``rels`` (paths of the archive in ``folder``) whose ``status``
    (:func:`duelbandits.manifest.verify`'s) is not identical, with ``advice``."""
    from ... import manifest

    bad = [rel for rel in rels if status[rel] != manifest.IDENTICAL]
    if bad:
        raise ArchiveError(f"{folder.parent / bad[0]}: {status[bad[0]]} against {folder / MANIFEST}: {advice}")


def archived(folder, keys) -> dict[str, list[Path]]:
    """``{key: [path, ...]}``: the files of the archive in ``folder`` (those its manifest lists) read as each
    optional input of ``keys``; ArchiveError for a folder without a manifest, or a file of those that
    ``manifest verify`` does not find identical (never regenerated, an archived file has the bytes it was
    archived with; a changed file the ledger does not read is not refused)."""
    from ... import manifest

    folder = Path(folder)
    if not (folder / MANIFEST).is_file():
        raise ArchiveError(f"{folder}: no {MANIFEST}: not an archive (docs/claims.md#the-archive)")
    status = manifest.verify(folder / MANIFEST, folder.parent)
    keyed = {rel: key_of(rel.removeprefix(f"{folder.resolve().name}/")) for rel in status}
    read = [rel for rel, key in keyed.items() if key in keys]
    advice = f"restore it (git checkout {folder}) or refresh the archive (docs/claims.md#the-archive)"
    _refuse_changed(folder, status, read, advice)
    files = {}
    for rel in read:
        files.setdefault(keyed[rel], []).append(folder.parent / rel)
    return files


def refresh(folders, folder) -> list[str]:
    """Copy the long targets' tables built in ``folders`` (each a folder snakemake ran in) into the archive
    ``folder`` and rewrite its manifest over every file it holds (a listed file deleted is dropped); the
    archived paths written. Refused before anything is written: an archive file other than its manifest's,
    a folder holding no table to archive, two folders giving the same archived file."""
    from ... import manifest, storage

    folder = Path(folder).resolve()
    root, kept, origins = folder.parent, [], {}
    if (folder / MANIFEST).exists():
        header = manifest.read(folder / MANIFEST)[0]
        status = manifest.verify(folder / MANIFEST, root)
        kept = [rel for rel, state in status.items() if state != manifest.MISSING]  # a listed file deleted: dropped
        _refuse_changed(folder, status, kept, f"restore the archive (git checkout {folder.name}) before refreshing it")
        try:
            origins = dict(json.loads(header.get("config", "{}")).get("archive", {}))
        except (ValueError, AttributeError):  # a config line of another shape: the origins are not carried over
            origins = {}
    new = {}
    for source in map(Path, folders):
        found = [(key, table, path) for key, (table, path) in OPTIONAL.items() if (source / path).is_file()]
        if not found:
            paths = ", ".join(path for _, path in OPTIONAL.values())
            raise ArchiveError(f"{source}: holds no table to archive (none of {paths})")
        for key, table, path in found:
            rel = f"{folder.name}/{archived_name(key, storage.read_frame(source / path, table), source / path)}"
            if rel in new:
                raise ArchiveError(f"{new[rel]} and {source / path} both give {rel}: refresh from one of them")
            new[rel], origins[rel] = source / path, path
    for rel, source in new.items():
        with storage.atomic_write(root / rel) as tmp:
            shutil.copyfile(source, tmp)
    rels = sorted(set(kept) | set(new))
    config = {"archive": {rel: origins.get(rel, "") for rel in rels}}  # each file's path in the folder it came from
    storage.write_text(folder / MANIFEST, manifest.build(root, rels, config))
    return sorted(new)
