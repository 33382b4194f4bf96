// A stand-in for the real <metalcpu/kernel_prelude.h>, just big enough for the golden kernels:
// golden_test compiles every expected output against it (-fsyntax-only) so that the
// expectations can never drift into C++ that does not parse. It declares the generated code's
// helpers with the names and shapes the real kernel_support.h provides; it is not an
// implementation of <metal_stdlib>.
#pragma once

#include <metalcpu/kernel_abi.h>

// The names GCC's coroutine support looks up in namespace std, just enough for coroutine
// kernels to type-check (no <coroutine>: kernels compile without host headers).
namespace std {

template <class R, class... Args> struct coroutine_traits {
    using promise_type = typename R::promise_type;
};

template <class P = void> struct coroutine_handle;

template <> struct coroutine_handle<void> {
    static coroutine_handle from_address(void* frame) noexcept {
        coroutine_handle h;
        h.frame_ = frame;
        return h;
    }
    void* address() const noexcept { return frame_; }
    bool done() const noexcept { return __builtin_coro_done(frame_); }
    void resume() const { __builtin_coro_resume(frame_); }
    void destroy() const { __builtin_coro_destroy(frame_); }

private:
    void* frame_ = nullptr;
};

template <class P> struct coroutine_handle {
    static coroutine_handle from_address(void* frame) noexcept {
        coroutine_handle h;
        h.frame_ = frame;
        return h;
    }
    static coroutine_handle from_promise(P& promise) noexcept {
        return from_address(__builtin_coro_promise(&promise, __alignof(P), true));
    }
    void* address() const noexcept { return frame_; }
    operator coroutine_handle<>() const noexcept { return coroutine_handle<>::from_address(frame_); }
    P& promise() const { return *static_cast<P*>(__builtin_coro_promise(frame_, __alignof(P), false)); }
    bool done() const noexcept { return __builtin_coro_done(frame_); }
    void resume() const { __builtin_coro_resume(frame_); }
    void destroy() const { __builtin_coro_destroy(frame_); }

private:
    void* frame_ = nullptr;
};

struct suspend_always {
    bool await_ready() const noexcept { return false; }
    void await_suspend(coroutine_handle<>) const noexcept {}
    void await_resume() const noexcept {}
};
struct suspend_never {
    bool await_ready() const noexcept { return true; }
    void await_suspend(coroutine_handle<>) const noexcept {}
    void await_resume() const noexcept {}
};

} // namespace std

// Every SIMD-group function takes the call's site last (the collect loop passes its own);
// calls of functions that reach one carry theirs in a temporary (passes/collective_calls.h).
namespace metalcpu_kernel {
struct simd_site {};
struct simd_call_site {
    simd_call_site(simd_site = {}) {}
    ~simd_call_site() {}
};
} // namespace metalcpu_kernel

