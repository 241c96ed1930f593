#!/bin/sh
# The Slurm example of docs/workflows.md, run: a one-node Slurm (munged,
# slurmctld, slurmd) configured by this test in a private folder, on ports
# of its own, then the documented grade-shard.sh and the documented
# `sbatch --array` + dependent merge, taken from docs/workflows.md as they
# are (their ```sh blocks), run with HOME at a work folder (so ~/hw3 is a
# class made here) and build/bin first on PATH (so `grade` is this
# grade). The merged gradebook must equal a single batch's. Every daemon
# started here is stopped by its pid and the folder removed, whatever
# happens. Skips (77) where Slurm or munge is not installed (make
# deps-cluster) or when not root (slurmd runs jobs as their user).
set -u
. "$(dirname "$0")/lib.sh"
e2e_uid_base 6
[ -x "$grade" ] || e2e_skip "no $grade"
for p in munged slurmctld slurmd sbatch squeue sinfo scancel; do
	command -v $p >/dev/null 2>&1 || e2e_skip "SKIP: no $p (make deps-cluster)"
done
[ "$(id -u)" -eq 0 ] || e2e_skip "SKIP: a one-node Slurm needs root here"
[ -d "$WG_ROOT/submissions/correct" ] || e2e_skip "SKIP: no sample submissions"
pids=
cleanup() {
	[ -n "${SLURM_CONF:-}" ] && scancel --quiet --user=root 2>/dev/null
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		kill -9 "$p" 2>/dev/null
	done
}
e2e_at_exit cleanup
chmod 700 "$tmp"
mkdir -p "$tmp/munge" "$tmp/etc" "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/work"

# munge: a key of our own, its socket in the folder.
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge/munge.key"
munged --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/sock" \
	--pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
	--seed-file="$tmp/munge/seed" --foreground > "$tmp/munge/munged.out" 2>&1 &
pids="$pids $!"
i=0
while [ ! -S "$tmp/munge/sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$tmp/munge/sock" ] || { echo "FAIL: munged did not start: $(cat "$tmp/munge/munged.log")"; exit 1; }

# Slurm: ports from the pid (several checkouts may run this at once), the
# node's CPUs as configured (4 a task, as the documented script asks).
host=$(hostname -s)
port=$((20000 + ($$ % 5000) * 2))
cat > "$tmp/etc/slurm.conf" <<CONF
ClusterName=wgtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=wgnode NodeHostname=$host NodeAddr=127.0.0.1 CPUs=8 State=UNKNOWN
PartitionName=wg Nodes=wgnode Default=YES MaxTime=INFINITE State=UP
CONF
SLURM_CONF=$tmp/etc/slurm.conf; export SLURM_CONF
slurmctld -D -i -f "$SLURM_CONF" > "$tmp/log/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -N wgnode -f "$SLURM_CONF" > "$tmp/log/slurmd.out" 2>&1 &
pids="$pids $!"
i=0
until [ "$(sinfo -h -n wgnode -o %t 2>/dev/null)" = idle ] || [ $i -ge 120 ]; do
	sleep 0.5; i=$((i + 1))
done
if [ "$(sinfo -h -n wgnode -o %t 2>/dev/null)" != idle ]; then
	echo "FAIL: the node did not come up: $(sinfo 2>&1)"
	tail -n 20 "$tmp/log/slurmctld.log" "$tmp/log/slurmd.log" 2>/dev/null
	exit 1
fi

# The class: ~/hw3, five samples (the slow infinite-loop left out).
work=$tmp/work
mkdir -p "$work/hw3"
for s in correct compile-error crash-bad-input float-rounding output-flood; do
	mkdir "$work/hw3/$s"
	cp "$WG_ROOT/submissions/$s/"*.c "$work/hw3/$s/"
done
ln -s "$WG_ROOT/hidden-tests" "$work/hidden-tests"
# The documented files, as they are: the first ```sh block after
# "**Slurm**" is grade-shard.sh, the second the submission.
awk '/^\*\*Slurm\*\*/ { on = 1 } on && /^```sh$/ { n++; out = n == 1 ? "grade-shard.sh" : "submit.sh"; next }
     on && /^```$/ { if (n == 2) exit; out = ""; next }
     on && out != "" { print > (dir "/" out) }' dir="$work" "$WG_ROOT/docs/workflows.md"
grep -q 'grade --batch' "$work/grade-shard.sh" && grep -q 'sbatch --dependency=afterany' "$work/submit.sh" ||
	{ echo "FAIL: the Slurm example is not in docs/workflows.md as expected"; exit 1; }
chmod 755 "$work/grade-shard.sh"
(cd "$work" && HOME=$work PATH=$WG_BUILD/bin:$PATH sh ./submit.sh) > "$tmp/submit.out" 2>&1 ||
	bad "the documented submission failed: $(cat "$tmp/submit.out")"
i=0
while [ -n "$(squeue -h 2>/dev/null)" ] && [ $i -lt 600 ]; do sleep 1; i=$((i + 1)); done
[ -z "$(squeue -h 2>/dev/null)" ] || bad "jobs still queued after 10 minutes: $(squeue)"
ls "$work"/slurm-*.out > /dev/null 2>&1 || bad "no job output"
[ -s "$work/grades/gradebook.csv" ] || bad "no merged gradebook: $(cat "$work"/slurm-*.out 2>/dev/null | tail -n 20)"
[ "$(ls -d "$work"/out/* 2>/dev/null | wc -l)" -eq 8 ] || bad "not 8 shard outputs: $(ls "$work/out" 2>&1)"

# One batch over the whole class: the same gradebook.
(cd "$work" && HOME=$work "$grade" --batch hidden-tests "$work/hw3" --out "$work/single" -q) > /dev/null 2>&1
[ $? -le 1 ] || bad "the single batch failed"
cmp -s "$work/single/gradebook.csv" "$work/grades/gradebook.csv" ||
	bad "the merged gradebook differs from one batch's: $(diff "$work/single/gradebook.csv" "$work/grades/gradebook.csv")"
[ $fail -eq 0 ] && echo "slurm: 8 array tasks and the dependent merge ran; the gradebooks agree"
exit $fail
