// expect: compiles
#include <metal_stdlib>
using namespace metal;

// Every constant is optional here (is_function_constant_defined), so a pipeline can be made
// without values; Library::newFunction(name, values, error) specialises it.
constant bool use_bias [[function_constant(0)]];
constant bool bias_given = is_function_constant_defined(use_bias);
constant int unroll [[function_constant(1)]];
constant int unroll_count = is_function_constant_defined(unroll) ? unroll * 2 : 4;
// Names metal-flash-attention gives its constants, which Apple's `metal` namespace leaves free
// (metalcpu's own move and forward live elsewhere); a constant computed by a math function.
constant bool forward [[function_constant(2)]];
constant bool move = is_function_constant_defined(forward) && forward;
constant float alpha = rsqrt(float(unroll_count));

kernel void biased(device float* out [[buffer(0)]], device const float* bias [[buffer(1), function_constant(use_bias)]],
                   uint i [[thread_position_in_grid]]) {
    float v = 0.0f;
    for (int k = 0; k < unroll_count; ++k) v += 1.0f;
    if (bias_given && use_bias) v += bias[i];
    if (move) v *= alpha;
    out[i] = v;
}

// SPIRV-Cross's spec-constant workgroup size: a component of a vector built from a function
// constant initialises another program-scope constant.
constant uint _22_tmp [[function_constant(10)]];
constant uint _22 = is_function_constant_defined(_22_tmp) ? _22_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_22, 20u, 1u);
constant uint _27 = gl_WorkGroupSize.x;
kernel void workgroup_width(device uint* o [[buffer(0)]]) { o[0] = _27 + gl_WorkGroupSize.y; }
