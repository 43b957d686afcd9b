"""scenarios at its edges (issue 33's mutation run): the matrix checks at their tolerance, a file's
symmetrisation and errors, the cyclic and borda constructions, the registries, a plugin's entry in-process."""

import re
import sys
import types

import numpy as np
import pytest

from duelbandits import MatrixError, ScenarioError, make_scenario, matrices, plugins, scenarios, validate_matrix

# --- validate_matrix ----------------------------------------------------------------------------------

ATOL = 0.125
SLACK = ATOL * (1 + 1e-9)  # the largest accepted deviation; 0.5 + SLACK - 0.5 == SLACK exactly in floats


def test_a_diagonal_off_by_the_tolerance_is_accepted_and_the_next_float_refused_naming_its_entry():
    assert (0.5 + SLACK) - 0.5 == SLACK and (0.5 + (0.5 + SLACK)) - 1.0 == SLACK  # the premise
    X = np.array([[0.5, 0.3, 0.5], [0.7, 0.5 + SLACK, 0.5], [0.5, 0.5, 0.5]])
    validate_matrix(X, atol=ATOL)
    X[1, 1] = np.nextafter(0.5 + SLACK, 1.0)
    with pytest.raises(
        MatrixError, match=rf"^preference matrix diagonal must be 1/2, X\[1, 1\] = {float(X[1, 1])!r}$"
    ) as err:
        validate_matrix(X, atol=ATOL)
    assert err.value.position == (1, 1)


def test_a_pair_off_by_the_tolerance_is_accepted_and_the_next_float_refused_naming_the_pair():
    X = np.full((3, 3), 0.5)
    X[2, 1] = 0.5 + SLACK
    validate_matrix(X, atol=ATOL)
    X[2, 1] = np.nextafter(np.nextafter(0.5 + SLACK, 1.0), 1.0)  # one float of the sum 1.125 (two of 0.625)
    assert (0.5 + X[2, 1]) - 1.0 > SLACK
    message = (
        "preference matrix must satisfy X[i, j] + X[j, i] = 1 (tolerance 0.125); "
        f"X[1, 2] + X[2, 1] = 0.5 + {float(X[2, 1])!r} = {0.5 + float(X[2, 1])!r}"
    )
    with pytest.raises(MatrixError, match="^" + re.escape(message) + "$") as err:
        validate_matrix(X, atol=ATOL)
    assert err.value.position == (1, 2)


def test_entries_of_0_and_1_are_valid_and_the_first_bad_entry_is_named_with_its_position():
    validate_matrix([[0.5, 1.0, 0.0], [0.0, 0.5, 1.0], [1.0, 0.0, 0.5]])
    for X, message, position in [
        ([[0.5, 0.6, 0.4], [0.4, 0.5, 0.5]], r"must be square, got shape \(2, 3\)$", None),
        ([[0.5, "a"], [0.5, 0.5]], "is not numeric: ", None),
        ([[0.5, 2.0], [-1.0, 0.5]], r"entries must lie in \[0, 1\], X\[0, 1\] = 2\.0$", (0, 1)),
        ([[0.5, 0.5], [-0.5, 0.5]], r"entries must lie in \[0, 1\], X\[1, 0\] = -0\.5$", (1, 0)),
        ([[0.5, np.inf], [np.nan, 0.5]], r"non-finite entry, X\[0, 1\] = inf$", (0, 1)),
    ]:
        with pytest.raises(MatrixError, match=message) as err:
            validate_matrix(X)
        assert err.value.position == position


# --- read_matrix_file ---------------------------------------------------------------------------------


def write(path, text, encoding="utf-8"):
    path.write_text(text, encoding=encoding)
    return path


def test_a_file_within_its_tolerance_is_symmetrised_by_hand_values(tmp_path):
    # off by 4e-7 and 3e-7 (< FILE_ATOL = 1e-6): X <- (X + 1 - X^T) / 2 with a diagonal of 1/2:
    # X[0, 1] = (0.6000004 + 1 - 0.4) / 2 = 0.6000002, X[1, 0] = (0.4 + 1 - 0.6000004) / 2 = 0.3999998
    X = matrices.read_matrix_file(write(tmp_path / "m.csv", "0.5000003,0.6000004\n0.4,0.5\n"))
    np.testing.assert_allclose(X, [[0.5, 0.6000002], [0.3999998, 0.5]], rtol=0, atol=1e-15)
    assert X[0, 0] == X[1, 1] == 0.5


