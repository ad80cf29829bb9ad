/* The registry line of the toy design (toy_scrub.c), force-included into the test build
 * of the model (tests/model/CMakeLists.txt): this line and that file are all it takes. */
#define SM_RF_DESIGNS_EXTRA(X) X(toy_scrub)
