// expect: compiles
#include <metal_stdlib>
using namespace metal;

// c10/metal/error.h's habit: constant strings (a message, __FILE__, __func__) copied into a
// device buffer by a bounded loop; and program-scope arrays of pointers to literals.
struct Message { char text[32]; char func[16]; };
template <uint N> void copy_string(device char (&dst)[N], constant const char* src) {
    uint j = 0;
    for (; j + 1 < N && src[j] != 0; ++j) dst[j] = src[j];
    dst[j] = 0;
}
constant const char* constant kNames[] = {"zero", "one", "two"};
kernel void report_names(device Message* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    copy_string(out[i].text, kNames[i % 3]);
    copy_string(out[i].func, __func__);
    constant const char* unit = "bytes" " and more";
    out[i].text[31] = unit[i % 15];
}