@pytest.mark.parametrize(
    "text, problem",
    [
        ("# a comment\n  # an indented one\n\n0.5,0.6,0.5\n0.5,0.5,0.5\n0.5,0.5,0.5\n",
         "preference matrix must satisfy X[i, j] + X[j, i] = 1 (tolerance 1e-06); X[0, 1] + X[1, 0] = 0.6 + 0.5 = "
         "1.1 (line 4, column 2)"),
        ("0.5\n", "preference matrix needs at least 2 actions, got 1"),  # an error without an entry names none
        (None, "file not found"),
        ("0.5,0.6\n0.4,abc\n", "line 2, column 2: 'abc' is not a number"),
        ("0.5,0.6,0.3\n0.4,0.5,0.5\n", "not a square matrix: 2 rows, but line 1 has 3 entries"),
        ("# only a comment\n", "no matrix rows found"),
    ],
)  # fmt: skip
def test_a_files_error_names_the_file_and_the_line_and_column_past_comments(tmp_path, text, problem):
    path = tmp_path / "m.csv" if text is None else write(tmp_path / "m.csv", text)
    with pytest.raises(ScenarioError, match="^" + re.escape(f"matrix file {path}: {problem}") + "$"):
        make_scenario("file", path=path)


def test_a_byte_order_mark_is_ignored_and_bytes_that_are_not_utf8_are_refused(tmp_path):
    X = matrices.read_matrix_file(write(tmp_path / "bom.csv", "\ufeff0.5,0.25\n0.75,0.5\n"))
    np.testing.assert_array_equal(X, [[0.5, 0.25], [0.75, 0.5]])
    bad = tmp_path / "latin.csv"
    bad.write_bytes(b"0.5,0.5\n0.5,0.5 \xe9\n")
    with pytest.raises(ScenarioError, match=rf"^matrix file {re.escape(str(bad))}: cannot be read \("):
        matrices.read_matrix_file(bad)


def test_the_file_scenario_is_named_file_and_checks_its_path_actions_and_parameters(tmp_path):
    with pytest.raises(ScenarioError, match="^the file scenario needs the path of a CSV matrix file$"):
        matrices.read_matrix_file(None)
    path = write(tmp_path / "m.csv", "0.5,0.25\n0.75,0.5\n")
    assert make_scenario("file", path=path).name == "file"
    with pytest.raises(ScenarioError, match=r"^actions must be an integer >= 2, got True$"):
        make_scenario("file", actions=True, path=path)
    with pytest.raises(ScenarioError, match=r"^unknown scenario parameter\(s\) typo; valid: "):
        make_scenario("file", path=path, typo=1.0)
    with pytest.raises(ScenarioError, match=f"^matrix file {re.escape(str(path))}: has 2 actions, but actions = 3 "):
        make_scenario("file", actions=3, path=path)
    with pytest.raises(ScenarioError, match="^path applies only to the file scenario, not to 'borda'$"):
        make_scenario("borda", path=path)


def test_fitted_utilities_clip_zero_and_one():
    # clipped to [0.001, 0.999]: logit(0.999) = ln 999 = 6.9067548; row 0: (0 + 6.9068) / 2, row 1: (-6.9068 + 0) / 2
    u = matrices.fitted_utilities([[0.5, 1.0], [0.0, 0.5]])
    np.testing.assert_allclose(u, [6.9067548, 0.0], rtol=1e-7)
    np.testing.assert_allclose(matrices.fitted_utilities([[0, 1], [0, 0]]), [6.9067548, 0.0], rtol=1e-7)


# --- the generated scenarios' utilities, the cyclic and borda constructions ------------------------------


