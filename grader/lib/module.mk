# grader/lib: what every part of the grader shares: the one growable
# buffer (strbuf.h), the one error vocabulary and exit statuses (usage.h)
# the small helpers (util.h), the one XML escaping (xml.h) and the
# visible form of bytes (escape.h).
GRADER_LIB_ONLY_SRCS := grader/lib/strbuf.c grader/lib/usage.c grader/lib/util.c \
                        grader/lib/xml.c grader/lib/escape.c
GRADER_LIB_SRCS += $(GRADER_LIB_ONLY_SRCS)
LIB_SRCS        += $(GRADER_LIB_ONLY_SRCS)
