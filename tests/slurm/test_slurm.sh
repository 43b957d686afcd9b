#!/usr/bin/env bash
# End-to-end test of the Slurm support: the tiny config of the pipeline, run
# once locally and once through workflow/profiles/slurm-test on a single-node
# Slurm cluster started here on localhost, must give byte-identical results/
# and figures/.
#
#   bash tests/slurm/test_slurm.sh
#
# Needs root on Debian 12 (or a machine with Slurm and MUNGE installed).  When
# slurmctld/slurmd/sbatch/munged are missing it installs Debian's
#   slurm-wlm slurmctld slurmd slurm-client munge
# with apt-get (SLURM_TEST_APT_INSTALL=0 turns that off).  The cluster's
# daemons are stopped by PID and the temporary folder removed on every exit,
# pass or fail; every wait is bounded.
#
# Environment:
#   PYTHON                 interpreter with snakemake 9, the slurm executor
#                          plugin and this package (default: python3 on PATH)
#   SLURM_TEST_CONFIG      config layered over config.yaml (tests/workflow/tiny.yaml)
#   SLURM_TEST_LOCAL       a local run of that config already made (the pytest
#                          wrapper passes the session's tiny run): compared
#                          with instead of a local run of its own
#   SLURM_TEST_KEEP=1      keep the temporary folder (runs, logs, cluster)
#   SLURM_TEST_TIMEOUT     seconds allowed per snakemake run (default 1500)
#   SLURM_TEST_MAX_SUBMISSIONS  most sbatch calls allowed for the Slurm run
#                          (default 7: the profile's groups make it 7 for the
#                          tiny config -- more means a rule lost its group)
#   SLURM_TEST_CTLD_PORT, SLURM_TEST_SLURMD_PORT: see cluster.sh
#
# Exit status 0 iff both runs succeed and every file under results/ and
# figures/ is identical.  The last line is "slurm: 1 passed, 0 failed" or
# "slurm: 0 passed, 1 failed".
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO=$(cd "$HERE/../.." && pwd -P)
PYTHON=${PYTHON:-python3}
CONFIG=${SLURM_TEST_CONFIG:-$REPO/tests/workflow/tiny.yaml}
LOCAL=${SLURM_TEST_LOCAL:-}
TIMEOUT=${SLURM_TEST_TIMEOUT:-1500}
MAX_SUBMISSIONS=${SLURM_TEST_MAX_SUBMISSIONS:-7}
PROFILE=$REPO/workflow/profiles/slurm-test
export SLURM_TEST_APT_INSTALL=${SLURM_TEST_APT_INSTALL:-1}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/slurm-e2e.XXXXXX")
CLUSTER=$WORK/cluster
status=1
SM_PID=

say() { echo "test_slurm: $*"; }

finish() {
    local rc=$?
    trap - EXIT INT TERM
    ((status == 0)) && ((rc != 0)) && status=$rc
    stop_snakemake
    "$HERE/cluster.sh" stop "$CLUSTER" || say "warning: cluster.sh stop failed"
    if [[ ${SLURM_TEST_KEEP:-0} == 1 ]]; then
        say "kept $WORK"
    else
        rm -rf "$WORK"
    fi
    if ((status == 0)); then
        echo "slurm: 1 passed, 0 failed"
    else
        echo "slurm: 0 passed, 1 failed"
    fi
    exit "$status"
}
trap finish EXIT
trap 'say "interrupted"; status=130; exit 130' INT TERM

fail() {
    say "FAIL: $*"
    status=1
    exit 1
}

snakemake() {  # snakemake WORKDIR LOGFILE ARGS...: the repo's workflow, bounded
    local dir=$1 logfile=$2
    shift 2
    mkdir -p "$dir"
    # in the background + wait, so that a TERM/INT to this script is handled
    # at once (bash defers traps while a foreground child runs)
    timeout --kill-after=30 "$TIMEOUT" "$PYTHON" -m snakemake \
        --snakefile "$REPO/Snakefile" --directory "$dir" \
        --configfile "$REPO/config.yaml" "$CONFIG" \
        --nocolor "$@" >"$logfile" 2>&1 </dev/null &
    SM_PID=$!
    local rc=0
    wait "$SM_PID" || rc=$?
    SM_PID=
    return "$rc"
}

