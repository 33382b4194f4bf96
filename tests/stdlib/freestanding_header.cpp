// Compiled once per header by the stdlib.freestanding.* tests with -nostdinc: the header named
// by METALCPU_TEST_HEADER must compile on its own, without any host header.
#include METALCPU_TEST_HEADER