def test_condorcet_utilities_of_the_others_fill_zero_to_max_minus_margin():
    u = scenarios.condorcet_utilities(1000, np.random.default_rng(1), 3.0, 0.5)
    others = np.sort(u)[:-1]
    assert np.sort(u)[-1] == 3.0
    # 999 uniform draws on [0, 2.5]: P(none below 0.05) = 0.98^999 < 1e-8, the same above 2.45
    assert 0 <= others[0] < 0.05 and 2.45 < others[-1] <= 2.5


def test_the_cyclic_scenario_has_the_documented_fixed_entries():
    sc = make_scenario("cyclic", actions=7, seed=2)
    order = np.argsort(sc.utilities)[::-1]
    a, b, c, others = order[0], order[1], order[2], order[3:]
    X = sc.matrix
    assert (X[a, b], X[b, c], X[c, a]) == (0.6, 0.7, 0.8)
    assert all(X[a, o] == 0.65 and X[b, o] == 0.45 for o in others)
    assert X[c, others[-1]] == 0.45  # loses narrowly to the weakest
    assert all(X[c, o] == 0.95 for o in others[:-1])  # crushes the rest with borda_strength


def test_the_borda_modification_refuses_a_second_action_that_is_not_the_borda_winner():
    X = scenarios.logistic_matrix(np.array([2.0, 1.0, 0.0]))
    message = (
        "borda scenario: action 1 (second-largest utility) is not the unique Borda winner (Borda winners: [0]); "
        "raise borda_strength or the number of actions, or choose another seed"
    )
    with pytest.raises(ScenarioError, match="^" + re.escape(message) + "$"):
        scenarios.borda_modification(X, np.array([2.0, 1.0, 0.0]), 0.51)


def test_the_borda_modification_refuses_a_top_action_that_is_only_the_maximin_winner():
    """Action 0 loses to action 2 (no Condorcet winner) but keeps the largest row minimum (0.45)."""
    X = np.array([[0.5, 0.6, 0.45, 0.6], [0.4, 0.5, 0.5, 0.5], [0.55, 0.5, 0.5, 0.6], [0.4, 0.5, 0.4, 0.5]])
    message = (
        "borda scenario: action 0 is no longer the unique Condorcet and Maximin winner; increase margin or utility_max"
    )
    with pytest.raises(ScenarioError, match="^" + re.escape(message) + "$"):
        scenarios.borda_modification(X, np.array([3.0, 2.0, 1.0, 0.0]), 0.95)


# --- the registries, a plugin's entry and its generated scenario -----------------------------------------

BUILT_IN = ("condorcet", "borda", "cyclic", "arithmetic", "mslr5", "file")


def test_the_registries_hold_the_documented_scenarios_and_no_test_s_plugin():
    """No plugin is installed in the project's environment, and a test that loads one does not leave it."""
    assert tuple(scenarios.REGISTRY) == scenarios.SCENARIOS == BUILT_IN
    assert scenarios.GENERATED == ("condorcet", "borda", "cyclic")


def entry(**changes):
    fields = {"slug": "s", "label": "L", "citation": "c", "kind": "generated", "view": "target", "make": "m:f"}
    return scenarios.ScenarioEntry(**{**fields, **changes})


def test_a_plugin_entry_is_checked_field_by_field():
    for changes in [
        {"min_actions": 2},
        {"view": "condorcet"},
        {"view": "borda"},
        {},
    ]:
        entry(**changes).check()
    for changes, message in [
        ({"slug": ""}, "scenario '': slug must be a non-empty string"),
        ({"label": "  "}, "scenario 's': label must be a non-empty string"),
        ({"citation": 3}, "scenario 's': citation must be a non-empty string"),
        ({"kind": "utility"}, "scenario 's': a plugin's scenario is of kind generated"),
        ({"view": "copeland"}, "scenario 's': view must be condorcet, borda or target"),
        ({"make": None}, "scenario 's': a generated scenario needs make = 'module:function'"),
        ({"make": "module.function"}, "scenario 's': a generated scenario needs make = 'module:function'"),
        ({"min_actions": 1}, "scenario 's': min_actions must be an integer >= 2"),
        ({"min_actions": True}, "scenario 's': min_actions must be an integer >= 2"),
        ({"min_actions": 2.0}, "scenario 's': min_actions must be an integer >= 2"),
    ]:
        with pytest.raises(ScenarioError, match="^" + re.escape(message) + "$"):
            entry(**changes).check()