stop_snakemake() {  # a run still going when we exit: TERM, 20 s, then KILL
    [[ -n $SM_PID ]] && kill -0 "$SM_PID" 2>/dev/null || return 0
    # `timeout` leads its own process group (pgid = its PID): snakemake and
    # whatever it started (sbatch, squeue) are in it
    say "stopping the running snakemake (process group $SM_PID)"
    kill -TERM -- "-$SM_PID" 2>/dev/null || true
    local i
    for ((i = 0; i < 40; i++)); do
        kill -0 -- "-$SM_PID" 2>/dev/null || return 0
        sleep 0.5
    done
    kill -KILL -- "-$SM_PID" 2>/dev/null || true
}

tree_sums() {  # tree_sums DIR: "sha256  path" of every file in results/ and figures/
    (cd "$1" && find results figures -type f -print0 2>/dev/null | LC_ALL=C sort -z |
        xargs -0 -r sha256sum)
}

show_tail() { say "last lines of $1:"; tail -n "${2:-40}" "$1" | sed 's/^/    /'; }

# --- preconditions -----------------------------------------------------------
[[ -f $REPO/Snakefile ]] || fail "no Snakefile in $REPO"
[[ -f $CONFIG ]] || fail "no config $CONFIG"
"$PYTHON" -c 'import snakemake, snakemake_executor_plugin_slurm' 2>/dev/null ||
    fail "$PYTHON lacks snakemake or snakemake-executor-plugin-slurm (pip install -e '.[slurm]')"
[[ $(id -u) == 0 ]] || fail "must run as root (starts slurmctld/slurmd/munged)"

# --- the cluster ---------------------------------------------------------------
t0=$SECONDS
"$HERE/cluster.sh" start "$CLUSTER" || fail "could not start the test cluster"
t_cluster=$((SECONDS - t0))
eval "$("$HERE/cluster.sh" env "$CLUSTER")"
say "cluster up in ${t_cluster} s"

# --- local run -----------------------------------------------------------------
t0=$SECONDS
if [[ -n $LOCAL ]]; then
    [[ -d $LOCAL/results ]] || fail "SLURM_TEST_LOCAL=$LOCAL holds no results/"
elif ! snakemake "$WORK/local" "$WORK/local.log" --cores 2; then
    show_tail "$WORK/local.log"
    fail "local run failed (a pipeline problem, not a Slurm one)"
fi
LOCAL=${LOCAL:-$WORK/local}
t_local=$((SECONDS - t0))
say "local run: ${t_local} s ($LOCAL)"

# --- Slurm run -----------------------------------------------------------------
t0=$SECONDS
if ! snakemake "$WORK/slurm" "$WORK/slurm.log" --profile "$PROFILE"; then
    show_tail "$WORK/slurm.log" 60
    for f in $(find "$WORK/slurm/.snakemake/slurm_logs" -name '*.log' 2>/dev/null | head -5); do
        show_tail "$f" 20
    done
    fail "Slurm run failed or timed out after ${TIMEOUT} s"
fi
t_slurm=$((SECONDS - t0))
submissions=$(grep -c 'has been submitted with SLURM jobid' "$WORK/slurm.log" || true)
sjobs=$(squeue -h --states=all -o %i 2>/dev/null | wc -l)
say "slurm run: ${t_slurm} s, ${submissions} submissions (${sjobs} Slurm jobs on the cluster)"
grep -q 'Unable to guess SLURM account' "$WORK/slurm.log" &&
    say "(the plugin's 'Unable to guess SLURM account' warning is expected: no accounting here)"

# every job must really have gone through Slurm: none ran in the local process
((submissions > 0)) || fail "no job was submitted to Slurm"
# the grouping must hold: tens of jobs, a handful of submissions
if ((submissions > MAX_SUBMISSIONS)); then
    grep -o 'slurm_logs/[a-z_]*' "$WORK/slurm.log" | sort | uniq -c | sed 's/^/    /'
    fail "${submissions} Slurm submissions > ${MAX_SUBMISSIONS}: put the new rule(s) into a group in workflow/profiles/slurm*/config.yaml"
fi

# --- compare -------------------------------------------------------------------
tree_sums "$LOCAL" >"$WORK/local.sha256"
tree_sums "$WORK/slurm" >"$WORK/slurm.sha256"
nfiles=$(wc -l <"$WORK/local.sha256")
((nfiles > 0)) || fail "the local run wrote nothing under results/ or figures/"
if ! diff -u "$WORK/local.sha256" "$WORK/slurm.sha256" >"$WORK/diff.txt"; then
    sed 's/^/    /' "$WORK/diff.txt" | head -60
    fail "results/ or figures/ differ between the local and the Slurm run"
fi
say "results/ and figures/ identical: ${nfiles} files"
say "timings: cluster start ${t_cluster} s, local ${t_local} s, slurm ${t_slurm} s"
status=0
