# NBTI ground truth (docs/nbti.md section 5): baseline against fast-set guardband under
# uniform stress, exact per-cell aging against the driver's worst-cell approximation.
add_executable(nbti_truth ${CMAKE_CURRENT_LIST_DIR}/nbti_truth.c)
target_link_libraries(nbti_truth PRIVATE rfdse_variation)
add_custom_target(bench_nbti
  COMMAND nbti_truth --chips 1 --sms 15 --duty 0.2 --law accumulated
  COMMAND nbti_truth --chips 1 --sms 15 --duty 0.2 --law pv
  DEPENDS nbti_truth
  COMMENT "NBTI: guardband of the baseline against the fast set, exact against worst-cell"
  USES_TERMINAL)
add_dependencies(bench bench_nbti)
