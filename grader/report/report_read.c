/*
 * report_read: members of a report by name, typed (report_read.h).
 */
#include "grader/report/report_read.h"

#include "grader/report/keys.h"

const char *report_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

const char *report_text(const json_t *o, const char *key)
{
	const char *s = report_str(o, key);

	return s ? s : "";
}

double report_num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

long long report_int(const json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

enum verdict report_verdict(const json_t *kase)
{
	const char *code = report_str(kase, RK_VERDICT);

	return code ? verdict_from_code(code) : VERDICT_COUNT;
}
