# The reference solution: a small library (lex, model, cmd) and a main.
REF_LIB_SRCS := reference/lex.c reference/model.c reference/cmd.c
LIB_SRCS     += $(REF_LIB_SRCS)
PROGS        += reference
reference_SRCS := reference/main.c $(REF_LIB_SRCS)
