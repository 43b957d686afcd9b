import math
import re
import warnings
from types import SimpleNamespace

import numpy as np
import pytest

from duelbandits import theorems
from duelbandits.algorithms import tuning as tunings

A, T = 10, 40_000
LOG_A = np.log(A)  # 2.302585092994046


def test_theorem_for_matches_algorithm_and_regret():
    assert theorems.theorem_for("ts-maximin", "maximin").name == "4.1"
    assert theorems.theorem_for("partial-monitoring", "borda").name == "4.4"
    assert theorems.theorem_for("ts-maximin", "borda") is None
    assert theorems.theorem_for("dts", "maximin") is None
    assert theorems.theorem_for("no-such-algorithm", "borda") is None
    assert theorems.THEOREMS["ts-maximin"].holds(A, 1)  # Theorem 4.1 has no requirement on T


# --- Off the defaults: several c_alpha and A, each against the paper's formula written with math ------

C_ALPHAS = [0.5, 1.0, 2.0, 3.0]
ACTIONS = [3, 13]  # off the paper's A = 10, whose bounds the reference's bounds.parquet pins
E2 = math.e - 2.0


def paper_4_1(A, T):
    return A / math.sqrt(2) * math.sqrt(math.log(A)) * math.sqrt(T)


def paper_4_2(A, T, c):
    return (c + math.sqrt(A / c * math.log(A))) * T ** (2 / 3)


def paper_4_3(A, T):
    return (math.sqrt(A / math.log(A)) + 4.2 * math.sqrt(A * math.log(A))) * math.sqrt(T)


def paper_4_4(A, T):
    return 2 * E2**0.25 * math.sqrt(A * math.sqrt(math.log(A))) * T**0.75


@pytest.mark.parametrize("A", ACTIONS)
@pytest.mark.parametrize("c_alpha", C_ALPHAS)
def test_theorem_4_2_bound_is_the_papers_formula_for_every_c_alpha_and_A(c_alpha, A):
    """(c + sqrt(A / c log A)) T^(2/3): A / c, not A * c (they agree only at c = 1)."""
    T = np.array([9.0, 1000.0, 40_000.0, 1e6])
    expected = [paper_4_2(A, t, c_alpha) for t in T]
    np.testing.assert_allclose(theorems.ts_borda(A, T, c_alpha), expected, rtol=1e-12)
    assert theorems.THEOREMS["ts-borda"].bound(A, 1000.0, c_alpha) == pytest.approx(paper_4_2(A, 1000.0, c_alpha))


@pytest.mark.parametrize("A", ACTIONS)
@pytest.mark.parametrize(
    ("theorem", "formula"),
    [("ts-maximin", paper_4_1), ("sparring-exp3p", paper_4_3), ("partial-monitoring", paper_4_4)],
)
def test_bounds_without_c_alpha_are_the_papers_formulas_and_ignore_c_alpha(theorem, formula, A):
    T = np.array([1.0, 200.0, 40_000.0, 1e6])
    expected = [formula(A, t) for t in T]
    bound = theorems.THEOREMS[theorem].bound
    np.testing.assert_allclose(bound(A, T), expected, rtol=1e-12)
    for c_alpha in C_ALPHAS:
        np.testing.assert_array_equal(bound(A, T, c_alpha), bound(A, T))


@pytest.mark.parametrize("A", ACTIONS)
@pytest.mark.parametrize("c_alpha", C_ALPHAS)
def test_ts_borda_requirement_is_where_its_alpha_is_accepted(c_alpha, A):
    """Theorem 4.2 holds for T > (2c)^3, exactly the horizons whose alpha ts_borda_alpha accepts (alpha =
    c T^(-1/3) = 1/2 exactly at T = (2c)^3, an integer for these c: refused)."""
    theorem = theorems.THEOREMS["ts-borda"]
    T_min, strict = theorem.requirement(A, c_alpha)
    assert T_min == pytest.approx((2 * c_alpha) ** 3, rel=1e-12) and strict
    edge = round((2 * c_alpha) ** 3)
    for T in (edge - 1, edge, edge + 1, edge + 2):
        if T < 1:
            continue
        try:
            tunings.ts_borda_alpha(c_alpha, T)
            accepted = True
        except tunings.AlgorithmError:
            accepted = False
        assert bool(theorem.holds(A, T, c_alpha)) == accepted == (T > edge), T


