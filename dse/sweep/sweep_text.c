/* The sweep file as text: read it ourselves, refuse what libconfig 1.5 handles badly.
 * See sweep_text.h for why each check exists. */
#include "sweep_text.h"

#include "dse_quote.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdint.h>
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

void dse__sweep_vfail(FILE *err, const char *file, int line, const char *key, const char *fmt,
                      va_list ap)
{
    if (!err)
        return;
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    dse__fput_escaped(err, file);
    fprintf(err, ":%d: ", line);
    if (key) {
        fputs("key '", err);
        dse__fput_escaped(err, key);
        fputs("': ", err);
    }
    dse__fput_escaped(err, msg);
    fputc('\n', err);
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
    char key[64];                         /* the last setting name, for messages          */
    char path[256];                       /* "chips." inside chips = { ... }               */
    size_t path_len[DSE_SWEEP_MAX_DEPTH + 1];
    bool named;                           /* a name and '=' came, its value not yet       */
    char msg[320];                        /* storage for a `what` built at run time       */
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
    s->path_len[s->depth] = strlen(s->path);
    if (s->named && strlen(s->path) + strlen(s->key) + 2 < sizeof s->path)
        strcat(strcat(s->path, s->key), ".");
    s->named = false;
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

static bool name_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-' || c == '*';
}

/* A setting name (libconfig: [A-Za-z*][-A-Za-z0-9_*]*), or true/false: skipped whole, so
 * the digits in `rr_row_groups2` are not a number; kept for the messages below. */
static void skip_name(scan *s)
{
    const char *start = s->p;
    while (s->p < s->end && name_char(*s->p))
        s->p++;
    size_t n = (size_t)(s->p - start);
    if (n >= sizeof s->key)
        n = sizeof s->key - 1;
    memcpy(s->key, start, n);
    s->key[n] = '\0';
}

static void refuse_literal(scan *s, const char *lit, size_t n, const char *why)
{
    snprintf(s->msg, sizeof s->msg, "key '%.100s%s': %.*s %s", s->path, s->key,
             (int)(n > 40 ? 40 : n), lit, why);
    s->what = s->msg;
}

/* libconfig 1.5 wraps integer literals to 32 bits (5000000000 reads as 705032704, 0xFFFFFFFF
 * as -1), clamps 64-bit ones (99999999999999999999L reads as INT64_MAX) and lets floats
 * overflow to inf or underflow to 0.  A value is read exactly or refused, quoting what
 * was written. */
static void check_literal(scan *s, const char *lit, size_t n)
{
    char buf[64];
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    memcpy(buf, lit, n);
    buf[n] = '\0';
    size_t digits = strcspn(buf, "Ll");
    bool wide = digits < n, hex = strpbrk(buf, "xX") != NULL;
    bool real = !hex && strpbrk(buf, ".eE") != NULL;
    buf[digits] = '\0';
    errno = 0;
    if (real) {
        double v = strtod(buf, NULL); /* ERANGE for subnormals too: those read exactly */
        if (errno == ERANGE && v == 0.0)
            refuse_literal(s, lit, n, "is too small for a double (it would read as 0)");
        else if (errno == ERANGE && isinf(v))
            refuse_literal(s, lit, n, "is too large for a double");
        return;
    }
    unsigned long long mag = strtoull(buf + (buf[0] == '-' || buf[0] == '+'), NULL, hex ? 16 : 10);
    unsigned long long limit = wide ? (unsigned long long)INT64_MAX : (unsigned long long)INT32_MAX;
    if (buf[0] == '-')
        limit++; /* -2147483648 fits */
    if (errno == ERANGE || mag > limit)
        refuse_literal(s, lit, n, wide ? "does not fit a 64-bit integer"
                                       : "does not fit a 32-bit integer (a 64-bit one ends in L)");
}

/* A number: libconfig's integer, 64-bit, hex and float literals. */
static void scan_number(scan *s)
{
    const char *start = s->p;
    s->p++;
    while (s->p < s->end && (name_char(*s->p) || *s->p == '.' || *s->p == '+' ||
                             ((*s->p == '-') && (s->p[-1] == 'e' || s->p[-1] == 'E'))))
        s->p++;
    check_literal(s, start, (size_t)(s->p - start));
}

static bool starts_number(const scan *s, char c)
{
    if (c >= '0' && c <= '9')
        return true;
    if (c != '-' && c != '+' && c != '.')
        return false;
    const char *q = s->p + 1;
    if (c != '.' && q < s->end && *q == '.')
        q++;
    return q < s->end && *q >= '0' && *q <= '9';
}

/* One character of code. */
static void code_char(scan *s, char c)
{
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '*') {
        s->after_string = false;
        skip_name(s);
        return;
    }
    if (starts_number(s, c)) {
        s->after_string = false;
        scan_number(s);
        return;
    }
    if (c != ' ' && c != '\t' && c != '\r')
        s->after_string = false;
    if (c == '{' || c == '(' || c == '[')
        open_container(s, c == '{');
    else if ((c == '}' || c == ')' || c == ']') && s->depth > 0)
        s->path[s->path_len[--s->depth]] = '\0';
    else if (c == '=' || c == ':') {
        count_setting(s);
        s->named = true;
    }
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
