/*
 * suitereport: the analysis of a kill matrix (survivors, fragile
 * solutions, redundant cases, categories, families), the matrix read from
 * grade's own JSON report, tests/wrong/INDEX's format, the text, and every
 * JSON allocation failing in turn.
 *
 * The matrix of most tests: cases c1 c2 (category a), c3 c4 (b), c5 (c);
 *   s1  X . X . .   killed by c1, c3 (two categories)
 *   s2  . X . . .   fragile: c2 only
 *   s3  . . . . .   survives
 *   s4  X X . . ?   killed by c1, c2; an IE on c5, which is no kill
 * so c4 and c5 kill nothing, a catches s1 s2 s4 (s2 and s4 alone), b s1.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/report/suitereport.h"
#include "tests/unit/failalloc.h"
#include "tests/unit/wg_check.h"

static const char *const sols[] = { "s1", "s2", "s3", "s4" };
static const char *const fams[] = { "f", "g", "f", NULL };
static const char *const cases[] = { "c1", "c2", "c3", "c4", "c5" };
static const char *const cats[] = { "a", "a", "b", "b", "c" };
static const char *const verdicts[] = {
	"WA", "AC", "RTE", "AC", "AC",
	"AC", "TLE", "AC", "AC", "AC",
	"AC", "AC", "AC", "AC", "AC",
	"OLE", "MLE", "AC", "AC", "IE",
};
static const struct suitereport_matrix matrix = {
	.nsols = 4, .ncases = 5, .sols = sols, .families = fams, .cases = cases,
	.categories = cats, .verdicts = verdicts,
};

static json_t *at(const json_t *v, const char *key)
{
	return json_object_get(v, key);
}

static long long num(const json_t *v, const char *key)
{
	ck_assert_msg(json_is_integer(at(v, key)), "no integer '%s'", key);
	return json_integer_value(at(v, key));
}

/* The names of a JSON array of strings, joined by spaces. */
static const char *joined(const json_t *arr, char *buf, size_t len)
{
	size_t i, n = 0;
	const json_t *v;

	buf[0] = '\0';
	json_array_foreach(arr, i, v)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "",
				      json_string_value(v));
	return buf;
}

START_TEST(test_kills)
{
	ck_assert(!suitereport_kills("AC"));
	ck_assert(!suitereport_kills("IE"));
	ck_assert(suitereport_kills("WA"));
	ck_assert(!suitereport_kills("CE"));
	ck_assert(suitereport_kills("TLE"));
}
END_TEST

