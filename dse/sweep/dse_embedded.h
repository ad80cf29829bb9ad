/* dse_embedded.h - sweep and workload files compiled into the binary, so `rfdse run`
 * works without any file next to it.  Generated from sweeps/ by cmake/embed.cmake. */
#ifndef RFDSE_DSE_EMBEDDED_H
#define RFDSE_DSE_EMBEDDED_H

/* sweeps/default.cfg */
const char *dse_embedded_default_sweep(void);

/* sweeps/workloads/NAME.cfg by NAME, or NULL. */
const char *dse_embedded_find_workload(const char *name);

/* Names of the built-in workloads, NULL-terminated, in file-name order. */
const char *const *dse_embedded_workload_names(void);

#endif
