// Tests of <metal_tensor> compiled as hosted C++: extents, default strides, the construction
// forms real kernels use (Apple's sample, llama.cpp, PyTorch, liuliu's attention), slices and
// their clipping, the traits, and the binding of a tensor_handle parameter.
#include <gtest/gtest.h>

#include <metal_stdlib>
#include <metal_tensor>

namespace {

using namespace metal;

// Test that static and dynamic extents keep their values and report rank and static extents.
TEST(TensorTypes, ExtentsHoldStaticAndDynamicValues) {
    constexpr extents<int, 8, dynamic_extent, 4> e(5);
    static_assert(e.rank() == 3 && e.rank_dynamic() == 1);
    static_assert(e.static_extent(0) == 8 && e.static_extent(1) == dynamic_extent);
    static_assert(e.extent(0) == 8 && e.extent(1) == 5 && e.extent(2) == 4);
    constexpr dextents<int32_t, 2> d(7, 9);
    static_assert(__is_same(decltype(d), const extents<int32_t, dynamic_extent, dynamic_extent>));
    static_assert(d.extent(0) == 7 && d.extent(1) == 9);
    constexpr dextents<int, 2> converted = extents<int, 3, 4>();  // static to dynamic
    static_assert(converted.extent(0) == 3 && converted.extent(1) == 4);
    constexpr extents<int, 2, dynamic_extent> all(2, 6);  // every extent given
    static_assert(all.extent(1) == 6);
    EXPECT_TRUE((extents<int, 3, 4>() == dextents<int, 2>(3, 4)));
}

// Test that a tensor_inline without strides is packed (dim 0 contiguous) and that explicit
// strides (PyTorch's {1, lda}) are kept.
TEST(TensorTypes, InlineStridesDefaultToPacked) {
    float data[64] = {};
    auto packed = tensor(data, dextents<int, 3>(4, 3, 2));
    static_assert(__is_same(decltype(packed), tensor<float, dextents<int, 3>, tensor_inline>));
    EXPECT_EQ(packed.get_stride(0), 1);
    EXPECT_EQ(packed.get_stride(1), 4);
    EXPECT_EQ(packed.get_stride(2), 12);
    EXPECT_EQ(packed.get_extent(2), 2);
    EXPECT_EQ(packed.data(), data);

    tensor<float, dextents<int32_t, 2>, tensor_inline> strided(data, dextents<int32_t, 2>(5, 6), array<int32_t, 2>{1, 10});
    EXPECT_EQ(strided.get_stride(1), 10);
    EXPECT_EQ(strided.extents().extent(0), 5);
}

// Test the deduction forms of llama.cpp (threadgroup and device pointers, strides as
// array<int, 2>({...})), liuliu's static-extent threadgroup tile and const sources.
TEST(TensorTypes, ConstructionFormsOfRealKernels) {
    half tile[32 * 64];
    auto tA = tensor(tile, dextents<int32_t, 2>(32, 64));
    static_assert(is_tensor_inline_v<decltype(tA)> && !is_tensor_handle_v<decltype(tA)>);
    float device_b[100 * 70];
    const int strideB = 100;
    auto tB = tensor(device_b + 3 * strideB, dextents<int32_t, 2>(20, 70 - 3), array<int, 2>({1, strideB}));
    static_assert(__is_same(decltype(tB)::element_type, float));
    EXPECT_EQ(tB.data(), device_b + 300);
    EXPECT_EQ(tB.get_stride(1), 100);

    tensor<half, dextents<int32_t, 2>, tensor_inline> P(tile, extents<int32_t, 16, 8>());  // static to dynamic
    EXPECT_EQ(P.get_extent(0), 16);
    EXPECT_EQ(P.get_stride(1), 16);

    const float* source = device_b;
    auto read_only = tensor(source, dextents<int, 2>(10, 10));
    static_assert(__is_same(decltype(read_only)::element_type, const float));
    tensor<float, dextents<int, 2>, tensor_inline> from_const(source, dextents<int, 2>(1, 1));  // PyTorch's const A
    EXPECT_EQ(from_const.data(), device_b);
}

// Test dynamic slices: the origin moves the data pointer by the strides, extents shrink and
// never go below zero, missing origin coordinates are 0, an inline tensor stays inline.
TEST(TensorTypes, DynamicSliceShiftsAndClips) {
    float data[20 * 30];
    auto t = tensor(data, dextents<int, 2>(20, 30), array<int, 2>({1, 20}));
    auto s = t.slice(5, 7);
    static_assert(is_tensor_inline_v<decltype(s)>);
    EXPECT_EQ(s.data(), data + 7 * 20 + 5);
    EXPECT_EQ(s.get_extent(0), 15);
    EXPECT_EQ(s.get_extent(1), 23);
    EXPECT_EQ(s.get_stride(1), 20);
    auto outside = t.slice(25, 40);
    EXPECT_EQ(outside.get_extent(0), 0);
    EXPECT_EQ(outside.get_extent(1), 0);
    auto column = t.slice(4);
    EXPECT_EQ(column.data(), data + 4);
    EXPECT_EQ(column.get_extent(1), 30);
    auto nested = s.slice(1, 1);
    EXPECT_EQ(nested.data(), data + 8 * 20 + 6);
    EXPECT_EQ(nested.get_extent(0), 14);
}

// Test static-extent slices (Apple's sample and PyTorch): the type carries the static
// extents, a dynamic_extent position follows the dynamic rule, and a tile reaching past its
// parent is clipped to it.
TEST(TensorTypes, StaticSliceKeepsTypeAndClipsToParent) {
    half data[100 * 70];
    auto D = tensor(data, dextents<int, 2>(100, 70));
    auto tile = D.slice<64, 64>(64, 0);
    static_assert(__is_same(decltype(tile), tensor<half, extents<int, 64, 64>, tensor_inline>));
    EXPECT_EQ(tile.get_extent(0), 36);  // columns 64..99
    EXPECT_EQ(tile.get_extent(1), 64);
    EXPECT_EQ(tile.extents().extent(0), 64);  // the type's promise
    auto rows = D.template slice<dynamic_extent, 16>(0, 64);
    static_assert(decltype(rows)::extents_type::static_extent(0) == dynamic_extent);
    EXPECT_EQ(rows.get_extent(0), 100);
    EXPECT_EQ(rows.get_extent(1), 6);
    EXPECT_EQ(rows.data(), data + 64 * 100);
}

// Test that a tensor_handle parameter binds from the runtime's mc_tensor, that its slices
// are tensor_offset tensors, and what reflection says of it.
TEST(TensorTypes, HandleBindsFromTheDispatch) {
    using param = tensor<half, dextents<int, 2>>;
    static_assert(is_tensor_handle_v<param> && !has_tensor_offset_v<param>);
    static_assert(metalcpu_kernel::tensor_parameter<param>::rank == 2);
    static_assert(metalcpu_kernel::tensor_parameter<param>::data_type == 16);  // TensorDataTypeFloat16
    static_assert(metalcpu_kernel::tensor_parameter<tensor<const float, dextents<int, 3>>>::data_type == 3);
    static_assert(metalcpu_kernel::tensor_parameter<tensor<bfloat, dextents<int, 1>>>::data_type == 121);
    static_assert(metalcpu_kernel::tensor_parameter<tensor<int8_t, dextents<int, 2>>>::data_type == 45);

    half storage[12 * 10];
    mc_tensor bound = {};
    bound.data = storage;
    bound.rank = 2;
    bound.data_type = 16;
    bound.extents[0] = 12;
    bound.extents[1] = 10;
    bound.strides[0] = 1;
    bound.strides[1] = 12;
    mc_dispatch dispatch = {};
    dispatch.buffers[3] = &bound;
    mc_group group = {};
    group.dispatch = &dispatch;
    param A = metalcpu_kernel::tensor_argument<param>(&group, 3);
    EXPECT_EQ(A.data(), storage);
    EXPECT_EQ(A.get_extent(0), 12);
    EXPECT_EQ(A.get_stride(1), 12);
    auto sA = A.slice<dynamic_extent, 4>(0, 8);
    static_assert(has_tensor_offset_v<decltype(sA)>);
    EXPECT_EQ(sA.get_extent(1), 2);
    EXPECT_EQ(sA.data(), storage + 96);
    EXPECT_TRUE(has_tensor_offset_v<decltype(sA.slice(1, 1))>);
}

// Test the execution scopes' sizes and traits.
TEST(TensorTypes, ExecutionScopes) {
    static_assert(execution_simdgroups<4>::static_size == 4 && execution_simdgroups<4>().size() == 4);
    static_assert(__is_same(execution_simdgroup, execution_simdgroups<1>));
    static_assert(__is_same(execution_thread, execution_threads<1>));
    static_assert(is_execution_thread_v<execution_thread> && !is_execution_thread_v<execution_simdgroup>);
    static_assert(is_execution_simdgroups_v<execution_simdgroups<8>> && is_execution_simdgroups_v<execution_dsimdgroups>);
    SUCCEED();
}

} // namespace
