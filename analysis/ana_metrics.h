/* ana_metrics.h - the one list of per-unit metrics of a results file.
 *
 * Each is a dataset /results/NAME of shape [chip][technique][AXIS].  One line each:
 *   NAME, AXIS (year or benchmark), the attribute saying what a value is relative to
 *   (normalised_to or units), its short value (tables, CSV), a short description
 *   (analyze's views and figures), the attribute's value in the results file and the
 *   dataset's description there.
 * `rfdse run` writes them: dse/ generates the fields of dse_unit, the batch layout and
 * the HDF5 dataset table from this list.  `rfdse analyze` reads them: analysis/ generates
 * its metric table from it.  Adding a metric is one line here plus computing it (in
 * dse/eval/eval.c or dse/aging/aging.c); docs/architecture.md lists the steps.  Header only,
 * no dependencies, so analysis/ stays independent of dse/. */
#ifndef RFDSE_ANA_METRICS_H
#define RFDSE_ANA_METRICS_H

#define RFDSE_UNIT_METRICS(X)                                                              \
    X(frequency, year, normalised_to, "no-PV chip",                                        \
      "chip frequency (mean over SMs), normalised to the no-PV chip",                      \
      "the same chip without variation (1.0)",                                             \
      "chip frequency (mean of SM frequencies) per chip, technique and aging year")        \
    X(frequency_min, year, normalised_to, "no-PV chip",                                    \
      "slowest SM's frequency, normalised to the no-PV chip",                              \
      "the same chip without variation (1.0)",                                             \
      "slowest SM's frequency per chip, technique and aging year")                         \
    X(ipc, benchmark, normalised_to, "ideal", "IPC, normalised to the ideal technique",     \
      "the ideal technique (no variation, all accesses 1 cycle)",                          \
      "chip IPC (mean over SMs) per chip, technique and benchmark")                        \
    X(performance, benchmark, normalised_to, "ideal",                                      \
      "IPC x frequency (lifetime: end-of-schedule frequency when the sweep ages), "        \
      "normalised to the ideal technique",                                                 \
      "the ideal technique",                                                               \
      "lifetime performance per chip, technique and benchmark: IPC x the frequency at "    \
      "the end of the aging schedule (the frequency the chip holds all its life after "    \
      "the NBTI guardband, under the workload mix's stress); IPC x time-zero frequency "   \
      "without aging")                                                                     \
    X(performance_t0, benchmark, normalised_to, "ideal",                                   \
      "IPC x time-zero frequency, normalised to the ideal technique",                      \
      "the ideal technique",                                                               \
      "performance at time zero per chip, technique and benchmark: IPC x time-zero "       \
      "frequency")                                                                         \
    X(guardband, benchmark, normalised_to, "baseline",                                     \
      "NBTI guardband of each workload alone, normalised to the baseline technique",       \
      "the baseline technique's guardband on the same chip and benchmark",                 \
      "NBTI guardband per chip, technique and benchmark with that workload alone "         \
      "stressing the chip all its life; NaN without aging (lifetime performance ages "     \
      "under the mix: guardband_mix)")                                                     \
    X(guardband_raw, benchmark, units, "fraction of frequency",                            \
      "NBTI guardband of each workload alone: fraction of frequency lost",                 \
      "fraction of the time-zero frequency",                                               \
      "frequency lost by the end of the aging schedule with that workload alone; NaN "     \
      "without aging")                                                                     \
    X(guardband_mix, year, normalised_to, "baseline",                                      \
      "NBTI guardband under the workload mix, normalised to the baseline technique",       \
      "the baseline technique's guardband under the mix on the same chip and year",        \
      "NBTI guardband under the workload mix's stress, the one lifetime performance "      \
      "pays: 1 - frequency[year] / frequency[0], normalised to the baseline's on the same " \
      "chip; NaN at year 0 and without aging")                                             \
    X(guardband_mix_raw, year, units, "fraction of frequency",                             \
      "NBTI guardband under the workload mix: fraction of frequency lost",                 \
      "fraction of the time-zero frequency",                                               \
      "frequency lost by each year under the workload mix's stress: 1 - frequency[year] / " \
      "frequency[0]")                                                                      \
    X(rf_energy, benchmark, normalised_to, "ideal",                                        \
      "register-file energy of the kernel, normalised to the ideal technique",             \
      "the ideal technique on the same benchmark",                                         \
      "register-file energy (dynamic + leakage, every SM, the whole kernel, time zero; "  \
      "with a register-file cache, ltrf or rfc_demand, the cache's too) per chip, "       \
      "technique and benchmark (docs/model.md, Energy)")                                   \
    X(rf_dynamic, benchmark, normalised_to, "ideal",                                       \
      "register-file dynamic energy, normalised to the ideal technique's total",           \
      "the ideal technique's total register-file energy on the same benchmark",            \
      "the dynamic part of rf_energy: rf_dynamic + rf_leakage = rf_energy")                \
    X(rf_leakage, benchmark, normalised_to, "ideal",                                       \
      "register-file leakage energy, normalised to the ideal technique's total",           \
      "the ideal technique's total register-file energy on the same benchmark",            \
      "the leakage part of rf_energy: rf_dynamic + rf_leakage = rf_energy")                \
    X(rf_energy_dynamic, benchmark, units, "J",                                            \
      "register-file dynamic energy of the kernel, joules", "J",                           \
      "register-file dynamic energy: lane accesses x energy per lane access, summed over " \
      "the SMs, for the whole kernel (with a register-file cache: main RF and cache)")     \
    X(rf_energy_leakage, benchmark, units, "J",                                            \
      "register-file leakage energy of the kernel, joules", "J",                           \
      "register-file leakage energy: powered sub-banks x leakage power x run time at the " \
      "SM's time-zero clock, summed over the SMs, for the whole kernel (with a "           \
      "register-file cache: main RF and cache)")                                           \
    X(rfc_energy, benchmark, units, "J",                                                   \
      "register-file cache energy (dynamic + leakage) of the kernel, joules", "J",        \
      "the register-file cache's part of rf_energy_dynamic + rf_energy_leakage: its lane " \
      "accesses and its cells' leakage, x rfc_cell_area; 0 without a cache")               \
    X(main_latency, year, units, "cycles",                                                 \
      "main register-file access latency at the year's clock (mean over SMs), cycles",     \
      "cycles",                                                                            \
      "cycles per main register-file access (fast storage) at the year's clock, mean over " \
      "SMs: main_rf_latency without a register-file cache; with ltrf or rfc_demand, whose " \
      "cache sets the clock, ceil(main_rf_latency x slowest main-RF delay x clock) per SM") \
    X(ipc_lifetime, benchmark, normalised_to, "ideal",                                     \
      "IPC at the lifetime clock, normalised to the ideal technique",                      \
      "the ideal technique",                                                               \
      "chip IPC at the operating point of `performance`: equal to ipc except with a "      \
      "register-file cache, whose main-RF latencies follow the end-of-schedule clock")

#endif
