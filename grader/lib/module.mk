# grader/lib: what every part of the grader shares: the one growable
# buffer (strbuf.h), the one error vocabulary and exit statuses (usage.h)
# the small helpers (util.h) and every escaping of bytes it did not choose
# (escape.h: the visible form, XML, HTML, the terminal scrub).
GRADER_LIB_ONLY_SRCS := grader/lib/strbuf.c grader/lib/usage.c grader/lib/util.c \
                        grader/lib/escape.c grader/lib/steptime.c
GRADER_LIB_SRCS += $(GRADER_LIB_ONLY_SRCS)
LIB_SRCS        += $(GRADER_LIB_ONLY_SRCS)
