// Compiled by the stdlib.tensor.static_slice_absent test, which expects it to fail: Apple's
// header documents static_slice, but its toolchain does not compile it, so neither do we
// (slice<E...>(o...) is the spelling that works on both).
#include <metal_tensor>

int static_slice_is_absent(float* p) {
    auto t = metal::tensor(p, metal::dextents<int, 2>(64, 64));
    auto s = t.static_slice<32, 32>(0, 0);
    return s.get_extent(0);
}