namespace metal {

using uint = unsigned int;
using ushort = unsigned short;

struct half {
    half(float);
    operator float() const;
};

struct uint2 {
    uint x, y;
};
struct uint3 {
    uint x, y, z;
};
struct ushort2 {
    ushort x, y;
};
struct uint4 {
    uint4(uint, uint, uint, uint);
    uint x, y, z, w;
};

struct float2;
// Two of a float4's swizzles (golden/swizzle_assignments.metal): read as and assigned from a float2.
struct float4_swizzle2 {
    float4_swizzle2& operator=(const float2&);
    operator float2() const;
};
struct float4 {
    float x, y, z, w;
    float4_swizzle2 xy, zw;
    float& operator[](int);
};
struct half4 {
    short x, y, z, w;
};

struct float4x4 {
    explicit float4x4(float);
    float4x4(float4, float4, float4, float4);
    float4& operator[](int);
    float4x4& operator+=(const float4x4&);
};
float4x4 operator*(const float4x4&, const float4x4&);

enum class mem_flags { mem_none, mem_device, mem_threadgroup };
void threadgroup_barrier(mem_flags);
template <class T> T simd_max(T, ::metalcpu_kernel::simd_site = {});
template <class T> T simd_prefix_exclusive_sum(T, ::metalcpu_kernel::simd_site = {});
template <class T> T simd_shuffle_down(T, ushort, ::metalcpu_kernel::simd_site = {});
void simdgroup_barrier(mem_flags, ::metalcpu_kernel::simd_site = {});
float simd_sum(float, ::metalcpu_kernel::simd_site = {});

// SIMD-group matrices (golden/simdgroup_matrix_work_items.metal).
using ulong = unsigned long;
struct ulong2 {
    ulong2(ulong);
    ulong2(ulong, ulong);
};
struct float2 {
    float x, y;
    float2(float);
    float2(float, float);
    float& operator[](int);
};
template <class T, int Cols, int Rows> struct simdgroup_matrix {
    simdgroup_matrix();
    explicit simdgroup_matrix(T diagonal);
    float2& thread_elements(); // the float matrices' (tinygrad's WMMA)
};
using simdgroup_float8x8 = simdgroup_matrix<float, 8, 8>;
using simdgroup_half8x8 = simdgroup_matrix<half, 8, 8>;
template <class T, int Cols, int Rows = Cols> simdgroup_matrix<T, Cols, Rows> make_filled_simdgroup_matrix(T);
template <class T, class P>
void simdgroup_load(simdgroup_matrix<T, 8, 8>& d, P src, ulong elements_per_row = 8, ulong2 origin = 0,
                    bool transpose = false);
template <class T, class P>
void simdgroup_store(const simdgroup_matrix<T, 8, 8>& a, P dst, ulong elements_per_row = 8, ulong2 origin = 0,
                     bool transpose = false);
template <class D, class A, class B>
void simdgroup_multiply(simdgroup_matrix<D, 8, 8>& d, const simdgroup_matrix<A, 8, 8>& a,
                        const simdgroup_matrix<B, 8, 8>& b, ::metalcpu_kernel::simd_site = {});
template <class D, class A, class B, class C>
void simdgroup_multiply_accumulate(simdgroup_matrix<D, 8, 8>& d, const simdgroup_matrix<A, 8, 8>& a,
                                   const simdgroup_matrix<B, 8, 8>& b, const simdgroup_matrix<C, 8, 8>& c,
                                   ::metalcpu_kernel::simd_site = {});

// Metal 4 tensors and tensor operations (golden/tensor_ops.metal): the shapes the kernels
// call, without behaviour.
using int32_t = int;
struct int3 {
    int x, y, z;
};
inline constexpr int dynamic_extent = -1;
template <class T, int N> struct array {
    T values[N];
    T operator[](int) const;
};
template <class T> struct numeric_limits {
    static constexpr T lowest() { return T(); }
};
template <class I, int Rank> struct dextents {
    static constexpr int rank = Rank;
    template <class... A> constexpr dextents(A...) {}
};
struct tensor_handle {};
struct tensor_inline {};
template <class T, class E, class Kind = tensor_handle> struct tensor {
    using element_type = T;
    using extents_type = E;
    tensor(T* data, E extents);
    tensor(T* data, E extents, array<int, E::rank> strides);
    template <int... Static> tensor<T, dextents<int, 2>, tensor_inline> slice(int, int) const;
    tensor<T, dextents<int, 2>, tensor_inline> slice(int, int) const;
};
template <class T, class E> tensor(T*, E) -> tensor<T, E, tensor_inline>;
template <class T, class E, class S> tensor(T*, E, S) -> tensor<T, E, tensor_inline>;
template <int N> struct execution_simdgroups {};
struct execution_simdgroup {};

template <class T> struct cooperative_tensor {
    struct iterator {
        iterator& operator++();
        bool operator!=(const iterator&) const;
        array<int, 2> get_multidimensional_index() const;
    };
    int get_capacity() const;
    bool is_valid_element(int) const;
    T& operator[](int);
    iterator begin();
    iterator end();
    iterator get_iterator(int);
    T* map_iterator(iterator);
    array<int, 2> get_multidimensional_index(int) const;
    template <class Slice> void store(const Slice&) const;
};

} // namespace metal

