// Loops whose accesses shader validation checks once, before the loop (passes/loop_ranges.h),
// and loops it must leave checked step by step.
#include <metal_stdlib>
using namespace metal;

struct Sizes { uint rows; uint cols; uint inner; };

// Interleaved, with a lane form: both forms check the k loop's range once.
kernel void naive(device const float* A [[buffer(0)]], device const float* B [[buffer(1)]],
                  device float* C [[buffer(2)]], constant Sizes& s [[buffer(3)]],
                  uint2 gid [[thread_position_in_grid]]) {
    if (gid.x >= s.cols || gid.y >= s.rows) return;
    float sum = 0.0f;
    for (uint k = 0; k < s.inner; ++k) {
        sum += A[gid.y * s.inner + k] * B[k * s.cols + gid.x];
    }
    C[gid.y * s.cols + gid.x] = sum;
}

// A trip count per thread: the threads run one after another, each loop checked once; a
// break, a return and a nested loop keep it so.
kernel void prefix(device const int* in [[buffer(0)]], device int* out [[buffer(1)]],
                   constant uint& n [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    int total = 0;
    const uint base = i * n;
    for (uint k = 0; k < i; ++k) {
        if (in[base + k] < 0) break;
        for (uint j = k; j < n; j++) total += in[j + base];
        if (total > 1000) return;
        out[2 * k + 1] = total;
    }
    out[i] = total;
}

// Left checked at every step: the counter or the bound written in the loop, an index that is
// not affine in the counter or that reads memory (whose own load, idx[k], is checked once), a
// bound in device memory, a condition other than `<`, a pointer of the kernel's own.
kernel void unhoisted(device float* a [[buffer(0)]], device const uint* idx [[buffer(1)]],
                      device uint& m [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    uint n = i;
    for (uint k = 0; k < i; ++k) { a[k] = 0; k += a[k] > 1 ? 1 : 0; }
    for (uint k = 0; k < n; ++k) { a[k] = 1; n = n - 1; }
    for (uint k = 0; k < i; ++k) a[k * k] = 2;
    for (uint k = 0; k < i; ++k) a[idx[k]] = 3;
    for (uint k = 0; k < i; ++k) a[k / 2] = 4;
    for (uint k = 0; k < m; ++k) a[k] = 5;
    for (uint k = 0; k <= i; ++k) a[k] = 6;
    device float* p = a;
    for (uint k = 0; k < i; ++k) p[k] = 7;
}

// A lambda may write what a loop reads: no loop of its kernel is checked once.
kernel void captures(device float* a [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    uint n = i;
    auto shrink = [&]() { n = n / 2; };
    for (uint k = 0; k < n; ++k) { a[k] = 1; shrink(); }
}