def test_a_plugin_entrys_source_and_identity():
    source = plugins.Source("dist", "0.1", "abc")
    assert entry().with_source(source).source == source
    assert entry().with_source(source).identity() == entry().identity()  # the source is not part of it
    expected = (
        "[('citation', 'c'), ('kind', 'generated'), ('label', 'L'), ('make', 'm:f'), ('min_actions', 2), "
        "('slug', 's'), ('source', None), ('view', 'target')]"
    )
    assert entry().identity() == expected
    assert entry().module == "m" and entry(kind="utility", make=None).module is None


@pytest.fixture
def maker(monkeypatch):
    """A plugin module ``fake_maker`` in sys.modules: ``make`` records the first draw of its rng."""
    module = types.ModuleType("fake_maker")
    module.draws = []

    def make(actions, rng):
        module.draws.append(rng.random())
        return scenarios.logistic_matrix(np.arange(actions, dtype=float))

    module.make = make
    module.bad = lambda actions, rng: np.full((actions, actions), 0.7)
    module.small = lambda actions, rng: np.full((actions - 1, actions - 1), 0.5)
    monkeypatch.setitem(sys.modules, "fake_maker", module)
    return module


def test_a_generated_scenario_is_made_from_its_seed_and_slug(maker):
    sc = scenarios.generated_scenario(entry(slug="sorted", make="fake_maker:make", min_actions=3), 3, 7, {})
    assert sc.name == "sorted" and sc.params == {"actions": 3}
    np.testing.assert_allclose(sc.matrix, scenarios.logistic_matrix(np.arange(3.0)), rtol=1e-15)
    np.testing.assert_allclose(sc.utilities, [0.0, 1.0, 2.0], atol=1e-12)  # fitted: logistic, shifted to 0
    # the documented stream: SeedSequence([seed, the slug's bytes as a little-endian integer])
    stream = np.random.SeedSequence([7, int.from_bytes(b"sorted", "little")])
    assert maker.draws == [np.random.default_rng(stream).random()]
    given = np.random.SeedSequence(11)
    scenarios.generated_scenario(entry(make="fake_maker:make"), 2, given, {})
    assert maker.draws[1] == np.random.default_rng(np.random.SeedSequence(11)).random()


def test_a_generated_scenario_refuses_with_the_reason(maker):
    assert scenarios.generated_scenario(entry(make="fake_maker:make", min_actions=3), 3, 0, {}).matrix.shape == (3, 3)
    for make, actions, params, message in [
        ("fake_maker:make", 3, {"b": 1, "a": 2}, "scenario s has no parameter(s) a, b; it takes none"),
        ("fake_maker:make", 2, {}, "scenario s needs an integer number of actions >= 3, got 2"),
        ("fake_maker:make", True, {}, "scenario s needs an integer number of actions >= 3, got True"),
        ("fake_maker:make", 3.0, {}, "scenario s needs an integer number of actions >= 3, got 3.0"),
        ("fake_maker:missing", 3, {}, "scenario s: cannot load fake_maker:missing: "),
        ("fake_maker:bad", 3, {}, "scenario s (fake_maker:bad): preference matrix diagonal must be 1/2"),
        ("fake_maker:small", 3, {}, "scenario s: make(3, rng) returned a 2 x 2 matrix"),
        # module:function splits at the first colon: the function's name is "make:x"
        ("fake_maker:make:x", 3, {}, "scenario s: cannot load fake_maker:make:x: module 'fake_maker' has no attribute "
         "'make:x'"),
    ]:  # fmt: skip
        with pytest.raises(ScenarioError, match="^" + re.escape(message)):
            scenarios.generated_scenario(entry(make=make, min_actions=3), actions, 0, params)


# --- make_scenario's parameters at their bounds, its defaults, and a plugin's scenario through it -----------


