/*
 * batch_lms: the gradebook as the learning-management systems import it,
 * beside DIR/gradebook.csv, and the roster that names the students there.
 *
 *   DIR/canvas.csv  Canvas's gradebook CSV (Grades > Import): the columns
 *                   Student, ID, SIS User ID, SIS Login ID, Section, then
 *                   one column for the assignment ("TITLE"), and the
 *                   "Points Possible" row Canvas's own export has under the
 *                   header. Canvas finds each student by ID (its user id),
 *                   else by SIS User ID or SIS Login ID.
 *   DIR/moodle.csv  Moodle's grade import from a CSV file: ID number,
 *                   Email address, Full name, the grade column named as
 *                   Moodle's export names it ("Assignment: TITLE (Real)")
 *                   and a Feedback column; in the import form, "Map from"
 *                   ID number (or Email address) to the same user field,
 *                   and the grade column to the grade item.
 *
 * Without --roster each student's id is the folder's name (folders named
 * by the LMS's id or login). With --roster FILE, a CSV whose header names
 * its columns (any order, any case; spaces or '_'): folder and id
 * required; name, email, section, sis_user_id, sis_login_id optional.
 * A student with no roster row is left out of both files (and warned
 * about); a student not graded (an internal error) has an empty grade, so
 * that an import changes nothing for them; one without a submission gets 0.
 */
#include "grader/cli/batch_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grader/lib/strbuf.h"
#include "grader/lib/usage.h"
#include "grader/lib/util.h"
#include "grader/report/keys.h"

enum roster_col { RC_FOLDER, RC_ID, RC_NAME, RC_EMAIL, RC_SECTION, RC_SIS_USER,
		  RC_SIS_LOGIN, RC_COUNT };

static const char *const col_names[RC_COUNT] = {
	"folder", "id", "name", "email", "section", "sis_user_id", "sis_login_id",
};

struct roster_row {
	char *f[RC_COUNT];       /* NULL: the column is absent */
};

struct roster {
	struct roster_row *v;
	size_t n;
};

/* ---- reading the roster ---- */

/* The fields of one CSV line (quotes as RFC 4180, within the line): 0, or
 * -1 with the column of the fault in *col. Fields are malloc'd. */
static int split_csv(const char *line, struct namelist *out, size_t *col)
{
	const char *p = line;

	for (;;) {
		struct strbuf sb = STRBUF_INIT;

		if (*p == '"') {
			for (p++;; p++) {
				if (!*p) {
					*col = (size_t)(p - line) + 1;
					strbuf_release(&sb);
					return -1;
				}
				if (*p == '"' && p[1] == '"')
					strbuf_addch(&sb, *p++);
				else if (*p == '"')
					break;
				else
					strbuf_addch(&sb, *p);
			}
			p++;
			if (*p && *p != ',') {
				*col = (size_t)(p - line) + 1;
				strbuf_release(&sb);
				return -1;
			}
		} else {
			size_t n = strcspn(p, ",");
			strbuf_add(&sb, p, n);
			p += n;
		}
		if (strbuf_failed(&sb))
			die("out of memory");
		batch_names_add(out, strbuf_detach(&sb, NULL));
		if (*p != ',')
			return 0;
		p++;
	}
}

/* Header word to column: lower case, ' ' and '-' as '_', trimmed. */
static int column_of(const char *word)
{
	char norm[64];
	size_t n = 0;

	while (isspace((unsigned char)*word))
		word++;
	for (; *word && n + 1 < sizeof(norm); word++)
		norm[n++] = *word == ' ' || *word == '-' ? '_'
			    : (char)tolower((unsigned char)*word);
	while (n && norm[n - 1] == '_')
		n--;
	norm[n] = '\0';
	for (int c = 0; c < RC_COUNT; c++)
		if (!strcmp(norm, col_names[c]))
			return c;
	return -1;
}

