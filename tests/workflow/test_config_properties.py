"""Random valid config overrides plan every job (the invalid ones: one per kind of refusal in
tests/workflow/test_bad_input_workflow.py and tests/test_config_validation.py)."""

import json

from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from workflow_helpers import snakemake

import duelbandits


def _paper_scenarios_build(seed: int) -> bool:
    """About 8% of seeds give no valid borda matrix at A = 10 (docs/paper.md: an error that says so)."""
    try:
        duelbandits.make_scenario("borda", actions=10, seed=seed)
    except duelbandits.ScenarioError:
        return False
    return True


VALID = {
    "horizon": st.integers(9, 10**6),
    "runs": st.integers(1, 200),
    "runs_per_job": st.integers(10, 50),
    "stride": st.integers(1, 1000),
    "seed": st.integers(0, 2**32).filter(_paper_scenarios_build),
}


# Each example is a Snakemake process (a few seconds): few examples, no shrinking; derandomized, without
# the example database, so every run (CI included) plans the same overrides.
@settings(max_examples=4, deadline=None, phases=[Phase.generate], derandomize=True, database=None)
@given(overrides=st.fixed_dictionaries({}, optional=VALID).filter(bool))
def test_valid_overrides_plan_every_job(tmp_path_factory, overrides):
    workdir = tmp_path_factory.mktemp("valid")
    args = [f"{k}={json.dumps(v)}" for k, v in overrides.items()]
    snakemake(workdir, "--dry-run", "--quiet", "rules", "--config", *args, check=True)
