/* Every numeric key of the schema table, just outside each bound of its documented
 * range, is refused with one line naming the file, the key and the accepted range
 * (issue 20 item 4).  Generated from the table, so a key added later is covered. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dse_sweep.h"
#include "sweep_schema.h"

static bool integer_key(const dse__key *k)
{
    return k->type == DSE__INT || k->type == DSE__INT64 || k->type == DSE__INT_LIST;
}

static bool numeric_key(const dse__key *k)
{
    return integer_key(k) || k->type == DSE__DOUBLE || k->type == DSE__DOUBLE_LIST;
}

/* The value just past the bound, as libconfig text: an integer (L-suffixed when it
 * needs 64 bits) or a number with a '.'. */
static void outside(const dse__key *k, bool above, char *buf, size_t n)
{
    if (integer_key(k)) {
        long long v = above ? (long long)k->max + 1 : (long long)k->min - (k->min_open ? 0 : 1);
        snprintf(buf, n, "%lld%s", v, (v > INT32_MAX || v < INT32_MIN) ? "L" : "");
        return;
    }
    double v = above ? nextafter(k->max, INFINITY) : k->min_open ? k->min
                                                                 : nextafter(k->min, -INFINITY);
    snprintf(buf, n, "%.17g", v);
    if (!strpbrk(buf, ".e"))
        strncat(buf, ".0", n - strlen(buf) - 1);
}

/* Loads `text`; the load must fail with one line "t.cfg:LINE: key 'PATH': got ...,
 * accepted: RANGE". */
static void expect_refused(const char *text, const char *path, const dse__key *k)
{
    char *msg = NULL, want[256], range[200];
    size_t len = 0;
    FILE *f = open_memstream(&msg, &len);
    dse_sweep *s = dse_sweep_load_string(text, "t.cfg", f);
    fclose(f);
    dse__key_range(k, range, sizeof range);
    snprintf(want, sizeof want, "key '%s': got ", path);
    if (s || !strstr(msg, want) || !strstr(msg, range) || strncmp(msg, "t.cfg:1: ", 9) ||
        strchr(msg, '\n') != msg + len - 1)
        fail_msg("accepted or wrong message for\n  %s\n  got: %s  want: %s... %s", text,
                 msg ? msg : "(nothing)", want, range);
    dse_sweep_free(s);
    free(msg);
}

/* wrap: printf format placing "KEY = VALUE;" where the key belongs. */
static int walk(const dse__key *keys, size_t n, const char *wrap, const char *prefix)
{
    int tested = 0;
    for (size_t i = 0; i < n; i++) {
        const dse__key *k = &keys[i];
        if (!numeric_key(k))
            continue;
        for (int above = 0; above < 2; above++) {
            char v[64], setting[160], text[512], path[96];
            outside(k, above, v, sizeof v);
            bool list = k->type == DSE__DOUBLE_LIST || k->type == DSE__INT_LIST;
            snprintf(setting, sizeof setting, list ? "%s = [%s];" : "%s = %s;", k->name, v);
            snprintf(text, sizeof text, wrap, setting);
            snprintf(path, sizeof path, "%s.%s", prefix, k->name);
            expect_refused(text, path, k);
            tested++;
        }
    }
    return tested;
}

static void test_every_section_key_just_outside_its_range(void **state)
{
    (void)state;
    int tested = 0;
    for (size_t s = 0; s < dse__n_sections; s++) {
        char wrap[64];
        snprintf(wrap, sizeof wrap, "%s = { %%s };", dse__sections[s].name);
        tested += walk(dse__sections[s].keys, dse__sections[s].n_keys, wrap,
                       dse__sections[s].name);
    }
    printf("# %d section bounds refused\n", tested);
    assert_true(tested > 80);
}

static void test_every_technique_key_just_outside_its_range(void **state)
{
    (void)state;
    dse__keyset tk;
    dse__technique_keys(&tk);
    int tested = walk(tk.key, tk.n,
                      "techniques = ( { name = \"t\"; %s } );", "techniques[0]");
    printf("# %d technique bounds refused\n", tested);
    assert_true(tested >= 4);
}

static void test_every_workload_key_just_outside_its_range(void **state)
{
    (void)state;
    int tested = walk(dse__workload_keys, dse__n_workload_keys,
                      "workloads = ( { name = \"w\"; %s } );", "workloads[0]");
    printf("# %d workload bounds refused\n", tested);
    assert_true(tested >= 36);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_section_key_just_outside_its_range),
        cmocka_unit_test(test_every_technique_key_just_outside_its_range),
        cmocka_unit_test(test_every_workload_key_just_outside_its_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
