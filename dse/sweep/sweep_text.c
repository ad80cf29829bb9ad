/* The sweep file as text: read it ourselves, refuse what libconfig 1.5 handles badly.
 * See sweep_text.h for why each check exists. */
#include "sweep_text.h"

#include "dse_quote.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static void say(FILE *err, const char *file, long line, const char *msg)
{
    if (!err)
        return;
    dse__fput_escaped(err, file);
    fprintf(err, ":%ld: %s\n", line, msg);
}

char *dse__sweep_read(const char *path, size_t *len_out, FILE *err)
{
    FILE *f = fopen(path, "rb");
    char msg[256];
    if (!f) {
        snprintf(msg, sizeof msg, "cannot read the sweep file: %s", strerror(errno));
        say(err, path, 0, msg);
        return NULL;
    }
    /* read at most one byte past the limit: /dev/zero or a FIFO end here too */
    char *text = malloc((size_t)DSE_SWEEP_MAX_BYTES + 2);
    size_t len = text ? fread(text, 1, (size_t)DSE_SWEEP_MAX_BYTES + 1, f) : 0;
    int read_errno = ferror(f) ? errno : 0;
    fclose(f);
    if (!text || read_errno) {
        snprintf(msg, sizeof msg, "cannot read the sweep file: %s",
                 text ? strerror(read_errno) : "out of memory");
        say(err, path, 0, msg);
        free(text);
        return NULL;
    }
    if (len > (size_t)DSE_SWEEP_MAX_BYTES) {
        snprintf(msg, sizeof msg, "larger than %ld bytes (1 MiB), the limit of a sweep file",
                 DSE_SWEEP_MAX_BYTES);
        say(err, path, 0, msg);
        free(text);
        return NULL;
    }
    text[len] = '\0';
    *len_out = len;
    return text;
}

/* ---- pre-scan: a small lexer that knows libconfig's strings and comments --------------- */

typedef struct scan {
    const char *p, *end;
    long line;
    int depth;                            /* open groups, lists, arrays; root not counted */
    bool group[DSE_SWEEP_MAX_DEPTH + 1];  /* is the container at each depth a group?     */
    int keys[DSE_SWEEP_MAX_DEPTH + 1];    /* settings seen in it                          */
    long string_run;                      /* bytes of adjacent literals ("a" "b" is one)  */
    bool after_string;
    const char *what;                     /* the violation, or NULL                       */
} scan;

/* Sweeps are self-contained: the results file keeps the resolved sweep, and libconfig
 * 1.5 resolves includes against the working directory and exits inside its scanner on
 * a directory or an unreadable file. */
static const char no_include[] = "@include is not supported: a sweep file is self-contained "
                                 "(copy the included settings into it)";

/* `@include` as libconfig's scanner sees it: first thing on a line, outside strings
 * and comments. */
static bool at_include(const scan *s)
{
    const char *q = s->p;
    while (q < s->end && (*q == ' ' || *q == '\t'))
        q++;
    return (size_t)(s->end - q) >= 8 && !memcmp(q, "@include", 8);
}

static void skip_line_comment(scan *s)
{
    while (s->p < s->end && *s->p != '\n')
        s->p++;
}

static void skip_block_comment(scan *s)
{
    s->p += 2;
    while (s->p < s->end && !(s->p[0] == '*' && s->p + 1 < s->end && s->p[1] == '/'))
        s->line += *s->p++ == '\n';
    s->p = s->p < s->end ? s->p + 2 : s->end;
}

static void skip_string(scan *s)
{
    long start = s->line;
    if (!s->after_string)
        s->string_run = 0;
    for (s->p++; s->p < s->end && *s->p != '"'; s->p++) {
        if (*s->p == '\\' && s->p + 1 < s->end)
            s->p++, s->string_run++;
        s->line += *s->p == '\n';
        if (++s->string_run > DSE_SWEEP_MAX_STRING) {
            s->what = "a string of more than 8192 bytes (limit of a sweep file)";
            return;
        }
    }
    if (s->p == s->end) { /* libconfig 1.5 leaks its buffer and says only "syntax error" */
        s->line = start;
        s->what = "a string that is never closed (a missing '\"')";
        return;
    }
    s->p++;
    s->after_string = true;
}

static void open_container(scan *s, bool is_group)
{
    if (s->depth == DSE_SWEEP_MAX_DEPTH) {
        s->what = "groups, lists and arrays nested deeper than 32 levels";
        return;
    }
    s->depth++;
    s->group[s->depth] = is_group;
    s->keys[s->depth] = 0;
}

static void count_setting(scan *s)
{
    if (s->group[s->depth] && ++s->keys[s->depth] > DSE_SWEEP_MAX_GROUP_KEYS)
        s->what = "more than 64 settings in one group (limit of a sweep file)";
}

/* After a line break: count it, and look for `@include` at the start of the next. */
static void new_line(scan *s)
{
    s->line++;
    s->p++;
    if (s->p < s->end && at_include(s))
        s->what = no_include;
}

/* One character of code. */
static void code_char(scan *s, char c)
{
    if (c != ' ' && c != '\t' && c != '\r')
        s->after_string = false;
    if (c == '{' || c == '(' || c == '[')
        open_container(s, c == '{');
    else if ((c == '}' || c == ')' || c == ']') && s->depth > 0)
        s->depth--;
    else if (c == '=' || c == ':')
        count_setting(s);
    s->p++;
}

/* One character, comment or string. */
static void step(scan *s)
{
    char c = *s->p;
    bool two = s->p + 1 < s->end;
    if (c == '"')
        skip_string(s);
    else if (c == '#' || (c == '/' && two && s->p[1] == '/'))
        skip_line_comment(s);
    else if (c == '/' && two && s->p[1] == '*')
        skip_block_comment(s);
    else if (c == '\n')
        new_line(s);
    else
        code_char(s, c);
}

/* libconfig reads a string up to its first NUL: the rest would be ignored silently. */
static void find_nul(scan *s)
{
    const char *nul = memchr(s->p, '\0', (size_t)(s->end - s->p));
    if (!nul)
        return;
    for (const char *q = s->p; q < nul; q++)
        s->line += *q == '\n';
    s->what = "a NUL byte: not a text file";
}

int dse__sweep_prescan(const char *text, size_t len, const char *file, FILE *err)
{
    scan s = { .p = text, .end = text + len, .line = 1, .group = { true } };
    find_nul(&s);
    if (!s.what && at_include(&s))
        s.what = no_include;
    while (!s.what && s.p < s.end)
        step(&s);
    if (!s.what)
        return 0;
    say(err, file, s.line, s.what);
    return -1;
}
