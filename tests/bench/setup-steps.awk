# setup-steps.awk: the step-by-step account of grade processes, from the
# lines WG_STEP_TIMES=1 makes them write (grader/lib/steptime.h):
#     wg-step: SECONDS PID WHO STEP
# Input: the lines of several grade processes, each process's lines in
# time order (sort -k2 -n per process), each process starting with
# "grade main". A step's cost is the time from the mark before it to its
# own; printed is each step's median over the processes, in the order of
# the first, and the sum of the medians but for the cases themselves
# (first-case-judged: the first one; cases-run: the others). With
# -v cases=N (the suite's), what the first case took beyond a later one
# (cases-run over N - 1) is a cold start, set-up: it is counted in.
# Usage: awk [-v cases=N] -f setup-steps.awk LINES
function median(key,    n, i, j, v, a) {
	n = count[key]
	for (i = 1; i <= n; i++) a[i] = val[key, i]
	for (i = 2; i <= n; i++) {         # insertion sort: a few dozen values
		v = a[i]
		for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]
		a[j + 1] = v
	}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
$1 != "wg-step:" { next }
{
	key = $4 " " $5
	if (key == "grade main") { runs++; prev = $2; next }
	if (!(key in count)) order[++nkeys] = key
	val[key, ++count[key]] = ($2 - prev) * 1000
	prev = $2
}
END {
	printf "  set-up, step by step (WG_STEP_TIMES=1, median of %d grade processes):\n", runs
	for (i = 1; i <= nkeys; i++) {
		m = median(order[i])
		if (order[i] == "grade first-case-judged")
			first = m
		else if (order[i] == "grade cases-run")
			printf "    %8.3f ms  %s (the other cases, not set-up)\n", m, order[i]
		else {
			printf "    %8.3f ms  %s\n", m, order[i]
			sum += m
		}
	}
	if (cases > 1 && ("grade cases-run" in count)) {
		later = median("grade cases-run") / (cases - 1)
		printf "    %8.3f ms  the first case beyond a later one (%.3f against %.3f: its cold start)\n", first - later, first, later
		sum += first - later
	} else {
		printf "    %8.3f ms  grade first-case-judged (the first case, not counted)\n", first
	}
	printf "    %8.3f ms  main() to exit, but for the cases\n", sum
}
