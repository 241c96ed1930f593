#ifndef WG_SIMILARITY_CMD_H
#define WG_SIMILARITY_CMD_H
/*
 * grade --similarity: which submissions of a class share code.
 *
 *   grade --similarity CLASS_DIR [--similarity-base FILE]... [--json FILE]
 *         [--similarity-min SCORE] [--similarity-threshold SCORE]
 *         [--similarity-k N] [--similarity-window N]
 *         [--similarity-max-share SHARE] [--top N] [-q]
 *
 * CLASS_DIR is laid out as grade --batch takes it (one folder per
 * student; the one folder in it, at any depth, that holds .c files). No
 * program is built or run: the sources are read, compared
 * (grader/similarity/, docs/similarity.md) and the record written to
 * FILE (sim_report.h's JSON); the top pairs go to stdout.
 *
 * The batch (batch_similarity.c) computes the same record through
 * similarity_record() with the same options.
 */
/* grade's main calls this when argv holds --similarity. Returns 0 the
 * record was written, 2 a usage or path error (an unreadable base file,
 * a CLASS_DIR that is not one), 3 an internal error (out of memory, the
 * JSON could not be written). */
int similarity_main(int argc, char **argv);

#endif
