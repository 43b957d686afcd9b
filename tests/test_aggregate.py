import numpy as np
import pytest

from duelbandits.aggregate import bounds_table, summary_grid


@pytest.mark.parametrize("horizon", [1, 2, 300, 40_000])
def test_summary_grid_is_sorted_within_range_and_ends_at_horizon(horizon):
    grid = summary_grid(horizon, 1000)
    assert grid[0] == 1 and grid[-1] == horizon
    assert np.all(np.diff(grid) > 0)
    assert len(grid) >= min(horizon, 1000)


def test_bounds_table_leaves_out_theorems_whose_horizon_requirement_fails():
    # T = 150 at A = 10: Thm 4.3 needs T >= 101.5 (holds), Thm 4.4 needs T > 165.4 (fails)
    with pytest.warns(UserWarning, match=r"Theorem 4.4 \(partial-monitoring\) needs T > 165.4"):
        df = bounds_table(["sparring-exp3p", "partial-monitoring", "dts"], actions=10, horizon=150)
    pm = df[df["algorithm"] == "partial-monitoring"]
    assert not pm["holds"].any() and pm["bound"].isna().all()
    exp3p = df[df["algorithm"] == "sparring-exp3p"]
    assert exp3p["holds"].all() and exp3p["bound"].notna().all()
    assert "dts" not in set(df["algorithm"])
