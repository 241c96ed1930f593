#ifndef WG_SUITEREPORT_CMD_H
#define WG_SUITEREPORT_CMD_H

/*
 * grade --suite-report: how strong a suite is against wrong solutions.
 *
 *   grade --suite-report SUITE_DIR WRONG_DIR [--suite-report-json FILE]
 *         [-j N] [other grade options, passed through to the grading]
 *
 * Every subfolder of WRONG_DIR holding a .c file is one wrong solution;
 * WRONG_DIR/INDEX, when present, names each one's family (tests/wrong's
 * format). They are all graded by one child grade process, exactly as
 * `grade SUITE_DIR WRONG_DIR/NAME...` would (build and judge in the
 * sandbox, -j in parallel); its JSON report becomes the kill matrix that
 * grader/report/suitereport.h analyses. The text goes to stdout, the JSON
 * (docs/suites.md, "Suite reports") to FILE.
 */

/* grade's main calls this when argv holds --suite-report; argv is grade's
 * whole command line. Returns: 0 every wrong solution is killed by some
 * case, 1 some survive, 2 a usage, suite or path error, 3 an internal
 * error (an IE verdict anywhere included). */
int suitereport_main(int argc, char **argv);

#endif