START_TEST(test_analysis)
{
	struct strbuf err = STRBUF_INIT;
	json_t *sr = suitereport_json(&matrix, &err), *sum, *v;
	char buf[256];

	ck_assert_msg(sr != NULL, "%s", strbuf_str(&err));
	ck_assert_str_eq(json_string_value(at(sr, "schema")), SUITEREPORT_SCHEMA);
	sum = at(sr, "summary");
	ck_assert_int_eq(num(sum, "solutions"), 4);
	ck_assert_int_eq(num(sum, "cases"), 5);
	ck_assert_int_eq(num(sum, "killed"), 3);
	ck_assert_int_eq(num(sum, "survivors"), 1);
	ck_assert_int_eq(num(sum, "fragile"), 1);
	ck_assert_int_eq(num(sum, "redundant_cases"), 2);
	ck_assert_int_eq(num(sum, "errors"), 1);
	ck_assert_int_eq(num(sum, "unbuilt"), 0);
	ck_assert_int_eq(num(sum, "min_kills"), 0);
	ck_assert_int_eq(num(sum, "max_kills"), 2);
	ck_assert_str_eq(joined(at(sr, "survivors"), buf, sizeof(buf)), "s3");
	ck_assert_int_eq(json_array_size(at(sr, "fragile")), 1);
	v = json_array_get(at(sr, "fragile"), 0);
	ck_assert_str_eq(json_string_value(at(v, "solution")), "s2");
	ck_assert_str_eq(json_string_value(at(v, "case")), "c2");
	ck_assert_str_eq(joined(at(sr, "redundant"), buf, sizeof(buf)), "c4 c5");
	v = json_array_get(at(sr, "errors"), 0);
	ck_assert_str_eq(json_string_value(at(v, "solution")), "s4");
	ck_assert_str_eq(json_string_value(at(v, "case")), "c5");

	/* the matrix, row by row, and each solution's killers */
	const char *rows[] = { "X.X..", ".X...", ".....", "XX..?" };
	const char *killers[] = { "c1 c3", "c2", "", "c1 c2" };
	for (size_t s = 0; s < 4; s++) {
		json_t *row = json_array_get(at(at(sr, "matrix"), "rows"), s);
		json_t *sol = json_array_get(at(sr, "solutions"), s);
		ck_assert_str_eq(json_string_value(at(row, "solution")), sols[s]);
		ck_assert_str_eq(json_string_value(at(row, "kills")), rows[s]);
		ck_assert_str_eq(json_string_value(json_array_get(at(row, "verdicts"), 4)),
				 verdicts[s * 5 + 4]);
		ck_assert_str_eq(joined(at(sol, "killed_by"), buf, sizeof(buf)), killers[s]);
		ck_assert_int_eq(num(sol, "kills"), (long long)json_array_size(at(sol, "killed_by")));
		ck_assert(json_is_null(at(sol, "build")));
	}
	ck_assert_str_eq(joined(at(at(sr, "matrix"), "cases"), buf, sizeof(buf)),
			 "c1 c2 c3 c4 c5");

	/* per case: kills and sole kills */
	const long long kills[] = { 2, 2, 1, 0, 0 }, sole[] = { 0, 1, 0, 0, 0 };
	for (size_t c = 0; c < 5; c++) {
		v = json_array_get(at(sr, "cases"), c);
		ck_assert_str_eq(json_string_value(at(v, "name")), cases[c]);
		ck_assert_str_eq(json_string_value(at(v, "category")), cats[c]);
		ck_assert_int_eq(num(v, "kills"), kills[c]);
		ck_assert_int_eq(num(v, "sole_kills"), sole[c]);
	}

	/* per category, in the suite's order */
	const char *cn[] = { "a", "b", "c" };
	const long long cc[] = { 2, 2, 1 }, ck[] = { 3, 1, 0 }, co[] = { 2, 0, 0 },
			cr[] = { 0, 1, 1 };
	ck_assert_int_eq(json_array_size(at(sr, "categories")), 3);
	for (size_t i = 0; i < 3; i++) {
		v = json_array_get(at(sr, "categories"), i);
		ck_assert_str_eq(json_string_value(at(v, "category")), cn[i]);
		ck_assert_int_eq(num(v, "cases"), cc[i]);
		ck_assert_int_eq(num(v, "killed"), ck[i]);
		ck_assert_int_eq(num(v, "only"), co[i]);
		ck_assert_int_eq(num(v, "redundant_cases"), cr[i]);
	}

	/* per family, in order of first appearance; NULL is a family too */
	ck_assert_int_eq(json_array_size(at(sr, "families")), 3);
	v = json_array_get(at(sr, "families"), 0);
	ck_assert_str_eq(json_string_value(at(v, "family")), "f");
	ck_assert_int_eq(num(v, "solutions"), 2);
	ck_assert_int_eq(num(v, "killed"), 1);
	ck_assert_int_eq(num(v, "fragile"), 0);
	ck_assert_str_eq(joined(at(v, "survivors"), buf, sizeof(buf)), "s3");
	v = json_array_get(at(sr, "families"), 1);
	ck_assert_str_eq(json_string_value(at(v, "family")), "g");
	ck_assert_int_eq(num(v, "fragile"), 1);
	v = json_array_get(at(sr, "families"), 2);
	ck_assert(json_is_null(at(v, "family")));
	ck_assert_int_eq(num(v, "killed"), 1);
	json_decref(sr);
	strbuf_release(&err);
}
END_TEST

