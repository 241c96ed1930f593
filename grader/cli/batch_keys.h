#ifndef WG_BATCH_KEYS_H
#define WG_BATCH_KEYS_H
/*
 * batch_keys: the names batch adds to JSON, spelled once for the writers
 * (batch_sched.c, batch_summary.c, batch_students.c) and the readers
 * (batch_resume.c, batch_merge.c). A name that means what it means in
 * grade's report is the report's (grader/report/keys.h, RK_*): only the
 * rest is here.
 *
 * String literals (macros), so that they also go into json_pack()'s and
 * json_unpack()'s argument lists.
 *
 * What batch adds to a student's report (DIR/students/NAME.json), the
 * keys a later run resumes from and a merge compares:
 *
 *   { ...grade's report..., student, source_hash, suite_hash,
 *     grade_options, graded_at, grade_exit, shard: { index, count } }
 *
 * A student without a submission gets a report of its own (an empty
 * "submissions", no "grade_exit"):
 *
 *   { suite, grader_version, status: "no submission", detail, student,
 *     score: 0, max_score, submissions: [], source_hash, suite_hash,
 *     grade_options, graded_at, shard }
 *
 * DIR/summary.json (batch_summary.c writes it, batch_merge.c reads a
 * shard's):
 *
 *   { suite, suite_dir, partial, students, graded, graded_now, unchanged,
 *     not_graded, no_submission, no_submission_students: [name],
 *     not_started, not_started_students: [name],
 *     scores: { max_score, mean, median, lowest, highest,
 *               histogram: [ { from_percent, to_percent, count } ],
 *               partial, students },
 *     verdicts: { "AC": n, ... },
 *     categories: [ { category, mean, max_score, full_marks, students,
 *                     hint } ],
 *     most_failed: [ { case, category, failed, verdicts: { V: n }, of,
 *                      hint } ],
 *     errors: [ { student, error } ],
 *     shard: { index, count }, class_students: [name], grader_version,
 *     suite_hash, grade_options, suite_max_score,
 *     merge (a merge's only): { shards: [OUT], missing_shards: [K],
 *                               missing_students: [name] } }
 *
 * Errors: none: names only, no functions.
 */
#include "grader/report/keys.h"

/* Added to a student's report; suite_hash and grade_options (with
 * RK_GRADER_VERSION) are in summary.json too. */
#define BK_SOURCE_HASH        "source_hash"
#define BK_SUITE_HASH         "suite_hash"
#define BK_GRADE_OPTIONS      "grade_options"
#define BK_GRADED_AT          "graded_at"
#define BK_GRADE_EXIT         "grade_exit"
#define BK_SHARD              "shard"

/* "shard" ({index, count}); "count" is also a histogram bin's. */
#define BK_INDEX              "index"
#define BK_COUNT              "count"

/* The RK_STATUS of a student's report without a submission. */
#define BK_NO_SUBMISSION_STATUS "no submission"

/* summary.json's top level. "students" is also scores' and a category's
 * (how many graded); "partial" also scores'. */
#define BK_PARTIAL            "partial"
#define BK_STUDENTS           "students"
#define BK_GRADED             "graded"
#define BK_GRADED_NOW         "graded_now"
#define BK_UNCHANGED          "unchanged"
#define BK_NOT_GRADED         "not_graded"
#define BK_NO_SUBMISSION      "no_submission"
#define BK_NO_SUBMISSION_STUDENTS "no_submission_students"
#define BK_NOT_STARTED        "not_started"
#define BK_NOT_STARTED_STUDENTS "not_started_students"
#define BK_SCORES             "scores"
#define BK_MOST_FAILED        "most_failed"
#define BK_ERRORS             "errors"
#define BK_CLASS_STUDENTS     "class_students"
#define BK_SUITE_MAX_SCORE    "suite_max_score"
#define BK_MERGE              "merge"

/* "scores" ("mean" is also a category's). */
#define BK_MEAN               "mean"
#define BK_MEDIAN             "median"
#define BK_LOWEST             "lowest"
#define BK_HIGHEST            "highest"
#define BK_HISTOGRAM          "histogram"
#define BK_FROM_PERCENT       "from_percent"
#define BK_TO_PERCENT         "to_percent"

/* "categories". */
#define BK_FULL_MARKS         "full_marks"

/* "most_failed". */
#define BK_CASE               "case"
#define BK_FAILED             "failed"
#define BK_OF                 "of"

/* "merge". */
#define BK_SHARDS             "shards"
#define BK_MISSING_SHARDS     "missing_shards"
#define BK_MISSING_STUDENTS   "missing_students"

#endif
