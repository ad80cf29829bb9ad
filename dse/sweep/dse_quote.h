/* dse_quote.h - double-quoted strings for the text formats rfdse writes (quote.c). */
#ifndef RFDSE_DSE_QUOTE_H
#define RFDSE_DSE_QUOTE_H

#include <stdarg.h>
#include <stdio.h>

/* `s` in double quotes, '"' and '\' escaped by a backslash. */
void dse__fput_dquoted(FILE *out, const char *s);

/* s with control characters escaped (\n, \t, \xNN): one line whatever s holds. */
void dse__fput_escaped(FILE *out, const char *s);

/* The printf-formatted message, escaped the same way (at most 2047 bytes). */
void dse__vfput_escaped(FILE *out, const char *fmt, va_list ap);

#endif