/* No families known, no solution, no case: an empty but whole report. */
START_TEST(test_empty)
{
	struct suitereport_matrix m = { 0 };
	struct strbuf err = STRBUF_INIT;
	json_t *sr = suitereport_json(&m, &err);

	ck_assert_msg(sr != NULL, "%s", strbuf_str(&err));
	ck_assert_int_eq(num(at(sr, "summary"), "solutions"), 0);
	ck_assert_int_eq(num(at(sr, "summary"), "min_kills"), 0);
	ck_assert_int_eq(json_array_size(at(sr, "families")), 0);
	ck_assert_int_eq(json_array_size(at(sr, "survivors")), 0);
	json_decref(sr);

	/* a matrix with a hole is refused, with the place */
	const char *holes[] = { "AC", NULL };
	const char *one[] = { "x" }, *two[] = { "p", "q" }, *cat[] = { "k", "k" };
	m = (struct suitereport_matrix){ .nsols = 1, .ncases = 2, .sols = one,
		.cases = two, .categories = cat, .verdicts = holes };
	ck_assert_ptr_null(suitereport_json(&m, &err));
	ck_assert_str_eq(strbuf_str(&err), "suite report: no verdict for 'x' on 'q'");
	strbuf_release(&err);
}
END_TEST

static json_t *grade_case(const char *name, const char *cat, const char *verdict)
{
	return json_pack("{s:s, s:s, s:s}", "name", name, "category", cat, "verdict", verdict);
}

START_TEST(test_from_grade)
{
	struct strbuf err = STRBUF_INIT;
	json_t *rep = json_pack("{s:s, s:s, s:[{s:s, s:{s:s}, s:[o, o]}, {s:s, s:{s:s}, s:[o, o]},"
				" {s:s, s:{s:s}, s:[o, o]}]}",
		"suite", "mini", "suite_dir", "t/mini", "submissions",
		"submission", "wrong/alpha/", "build", "status", "ok", "cases",
		grade_case("p", "k", "AC"), grade_case("q", "m", "WA"),
		"submission", "wrong/beta/main.c", "build", "status", "failed", "cases",
		grade_case("p", "k", "CE"), grade_case("q", "m", "CE"),
		"submission", "gamma", "build", "status", "ok", "cases",
		grade_case("p", "k", "AC"), grade_case("q", "m", "AC"));
	json_t *fam = json_pack("{s:s}", "beta", "args");
	json_t *sr = suitereport_from_grade(rep, fam, &err), *v;
	char buf[128];

	ck_assert_msg(sr != NULL, "%s", strbuf_str(&err));
	ck_assert_str_eq(json_string_value(at(sr, "suite")), "mini");
	ck_assert_str_eq(json_string_value(at(sr, "suite_dir")), "t/mini");
	v = json_array_get(at(sr, "solutions"), 0);
	ck_assert_str_eq(json_string_value(at(v, "name")), "alpha");
	ck_assert(json_is_null(at(v, "family")));
	ck_assert_str_eq(json_string_value(at(v, "build")), "ok");
	v = json_array_get(at(sr, "solutions"), 1);
	ck_assert_str_eq(json_string_value(at(v, "name")), "beta");
	ck_assert_str_eq(json_string_value(at(v, "family")), "args");
	ck_assert_str_eq(json_string_value(at(v, "build")), "failed");
	/* a build that failed: no case ran, so no kill, and no survivor */
	ck_assert_str_eq(joined(at(v, "killed_by"), buf, sizeof(buf)), "");
	ck_assert_str_eq(joined(at(sr, "unbuilt"), buf, sizeof(buf)), "beta");
	ck_assert_str_eq(joined(at(sr, "survivors"), buf, sizeof(buf)), "gamma");
	ck_assert_str_eq(joined(at(sr, "redundant"), buf, sizeof(buf)), "p");
	ck_assert_str_eq(json_string_value(at(json_array_get(at(at(sr, "matrix"), "rows"), 1),
					      "kills")), "CC");
	ck_assert_int_eq(num(at(sr, "summary"), "unbuilt"), 1);
	ck_assert_int_eq(num(at(sr, "summary"), "killed"), 1);
	ck_assert_int_eq(num(at(sr, "summary"), "min_kills"), 0);
	ck_assert_int_eq(num(json_array_get(at(sr, "families"), 1), "unbuilt"), 1);
	json_decref(sr);

	/* a submission whose cases are not the first one's */
	json_object_set_new(json_array_get(at(json_array_get(at(rep, "submissions"), 2),
					      "cases"), 1), "name", json_string("r"));
	ck_assert_ptr_null(suitereport_from_grade(rep, fam, &err));
	ck_assert_str_eq(strbuf_str(&err), "grade report: submissions[2].cases[1]: not "
			 "the first submission's case, or no verdict");
	strbuf_reset(&err);
	ck_assert_ptr_null(suitereport_from_grade(fam, NULL, &err));
	ck_assert_str_eq(strbuf_str(&err), "grade report: no \"submissions\" array");
	json_decref(rep);
	json_decref(fam);
	strbuf_release(&err);
}
END_TEST

