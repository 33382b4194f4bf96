// Library-style classes named through aliases, as MLX's steel kernels name theirs: a kernel of
// the global namespace that uses the classes' namespace declares `using kernel_t = ...;` and
// `using tile_t = typename kernel_t::tile_t;`, an object of the member alias's type, and calls
// the outer class's static member function template by qualified name with its template argument
// deduced from a tag; the inlined member keeps a local typedef whose variable lives across a
// barrier. All of it is inlined before the barrier split, and the aliases replaced by their types.
#include <metal_stdlib>
using namespace metal;

namespace lib {
namespace tiles {

template <bool TWICE>
struct Repeat {};

template <typename T, uint N>
struct Tile {
    static constexpr uint mask = N - 1;
    threadgroup T* data;
    uint lid;
    Tile(threadgroup T* d, uint l) : data(d), lid(l) {}
    void rotate(thread T& v) {
        typedef T value_t;
        value_t mine = v;
        data[lid & mask] = mine;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        v = data[(lid + 1) & mask] + mine;
    }
};

template <typename T, uint N>
struct Rotator {
    static constexpr uint size = N * 2;
    using tile_t = Tile<T, size>;
    template <bool TWICE>
    static void run(thread tile_t& tile, thread T& v, Repeat<TWICE> repeat = {}) {
        (void)repeat;
        tile.rotate(v);
        if (TWICE) {
            tile.rotate(v);
        }
    }
};

} // namespace tiles
} // namespace lib

using namespace lib::tiles;

kernel void rotate_twice(device float* out [[buffer(0)]], uint lid [[thread_index_in_threadgroup]]) {
    using kernel_t = Rotator<float, 32>;
    using tile_t = typename kernel_t::tile_t;
    threadgroup float data[64];
    thread tile_t tile(data, lid);
    float v = out[lid];
    kernel_t::run(tile, v, Repeat<true>{});
    out[lid] = v;
}
