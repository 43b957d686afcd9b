import numpy as np
import pytest

from duelbandits import theorems

A, T = 10, 40_000
LOG_A = np.log(A)  # 2.302585092994046


def test_theorem_4_1_bound_at_A_10_T_40000_is_the_hand_computed_value():
    # 10 / sqrt(2) * sqrt(2.302585) * 200 = 7.0710678 * 1.5174271 * 200
    assert theorems.ts_maximin(A, T) == pytest.approx(2145.966, rel=1e-6)


def test_theorem_4_2_bound_at_A_10_T_40000_is_the_hand_computed_value():
    # (1 + sqrt(10 * 2.302585)) * 40000^(2/3) = 5.7985259 * 1169.6070953
    assert theorems.ts_borda(A, T, c_alpha=1.0) == pytest.approx(5.7985259 * 1169.6070953, rel=1e-7)


def test_theorem_4_3_bound_at_A_10_T_40000_is_the_hand_computed_value():
    # (sqrt(10 / 2.302585) + 4.2 sqrt(23.02585)) * 200 = (2.0839733 + 20.1538088) * 200
    assert theorems.sparring_exp3p(A, T) == pytest.approx(4447.5564, rel=1e-7)


def test_theorem_4_4_bound_at_A_10_T_40000_is_the_hand_computed_value():
    # 2 * 0.718282^(1/4) * sqrt(10 * 1.517427) * 40000^(3/4) = 2 * 0.9206058 * 3.8954167 * 2828.4271
    assert theorems.partial_monitoring(A, T) == pytest.approx(2 * 0.9206058 * 3.8954167 * 2828.4271, rel=1e-7)


def test_bounds_accept_arrays_and_grow_with_t():
    t = np.array([1.0, 10.0, 100.0])
    for theorem in theorems.THEOREMS.values():
        values = theorem.bound(A, t)
        assert values.shape == (3,) and np.all(np.diff(values) > 0)


def test_each_theorem_holds_from_the_first_horizon_past_its_requirement():
    exp3p = theorems.THEOREMS["sparring-exp3p"]
    T_min, strict = exp3p.requirement(A)
    assert T_min == pytest.approx(4.41 * A * LOG_A) and not strict  # 101.54 > 0.95^2 log A / (0.01 A)
    assert exp3p.holds(A, 102) and not exp3p.holds(A, 101)
    pm = theorems.THEOREMS["partial-monitoring"]
    T_min, strict = pm.requirement(A)
    assert T_min == pytest.approx((np.e - 2) * 100 * LOG_A) and strict  # 165.39
    assert pm.holds(A, 166) and not pm.holds(A, 165)
    # A = 2: the second term of 4.3 dominates: 0.9025 * 0.6931 / 0.02 = 31.28 > 4.41 * 2 * 0.6931 = 6.11
    assert theorems.THEOREMS["sparring-exp3p"].requirement(2)[0] == pytest.approx(0.95**2 * np.log(2) / 0.02)
    ts_borda = theorems.THEOREMS["ts-borda"]
    assert ts_borda.holds(A, 9) and not ts_borda.holds(A, 8)  # alpha = T^(-1/3) < 1/2 <=> T > 8
    assert theorems.THEOREMS["ts-maximin"].holds(A, 1)


def test_theorem_for_matches_algorithm_and_regret():
    assert theorems.theorem_for("ts-maximin", "maximin").name == "4.1"
    assert theorems.theorem_for("partial-monitoring", "borda").name == "4.4"
    assert theorems.theorem_for("ts-maximin", "borda") is None
    assert theorems.theorem_for("dts", "maximin") is None
