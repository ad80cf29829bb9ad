/* One double-quoted string with a backslash before '"' and '\': the quoting that both
 * libconfig (sweep files written back) and sbatch (#SBATCH arguments) read back as the
 * original text. */
#include "dse_quote.h"

#include <stdarg.h>

void dse__fput_dquoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* Messages quote values from files and command lines: escaped, a message stays one line. */
void dse__fput_escaped(FILE *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(out, "\\x%02x", *p);
        else
            fputc(*p, out);
    }
}


void dse__vfput_escaped(FILE *out, const char *fmt, va_list ap)
{
    char msg[2048];
    vsnprintf(msg, sizeof msg, fmt, ap);
    dse__fput_escaped(out, msg);
}
