// expect: compiles
#include <metal_stdlib>
using namespace metal;

#if !defined(__METAL__) || !defined(__METAL_VERSION__) || __METAL_VERSION__ != 320
#error "newLibrary(source) without options compiles Metal 3.2"
#endif
#if !defined(__HAVE_BFLOAT__)
#error "bfloat is there from Metal 3.1"
#endif
#if !defined(__HAVE_SIMDGROUP_MATRIX__)
#error "SIMD-group matrices are there from Metal 2.3"
#endif
#if !defined(__HAVE_SIMDGROUP_FUTURE__)
#error "async copies (<metal_simdgroup_future>) are there with SIMD-group matrices"
#endif

kernel void versioned(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = __METAL_VERSION__; }
