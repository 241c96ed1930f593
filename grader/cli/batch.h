#ifndef WG_BATCH_H
#define WG_BATCH_H

/*
 * batch: grade a whole class.
 *
 *   grade --batch SUITE_DIR SUBMISSIONS_DIR --out DIR [-j N] [--force]
 *         [other grade options, passed through to each student's grading]
 *
 * Every subdirectory of SUBMISSIONS_DIR is one student. Each student is
 * graded by a child process running this same grade binary, so that a
 * student whose grading crashes or hangs costs only that student. Writes
 * DIR/students/NAME.json (atomically, as each student finishes),
 * DIR/gradebook.csv, DIR/summary.txt and DIR/summary.json.
 * See docs/workflows.md.
 */

/* grade's main calls this when argv holds --batch; argv is grade's whole
 * command line. Returns grade's exit status: 0 every student graded and
 * every case accepted, 1 every student graded but not all accepted,
 * 2 usage or path error, 3 a student could not be graded (internal error). */
int batch_main(int argc, char **argv);

/*
 * grade --merge --out DIR OUT...: the outputs of `grade --batch --shard
 * K/N` runs (one OUT each) combined into one gradebook.csv, summary.txt,
 * summary.json and students/ in DIR, through batch's own writers. Runs no
 * student program. Returns grade's exit status: 0 every student graded
 * and accepted, 1 not all accepted, 2 usage error or shards that do not
 * belong together (another suite, options, grader version or N; one
 * shard given twice): nothing written, 3 some student not graded by its
 * shard, or in no shard given (a partial merge, written and marked so).
 * See batch_merge.c and docs/workflows.md.
 */
int batch_merge_main(int argc, char **argv);

#endif
