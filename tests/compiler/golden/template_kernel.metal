// A kernel template made into entry points by explicit instantiation, in two spellings.
#include <metal_stdlib>
using namespace metal;

template <typename T, int N>
[[kernel]] void fill_with(device T* out [[buffer(0)]],
                          constant T& value [[buffer(1)]],
                          uint gid [[thread_position_in_grid]])
{
    for (int k = 0; k < N; ++k) {
        out[gid * N + k] = value;
    }
}

#define INSTANTIATE_FILL(name, type, n) \
  template [[host_name(name)]] [[kernel]] decltype(fill_with<type, n>) fill_with<type, n>;

INSTANTIATE_FILL("fill_float_4", float, 4)

template [[host_name("fill_int_" "2")]] kernel void fill_with<int, 2>(
    device int*, constant int&, uint);
