// expect: compiles
// Classes that declare their default constructors defaulted, for each address space they are
// used in, and are still brace-initialised member by member, as in C++17 (candle's softmax and
// argmax state types, its random-number state).
#include <metal_stdlib>
using namespace metal;

template <typename T>
struct running_max {
    T value;
    float weight;
    constexpr running_max<T>() = default;
    constexpr running_max<T>() threadgroup = default;
};

struct seed_state {
    uint word;
    seed_state() thread = default;
    seed_state() device = default;
};

constexpr running_max<float> kStart = running_max<float>{-1.0f, 2.0f};
static_assert(kStart.weight == 2.0f, "members initialised in order");

kernel void combine(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]],
                    uint l [[thread_position_in_threadgroup]]) {
    threadgroup running_max<float> shared[4];
    shared[l % 4] = running_max<float>{float(i), 1.0f};
    const seed_state s = seed_state{i * 2654435761u};
    out[i] = shared[l % 4].value + float(s.word & 1u);
}