namespace mpp::tensor_ops {

struct matmul2d_descriptor {
    enum class mode { multiply, multiply_accumulate };
    int m, n, k;
    bool transpose_left, transpose_right, relaxed_precision;
    mode matmul_mode;
    constexpr matmul2d_descriptor(int m_, int n_, int k_ = -1, bool tl = false, bool tr = false, bool relaxed = false,
                                  mode md = mode::multiply)
        : m(m_), n(n_), k(k_), transpose_left(tl), transpose_right(tr), relaxed_precision(relaxed), matmul_mode(md) {}
};
template <class T> inline constexpr T dynamic_length_v = T(-1);
enum class reduction_operation { sum, max, min };

template <matmul2d_descriptor Descriptor, class Scope> struct matmul2d {
    template <class A, class B, class T> metal::cooperative_tensor<T> get_destination_cooperative_tensor() const;
    template <class A, class B, class T> metal::cooperative_tensor<T> get_row_reduction_destination_cooperative_tensor() const;
    template <class A, class B, class T> metal::cooperative_tensor<A> get_left_input_cooperative_tensor() const;
    template <class A, class B, class T> metal::cooperative_tensor<B> get_right_input_cooperative_tensor() const;
    template <class L, class R, class D> void run(const L&, const R&, D&) const;
};
template <class S, class D, class V> void reduce_rows(const S&, D&, reduction_operation, V);
template <class S, class D> void reduce_rows(const S&, D&, reduction_operation = reduction_operation::sum);

} // namespace mpp::tensor_ops

namespace metalcpu_kernel {

template <class A, class B> concept same_type = __is_same(A, B);
template <int... Spaces> struct address_space_tag {};

template <class F> struct function_traits;
template <class R, class... A> struct function_traits<R (*)(A...)> {
    template <unsigned I, class Head, class... Tail> struct at {
        using type = typename at<I - 1, Tail...>::type;
    };
    template <class Head, class... Tail> struct at<0, Head, Tail...> { using type = Head; };
    template <unsigned I> using parameter = typename at<I, A...>::type;
};
template <class F, unsigned I> using parameter_t = typename function_traits<F>::template parameter<I>;

template <class T> struct pointee { using type = T; };
template <class T> struct pointee<T*> { using type = T; };
template <class T> struct pointee<T&> { using type = T; };
template <class T> inline constexpr mc_u64 pointee_size = sizeof(typename pointee<T>::type);
template <class T> inline constexpr mc_u64 pointee_align = alignof(typename pointee<T>::type);
template <class T> inline constexpr mc_u32 pointee_data_type = 0;
// A struct's member rows (mc_argument): the real ones lay the member out with the host
// compiler (metalcpu/data_types.h); here, only that the glue names them.
template <class T> using argument_struct_t = typename pointee<T>::type;
template <class M> inline constexpr mc_u32 argument_kind = 0;
template <class M> inline constexpr mc_u32 argument_elements = 1;
template <class M> struct member_shape {
    static constexpr mc_u32 data_type = 0, element_type = 0, pointee_type = 0, length = 0, access = 0;
    static constexpr mc_u64 stride = 0, pointee_size = 0, pointee_align = 0;
};

struct thread_ids {
    mc_u32 x, y, z, linear;
    mc_u64 slot = linear;
};
thread_ids thread_ids_of(const mc_group* group, mc_u32 index);
template <class F> void for_each_thread(const mc_group* group, F&& body) {
    (void)group;
    body(thread_ids{0, 0, 0, 0});
}

// Coroutine kernels (barriers only in the kernel's own body).
struct barrier_task {
    struct promise_type {
        barrier_task get_return_object() noexcept {
            return barrier_task{std::coroutine_handle<promise_type>::from_promise(*this)};
        }
        std::suspend_always initial_suspend() const noexcept { return {}; }
        std::suspend_always final_suspend() const noexcept { return {}; }
        void return_void() const noexcept {}
        void unhandled_exception() const noexcept {}
    };
    std::coroutine_handle<promise_type> handle;
};
struct barrier_point {
    explicit barrier_point(metal::mem_flags);
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<>) const noexcept {}
    void await_resume() const noexcept {}
};
// A threadgroup barrier of a kernel split into work-item loops, at group level.
void work_items_barrier(metal::mem_flags);
using simdgroup_barrier_point = barrier_point;
// Tensor operations as statements of a coroutine kernel: one awaited scope operation each.
struct scope_operation {
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<>) const noexcept {}
    void await_resume() const noexcept {}
};
template <class Op, class... A> scope_operation scope_run(const Op& op, A&... operands);
template <class... A> scope_operation scope_reduce_rows(const A&... arguments);
template <class... A> scope_operation scope_reduce_columns(const A&... arguments);
template <class F> void run_coroutines(const mc_group* group, F&& start) {
    (void)group;
    (void)start(thread_ids{0, 0, 0, 0});
}

