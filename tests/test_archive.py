"""The archive of the long targets (duelbandits.studies.claims.archive) on tiny tables: ``duelbandits archive``
fills it from a built folder, ``claims --archive`` reads it for an input not given and prefers one given,
``manifest verify`` names an archived file changed, ``claims --bayes`` over several files refuses a
(prior, A, horizon) two files give with other numbers, and a refresh refuses a folder with nothing to archive."""

import shutil

import pytest
from summaries import paper_summary

from duelbandits import cli, schemas, storage
from duelbandits.studies import bayes

SEED = 7
ROW = "Theorem 4.1 (Bayesian, prior: uniform antisymmetric) (A = 3, T = {})"
"""The ledger's Bayesian row of the tables below at horizon T."""


def run(*argv) -> int:
    return cli.main([str(a) for a in argv])


def estimates(path, matrices, horizons):
    """A Bayesian estimates table at A = 3 (uniform prior, one run per matrix), written to ``path``."""
    table = bayes.estimates(bayes.measure(3, range(matrices), 1, horizons, SEED), 0.95)
    storage.write_frame(table, schemas.BAYES_ESTIMATE_SCHEMA, path, {"table": "bayes-estimates"})
    return path


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """A folder with a paper run's summary and an archive refreshed from a folder that built maximin_bayes
    (3 matrices to T = 100); a fresh estimates table of 4 matrices to T = 200 beside it."""
    root = tmp_path_factory.mktemp("project")
    summary = paper_summary([400, 4000], 6, 10)
    storage.write_frame(summary, schemas.SUMMARY_SCHEMA, root / "results/summary.parquet", {"table": "summary"})
    built = root / "built" / "results" / "maximin-bayes"
    built.mkdir(parents=True)
    estimates(built / "estimates.parquet", 3, [50, 100])
    assert run("archive", root / "built", "--archive", root / "archive") == 0
    estimates(root / "fresh.parquet", 4, [100, 200])
    return root


def claims(root, *optional):
    """``claims`` in ``root`` with ``optional`` arguments: (exit code, the ledger's Bayesian rows by claim)."""
    out = ["--table", root / "c.parquet", "--markdown", root / "c.md"]
    code = run("claims", "--summary", root / "results/summary.parquet", *optional, "--level", 0.95, *out)
    if code:
        return code, {}
    table = storage.read_frame(root / "c.parquet")
    return code, table[table["claim"].str.startswith("Theorem 4.1 (Bayesian")].set_index("claim")["source"].to_dict()


def test_the_archive_is_read_for_an_input_not_given(project):
    """Its row is the archived table's (T = 100) and names the archive; the Markdown names the file."""
    assert claims(project, "--archive", project / "archive") == (0, {ROW.format(100): "archive"})
    assert "archive/maximin-bayes/uniform-T100.parquet (archive)" in (project / "c.md").read_text()


def test_a_table_given_wins_over_the_archive(project):
    given = claims(project, "--bayes", project / "fresh.parquet", "--archive", project / "archive")
    assert given == (0, {ROW.format(200): "this run"})


def test_an_archived_file_changed_is_named_by_verify_and_refused_by_claims_and_a_refresh(project, tmp_path, capsys):
    archive = tmp_path / "archive"
    shutil.copytree(project / "archive", archive)
    assert run("manifest", "verify", archive / "MANIFEST.sha256", "--root", tmp_path) == 0
    changed = archive / "maximin-bayes" / "uniform-T100.parquet"
    estimates(changed, 4, [50, 100])
    capsys.readouterr()
    assert run("manifest", "verify", archive / "MANIFEST.sha256", "--root", tmp_path) == 1
    assert "archive/maximin-bayes/uniform-T100.parquet: differs: other bytes" in capsys.readouterr().err
    assert run("archive", project / "built", "--archive", archive) == 2
    assert f"{changed}: differs against {archive / 'MANIFEST.sha256'}" in capsys.readouterr().err
    shutil.copytree(project / "results", tmp_path / "results")
    assert claims(tmp_path, "--archive", archive)[0] == 2
    assert f"{changed}: differs against {archive / 'MANIFEST.sha256'}: restore it" in capsys.readouterr().err


def test_a_horizon_given_twice_is_kept_once_if_equal_and_refused_naming_both_files_if_not(project, tmp_path, capsys):
    """The archived table and a copy of it give (uniform, 3, 100) once; a table of 4 matrices to T = 100
    gives other numbers there."""
    archived = project / "archive" / "maximin-bayes" / "uniform-T100.parquet"
    shutil.copy(archived, tmp_path / "copy.parquet")
    code, rows = claims(project, "--bayes", archived, tmp_path / "copy.parquet", project / "fresh.parquet")
    assert code == 0 and list(rows) == [ROW.format(100), ROW.format(200)]
    other = estimates(tmp_path / "other.parquet", 4, [50, 100])
    capsys.readouterr()
    assert claims(project, "--bayes", archived, other)[0] == 2
    err = capsys.readouterr().err
    assert f"{archived} and {other} give prior uniform antisymmetric, A = 3, T = 100 with different" in err
    assert err.count("\n") == 1, err


def test_a_folder_without_a_table_to_archive_is_refused_naming_it(project, tmp_path, capsys):
    """A mistyped folder beside a good one is not skipped: nothing is written."""
    before = (project / "archive" / "MANIFEST.sha256").read_bytes()
    assert run("archive", project / "built", tmp_path / "typo", "--archive", project / "archive") == 2
    assert f"{tmp_path / 'typo'}: holds no table to archive" in capsys.readouterr().err
    assert (project / "archive" / "MANIFEST.sha256").read_bytes() == before


def test_an_estimates_table_of_an_unknown_prior_is_refused_naming_it(project, tmp_path, capsys):
    """Not archived as the uniform prior's (its name is the file's, and the ledger reads the prior from it)."""
    built = tmp_path / "results" / "maximin-bayes" / "estimates.parquet"
    built.parent.mkdir(parents=True)
    table = storage.read_frame(estimates(built, 3, [50, 100])).assign(prior="my prior")
    storage.write_frame(table, schemas.BAYES_ESTIMATE_SCHEMA, built, {"table": "bayes-estimates"})
    before = (project / "archive" / "MANIFEST.sha256").read_bytes()
    assert run("archive", tmp_path, "--archive", project / "archive") == 2
    priors = "uniform antisymmetric, independent entries, projected"
    assert capsys.readouterr().err.endswith(f"{built}: its prior 'my prior' is not one of the priors ({priors})\n")
    assert (project / "archive" / "MANIFEST.sha256").read_bytes() == before
