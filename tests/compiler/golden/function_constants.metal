// Function constants as MLX and llama.cpp use them: flags in ifs, a loop bound whose index is
// arithmetic on a macro, a derived program-scope constant, an argument that exists only when a
// flag is true, and an optional constant tested with is_function_constant_defined.
#include <metal_stdlib>
using namespace metal;

#define FC_MUL_MV 600

constant bool has_bias [[function_constant(0)]];
constant int nsg [[function_constant(FC_MUL_MV + 1)]];
constant float scale [[function_constant(2)]];
constant int span = nsg * 2 + 1;
constant uint shift [[function_constant(3)]];

kernel void scaled_sum(device const float* in [[buffer(0)]],
                       device const float* bias [[buffer(1), function_constant(has_bias)]],
                       device float* out [[buffer(2)]],
                       uint gid [[thread_position_in_grid]])
{
    float sum = 0;
    for (int i = 0; i < nsg; ++i) sum += in[gid * nsg + i];
    if (has_bias) sum += bias[gid];
    uint extra = is_function_constant_defined(shift) ? shift : 0;
    out[gid] = sum * scale + span + extra;
}

kernel void untouched(device float* out [[buffer(0)]], uint gid [[thread_position_in_grid]])
{
    out[gid] = 1.0f;
}
