# SM model benchmark: warp instructions per CPU-second on every shipped profile
# (docs/performance.md, "SM model").  `model_bench --ipc-table` prints the IPC of
# every technique on all-fast and 70 % stand-in maps.
add_executable(model_bench ${CMAKE_CURRENT_LIST_DIR}/model_bench.c)
target_link_libraries(model_bench PRIVATE rfdse_model rfdse_dse)
add_custom_target(bench_model
  COMMAND model_bench
  DEPENDS model_bench
  COMMENT "SM model: simulated warp instructions per host CPU-second"
  USES_TERMINAL)
add_dependencies(bench bench_model)

# Trace mode (docs/performance.md, "Trace workloads"): `trace_bench TRACE...`.
add_executable(trace_bench ${CMAKE_CURRENT_LIST_DIR}/trace_bench.c)
target_link_libraries(trace_bench PRIVATE rfdse_model rfdse_dse)
