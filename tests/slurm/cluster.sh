#!/usr/bin/env bash
# A throw-away, single-node Slurm cluster on localhost, for tests.
#
#   tests/slurm/cluster.sh start WORKDIR   # start munged, slurmctld, slurmd
#   tests/slurm/cluster.sh stop  WORKDIR   # stop exactly the processes started
#   tests/slurm/cluster.sh env   WORKDIR   # print the exports that clients need
#   tests/slurm/cluster.sh status WORKDIR  # exit 0 iff all daemons are alive
#
# Needs root and Debian's packages:
#   apt-get install -y slurm-wlm slurmctld slurmd slurm-client munge
# (set SLURM_TEST_APT_INSTALL=1 to let `start` run that apt-get itself).
#
# Nothing global is touched: the munge key and socket, slurm.conf, the state,
# spool, log and pid files all live in WORKDIR.  Clients (sbatch, srun, squeue,
# sinfo, snakemake's slurm executor) find the cluster through
#   eval "$(tests/slurm/cluster.sh env WORKDIR)"
# i.e. SLURM_CONF=WORKDIR/slurm.conf, plus WORKDIR/bin first on PATH (wrappers
# that restore SLURM_CONF where the executor's job step strips it, see
# write_shims), and find munged through `AuthInfo=socket=...` in slurm.conf.
# The daemons run in the foreground (-D / -F) as background children of this
# script, so `$!` is their exact PID; the PIDs are written to WORKDIR/pids/ and
# `stop` signals exactly those (TERM, a bounded wait, then KILL).  No systemd.
#
# `start` is safe to repeat (a running cluster in WORKDIR is left alone, a dead
# one is cleaned first); `stop` is safe to repeat and to call after a failed or
# partial `start`.  Every wait is bounded.
#
# Knobs (environment):
#   SLURM_TEST_CTLD_PORT  slurmctld port (default 6817, or the next free pair)
#   SLURM_TEST_SLURMD_PORT slurmd port   (default slurmctld's port + 1)
#   SLURM_TEST_START_TIMEOUT seconds to wait for the node to be idle (60)
#   SLURM_TEST_MEM_MARGIN  MiB of memory kept back from the node (512)
set -euo pipefail

die() { echo "cluster.sh: $*" >&2; exit 1; }
log() { echo "cluster.sh: $*" >&2; }

usage() {
    sed -n '2,8p' "$0" >&2
    exit 2
}