@pytest.mark.parametrize(
    ("theorem", "A", "T_min", "strict", "last_invalid"),
    [
        # 4.3: max(4.41 A log A, 0.95^2 log A / (0.01 A)): 3: max(14.534, 33.050), the second term; 10: max(101.544,
        # 20.781); 13: max(147.049, 17.807); 2: the second term, 0.9025 * 0.6931 / 0.02 = 31.28 > 6.11
        ("sparring-exp3p", 3, 33.049920, False, 33),
        ("sparring-exp3p", 10, 101.544003, False, 101),
        ("sparring-exp3p", 13, 147.048547, False, 147),
        ("sparring-exp3p", 2, 0.95**2 * math.log(2) / 0.02, False, 31),
        # 4.4: (e - 2) A^2 log A: 0.7182818 * 9 * 1.0986123 = 7.102; * 100 * 2.3025851 = 165.391; * 169 * 2.5649494
        ("partial-monitoring", 3, 7.102019, True, 7),
        ("partial-monitoring", 10, 165.390503, True, 165),
        ("partial-monitoring", 13, 311.358251, True, 311),
    ],
)
def test_theorems_4_3_and_4_4_requirements_off_the_defaults(theorem, A, T_min, strict, last_invalid):
    theorem = theorems.THEOREMS[theorem]
    assert theorem.requirement(A) == (pytest.approx(T_min, rel=1e-7), strict)
    assert not theorem.holds(A, last_invalid) and theorem.holds(A, last_invalid + 1)
    np.testing.assert_array_equal(theorem.holds(A, np.array([last_invalid, last_invalid + 1])), [False, True])


@pytest.mark.parametrize("A", ACTIONS)
@pytest.mark.parametrize("T", [1000, 40_000, 10**6])
def test_sparring_exp3p_tuning_is_theorem_4_3s(A, T):
    """beta = sqrt(log A / (A T)), eta = 0.95 beta, gamma = 1.05 sqrt(A log A / T)."""
    tuning = tunings.sparring_exp3p_tuning(A, T)
    beta = math.sqrt(math.log(A) / (A * T))
    assert tuning["beta"] == pytest.approx(beta, rel=1e-12)
    assert tuning["eta"] == pytest.approx(0.95 * beta, rel=1e-12)
    assert tuning["gamma"] == pytest.approx(1.05 * math.sqrt(A * math.log(A) / T), rel=1e-12)


@pytest.mark.parametrize("A", ACTIONS)
@pytest.mark.parametrize("T", [1000, 40_000, 10**6])
def test_partial_monitoring_tuning_is_theorem_4_4s(A, T):
    """eta = (e-2)^(-1/4) (log A / (A^(2/3) T))^(3/4), gamma = (e-2)^(1/4) (A^2 log A / T)^(1/4)."""
    assert T > E2 * A**2 * math.log(A)  # gamma < 1: not clipped (the clipping is tested below)
    tuning = tunings.partial_monitoring_tuning(A, T)
    assert tuning["eta"] == pytest.approx(E2**-0.25 * (math.log(A) / (A ** (2 / 3) * T)) ** 0.75, rel=1e-12)
    assert tuning["gamma"] == pytest.approx(E2**0.25 * (A**2 * math.log(A) / T) ** 0.25, rel=1e-12)


@pytest.mark.parametrize(
    ("tuning", "A", "last_clipped"),
    [
        # gamma = 1.05 sqrt(A log A / T) >= 1 <=> T <= 1.1025 A log A: 3.634, 36.762 (A = 10: the message's test)
        (tunings.sparring_exp3p_tuning, 3, 3),
        (tunings.sparring_exp3p_tuning, 13, 36),
        # gamma = (e-2)^(1/4) (A^2 log A / T)^(1/4) >= 1 <=> T <= (e-2) A^2 log A: 7.102, 311.358
        (tunings.partial_monitoring_tuning, 3, 7),
        (tunings.partial_monitoring_tuning, 13, 311),
    ],
)
def test_gamma_is_clipped_to_one_with_a_warning_up_to_the_horizon_where_it_reaches_one(tuning, A, last_clipped):
    with pytest.warns(UserWarning, match=rf"horizon T={last_clipped} is too short for Theorem 4\.[34] with A={A} "):
        assert tuning(A, last_clipped)["gamma"] == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the first horizon past it: no warning, gamma just below 1
        gamma = tuning(A, last_clipped + 1)["gamma"]
    assert 0.9 < gamma < 1.0