// Work-item loop kernels (barriers only in the body's straight-line code and loops).
template <class T> struct remove_cv_t { using type = T; };
template <class T> struct remove_cv_t<const T> { using type = T; };
template <bool TracksReturns> struct work_items {
    explicit work_items(const mc_group* group);
    template <class T> typename remove_cv_t<T>::type* slots() const;
    mc_u32 lead() const;
    bool all_returned() const;
    void retire(const thread_ids& t) const;
};
template <class U, class V> void place(U& slot, const V& value);
template <class U, class V> U& emplace(U& slot, const V& value);
template <class U> U& emplace(U& slot);
template <bool TracksReturns, class F> void run_work_items(const work_items<TracksReturns>& threads, F&& piece) {
    (void)threads;
    piece(thread_ids{0, 0, 0, 0});
}
template <bool TracksReturns, class Taken> bool any_thread(const work_items<TracksReturns>& threads, const Taken& taken) {
    (void)threads;
    return taken(0u);
}
// Barrier-free kernels whose threads are interleaved in their uniform loops.
template <bool TracksReturns, mc_u32 W, bool HasLaneForm = false> struct lane_block {
    explicit lane_block(const mc_group* group);
    bool next();
    const thread_ids& ids(mc_u32 lane) const;
    bool all_returned() const;
    void retire(const thread_ids& t) const;
};
template <class T, mc_u32 W> struct lane_slots {
    union {
        typename remove_cv_t<T>::type lanes[W];
    };
    lane_slots() {}
    ~lane_slots() {}
};
template <bool TracksReturns, mc_u32 W, bool HasLaneForm, class F>
void run_work_items(const lane_block<TracksReturns, W, HasLaneForm>& block, F&& piece) {
    (void)block;
    piece(thread_ids{0, 0, 0, 0});
}
// Threads as vector lanes (lane_statements.h): one stand-in type for every lane value, whose
// operations accept whatever the lane form combines it with.
struct lane_value {
    lane_value() = default;
    template <class... A> explicit lane_value(const A&...);
    template <class B> lane_value& operator+=(const B&);
    template <class B> lane_value& operator-=(const B&);
    template <class B> lane_value& operator*=(const B&);
    lane_value operator[](int) const;
    lane_value component(int) const;
};
#define METALCPU_MOCK_LANE_OPERATOR(op)                                                                          \
    lane_value operator op(const lane_value&, const lane_value&);                                                \
    template <class A> lane_value operator op(const lane_value&, const A&);                                      \
    template <class A> lane_value operator op(const A&, const lane_value&);
