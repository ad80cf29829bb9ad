/* dse_quote.h - double-quoted strings for the text formats rfdse writes (quote.c). */
#ifndef RFDSE_DSE_QUOTE_H
#define RFDSE_DSE_QUOTE_H

#include <stdio.h>

/* `s` in double quotes, '"' and '\' escaped by a backslash. */
void dse__fput_dquoted(FILE *out, const char *s);

#endif