static int read_header(const char *path, const char *line, int map[], size_t max,
		       size_t *ncols, struct strbuf *err)
{
	struct namelist w = { 0 };
	size_t col = 0;
	int seen[RC_COUNT] = { 0 }, rc = 0;

	if (split_csv(line, &w, &col) < 0) {
		strbuf_addf(err, "%s:1:%zu: an unterminated quote", path, col);
		batch_names_free(&w);
		return -1;
	}
	*ncols = w.n < max ? w.n : max;
	for (size_t i = 0; i < *ncols; i++) {
		map[i] = column_of(w.v[i]);
		if (map[i] >= 0 && seen[map[i]]++) {
			strbuf_addf(err, "%s:1: the column '%s' is named twice",
				    path, col_names[map[i]]);
			rc = -1;
			break;
		}
	}
	for (int c = RC_FOLDER; !rc && c <= RC_ID; c++)
		if (!seen[c]) {
			strbuf_addf(err, "%s:1: no '%s' column (the header names "
				    "the columns: folder,id[,name,email,section,"
				    "sis_user_id,sis_login_id])", path, col_names[c]);
			rc = -1;
		}
	batch_names_free(&w);
	return rc;
}

static struct roster_row *find_row(const struct roster *r, const char *folder)
{
	for (size_t i = 0; r && i < r->n; i++)
		if (!strcmp(r->v[i].f[RC_FOLDER], folder))
			return &r->v[i];
	return NULL;
}

/* Line lineno (2...) into a new row of r: 0, or -1 with err set. */
static int read_row(const char *path, long lineno, const char *line,
		    const int map[], size_t ncols, struct roster *r,
		    struct strbuf *err)
{
	struct namelist w = { 0 };
	struct roster_row row = { { 0 } };
	size_t col = 0;

	if (split_csv(line, &w, &col) < 0) {
		strbuf_addf(err, "%s:%ld:%zu: an unterminated quote", path, lineno, col);
		batch_names_free(&w);
		return -1;
	}
	for (size_t i = 0; i < w.n && i < ncols; i++)
		if (map[i] >= 0) {
			row.f[map[i]] = w.v[i];
			w.v[i] = NULL;
		}
	batch_names_free(&w);
	for (int c = RC_FOLDER; c <= RC_ID; c++)
		if (!row.f[c] || !*row.f[c]) {
			strbuf_addf(err, "%s:%ld: no %s", path, lineno, col_names[c]);
			goto bad;
		}
	if (find_row(r, row.f[RC_FOLDER])) {
		strbuf_addf(err, "%s:%ld: the folder '%s' is in the roster twice",
			    path, lineno, row.f[RC_FOLDER]);
		goto bad;
	}
	r->v = xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
	r->v[r->n++] = row;
	return 0;
bad:
	for (int c = 0; c < RC_COUNT; c++)
		free(row.f[c]);
	return -1;
}

int batch_load_roster(struct batch *b, const char *path, struct strbuf *err)
{
	FILE *f = fopen(path, "r");
	struct roster *r;
	char *line = NULL;
	size_t cap = 0, ncols = 0;
	ssize_t len;
	long lineno = 0;
	int map[64], rc = 0;

	if (!f) {
		strbuf_addf(err, "cannot read the roster '%s': %s", path, strerror(errno));
		return -1;
	}
	r = xcalloc(1, sizeof(*r));
	while (!rc && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		/* A UTF-8 byte order mark, as spreadsheets write it. */
		if (lineno == 1 && !strncmp(line, "\xEF\xBB\xBF", 3))
			memmove(line, line + 3, (size_t)len - 2);
		if (lineno == 1)
			rc = read_header(path, line, map, sizeof(map) / sizeof(*map),
					 &ncols, err);
		else if (line[strspn(line, " \t,")])
			rc = read_row(path, lineno, line, map, ncols, r, err);
	}
	if (!rc && lineno == 0) {
		strbuf_addf(err, "%s: empty (the first line names the columns: "
			    "folder,id,...)", path);
		rc = -1;
	}
	free(line);
	fclose(f);
	if (rc) {
		batch_roster_free(r);
		return -1;
	}
	b->roster = r;
	return 0;
}

void batch_roster_free(struct roster *r)
{
	for (size_t i = 0; r && i < r->n; i++)
		for (int c = 0; c < RC_COUNT; c++)
			free(r->v[i].f[c]);
	if (r)
		free(r->v);
	free(r);
}