METALCPU_MOCK_LANE_OPERATOR(+)
METALCPU_MOCK_LANE_OPERATOR(-)
METALCPU_MOCK_LANE_OPERATOR(*)
METALCPU_MOCK_LANE_OPERATOR(<)
METALCPU_MOCK_LANE_OPERATOR(>)
METALCPU_MOCK_LANE_OPERATOR(<=)
METALCPU_MOCK_LANE_OPERATOR(>=)
METALCPU_MOCK_LANE_OPERATOR(==)
METALCPU_MOCK_LANE_OPERATOR(!=)
METALCPU_MOCK_LANE_OPERATOR(||)
METALCPU_MOCK_LANE_OPERATOR(&&)
METALCPU_MOCK_LANE_OPERATOR(/)
METALCPU_MOCK_LANE_OPERATOR(%)
METALCPU_MOCK_LANE_OPERATOR(&)
METALCPU_MOCK_LANE_OPERATOR(|)
METALCPU_MOCK_LANE_OPERATOR(^)
#undef METALCPU_MOCK_LANE_OPERATOR
struct lane_position : lane_value {
    lane_value x;
    mc_u32 y, z;
};
template <class T, int N> using varying = lane_value;
template <class T, int N, class Init> using lane_local = lane_value;
template <bool TracksReturns, mc_u32 W, bool HasLaneForm>
bool lane_whole_row(const lane_block<TracksReturns, W, HasLaneForm>& block);
template <int N, class P> lane_position lane_builtin(const P& first);
template <class Target, class E> Target lane_as(const E& e);
template <class V, class E> void lane_set(V& v, const E& e);
template <class Target, class P> lane_value lane_cast(const P& p);
template <class P> lane_value lane_load(const P& p);
template <class P, class V> void lane_store(const P& p, const V& v);
template <class M> bool lane_any(const M& m);
struct lane_every {};
template <int N, class W, class C> lane_value lane_when(const W& within, const C& condition);
template <int N, class W, class M> lane_value lane_unless(const W& within, const M& taken);
bool any(const lane_value& mask);
template <class V, class E, class M> void lane_set(V& v, const E& e, const M& mask);
template <class P, class M> lane_value lane_load(const P& p, const M& mask);
template <class P, class V, class M> void lane_store(const P& p, const V& v, const M& mask);
template <int N, class M, class F, class... A> lane_value lane_call(const M& mask, F f, const A&... a) {
    (void)mask;
    (void)f;
    ((void)a, ...);
    return {};
}
// SIMD-group functions as whole statements: `x = simd_f(args);` (work-item loops).
struct collective_site {};
template <class... A> struct arg_pack {};
template <class... A> arg_pack<A...> simd_arguments(const A&...);
template <bool TracksReturns, class... A>
void simd_deposit(collective_site& site, const work_items<TracksReturns>& threads, const thread_ids& t, const A&...);
// The first loop of a statement whose function it knows (all but the products).
template <bool TracksReturns, class F, class... A>
void simd_deposit(collective_site& site, const F& f, const work_items<TracksReturns>& threads, const thread_ids& t,
                  const A&...) {
    (void)site;
    (void)f;
    (void)threads;
    (void)t;
}
// The loops of a statement's two pieces, which are generic lambdas (here handed thread_ids).
template <bool TracksReturns, class F>
void run_deposit_work_items(const work_items<TracksReturns>& threads, collective_site& site, F&& piece) {
    (void)threads;
    (void)site;
    piece(thread_ids{0, 0, 0, 0});
}
template <bool TracksReturns, class F>
void run_collect_work_items(const work_items<TracksReturns>& threads, collective_site& site, F&& piece) {
    (void)threads;
    (void)site;
    piece(thread_ids{0, 0, 0, 0});
}
template <class F, class... A>
auto apply_pack(const F& f, arg_pack<A...>*)
    -> decltype(f(*static_cast<const simd_site*>(nullptr), *static_cast<const A*>(nullptr)...));
template <class Pack, bool TracksReturns, class F>
auto simd_collect(collective_site& site, const work_items<TracksReturns>& threads, const thread_ids& t, const F& f)
    -> decltype(apply_pack(f, static_cast<Pack*>(nullptr))) {
    (void)site;
    (void)threads;
    (void)t;
    (void)f;
    return {};
}
template <bool TracksReturns>
void simd_mark(collective_site& site, const work_items<TracksReturns>& threads, const thread_ids& t, bool taken);
// SIMD-group matrix products as whole statements: the first loop is told the destination's type.
template <class D> D simd_destination(const D&);
template <class D, bool TracksReturns, class... A>
void simd_deposit_product(collective_site& site, const work_items<TracksReturns>& threads, const thread_ids& t,
                          const A&...) {
    (void)site;
    (void)threads;
    (void)t;
}
template <bool TracksReturns, class F>
void run_product_collect_work_items(const work_items<TracksReturns>& threads, collective_site& site, F&& piece) {
    (void)threads;
    (void)site;
    piece(thread_ids{0, 0, 0, 0});
}
template <class D> void simd_collect_product(D& destination, const collective_site& site, const thread_ids& t) {
    (void)destination;
    (void)site;
    (void)t;
}
struct simd_lane_scope {
    template <bool TracksReturns> simd_lane_scope(const work_items<TracksReturns>& threads, const thread_ids& t);
};

