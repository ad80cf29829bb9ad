/* One double-quoted string with a backslash before '"' and '\': the quoting that both
 * libconfig (sweep files written back) and sbatch (#SBATCH arguments) read back as the
 * original text. */
#include "dse_quote.h"

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