/* ---- writing ---- */

static int listed(const struct student *s)
{
	return s->state != ST_PENDING && s->state != ST_RUNNING;
}

/* The student's row of the roster; a row made of the folder's name when
 * there is no roster; NULL when the roster has none for the student. */
static const struct roster_row *row_of(const struct batch *b,
				       const struct student *s,
				       struct roster_row *tmp)
{
	if (b->roster)
		return find_row(b->roster, s->name);
	memset(tmp, 0, sizeof(*tmp));
	tmp->f[RC_FOLDER] = tmp->f[RC_ID] = tmp->f[RC_NAME] = s->name;
	return tmp;
}

static const char *title(const struct batch *b)
{
	return b->assignment ? b->assignment : b->suite.name ? b->suite.name
	       : "warpgrade";
}

/* The grade of s: its score, 0 without a submission, "" when not graded. */
static void put_grade(FILE *f, const struct student *s)
{
	if (s->state == ST_NO_SUBMISSION)
		fputs("0", f);
	else if (s->state != ST_FAILED && s->row.has_score)
		fprintf(f, "%g", s->row.score);
}

static void put_field(FILE *f, const char *s, int last)
{
	batch_csv_field(f, s ? s : "", 1);
	fputc(last ? '\n' : ',', f);
}

int batch_put_canvas(FILE *f, const void *arg)
{
	const struct batch *b = arg;
	struct roster_row tmp;

	fputs("Student,ID,SIS User ID,SIS Login ID,Section,", f);
	batch_csv_field(f, title(b), 1);
	fprintf(f, "\n    Points Possible,,,,,%ld\n", b->suite_max);
	for (size_t i = 0; i < b->n; i++) {
		const struct student *s = &b->st[i];
		const struct roster_row *r = listed(s) ? row_of(b, s, &tmp) : NULL;

		if (!r)
			continue;
		put_field(f, r->f[RC_NAME] ? r->f[RC_NAME] : s->name, 0);
		put_field(f, r->f[RC_ID], 0);
		put_field(f, r->f[RC_SIS_USER], 0);
		put_field(f, r->f[RC_SIS_LOGIN], 0);
		put_field(f, r->f[RC_SECTION], 0);
		put_grade(f, s);
		fputc('\n', f);
	}
	return 0;
}

int batch_put_moodle(FILE *f, const void *arg)
{
	const struct batch *b = arg;
	struct roster_row tmp;
	struct strbuf sb = STRBUF_INIT;

	fputs("ID number,Email address,Full name,", f);
	strbuf_addf(&sb, "Assignment: %s (Real)", title(b));
	batch_csv_field(f, strbuf_str(&sb), 1);
	fputs(",Feedback\n", f);
	for (size_t i = 0; i < b->n; i++) {
		const struct student *s = &b->st[i];
		const struct roster_row *r = listed(s) ? row_of(b, s, &tmp) : NULL;

		if (!r)
			continue;
		put_field(f, r->f[RC_ID], 0);
		put_field(f, r->f[RC_EMAIL], 0);
		put_field(f, r->f[RC_NAME] ? r->f[RC_NAME] : s->name, 0);
		put_grade(f, s);
		fputc(',', f);
		strbuf_reset(&sb);
		if (s->state == ST_NO_SUBMISSION)
			strbuf_addstr(&sb, "no submission");
		else if (s->state == ST_FAILED)
			strbuf_addstr(&sb, "not graded");
		else if (s->row.report)
			batch_row_describe(&s->row, &sb);
		put_field(f, strbuf_str(&sb), 1);
	}
	strbuf_release(&sb);
	return 0;
}

void batch_lms_warn(const struct batch *b)
{
	size_t missing = 0;

	for (size_t i = 0; b->roster && i < b->n; i++)
		if (listed(&b->st[i]) && !find_row(b->roster, b->st[i].name) &&
		    missing++ < 10)
			warning("roster '%s' has no row for '%s': left out of "
				"canvas.csv and moodle.csv", b->roster_path,
				b->st[i].name);
	if (missing > 10)
		warning("... and %zu more students not in the roster", missing - 10);
}
