# Variation benchmark (docs/performance.md, "Variation"): CPU time to generate 100 chips
# of the default floorplan at full per-cell resolution, the systematic field alone, the
# per-cell (chipmap) path, and the field side by side with R's RandomFields when Rscript
# and RandomFields are installed (skipped cleanly otherwise).
add_executable(variation_bench ${CMAKE_CURRENT_LIST_DIR}/variation_bench.c)
target_link_libraries(variation_bench PRIVATE rfdse_variation)
find_program(RFDSE_RSCRIPT Rscript)
if(NOT RFDSE_RSCRIPT)
  set(RFDSE_RSCRIPT "")
endif()
add_custom_target(bench_variation
  COMMAND variation_bench --chips 100 --rscript "${RFDSE_RSCRIPT}"
          --rfile ${CMAKE_CURRENT_LIST_DIR}/variation_field.R
  DEPENDS variation_bench
  COMMENT "variation: chip generation, field, per-cell maps, R RandomFields comparison"
  USES_TERMINAL)
add_dependencies(bench bench_variation)

# The core paper's frequency premise in rfdse's variation model (issue 34, docs/variation.md
# section 12): where a bank's delay spread lies (vertical / horizontal / random) and what
# sub-bank classification reaches against per-register classification, per scenario.
add_executable(premise_bench ${CMAKE_CURRENT_LIST_DIR}/premise_bench.c)
target_link_libraries(premise_bench PRIVATE rfdse_variation)
add_custom_target(bench_premise
  COMMAND premise_bench --chips 100
  DEPENDS premise_bench
  COMMENT "variation: the frequency premise of the core paper, per scenario"
  USES_TERMINAL)
add_dependencies(bench bench_premise)
