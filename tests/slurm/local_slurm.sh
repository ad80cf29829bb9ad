# local_slurm.sh - a throwaway one-node Slurm cluster on localhost, for tests.
#
# Source it, then:
#   slurm_up DIR    starts munged, slurmctld and slurmd with a config and state under DIR
#                   (which must exist and be empty); on failure returns non-zero with the
#                   reason in $SLURM_UP_ERROR.  Exports SLURM_CONF for the client commands.
#   slurm_down      kills the daemons slurm_up started (by pid, nothing else) and waits.
# The caller owns DIR and removes it; slurm_down must run on every exit path (trap).
#
# Choices, for a container-like machine without systemd or cgroups: the daemons run as
# root in the foreground (-D/-F) so $! is their pid; proctrack/linuxproc and task/none
# need no cgroup; no accounting database; ports are picked at random so a second copy
# of the test (or a real Slurm) on the same machine does not collide.

SLURM_PIDS=()
SLURM_UP_ERROR=""

slurm__port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

slurm__pick_port() {
  local p
  for _ in $(seq 50); do
    p=$((20000 + RANDOM % 20000))
    if slurm__port_free "$p" && slurm__port_free $((p + 1)); then echo "$p"; return 0; fi
  done
  return 1
}

slurm__write_conf() {
  local dir=$1 node=$2 port=$3 cpus=$4 mpi=$5
  cat >"$dir/etc/slurm.conf" <<CONF
# Throwaway one-node cluster written by tests/slurm/local_slurm.sh
ClusterName=rfdsetest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
# cred_expire also delays a requeued job's restart (120 s by default); 10 s keeps the
# requeue test short.
AuthInfo=socket=$dir/munge/munge.socket,cred_expire=10
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
PlugStackConfig=$dir/etc/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=$mpi
ReturnToService=2
JobRequeue=1
KillWait=10
MinJobAge=600
SlurmdTimeout=60
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=rfdsetest Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
  : >"$dir/etc/plugstack.conf"
}

# Starts a daemon in the foreground of a background job and remembers its pid.
slurm__start() {
  local log=$1; shift
  "$@" >>"$log" 2>&1 &
  SLURM_PIDS+=("$!")
}

slurm__fail() { SLURM_UP_ERROR=$1; slurm_down; return 1; }

slurm__wait_munge() {
  local dir=$1
  for _ in $(seq 50); do
    [ -S "$dir/munge/munge.socket" ] && munge --socket="$dir/munge/munge.socket" -n </dev/null 2>/dev/null | \
      unmunge --socket="$dir/munge/munge.socket" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

slurm__wait_node_idle() {
  for _ in $(seq 100); do
    case $(sinfo -h -N -o '%t' 2>/dev/null) in idle*) return 0 ;; esac
    sleep 0.2
  done
  return 1
}

slurm_up() {
  local dir=$1 node port cpus mpi=none
  node=$(hostname -s)
  cpus=$(nproc)
  mkdir -p "$dir"/{etc,state,spool,log,run,munge} && chmod 700 "$dir/munge" || \
    { SLURM_UP_ERROR="cannot create $dir"; return 1; }
  for b in munged munge unmunge slurmctld slurmd sbatch squeue scontrol sinfo srun; do
    command -v "$b" >/dev/null || { SLURM_UP_ERROR="$b not found"; return 1; }
  done
  port=$(slurm__pick_port) || { SLURM_UP_ERROR="no free port pair"; return 1; }
  # pmix lets srun start Open MPI ranks directly; mpirun works with either setting.
  srun --mpi=list 2>&1 | grep -qw pmix && mpi=pmix
  slurm__write_conf "$dir" "$node" "$port" "$cpus" "$mpi"
  export SLURM_CONF=$dir/etc/slurm.conf

  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/munge.key"
  slurm__start "$dir/log/munged.stderr" munged -F --force --key-file="$dir/munge/munge.key" \
    --socket="$dir/munge/munge.socket" --pid-file="$dir/run/munged.pid" \
    --seed-file="$dir/munge/munge.seed" --log-file="$dir/log/munged.log"
  slurm__wait_munge "$dir" || slurm__fail "munged did not start: $(tail -n1 "$dir/log/munged.log" "$dir/log/munged.stderr" 2>/dev/null | tr '\n' ' ')" || return 1

  slurm__start "$dir/log/slurmctld.stderr" slurmctld -D -i -f "$SLURM_CONF"
  slurm__start "$dir/log/slurmd.stderr" slurmd -D -f "$SLURM_CONF"
  slurm__wait_node_idle || slurm__fail "node $node never became idle: $(grep -hiE 'error|fatal' "$dir"/log/slurm*.log "$dir"/log/*.stderr 2>/dev/null | tail -n2 | tr '\n' ' ')" || return 1
  return 0
}

# Jobs first: their processes (slurmstepd, the batch shell, the ranks) belong to slurmd's
# jobs, not to us, so Slurm ends them; then nothing of the test outlives it.
slurm__cancel_jobs() {
  local ids
  ids=$(squeue -h -o %i 2>/dev/null) || return 0
  [ -n "$ids" ] || return 0
  # shellcheck disable=SC2086
  scancel --signal=KILL --full $ids 2>/dev/null
  for _ in $(seq 75); do
    [ -z "$(squeue -h -o %i 2>/dev/null)" ] && return 0
    sleep 0.2
  done
}

slurm_down() {
  local pid
  [ "${#SLURM_PIDS[@]}" -gt 0 ] && slurm__cancel_jobs
  # slurmd first, so no job step outlives its node daemon; then the controller, then munge.
  for ((i = ${#SLURM_PIDS[@]} - 1; i >= 0; i--)); do
    pid=${SLURM_PIDS[i]}
    kill -TERM "$pid" 2>/dev/null
  done
  for pid in "${SLURM_PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  SLURM_PIDS=()
}
