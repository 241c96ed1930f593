/*
 * junit: the grade report as JUnit XML. See junit.h for the document shape.
 *
 * The report's strings come from jansson and so are UTF-8 already, but the
 * diff and stderr tail hold whatever the student's program printed; escaping
 * therefore validates UTF-8 itself rather than trusting its input, because a
 * single stray byte makes the whole file unreadable to an XML parser.
 */
#include "grader/junit.h"

#include <errno.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s that XML 1.0 allows, or 0 when
 * the bytes there are not one (overlong, surrogate, past U+10FFFF, the
 * noncharacters U+FFFE/U+FFFF, or truncated). s[0] >= 0x80. */
static size_t utf8_xml_len(const unsigned char *s, size_t left)
{
	size_t n;
	unsigned long cp;

	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		n = 2;
		cp = s[0] & 0x1F;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		n = 3;
		cp = s[0] & 0x0F;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (left < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ||
	    cp == 0xFFFE || cp == 0xFFFF)
		return 0;
	return n;
}

void junit_escape(FILE *f, const char *s, size_t len, int attr)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = p[i];

		switch (c) {
		case '&': fputs("&amp;", f); continue;
		case '<': fputs("&lt;", f); continue;
		case '>': fputs("&gt;", f); continue;
		case '"': fputs("&quot;", f); continue;
		case '\'': fputs("&apos;", f); continue;
		case '\t': fputs(attr ? "&#9;" : "\t", f); continue;
		case '\n': fputs(attr ? "&#10;" : "\n", f); continue;
		case '\r': fputs("&#13;", f); continue; /* parsers fold raw CRs */
		default: break;
		}
		if (c < 0x20 || c == 0x7F) {
			fprintf(f, "\\x%02X", c);
		} else if (c < 0x80) {
			fputc(c, f);
		} else {
			size_t n = utf8_xml_len(p + i, len - i);

			if (n == 0) {
				fprintf(f, "\\x%02X", c);
			} else {
				fwrite(p + i, 1, n, f);
				i += n - 1;
			}
		}
	}
}

static void esc_str(FILE *f, const char *s, int attr)
{
	if (s)
		junit_escape(f, s, strlen(s), attr);
}

static const char *get_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static double get_num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

struct counts {
	size_t tests, failures, errors;
	double seconds;
};

/* IE is the grader's own failure; CI shows it as an error, not a failure. */
static int is_error(const char *verdict)
{
	return verdict && strcmp(verdict, "IE") == 0;
}

static int is_pass(const char *verdict)
{
	return verdict && strcmp(verdict, "AC") == 0;
}

static void count_cases(const json_t *cases, struct counts *c)
{
	size_t i;
	const json_t *k;

	json_array_foreach(cases, i, k) {
		const char *v = get_str(k, "verdict");

		c->tests++;
		if (is_error(v))
			c->errors++;
		else if (!is_pass(v))
			c->failures++;
		c->seconds += get_num(k, "wall_ms") / 1000.0;
	}
}

static void write_failure(FILE *f, const json_t *k, const char *verdict)
{
	const char *detail = get_str(k, "detail");
	const char *diff = get_str(k, "diff");
	const char *tag = is_error(verdict) ? "error" : "failure";
	const char *limit = get_str(k, "limit");

	fprintf(f, "      <%s message=\"", tag);
	esc_str(f, verdict ? verdict : "?", 1);
	fputs("\" type=\"", f);
	esc_str(f, verdict ? verdict : "?", 1);
	fputs("\">", f);
	esc_str(f, verdict ? verdict : "?", 0);
	if (limit) {
		fputs(" (", f);
		esc_str(f, limit, 0);
		fputs(" time)", f);
	}
	if (detail && *detail) {
		fputs(": ", f);
		esc_str(f, detail, 0);
	}
	if (diff && *diff) {
		fputs("\n\n", f);
		esc_str(f, diff, 0);
	}
	fprintf(f, "</%s>\n", tag);
}

static void write_case(FILE *f, const json_t *k)
{
	const char *verdict = get_str(k, "verdict");
	const char *err = get_str(k, "stderr_tail");

	fputs("    <testcase name=\"", f);
	esc_str(f, get_str(k, "name"), 1);
	fputs("\" classname=\"", f);
	esc_str(f, get_str(k, "category"), 1);
	fprintf(f, "\" time=\"%.3f\"", get_num(k, "wall_ms") / 1000.0);
	if (is_pass(verdict) && !(err && *err)) {
		fputs("/>\n", f);
		return;
	}
	fputs(">\n", f);
	if (!is_pass(verdict))
		write_failure(f, k, verdict);
	if (err && *err) {
		fputs("      <system-err>", f);
		esc_str(f, err, 0);
		fputs("</system-err>\n", f);
	}
	fputs("    </testcase>\n", f);
}

static void write_property(FILE *f, const char *name, const char *value)
{
	fprintf(f, "      <property name=\"%s\" value=\"", name);
	esc_str(f, value, 1);
	fputs("\"/>\n", f);
}

static void write_properties(FILE *f, const json_t *sub)
{
	const json_t *build = json_object_get(sub, "build");
	char num[64];

	fputs("    <properties>\n", f);
	snprintf(num, sizeof num, "%g", get_num(sub, "score"));
	write_property(f, "score", num);
	snprintf(num, sizeof num, "%g", get_num(sub, "max_score"));
	write_property(f, "max_score", num);
	if (get_str(build, "status"))
		write_property(f, "build", get_str(build, "status"));
	fputs("    </properties>\n", f);
}

static void write_submission(FILE *f, const json_t *sub)
{
	const json_t *cases = json_object_get(sub, "cases");
	const json_t *build = json_object_get(sub, "build");
	const char *status = get_str(build, "status");
	const char *log = get_str(build, "log");
	struct counts c = { 0, 0, 0, 0.0 };
	size_t i;
	const json_t *k;

	count_cases(cases, &c);
	fputs("  <testsuite name=\"", f);
	esc_str(f, get_str(sub, "submission"), 1);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
		"skipped=\"0\" time=\"%.3f\">\n",
		c.tests, c.failures, c.errors, c.seconds);
	write_properties(f, sub);
	json_array_foreach(cases, i, k)
		write_case(f, k);
	/* The compiler's messages explain every CE at once; they belong to
	 * the submission, not to any one case. */
	if (status && strcmp(status, "failed") == 0 && log && *log) {
		fputs("    <system-out>", f);
		esc_str(f, log, 0);
		fputs("</system-out>\n", f);
	}
	fputs("  </testsuite>\n", f);
}

int junit_write(FILE *f, const json_t *report)
{
	const json_t *subs = json_object_get(report, "submissions");
	struct counts all = { 0, 0, 0, 0.0 };
	size_t i;
	const json_t *sub;

	json_array_foreach(subs, i, sub)
		count_cases(json_object_get(sub, "cases"), &all);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fputs("<testsuites name=\"warpgrade ", f);
	esc_str(f, get_str(report, "suite"), 1);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
		"time=\"%.3f\">\n", all.tests, all.failures, all.errors,
		all.seconds);
	json_array_foreach(subs, i, sub)
		write_submission(f, sub);
	fputs("</testsuites>\n", f);
	if (fflush(f) != 0 || ferror(f)) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return 0;
}