START_TEST(test_index)
{
	char path[PATH_MAX];
	int fd = mkstemp(check_scratch(path, sizeof(path), "suitereport-XXXXXX"));
	struct strbuf err = STRBUF_INIT;
	json_t *fam;
	FILE *f;

	ck_assert_int_ge(fd, 0);
	ck_assert_ptr_nonnull(f = fdopen(fd, "w"));
	fputs("# name\tfamily\tbase\twhat\nab\tgrammar\treference\tsomething\n\n"
	      "cd\tlines\n", f);
	fclose(f);
	fam = suitereport_read_index(path, &err);
	ck_assert_msg(fam != NULL, "%s", strbuf_str(&err));
	ck_assert_int_eq(json_object_size(fam), 2);
	ck_assert_str_eq(json_string_value(json_object_get(fam, "ab")), "grammar");
	ck_assert_str_eq(json_string_value(json_object_get(fam, "cd")), "lines");
	json_decref(fam);

	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs("ab\tgrammar\nno family here\n", f);
	fclose(f);
	ck_assert_ptr_null(suitereport_read_index(path, &err));
	ck_assert(strstr(strbuf_str(&err), ":2: not NAME<TAB>FAMILY") != NULL);
	unlink(path);
	strbuf_reset(&err);
	ck_assert_ptr_null(suitereport_read_index(path, &err));
	ck_assert(strstr(strbuf_str(&err), "No such file") != NULL);
	strbuf_release(&err);
}
END_TEST

START_TEST(test_print)
{
	struct strbuf err = STRBUF_INIT;
	json_t *sr = suitereport_json(&matrix, &err);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(sr);
	ck_assert_int_eq(suitereport_print(f, sr), 0);
	fclose(f);
	ck_assert_msg(strstr(text, "  s4       XX..?  2\n") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "survivors, killed by no case (1):\n  s3  f\n") != NULL,
		      "%s", text);
	ck_assert_msg(strstr(text, "fragile, killed by one case only (1):\n"
				   "  s2       by c2\n") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "redundant cases, killing nothing (2):\n  c4\n  c5\n")
		      != NULL, "%s", text);
	ck_assert_msg(strstr(text, "; 1 internal errors (not counted as kills)\n") != NULL,
		      "%s", text);
	free(text);
	ck_assert_int_eq(suitereport_print(stdout, at(sr, "summary")), -1);
	json_decref(sr);
	strbuf_release(&err);
}
END_TEST

/* Every JSON allocation of suitereport_json fails in turn: NULL and the
 * reason, or the whole report; nothing leaked. */
START_TEST(test_alloc_failures)
{
	struct strbuf err = STRBUF_INIT;
	size_t n;

	failalloc_install();
	for (n = 1;; n++) {
		failalloc_fail_at(n);
		json_t *sr = suitereport_json(&matrix, &err);
		failalloc_fail_at(0);
		if (!failalloc_failed()) {
			ck_assert_ptr_nonnull(sr);
			json_decref(sr);
			break;
		}
		if (sr) {
			/* a failure jansson absorbed must not leave a hole */
			ck_assert_int_eq(json_array_size(at(sr, "cases")), 5);
			json_decref(sr);
		} else {
			ck_assert_str_eq(strbuf_str(&err), "suite report: out of memory");
		}
		strbuf_reset(&err);
		ck_assert_msg(failalloc_live() == 0, "allocation %zu: %ld left", n,
			      failalloc_live());
	}
	ck_assert_int_eq(failalloc_live(), 0);
	ck_assert_int_gt(n, 50);
	failalloc_uninstall();
	strbuf_release(&err);
}
END_TEST

Suite *make_suitereport_suite(void)
{
	Suite *s = suite_create("suitereport");
	TCase *tc = tcase_create("analysis");

	tcase_add_test(tc, test_kills);
	tcase_add_test(tc, test_analysis);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_from_grade);
	tcase_add_test(tc, test_index);
	tcase_add_test(tc, test_print);
	tcase_add_test(tc, test_alloc_failures);
	suite_add_tcase(s, tc);
	return s;
}