[[ $# -eq 2 ]] || usage
cmd=$1
WORKDIR=$2
if [[ $cmd == start ]]; then mkdir -p "$WORKDIR"; fi
if [[ ! -d $WORKDIR ]]; then
    [[ $cmd == stop ]] && exit 0  # nothing was started there
    die "no such folder: $WORKDIR"
fi
WORKDIR=$(cd "$WORKDIR" && pwd -P)

CONF=$WORKDIR/slurm.conf
PIDDIR=$WORKDIR/pids
LOGDIR=$WORKDIR/log
MUNGEDIR=$WORKDIR/munge
SOCK=$MUNGEDIR/munge.socket
CTLD_PORT=${SLURM_TEST_CTLD_PORT:-}
SLURMD_PORT=${SLURM_TEST_SLURMD_PORT:-}
START_TIMEOUT=${SLURM_TEST_START_TIMEOUT:-60}
MEM_MARGIN=${SLURM_TEST_MEM_MARGIN:-512}
# Every daemon (and, through the environment, every slurmstepd and job it
# spawns) carries this marker, so leftovers can be found and stopped precisely.
MARKER="SLURM_TEST_CLUSTER=$WORKDIR"

export SLURM_CONF=$CONF

alive() { [[ -n ${1:-} ]] && kill -0 "$1" 2>/dev/null; }

pid_of() {  # pid_of NAME -> PID recorded in WORKDIR/pids/NAME.pid (or nothing)
    local f=$PIDDIR/$1.pid
    if [[ -s $f ]]; then cat "$f"; fi
}

all_alive() {
    local name
    for name in munged slurmctld slurmd; do
        alive "$(pid_of "$name")" || return 1
    done
}

wait_gone() {  # wait_gone SECONDS PID... -> 0 when all are gone
    local deadline=$((SECONDS + $1)) p left
    shift
    while :; do
        left=0
        for p in "$@"; do
            if alive "$p"; then left=1; fi
        done
        ((left == 0)) && return 0
        ((SECONDS >= deadline)) && return 1
        sleep 0.2
    done
}

stop_pids() {  # stop_pids LABEL PID... : TERM, wait up to 15 s, then KILL
    local label=$1 p live=()
    shift
    for p in "$@"; do alive "$p" && live+=("$p"); done
    ((${#live[@]})) || return 0
    log "stopping $label (pid ${live[*]})"
    kill -TERM "${live[@]}" 2>/dev/null || true
    if ! wait_gone 15 "${live[@]}"; then
        log "$label did not exit after TERM; sending KILL"
        kill -KILL "${live[@]}" 2>/dev/null || true
        wait_gone 5 "${live[@]}" || log "warning: $label still alive"
    fi
}

marked_pids() {  # processes whose environment carries our marker, but not us
    local d p
    for d in /proc/[0-9]*; do
        p=${d#/proc/}
        [[ $p == "$$" || $p == "$BASHPID" ]] && continue
        if { tr '\0' '\n' <"$d/environ"; } 2>/dev/null | grep -qxF "$MARKER"; then
            echo "$p"
        fi
    done
}

need() {
    command -v "$1" >/dev/null 2>&1 || die "'$1' not found; install it with:
  apt-get install -y slurm-wlm slurmctld slurmd slurm-client munge"
}

install_packages() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null &&
        command -v sbatch >/dev/null && command -v munged >/dev/null; then
        return 0
    fi
    if [[ ${SLURM_TEST_APT_INSTALL:-0} == 1 ]]; then
        log "installing Slurm and MUNGE from Debian's packages"
        export DEBIAN_FRONTEND=noninteractive
        timeout 600 apt-get update -qq
        timeout 900 apt-get install -y -qq --no-install-recommends \
            slurm-wlm slurmctld slurmd slurm-client munge >"$WORKDIR/apt.log" 2>&1 ||
            { tail -20 "$WORKDIR/apt.log" >&2; die "apt-get install failed"; }
    fi
}

port_free() {  # nobody listens on 127.0.0.1:$1
    ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

pick_ports() {
    # Slurm's usual ports unless taken (another test cluster, a real slurmd):
    # then the next free pair above them.
    local p=6817
    if [[ -z $CTLD_PORT ]]; then
        while ! port_free "$p" || ! port_free $((p + 1)); do
            p=$((p + 2))
            ((p < 6917)) || die "no free port pair in 6817-6916"
        done
        CTLD_PORT=$p
    fi
    [[ -n $SLURMD_PORT ]] || SLURMD_PORT=$((CTLD_PORT + 1))
}

write_conf() {
    local node cpus hw mem total
    node=$(hostname -s)
    cpus=$(nproc)
    # The exact topology slurmd detects (Boards/Sockets/Cores/Threads), so the
    # node is not drained for a mismatch; RealMemory is then lowered a bit.
    hw=$(slurmd -C 2>/dev/null | sed -n 's/^NodeName=[^ ]* //p' | sed 's/ RealMemory=[0-9]*//')
    [[ -n $hw ]] || hw="CPUs=$cpus"
    total=$(free -m | awk '/^Mem:/ {print $2}')
    mem=$((total - MEM_MARGIN))
    ((mem > 256)) || mem=$total
    cat >"$CONF" <<EOF
# Generated by tests/slurm/cluster.sh -- a single-node test cluster.
ClusterName=snaketest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCK
MpiDefault=none
# No cgroups (no systemd here): plain /proc process tracking, no task binding.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
# No accounting database: sacct cannot work, use squeue for job status.
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
# Keep finished jobs visible to "squeue --states=all" for an hour, so that a
# status query never misses a job that finished between two polls.
MinJobAge=3600
# Consumable CPUs: several 1-CPU jobs share the node; memory is not tracked.
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=60
InactiveLimit=0
KillWait=5
Waittime=0
StateSaveLocation=$WORKDIR/state
SlurmdSpoolDir=$WORKDIR/spool
SlurmctldPidFile=$WORKDIR/run/slurmctld.pid
SlurmdPidFile=$WORKDIR/run/slurmd.pid
SlurmctldLogFile=$LOGDIR/slurmctld.log
SlurmdLogFile=$LOGDIR/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
NodeName=$node NodeAddr=127.0.0.1 $hw RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

start_munged() {
    mkdir -p "$MUNGEDIR"
    chmod 711 "$MUNGEDIR"
    if [[ ! -s $MUNGEDIR/munge.key ]]; then
        (umask 077 && head -c 1024 /dev/urandom >"$MUNGEDIR/munge.key")
    fi
    chmod 600 "$MUNGEDIR/munge.key"
    rm -f "$SOCK" "$SOCK.lock"
    env "$MARKER" setsid munged -F -f \
        --socket="$SOCK" \
        --key-file="$MUNGEDIR/munge.key" \
        --pid-file="$MUNGEDIR/munged.pid" \
        --seed-file="$MUNGEDIR/munged.seed" \
        --log-file="$LOGDIR/munged.log" \
        </dev/null >>"$LOGDIR/munged.out" 2>&1 &
    echo $! >"$PIDDIR/munged.pid"
    local deadline=$((SECONDS + 15))
    until munge -S "$SOCK" -n </dev/null 2>/dev/null | unmunge -S "$SOCK" >/dev/null 2>&1; do
        alive "$(pid_of munged)" || { cat "$LOGDIR/munged.out" "$LOGDIR/munged.log" >&2 2>/dev/null || true; die "munged died"; }
        ((SECONDS < deadline)) || die "munged did not answer within 15 s"
        sleep 0.2
    done
}

write_shims() {
    # snakemake-executor-plugin-slurm-jobstep runs each job as a nested
    # `srun ...` with every SLURM_* variable except the job's identity removed
    # from its environment -- SLURM_CONF included.  A real cluster keeps its
    # slurm.conf in /etc/slurm (or runs "configless"); this one must not touch
    # /etc, so WORKDIR/bin holds client wrappers that put SLURM_CONF back.
    # `cluster.sh env` puts WORKDIR/bin first on PATH; jobs inherit that PATH.
    local tool real syspath
    mkdir -p "$WORKDIR/bin"
    # the real tools: look them up on PATH without our own bin/
    syspath=$(tr ':' '\n' <<<"$PATH" | grep -vxF "$WORKDIR/bin" | paste -sd: -)
    for tool in srun sbatch squeue scancel sinfo scontrol; do
        real=$(PATH=$syspath command -v "$tool")
        printf '#!/bin/sh\nSLURM_CONF=%q exec %q "$@"\n' "$CONF" "$real" >"$WORKDIR/bin/$tool"
        chmod 755 "$WORKDIR/bin/$tool"
    done
}

start_daemon() {  # start_daemon NAME ARGS...
    local name=$1
    shift
    env "$MARKER" SLURM_CONF="$CONF" setsid "$@" </dev/null >>"$LOGDIR/$name.out" 2>&1 &
    echo $! >"$PIDDIR/$name.pid"
}

node_state() {
    timeout 10 sinfo -h -N -o '%T' 2>/dev/null | head -1 || true
}

do_start() {
    if all_alive; then
        log "cluster in $WORKDIR is already running"
        return 0
    fi
    # a partial or dead cluster: clean it first
    do_stop >/dev/null 2>&1 || true
    install_packages
    for c in munged munge unmunge slurmctld slurmd sbatch srun squeue sinfo scontrol; do need "$c"; done
    [[ $(id -u) == 0 ]] || die "must run as root (SlurmUser=root, node daemons)"

    mkdir -p "$PIDDIR" "$LOGDIR" "$WORKDIR/state" "$WORKDIR/spool" "$WORKDIR/run"
    local t0=$SECONDS
    pick_ports
    write_conf
    write_shims
    start_munged
    # -D: stay in the foreground (we background it ourselves, so $! is its PID)
    # -i: ignore any old state; -f: our slurm.conf (SLURM_CONF is set as well)
    start_daemon slurmctld slurmctld -D -i -f "$CONF"
    local deadline=$((SECONDS + START_TIMEOUT))
    until timeout 5 scontrol ping 2>/dev/null | grep -q 'is UP'; do
        alive "$(pid_of slurmctld)" || { tail -20 "$LOGDIR/slurmctld.log" "$LOGDIR/slurmctld.out" >&2 2>/dev/null || true; die "slurmctld died"; }
        ((SECONDS < deadline)) || die "slurmctld did not answer within ${START_TIMEOUT} s"
        sleep 0.5
    done
    start_daemon slurmd slurmd -D -f "$CONF" -N "$(hostname -s)"
    local st=""
    while :; do
        st=$(node_state)
        case $st in
            idle*) break ;;
            drain* | down*)
                # a restart may leave the node down/drained: resume it once
                timeout 10 scontrol update NodeName="$(hostname -s)" State=RESUME 2>/dev/null || true ;;
        esac
        alive "$(pid_of slurmd)" || { tail -20 "$LOGDIR/slurmd.log" "$LOGDIR/slurmd.out" >&2 2>/dev/null || true; die "slurmd died"; }
        if ((SECONDS >= deadline)); then
            tail -20 "$LOGDIR/slurmctld.log" "$LOGDIR/slurmd.log" >&2 2>/dev/null || true
            die "node not idle within ${START_TIMEOUT} s (state: '${st}')"
        fi
        sleep 0.5
    done
    log "cluster up in $((SECONDS - t0)) s: node $(hostname -s) idle, $(nproc) CPUs; export SLURM_CONF=$CONF"
}

do_stop() {
    # 1. cancel whatever is still queued or running on this cluster (bounded)
    if [[ -s $CONF ]] && alive "$(pid_of slurmctld)"; then
        # every job on this private cluster is ours
        local jobs
        jobs=$(timeout 10 squeue -h -o %i 2>/dev/null | tr '\n' ' ' || true)
        if [[ -n ${jobs// /} ]]; then
            log "cancelling jobs: $jobs"
            # shellcheck disable=SC2086
            timeout 10 scancel --quiet $jobs 2>/dev/null || true
        fi
        local deadline=$((SECONDS + 20))
        while [[ -n $(timeout 5 squeue -h -t PENDING,RUNNING,COMPLETING,CONFIGURING,SUSPENDED -o %i 2>/dev/null || true) ]] &&
            ((SECONDS < deadline)); do
            sleep 0.5
        done
    fi
    # 2. the daemons we started, by recorded PID: node daemon first
    local name
    for name in slurmd slurmctld munged; do
        # shellcheck disable=SC2046  # empty when no PID was recorded
        stop_pids "$name" $(pid_of "$name")
        rm -f "$PIDDIR/$name.pid"
    done
    # 3. leftovers (slurmstepd, job processes) that carry our marker
    local left
    left=$(marked_pids | tr '\n' ' ')
    if [[ -n ${left// /} ]]; then
        # shellcheck disable=SC2086
        stop_pids "leftover job processes" $left
    fi
    rm -f "$SOCK" "$SOCK.lock"
    log "cluster in $WORKDIR stopped"
}

case $cmd in
    start) do_start ;;
    stop) do_stop ;;
    env)
        # the marker makes job processes findable by `stop` as well
        echo "export SLURM_CONF=$CONF"
        echo "export PATH=$WORKDIR/bin:\$PATH"
        echo "export $MARKER" ;;
    status) all_alive ;;
    *) usage ;;
esac
