// expect: compiles
#include <metal_stdlib>
#include <metal_logging>
using namespace metal;

constant os_log logger("com.example.kernels", "reduce");

kernel void logged(device float* data [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    if (i == 0) os_log_default.log_info("first value %f", data[0]);
    if (data[i] < 0.0f) logger.log_error("negative value %f at %u", data[i], i);
    data[i] = abs(data[i]);
}