# --- Messages, defaults and the registry look-up (issue 33: mutants these left alive) ---------------


def test_ts_borda_alphas_refusal_names_the_largest_c_alpha_the_horizon_accepts():
    # alpha = 6 * 1000^(-1/3) = 0.6 >= 1/2; the largest accepted c_alpha is 0.5 * 1000^(1/3) = 5
    message = "ts-borda: alpha = c_alpha * T^(-1/3) = 6 * 1000^(-1/3) = 0.6 must be < 1/2; lower c_alpha below 5 "
    with pytest.raises(tunings.AlgorithmError, match="^" + re.escape(message + "or raise the horizon") + "$"):
        tunings.ts_borda_alpha(6.0, 1000)


@pytest.mark.parametrize(
    ("tuning", "A", "T", "message"),
    [
        # gamma = 1.05 sqrt(10 * 2.3025851 / 25) = 1.05 * 0.9597050 = 1.0076903 -> "1.01"
        (tunings.sparring_exp3p_tuning, 10, 25,
         "sparring-exp3p: horizon T=25 is too short for Theorem 4.3 with A=10 (gamma = 1.01 >= 1); "),
        # gamma = (e-2)^(1/4) (100 * 2.3025851 / 165)^(1/4) = 0.9206058 * 1.0868836 = 1.0005890 -> "1";
        # needs T > (e-2) * 10^2 * log 10 = 0.7182818 * 230.25851 = 165.39 -> "165.4"
        (tunings.partial_monitoring_tuning, 10, 165,
         "partial-monitoring: horizon T=165 is too short for Theorem 4.4 with A=10 "
         "(gamma = 1 >= 1, needs T > 165.4); "),
    ],
)  # fmt: skip
def test_the_clipping_warning_names_algorithm_theorem_gamma_and_need(tuning, A, T, message):
    with pytest.warns(UserWarning, match="^" + re.escape(message + "clipping gamma to 1, i.e. uniform play") + "$"):
        tuning(A, T)


def test_a_gamma_of_exactly_one_is_clipped_with_the_warning():
    """The theorems need gamma < 1: gamma = 1 itself is already uniform play and is warned about."""
    with pytest.warns(UserWarning, match=r"^x: horizon T=5 is too short for Theorem 4\.3 with A=2 \(gamma = 1 >= 1\)"):
        assert tunings._clipped_gamma(1.0, "x", "4.3", 2, 5) == 1.0


def test_c_alpha_defaults_to_one():
    # (1 + sqrt(3 * 1.0986123 = 3.2958369)) * 1000^(2/3) = (1 + 1.8154440) * 100; T_min = (2 * 1)^3 = 8
    assert theorems.ts_borda(3, 1000) == pytest.approx(281.54440, rel=1e-7)
    assert theorems.THEOREMS["ts-borda"].requirement(3) == (pytest.approx(8.0, rel=1e-12), True)
    assert not theorems.THEOREMS["ts-borda"].holds(3, 8) and theorems.THEOREMS["ts-borda"].holds(3, 9)


def test_a_plugins_own_theorem_object_is_its_theorem():
    own = theorems.Theorem("P.1", "borda", theorems.ts_borda, 2.0 / 3.0)
    assert theorems.theorem_of(SimpleNamespace(theorem=own)) is own
    assert theorems.theorem_of(SimpleNamespace(theorem="4.3")) is theorems.PAPER_THEOREMS["4.3"]
    assert theorems.theorem_of(SimpleNamespace(theorem=None)) is None


def test_only_THEOREMS_is_a_lazy_attribute():
    with pytest.raises(AttributeError, match=r"^module 'duelbandits\.theorems' has no attribute 'THEOREM'$"):
        theorems.THEOREM  # noqa: B018
