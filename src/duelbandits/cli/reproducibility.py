"""Commands that say what a tree holds and what made it: ``manifest write`` and ``manifest verify``
(the checksums and content digests of the paper run's results against a manifest), ``provenance``
(what made a file) and ``config-page`` (the effective config, for the report)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .args import UsageError, json_arg


def cmd_manifest_write(args) -> None:
    from .. import manifest, storage

    config = json_arg(args.config_json, "--config-json")
    plugins = json_arg(args.plugins_json, "--plugins-json")
    storage.write_text(args.out, manifest.build(args.root, args.files, config, plugins=plugins))


def described(source: dict) -> str:
    """A plugin's ``{distribution, version, digest}`` as ``manifest verify`` prints it."""
    return f"{source['distribution']} {source['version']} (digest {source['digest']})"


def cmd_manifest_verify(args) -> int:
    from .. import manifest
    from ..algorithms import ALGORITHMS
    from ..scenarios import REGISTRY

    if not Path(args.root).is_dir():
        raise UsageError(f"--root {args.root}: not a directory")
    reasons = {}
    status = manifest.verify(args.manifest, args.root, reasons)
    if all(state == manifest.MISSING for state in status.values()):
        print(
            f"none of the {len(status)} files is under {Path(args.root).resolve()}: run from the folder the "
            "manifest's paths are relative to (where snakemake ran), or pass --root",
            file=sys.stderr,
        )
    width = max(map(len, manifest.STATUSES))
    for rel, state in status.items():
        print(f"{state:{width}}  {rel}")
    for rel, reason in reasons.items():
        print(f"{rel}: differs: {reason}", file=sys.stderr)
    differences = manifest.environment_differences(args.manifest)
    if differences:
        print(
            "environment differs from the manifest's (tables compared by content, figures not confirmed): "
            + ", ".join(differences),
            file=sys.stderr,
        )
    for slug, made in sorted(manifest.recorded_plugins(args.manifest).items()):
        print(f"plugin {slug}: {described(made)}")
        entry = ALGORITHMS.get(slug) or REGISTRY.get(slug)
        installed = entry.source.as_dict() if entry is not None and entry.source is not None else None
        if installed != made:
            here = "not installed here" if installed is None else f"installed: {described(installed)}"
            print(f"plugin differs from the manifest's: {slug}: made by {described(made)}, {here}", file=sys.stderr)
    counts = {state: sum(s == state for s in status.values()) for state in manifest.STATUSES}
    summary = ", ".join(f"{n} {state}" for state, n in counts.items() if n or state != manifest.NOT_CONFIRMED)
    bad = counts[manifest.DIFFERS] + counts[manifest.MISSING]
    # the worst status: one figure not confirmed makes the whole tree not confirmed, never "same content"
    verdict = "FAILED" if bad else max(status.values(), key=manifest.STATUSES.index)
    print(f"{verdict}: {len(status)} files: {summary} (against {args.manifest})")
    return 1 if bad else 0


def cmd_provenance(args) -> None:
    from .. import digests, storage

    for path in args.files:  # each read names a directory or a missing file in one line
        if Path(path).suffix.lower() in (".png", ".pdf"):
            info = {digests.FIGURE_DATA_KEY: digests.figure_data_digest(path)}
        else:
            info = storage.read_provenance(path)
        print(f"{path}: {json.dumps(info, indent=1, sort_keys=True)}")


def cmd_config_page(args) -> None:
    from .. import storage
    from ..tables import config_html

    storage.write_text(args.out, config_html(json_arg(args.config_json, "--config-json")))


def add_commands(sub) -> None:
    p = sub.add_parser("manifest", help="write or verify a checksum manifest of results and figures")
    msub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    w = msub.add_parser("write", help="hash FILES (relative to --root) into --out")
    w.add_argument("files", nargs="+")
    w.add_argument("--config-json", required=True, help="the config used, as JSON")
    w.add_argument("--plugins-json", required=True, help="the plugin entries the run used, as JSON ({} for none)")
    w.add_argument("--root", default=".", help="folder the paths are relative to (default .)")
    w.add_argument("--out", required=True)
    w.set_defaults(func=cmd_manifest_write, outputs=("out",), rooted=("files",))
    v = msub.add_parser(
        "verify",
        help="check a tree against a manifest: identical bytes, same content (a table or JSON file under other "
        "versions), not confirmed (a figure under other versions), differs, missing; exit 1 if any file "
        "differs or is missing, 2 on bad input",
    )
    v.add_argument("manifest")
    v.add_argument("--root", default=".", help="folder the paths are relative to (default .)")
    v.set_defaults(func=cmd_manifest_verify)

    p = sub.add_parser("provenance", help="print what made a result (Parquet) or the data digest of a figure")
    p.add_argument("files", nargs="+", help="Parquet files, or PNG/PDF figures")
    p.set_defaults(func=cmd_provenance)

    p = sub.add_parser("config-page", help="the effective config as an HTML table (the report's configuration page)")
    p.add_argument("--config-json", required=True, help="the config, as JSON")
    p.add_argument("--out", required=True, help="output .html")
    p.set_defaults(func=cmd_config_page, outputs=("out",))
