// Compile-only: with CoreFoundation's CF_EXCLUDE_CSTD_HEADERS and libc++'s
// _LIBCPP_REMOVE_TRANSITIVE_INCLUDES defined, the public headers leave out the headers that
// come with Foundation (docs/foundation.md) and still compile, so they rely on nothing they
// do not include themselves.

#define CF_EXCLUDE_CSTD_HEADERS
#define _LIBCPP_REMOVE_TRANSITIVE_INCLUDES
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>
#include <QuartzCore/QuartzCore.hpp>

#if defined(assert) || defined(FLT_EPSILON) || defined(INT_MAX) || defined(EOF) || defined(M_PI)
#error "C library headers came with Foundation although CF_EXCLUDE_CSTD_HEADERS is defined"
#endif
#if defined(__cpp_lib_chrono)
#error "<chrono> came with Foundation although _LIBCPP_REMOVE_TRANSITIVE_INCLUDES is defined"
#endif
