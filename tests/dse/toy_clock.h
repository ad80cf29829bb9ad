/* The registry line of the toy clock (toy_clock.c), force-included into a test copy of
 * dse/aging/ (tests/dse/CMakeLists.txt): this line and that file are all it takes. */
#define DSE__CLOCKS_EXTRA(X) X(toy_frozen)
