/* libFuzzer target: the sweep loader's entry point (issue 20 item 8).
 *
 * Any bytes as a sweep file.  Besides "no crash, no leak, no undefined behaviour" it
 * checks the loader's two promises: a refused file gives exactly one line that starts
 * with the file's name, and an accepted one prints back (rfdse validate) to text that
 * loads to the identical sweep. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse_sweep.h"
#include "sweep_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The refusal is one line "fuzz.cfg:LINE: ..." and nothing else; or, for a trace the
 * loader cannot read or decode, the trace reader's one line "TRACE:LINE: ..." naming a
 * file the sweep names as a quoted string (`trace = "TRACE"`: docs/traces.md). */
static int names_a_trace(const char *text, const char *msg)
{
    /* a path may hold colons itself: any colon may end it */
    for (const char *colon = strchr(msg, ':'); colon && colon - msg <= 1000;
         colon = strchr(colon + 1, ':')) {
        char quoted[1004];
        snprintf(quoted, sizeof quoted, "\"%.*s\"", (int)(colon - msg), msg);
        if (colon > msg && strstr(text, quoted))
            return 1;
    }
    return 0;
}

static void check_message(const char *text, const char *msg, size_t len)
{
    if (len == 0 || (strncmp(msg, "fuzz.cfg:", 9) && !names_a_trace(text, msg)) ||
        msg[len - 1] != '\n' || memchr(msg, '\n', len - 1)) {
        fprintf(stderr, "fuzz_sweep: a refusal that is not one 'fuzz.cfg:LINE:' line: [%s]\n",
                msg);
        abort();
    }
}

static void check_round_trip(const dse_sweep *s)
{
    char *text = dse_sweep_to_string(s);
    dse_sweep *again = text ? dse_sweep_load_string(text, "fuzz.cfg", stderr) : NULL;
    if (!again || !dse_sweep_equal(s, again)) {
        fprintf(stderr, "fuzz_sweep: accepted sweep does not round-trip:\n%s\n", text);
        abort();
    }
    dse_sweep_free(again);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > DSE_SWEEP_MAX_BYTES)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    /* the pre-scan sees every byte (NULs too); the loader the text up to the first NUL */
    (void)dse__sweep_prescan(text, size, "fuzz.cfg", NULL);
    char *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    dse_sweep *s = err ? dse_sweep_load_string(text, "fuzz.cfg", err) : NULL;
    if (err) {
        fclose(err);
        if (s && len) {
            fprintf(stderr, "fuzz_sweep: accepted with a message: %s\n", msg);
            abort();
        }
        if (!s)
            check_message(text, msg, len);
    }
    if (s)
        check_round_trip(s);
    dse_sweep_free(s);
    free(msg);
    free(text);
    return 0;
}
