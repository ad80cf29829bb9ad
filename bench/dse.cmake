# Driver benchmark (issue 5): default sweep on 1 and 2 ranks, memory at 100/1000 chips.
add_custom_target(bench_dse
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/dse_bench.sh $<TARGET_FILE:rfdse>
  DEPENDS rfdse
  USES_TERMINAL)
add_dependencies(bench bench_dse)

# The run store's memory and time against the chip count (docs/performance.md).
add_executable(run_store_bench run_store_bench.c)
target_link_libraries(run_store_bench PRIVATE rfdse_dse_smrun)

# Chips kept in the run store against chips generated (docs/performance.md).
add_executable(chip_store_bench chip_store_bench.c)
target_link_libraries(chip_store_bench PRIVATE rfdse_dse_smrun)
