# Driver benchmark (issue 5): default sweep on 1 and 2 ranks, memory at 100/1000 chips.
add_custom_target(bench_dse
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/dse_bench.sh $<TARGET_FILE:rfdse>
  DEPENDS rfdse
  USES_TERMINAL)
add_dependencies(bench bench_dse)