// Divisions (`a /__mc_div->*b`, `a /=__mc_div=b`): the real tag checks integer divisors; this
// one only passes them through, which is all type checking needs.
struct divisor_tag {
    template <class R> friend constexpr R&& operator->*(divisor_tag, R&& divisor) { return static_cast<R&&>(divisor); }
    template <class R> constexpr R&& operator=(R&& divisor) const { return static_cast<R&&>(divisor); }
};

template <class T> T buffer_argument(const mc_group* group, mc_u32 index, bool present = true);
template <class T> T threadgroup_argument(const mc_group* group, mc_u32 index);
template <class T> T unsupported_argument(const mc_group* group, mc_u32 index);
template <class T> T tensor_argument(const mc_group* group, mc_u32 index);
template <class P> struct tensor_parameter;
template <class T, class E, class K> struct tensor_parameter<metal::tensor<T, E, K>> {
    static constexpr mc_u32 rank = E::rank;
    static constexpr mc_u32 data_type = 16; // MTL::TensorDataTypeFloat16 stands for every type here
    static constexpr mc_u32 index_type = 29; // MTL::DataTypeInt stands for every index type here
};
// Swizzle assignments (`v.xy->*__mc_swz= e`): the real tag gives a target that writes the
// swizzle's components; this one gives the left side back, which is all type checking needs.
struct swizzle_assignment_tag {
    template <class L> friend constexpr L&& operator->*(L&& target, swizzle_assignment_tag) {
        return static_cast<L&&>(target);
    }
};

template <class T, mc_builtin B> T builtin(const mc_group* group, const thread_ids& ids);
template <class T, mc_u64 Key, mc_u64 Owner = 0, bool Live = true, mc_u64 Align = 0>
T& threadgroup_variable(const mc_group* group);
template <class T> struct vector_type {};
template <class V, class T> T convert_vector(const V& v, vector_type<T>);
constexpr mc_u64 instantiation_owner(const char* name) { return name[0] ? 1 : 2; }
template <class T, unsigned long long Index> struct function_constant {
    static constexpr unsigned long long index = Index;
    static constexpr unsigned data_type = 53;
    static constexpr bool defined = false;
    static constexpr T value{};
};

} // namespace metalcpu_kernel

// As kernel_support.h has it, so that the attribute's place in the generated code is checked.
#if defined(__x86_64__)
#define METALCPU_NARROW_VECTORS __attribute__((target("prefer-vector-width=128")))
#else
#define METALCPU_NARROW_VECTORS
#endif
#ifndef METALCPU_FUNCTION_CONSTANTS
#define METALCPU_FUNCTION_CONSTANTS 0, nullptr
#endif
#ifndef METALCPU_RENDER_FUNCTIONS
#define METALCPU_RENDER_FUNCTIONS 0, nullptr
#endif
// Kernel selection (metalcpu/kernel_support.h): every kernel's code.
#define METALCPU_ONLY_KERNEL 0
#define METALCPU_SELECTS_KERNEL(selector) ((METALCPU_ONLY_KERNEL) == 0 || (selector) == (METALCPU_ONLY_KERNEL))
#define METALCPU_SELECTS_EVERY_KERNEL ((METALCPU_ONLY_KERNEL) == 0)
#define METALCPU_KERNEL_USER(selector, name) (METALCPU_SELECTS_KERNEL(selector) ? (name) : nullptr)
#define METALCPU_KERNEL_CODE(function) function
#define METALCPU_REGISTER_MODULE(kernels, count, file, constants, constant_count)                           \
    static const mc_module metalcpu_module = {METALCPU_KERNEL_ABI_VERSION, count, kernels, file, nullptr,    \
                                              constant_count, constants, METALCPU_FUNCTION_CONSTANTS,         \
                                              nullptr, METALCPU_RENDER_FUNCTIONS};                            \
    const mc_module* metalcpu_module_of_this_file() {                                                        \
        return &metalcpu_module;                                                                             \
    }

inline constexpr ::metalcpu_kernel::divisor_tag __mc_div{};
inline constexpr ::metalcpu_kernel::swizzle_assignment_tag __mc_swz{};