def test_scenario_parameters_are_accepted_up_to_their_bounds_and_refused_in_full_past_them():
    for params in [{"margin": 0.0}, {"borda_strength": 1.0}, {"utility_max": 1e-9, "margin": 0}]:
        assert make_scenario("condorcet", actions=3, seed=1, **params).params["actions"] == 3
    for params, message in [
        ({"utility_max": 0.0}, "utility_max must be > 0, got 0"),
        ({"margin": -1e-9}, "margin must lie in [0, utility_max) = [0, 3), got -1e-09"),
        ({"margin": 3.0}, "margin must lie in [0, utility_max) = [0, 3), got 3"),
        ({"borda_strength": 0.5}, "borda_strength must lie in (0.5, 1], got 0.5"),
        ({"borda_strength": 1.0000001}, "borda_strength must lie in (0.5, 1], got 1"),
        ({"margin": "0.5"}, "scenario parameter margin must be a finite number, got '0.5'"),
        ({"b": 1, "a": 2}, "unknown scenario parameter(s) a, b; valid: utility_max, margin, borda_strength"),
    ]:
        with pytest.raises(ScenarioError, match="^" + re.escape(message) + "$"):
            make_scenario("condorcet", actions=3, **params)
    for name, params, message in [
        ("nope", {}, "unknown scenario 'nope'; valid scenarios: condorcet, borda, cyclic, arithmetic, mslr5, file"),
        ("condorcet", {"actions": 1}, "actions must be an integer >= 2, got 1"),
        ("condorcet", {"actions": 2.5}, "actions must be an integer >= 2, got 2.5"),
        ("condorcet", {"margin": float("nan")}, "scenario parameter margin must be a finite number, got nan"),
    ]:
        with pytest.raises(ScenarioError, match="^" + re.escape(message)):
            make_scenario(name, **params)


def test_a_scenario_is_named_and_records_its_actions_and_the_paper_parameters():
    sc = make_scenario("borda", actions=5, seed=1)
    assert sc.name == "borda"
    assert sc.params == {"actions": 5, "utility_max": 3.0, "margin": 0.5, "borda_strength": 0.95}
    np.testing.assert_array_equal(make_scenario("condorcet").matrix, make_scenario("condorcet", seed=0).matrix)


def test_make_scenario_builds_a_plugins_generated_scenario(maker, monkeypatch):
    plugin = entry(slug="sorted", make="fake_maker:make", min_actions=3)
    monkeypatch.setattr(scenarios, "registry", lambda: {**scenarios.BUILTINS, "sorted": plugin})
    sc = make_scenario("sorted", actions=3, seed=7)
    assert sc.name == "sorted" and sc.params == {"actions": 3}
    stream = np.random.SeedSequence([7, int.from_bytes(b"sorted", "little")])
    assert maker.draws == [np.random.default_rng(stream).random()]  # make_scenario passes the seed on
    with pytest.raises(ScenarioError, match=r"^scenario sorted has no parameter\(s\) margin; it takes none$"):
        make_scenario("sorted", actions=3, margin=0.1)  # and its parameters


def test_the_registries_are_the_built_ins_then_a_plugins_generated_scenario_from_the_scenario_group(monkeypatch):
    plugin = entry(slug="sorted", make="fake_maker:make")
    calls = []

    def load(group, kind, builtins):
        calls.append((group, kind, builtins))
        return {"sorted": plugin}

    monkeypatch.setattr(plugins, "load", load)
    built = scenarios._registries()
    assert calls == [(plugins.SCENARIO_GROUP, scenarios.ScenarioEntry, scenarios.BUILTINS)]
    assert tuple(built["REGISTRY"]) == built["SCENARIOS"] == (*BUILT_IN, "sorted")
    assert built["REGISTRY"]["sorted"] is plugin and built["REGISTRY"]["borda"] is scenarios.BUILTINS["borda"]
    assert built["GENERATED"] == ("condorcet", "borda", "cyclic", "sorted")
    assert built["PARAMETERISED"] == ("condorcet", "borda", "cyclic")
