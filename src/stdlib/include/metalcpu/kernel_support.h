// Helpers that the generated wrapper of every kernel calls: parameter types, argument
// binding, built-in thread positions and threadgroup variables. Compiled freestanding
// as part of each kernel library; docs/kernel-abi.md shows the generated code.
#pragma once

#include <metalcpu/kernel_abi.h>
#include <metalcpu/kernel_services.h>
#include <metal_stdlib>

/// On a group function whose kernel's own loops do the work (emitter/code_generation.h): the
/// host compiler vectorises them 128 bits wide at most, whatever the image's ISA level. Only
/// x86-64 has the option; elsewhere the level's widths stand.
#if defined(__x86_64__)
#define METALCPU_NARROW_VECTORS __attribute__((target("prefer-vector-width=128")))
#else
#define METALCPU_NARROW_VECTORS
#endif

namespace metalcpu_kernel {

// ---- Parameter types of a kernel function ---------------------------------------------

template <class... P>
struct type_list {};

template <unsigned I, class List>
struct type_at;
template <class Head, class... Tail>
struct type_at<0, type_list<Head, Tail...>> {
    using type = Head;
};
template <unsigned I, class Head, class... Tail>
struct type_at<I, type_list<Head, Tail...>> {
    using type = typename type_at<I - 1, type_list<Tail...>>::type;
};

template <class F>
struct function_parameters;
template <class R, class... P>
struct function_parameters<R (*)(P...)> {
    using list = type_list<P...>;
};
template <class R, class... P>
struct function_parameters<R (*)(P...) noexcept> {
    using list = type_list<P...>;
};

/// The type of parameter I of the function pointer type F.
template <class F, unsigned I>
using parameter_t = typename type_at<I, typename function_parameters<F>::list>::type;

template <class T> struct remove_reference { using type = T; };
template <class T> struct remove_reference<T&> { using type = T; };
template <class T> struct remove_reference<T&&> { using type = T; };
template <class T> struct remove_cv_t { using type = T; };
template <class T> struct remove_cv_t<const T> { using type = T; };
template <class T> struct remove_cv_t<volatile T> { using type = T; };
template <class T> struct remove_cv_t<const volatile T> { using type = T; };
template <class T> struct remove_pointer { using type = T; };
template <class T> struct remove_pointer<T*> { using type = T; };
template <class T> struct remove_pointer<T* const> { using type = T; };
// A pointer parameter of the instrumented flavour is a checked pointer (checked.h): its
// reflection's pointee_size and pointee_align are those of what it points at, as in the plain
// flavour (they were the checked pointer's own 8 bytes, so the debug layer asked a float4
// argument of a validated pipeline for an offset that is a multiple of 8, not 16).
template <class T, int Space> struct checked_ptr;
template <class T, int S> struct remove_pointer<checked_ptr<T, S>> { using type = T; };
template <class T, int S> struct remove_pointer<const checked_ptr<T, S>> { using type = T; };
template <class T> struct is_pointer { static constexpr bool value = false; };
template <class T> struct is_pointer<T*> { static constexpr bool value = true; };
template <class T> struct is_pointer<T* const> { static constexpr bool value = true; };
template <class T> struct is_reference { static constexpr bool value = false; };
template <class T> struct is_reference<T&> { static constexpr bool value = true; };

/// What a pointer or reference parameter points at.
template <class P>
using pointee_t = typename remove_pointer<typename remove_reference<P>::type>::type;

template <class T> struct size_of { static constexpr mc_u64 value = sizeof(T); };
template <> struct size_of<void> { static constexpr mc_u64 value = 0; };
template <> struct size_of<const void> { static constexpr mc_u64 value = 0; };
template <class T> struct align_of { static constexpr mc_u64 value = alignof(T); };
template <> struct align_of<void> { static constexpr mc_u64 value = 1; };
template <> struct align_of<const void> { static constexpr mc_u64 value = 1; };

template <class P>
inline constexpr mc_u64 pointee_size = size_of<pointee_t<P>>::value;
template <class P>
inline constexpr mc_u64 pointee_align = align_of<pointee_t<P>>::value;

// ---- Argument buffers (ABI 20; nested structs, ABI 21) ----------------------------------

/// The struct an argument-buffer parameter points at (its members' reflection, mc_argument).
template <class P>
using argument_struct_t = typename metal::remove_cv<pointee_t<P>>::type;

/// What a member of an argument-buffer struct holds (mc_argument_kind), element by element.
template <class M> struct argument_slot { static constexpr mc_u32 kind = MC_ARGUMENT_CONSTANT; };
template <class M> struct argument_slot<const M> : argument_slot<M> {};
template <class M> struct argument_slot<M*> { static constexpr mc_u32 kind = MC_ARGUMENT_BUFFER; };
template <class M> struct argument_slot<M* const> { static constexpr mc_u32 kind = MC_ARGUMENT_BUFFER; };
template <class M, int S> struct argument_slot<checked_ptr<M, S>> { static constexpr mc_u32 kind = MC_ARGUMENT_BUFFER; };
template <> struct argument_slot<metal::sampler_reference> { static constexpr mc_u32 kind = MC_ARGUMENT_SAMPLER; };
template <class T, metal::access A>
constexpr bool is_texture(const metal::texture_detail::texture_base<T, A>*) { return true; }
constexpr bool is_texture(const volatile void*) { return false; } // volatile: `device volatile int*`
template <class M, unsigned long N> struct argument_slot<M[N]> : argument_slot<M> {};
template <class M, unsigned long N> struct argument_slot<metal::array<M, N>> : argument_slot<M> {};

template <class M> struct element_of { using type = M; };
template <class M, unsigned long N> struct element_of<M[N]> : element_of<M> {};
template <class M, unsigned long N> struct element_of<metal::array<M, N>> : element_of<M> {};

/// A struct that only wraps a C array named `elements`: SPIRV-Cross's spvUnsafeArray<T, N>,
/// which it writes for every array (`spvUnsafeArray<device T*, N> ptrs [[id(0)]]`). Its
/// elements are the array's, with an id each.
template <class M> struct is_c_array { static constexpr bool value = false; };
template <class M, unsigned long N> struct is_c_array<M[N]> { static constexpr bool value = true; };
template <class M>
concept wraps_elements = metal::is_same<M, typename metal::remove_cv<M>::type>::value &&
                         requires { sizeof(M::elements); } && sizeof(M) == sizeof(M::elements) &&
                         is_c_array<decltype(M::elements)>::value;
template <class M>
    requires wraps_elements<M>
struct argument_slot<M> : argument_slot<decltype(M::elements)> {};
template <class M>
    requires wraps_elements<M>
struct element_of<M> : element_of<decltype(M::elements)> {};

/// The argument-buffer struct a pointer member (or array of pointers) points at.
template <class M>
using member_struct_t = typename metal::remove_cv<pointee_t<typename element_of<M>::type>>::type;

template <class M>
inline constexpr mc_u32 argument_kind = is_texture(static_cast<typename element_of<M>::type*>(nullptr))
                                            ? mc_u32(MC_ARGUMENT_TEXTURE)
                                            : argument_slot<M>::kind;
/// Elements of a member: 1, or those of an array (of arrays).
template <class M> inline constexpr mc_u32 argument_elements = 1;
template <class M>
    requires wraps_elements<M>
inline constexpr mc_u32 argument_elements<M> = argument_elements<decltype(M::elements)>;
template <class M, unsigned long N> inline constexpr mc_u32 argument_elements<M[N]> = N * argument_elements<M>;
template <class M, unsigned long N>
inline constexpr mc_u32 argument_elements<metal::array<M, N>> = N * argument_elements<M>;

// ---- Arguments --------------------------------------------------------------------------

/// Read-only zeros that an argument a function constant removes points at: a kernel may read
/// it where its value is dead (MLX's steel GEMM makes `TransformAxpby(addmm_params->alpha, ...)`
/// whatever `use_out_source` is), which Metal's compiler drops, and so does the host compiler,
/// except where a barrier keeps the value in a work item's slot. A store there still faults.
template <class T> inline constexpr unsigned long absent_argument_bytes = 4096;
template <class T>
    requires(sizeof(T) > 4096) // not for void, which has no size
inline constexpr unsigned long absent_argument_bytes<T> = sizeof(T);
template <class T>
alignas(64) inline const unsigned char absent_argument[absent_argument_bytes<T>] = {};

/// The argument for a [[buffer(n)]] parameter: a pointer, a reference, or a value copied
/// from the bound data. One a false function constant removes (`present` false) is zeros.
template <class P>
__attribute__((always_inline)) inline P buffer_argument(const mc_group* group, unsigned index, bool present = true) {
    using T = typename remove_cv_t<typename remove_reference<P>::type>::type;
    if constexpr (is_pointer<P>::value) {
        using E = typename remove_cv_t<typename remove_pointer<P>::type>::type;
        if (!present) return reinterpret_cast<P>(const_cast<unsigned char*>(absent_argument<E>));
    } else {
        if (!present) return *reinterpret_cast<T*>(const_cast<unsigned char*>(absent_argument<T>));
    }
    void* bound = group->dispatch->buffers[index];
    if constexpr (is_pointer<P>::value) {
        return reinterpret_cast<P>(bound);
    } else if constexpr (is_reference<P>::value) {
        return *reinterpret_cast<typename remove_reference<P>::type*>(bound);
    } else {
        return *reinterpret_cast<const P*>(bound);
    }
}

/// The argument for a [[threadgroup(n)]] parameter.
template <class P>
__attribute__((always_inline)) inline P threadgroup_argument(const mc_group* group, unsigned index) {
    char* memory = group->threadgroup_arguments[index];
    if constexpr (is_pointer<P>::value) {
        return reinterpret_cast<P>(memory);
    } else {
        return *reinterpret_cast<typename remove_reference<P>::type*>(memory);
    }
}

/// The argument for a parameter metalcpu cannot bind yet (textures, samplers). Never
/// called: pipeline creation refuses such kernels; it only has to compile.
template <class P>
inline P unsupported_argument(const mc_group*, unsigned) {
    __builtin_trap();
}

// ---- Built-in positions, sizes and indices ------------------------------------------------

/// A thread's position in its group and its linear index.
struct thread_ids {
    mc_u32 x, y, z, linear;
    /// `linear` again, as the index of the thread's element in a per-thread array (the slots
    /// of a work-item loop, work_items.h). In the loop over a row of threads it is counted in
    /// 64 bits from the loop's own counter, so it is affine there and the host compiler
    /// vectorises those arrays' loads and stores as contiguous ones: `linear`'s 32-bit sum
    /// might wrap as far as GCC knows, and an access through it is a gather or scatter, which
    /// the generic tuning of every x86-64 level refuses, so the loop would stay scalar.
    mc_u64 slot = linear;
};

inline thread_ids thread_ids_of(const mc_group* group, mc_u32 linear) {
    const mc_u32 sx = group->size[0], sy = group->size[1];
    return thread_ids{linear % sx, (linear / sx) % sy, linear / (sx * sy), linear};
}

/// Runs `body(thread_ids)` for the threads of one row (y, z) of the group, `sx` wide, whose
/// linear indices start at `row`, unless `skipped(linear)`. This is the loop the host compiler
/// vectorises, each thread a SIMD lane (docs/compiler.md, "Vectorised thread loops"):
/// - In plain builds it is `omp simd` (-fopenmp-simd: the pragma, no OpenMP runtime): code
///   between barriers never relies on another thread's iteration having run, and Metal runs a
///   SIMD-group's threads in lockstep anyway. What cannot be vectorised (calls, atomics,
///   branches the target cannot mask) stays scalar, with the same result.
/// - It counts the threads' x positions in the grid: builtin() folds the group's origin plus
///   `gx - origin` back to `gx`, so `a[gid]` is affine in the loop. Counted from 0 the uint sum
///   might wrap as far as GCC knows, and every access would be a gather or scatter. For the
///   same reason per-thread arrays are indexed by thread_ids::slot, counted in 64 bits from `gx`.
/// - Shader validation records the running thread for its reports (a store, which alone does
///   not keep the host compiler from vectorising) and checks every access, a branch to the
///   report: a loop with a check left in it stays scalar, in the threads' order, so
///   its reports are those of one thread after another. The loop counts x from 0, so that
///   the host compiler knows x < sx, and where sx is a constant (row_width, for the usual
///   tile shapes: for_each_row()) a check of a named threadgroup array indexed by the
///   thread's position (`tile[k][lid.x]` of a `tile[16][16]`) folds away, and the loop
///   vectorises as in the plain flavour. Device accesses keep their checks, so the grid
///   positions' affinity buys nothing there.
template <class Width, class Skipped, class Body>
__attribute__((always_inline)) inline void for_each_thread_in_row(const mc_group* group, mc_u32 y, mc_u32 z,
                                                                   mc_u32 row, Width sx, const Skipped& skipped,
                                                                   Body& body) {
#ifdef METALCPU_VALIDATION
    const auto step = [&](mc_u32 x) __attribute__((always_inline)) {
        const thread_ids t{x, y, z, row + x, mc_u64(row) + x};
        if (skipped(t.slot)) return;
        const_cast<mc_group*>(group)->current_thread = static_cast<unsigned short>(row + x); // reports
        body(t);
    };
    if constexpr (__is_same(Width, mc_u32)) {
        // Any width: checks by the thread's position stay, so the loop stays scalar; with
        // the pragma the validated elementwise kernel of bench/validation_bench took about
        // 8% more CPU time.
        for (mc_u32 x = 0; x < sx; ++x) step(x);
    } else {
#ifdef METALCPU_OPENMP_SIMD
#pragma omp simd
#endif
        for (mc_u32 x = 0; x < mc_u32(sx); ++x) step(x);
    }
#else
    const mc_u32 origin = group->position[0] * group->dispatch->threads_per_threadgroup[0];
#ifdef METALCPU_OPENMP_SIMD
#pragma omp simd
#endif
    for (mc_u32 gx = origin; gx < origin + mc_u32(sx); ++gx) {
        const mc_u32 x = gx - origin;
        const thread_ids t{x, y, z, row + x, mc_u64(row) + gx - origin};
        if (skipped(t.slot)) continue;
        body(t);
    }
#endif
}

/// A group's width or height as a constant the host compiler folds into what it bounds.
template <mc_u32 N>
struct row_width {
    constexpr operator mc_u32() const { return N; }
};

/// Runs `body` for the threads of the group that `skipped` leaves, x fastest, in rows `sx`
/// threads wide, `sy` rows to a plane (mc_u32 or row_width).
template <class WidthX, class WidthY, class Skipped, class Body>
__attribute__((always_inline)) inline void for_each_row_of(const mc_group* group, WidthX sx, WidthY sy,
                                                            const Skipped& skipped, Body& body) {
    const mc_u32 sz = group->size[2];
    for (mc_u32 z = 0; z < sz; ++z)
        for (mc_u32 y = 0; y < mc_u32(sy); ++y)
            for_each_thread_in_row(group, y, z, (z * mc_u32(sy) + y) * mc_u32(sx), sx, skipped, body);
}

/// for_each_row_of() with the group's sizes. Validated, the square tiles of 16 and 32 threads
/// a side run with both sides constants: a check by index of `tile[lid.y][k]` and
/// `tile[k][lid.x]` folds away (x and y are below the array's extents), so the loops of a
/// tiled kernel vectorise as in the plain flavour (README, "Shader validation's cost"); other
/// shapes keep their checks. Each shape is a copy of the loop, so only these two, and only
/// while the threadgroup watch is off (checked.h, watch_threadgroup()): every threadgroup
/// access tests the watch word, and a loop with that test and its call stays scalar. In the
/// copy run when the word reads zero, the host compiler folds each access's test away (it has
/// just read the word, and nothing in the loop may write it: the stores are of other types,
/// the report calls are pure), so the loop is the plain flavour's again; where something in
/// the loop might write the word (a call that is not pure) the test stays, correct as before.
/// The condition carries no __builtin_expect: the hint would hide the word's value from the
/// early value numbering, which must fold the tests before the inner loops are unrolled.
/// Other shapes, and every shape while the watch is on (races, uninitialized: a call per
/// access anyway), run the general loop, which keeps its checks and the watch's tests: as
/// many copies of the loop as before.
template <class Skipped, class Body>
__attribute__((always_inline)) inline void for_each_row(const mc_group* group, const Skipped& skipped, Body& body) {
    const mc_u32 sx = group->size[0], sy = group->size[1];
#ifdef METALCPU_VALIDATION
    if (*g_access_watch == 0) {
        if (sx == 16 && sy == 16) return for_each_row_of(group, row_width<16>{}, row_width<16>{}, skipped, body);
        if (sx == 32 && sy == 32) return for_each_row_of(group, row_width<32>{}, row_width<32>{}, skipped, body);
    }
#endif
    for_each_row_of(group, sx, sy, skipped, body);
}

/// Runs `body` once per thread of the group, x fastest, each row a vectorisable loop.
template <class Body>
__attribute__((always_inline)) inline void for_each_thread(const mc_group* group, Body&& body) {
    constexpr auto none = [](mc_u32) { return false; };
    for_each_row_of(group, group->size[0], group->size[1], none, body);
}

#ifdef METALCPU_VALIDATION
/// The threads of a validated group whose rows' accesses (`p[i]`, i the thread's position in
/// the grid) rows_inside() found inside their buffers (checked.h): the plain flavour's loop,
/// positions counted from the group's origin so that `i` is the loop's counter (an index GCC
/// can vectorise over, where `origin + x` might wrap), with `omp simd` as there. Each thread
/// is still named for the reports of the checks left in it, which keep the loop scalar.
template <class Body>
__attribute__((always_inline)) inline void for_each_thread_in_rows(const mc_group* group, Body&& body) {
    const mc_u32 sx = group->size[0], sy = group->size[1], sz = group->size[2];
    const mc_u32 origin = group->position[0] * group->dispatch->threads_per_threadgroup[0];
    for (mc_u32 z = 0; z < sz; ++z)
        for (mc_u32 y = 0; y < sy; ++y) {
            const mc_u32 row = (z * sy + y) * sx;
#ifdef METALCPU_OPENMP_SIMD
#pragma omp simd
#endif
            for (mc_u32 gx = origin; gx < origin + sx; ++gx) {
                const mc_u32 x = gx - origin;
                const thread_ids t{x, y, z, row + x, mc_u64(row) + gx - origin};
                const_cast<mc_group*>(group)->current_thread = static_cast<unsigned short>(row + x); // reports
                body(t);
            }
        }
}
#endif

template <class P>
concept has_w = requires(P p) { p.w; };
template <class P>
concept has_z = requires(P p) { p.z; };
template <class P>
concept has_y = requires(P p) { p.y; };

/// Converts a position to the declared parameter type: uint, ushort, uint2/3, ushort2/3.
template <class P>
__attribute__((always_inline)) inline P position_as(mc_u32 x, mc_u32 y, mc_u32 z) {
    if constexpr (has_w<P>) {
        using E = typename remove_reference<decltype(P{}.x)>::type;
        return P(E(x), E(y), E(z), E(0));
    } else if constexpr (has_z<P>) {
        using E = typename remove_reference<decltype(P{}.x)>::type;
        return P(E(x), E(y), E(z));
    } else if constexpr (has_y<P>) {
        using E = typename remove_reference<decltype(P{}.x)>::type;
        return P(E(x), E(y));
    } else {
        return P(x);
    }
}

inline mc_u32 group_thread_count(const mc_group* group) {
    return group->size[0] * group->size[1] * group->size[2];
}

inline mc_u32 ceil_div(mc_u32 a, mc_u32 b) { return (a + b - 1) / b; }

/// The value of built-in B for thread t, as parameter type P.
template <class P, int B>
__attribute__((always_inline)) inline P builtin(const mc_group* group, const thread_ids& t) {
    const mc_dispatch* d = group->dispatch;
    const mc_u32* tg = d->threads_per_threadgroup;
    if constexpr (B == MC_BUILTIN_THREAD_POSITION_IN_GRID) {
        return position_as<P>(group->position[0] * tg[0] + t.x, group->position[1] * tg[1] + t.y,
                              group->position[2] * tg[2] + t.z);
    } else if constexpr (B == MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP) {
        return position_as<P>(t.x, t.y, t.z);
    } else if constexpr (B == MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP) {
        return P(t.linear);
    } else if constexpr (B == MC_BUILTIN_THREADGROUP_POSITION_IN_GRID) {
        return position_as<P>(group->position[0], group->position[1], group->position[2]);
    } else if constexpr (B == MC_BUILTIN_THREADS_PER_THREADGROUP) {
        return position_as<P>(group->size[0], group->size[1], group->size[2]);
    } else if constexpr (B == MC_BUILTIN_DISPATCH_THREADS_PER_THREADGROUP) {
        return position_as<P>(tg[0], tg[1], tg[2]);
    } else if constexpr (B == MC_BUILTIN_THREADS_PER_GRID || B == MC_BUILTIN_GRID_SIZE) {
        return position_as<P>(d->threads_per_grid[0], d->threads_per_grid[1], d->threads_per_grid[2]);
    } else if constexpr (B == MC_BUILTIN_THREADGROUPS_PER_GRID) {
        return position_as<P>(d->threadgroups_per_grid[0], d->threadgroups_per_grid[1],
                              d->threadgroups_per_grid[2]);
    } else if constexpr (B == MC_BUILTIN_THREAD_EXECUTION_WIDTH || B == MC_BUILTIN_THREADS_PER_SIMDGROUP) {
        return P(d->simd_width);
    } else if constexpr (B == MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP) {
        // The width is a power of two (mc_dispatch::simd_width): a mask and a shift, not a
        // division per thread.
        return P(t.linear & (d->simd_width - 1));
    } else if constexpr (B == MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP) {
        return P(t.linear >> __builtin_ctz(d->simd_width));
    } else if constexpr (B == MC_BUILTIN_SIMDGROUPS_PER_THREADGROUP) {
        return P(ceil_div(group_thread_count(group), d->simd_width));
    } else if constexpr (B == MC_BUILTIN_DISPATCH_SIMDGROUPS_PER_THREADGROUP) {
        return P(ceil_div(tg[0] * tg[1] * tg[2], d->simd_width));
    } else if constexpr (B == MC_BUILTIN_THREAD_INDEX_IN_QUADGROUP) {
        return P(t.linear % 4);
    } else if constexpr (B == MC_BUILTIN_QUADGROUP_INDEX_IN_THREADGROUP) {
        return P(t.linear / 4);
    } else if constexpr (B == MC_BUILTIN_QUADGROUPS_PER_THREADGROUP) {
        return P(ceil_div(group_thread_count(group), 4));
    } else if constexpr (B == MC_BUILTIN_DISPATCH_QUADGROUPS_PER_THREADGROUP) {
        return P(ceil_div(tg[0] * tg[1] * tg[2], 4));
    } else if constexpr (B == MC_BUILTIN_GRID_ORIGIN) {
        return position_as<P>(0, 0, 0);
    } else {
        static_assert(B != B, "unknown built-in");
    }
}

// ---- Threadgroup variables ------------------------------------------------------------------

/// The size of one threadgroup variable, as constant data (an mc_threadgroup_site) in the
/// section metalcpu_threadgroup_sites, which the library's entry point hands to the runtime:
/// nothing runs while a library loads. The function is never called; taking its address
/// makes the compiler emit it, and with it the record. (GCC ignores section attributes on
/// template-dependent variables, hence the assembler.) A site in a template has one record
/// per instantiation, and files linked together may repeat one. `Owner` names the kernel
/// instantiation whose own body declares the variable (instantiation_owner()), 0 elsewhere:
/// the runtime counts an owned record for its own kernel only, the largest of the others.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the records are written as little-endian halves");
#define METALCPU_SITE_HALVES(value) "i"(static_cast<mc_u32>(value)), "i"(static_cast<mc_u32>((value) >> 32))
/// The alignment of a threadgroup variable of type T declared with alignment `Align`
/// (`__attribute__((aligned(16)))`, `alignas(16)`; 0 without one): never below T's own.
template <class T, mc_u64 Align>
inline constexpr mc_u64 threadgroup_alignment = Align > alignof(T) ? Align : alignof(T);

template <class T, mc_u64 Key, mc_u64 Owner, mc_u64 Align>
__attribute__((used, noinline)) void threadgroup_site_record() {
    asm(".pushsection metalcpu_threadgroup_sites,\"a\"\n\t.balign 8\n\t"
        ".long %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7\n\t.popsection"
        :
        : METALCPU_SITE_HALVES(Key), METALCPU_SITE_HALVES(static_cast<mc_u64>(sizeof(T))),
          METALCPU_SITE_HALVES((threadgroup_alignment<T, Align>)), METALCPU_SITE_HALVES(Owner));
}
#undef METALCPU_SITE_HALVES

/// The owner number of a kernel instantiation: a hash of `name`, the __PRETTY_FUNCTION__ of
/// a function template the front end gives the kernel template's parameters
/// (`__mc_tg_owner_N<...>()`), which spells every template argument. Never 0.
constexpr mc_u64 instantiation_owner(const char* name) {
    mc_u64 hash = 14695981039346656037ull; // FNV-1a
    for (; *name; ++name) hash = (hash ^ static_cast<unsigned char>(*name)) * 1099511628211ull;
    return hash ? hash : 1;
}

/// Makes sure the record of a threadgroup variable site is in the library. `Live` is false
/// in an instantiation where the declaration's branch cannot run (its `if` condition is a
/// constant false there, as Apple's compiler drops such a branch): no record, so the
/// variable counts for nothing; it is never reached, so it is never placed either.
template <class T, mc_u64 Key, mc_u64 Owner, bool Live, mc_u64 Align>
__attribute__((always_inline)) inline void register_threadgroup_site() {
    if constexpr (Live) (void)&threadgroup_site_record<T, Key, Owner, Align>;
}

/// A `threadgroup` variable: the same storage for every thread of the group. T may be an
/// array type. No constructor runs, as on the GPU. `Align` is the alignment the declaration
/// asks for (0: T's own), which a template argument cannot carry as an attribute of T.
template <class T, mc_u64 Key, mc_u64 Owner = 0, bool Live = true, mc_u64 Align = 0>
__attribute__((always_inline)) inline T& threadgroup_variable(const mc_group* group) {
    register_threadgroup_site<T, Key, Owner, Live, Align>();
    if (!group) group = g_services->current_group();
    // The group is the kernel's to scribble on (see mc_group::threadgroup_site_keys).
    mc_group* cached = const_cast<mc_group*>(group);
    constexpr unsigned slot = static_cast<unsigned>(Key % METALCPU_THREADGROUP_SITE_CACHE);
    if (cached->threadgroup_site_keys[slot] == Key) return *static_cast<T*>(cached->threadgroup_site_addresses[slot]);
    void* address = g_services->threadgroup_variable(group, Key, sizeof(T), threadgroup_alignment<T, Align>);
    cached->threadgroup_site_keys[slot] = Key;
    cached->threadgroup_site_addresses[slot] = address;
    return *static_cast<T*>(address);
}

// ---- Rewrites of the kernel's own code ------------------------------------------------------

/// The type argument of `__builtin_convertvector(v, T)`, as the front end passes it
/// (compiler/passes/vector_conversions.h).
template <class T> struct vector_type {};

/// `__builtin_convertvector(v, T)` as Clang has it for MSL's vectors: T(v), each element
/// converted as by a cast (floating to integer toward zero, to float and half to nearest even).
template <class V, class T>
__attribute__((always_inline)) inline T convert_vector(const V& v, vector_type<T>) {
    using source = metalcpu_stdlib::vector_of_t<V>;
    static_assert(metal::is_vector_v<T>, "__builtin_convertvector's second argument must be a vector type");
    static_assert(!__is_same(source, void), "__builtin_convertvector's first argument must be a vector");
    constexpr bool counts = [] {
        if constexpr (__is_same(source, void)) return true; // asserted above
        else return metal::vec_elements<source>::value == metal::vec_elements<T>::value;
    }();
    static_assert(counts, "__builtin_convertvector's vector and type must have the same number of elements");
    if constexpr (!__is_same(source, void) && counts) return T(source(v));
    else return T(); // after the error: nothing more to report
}

/// Whether A and B are one type: the constraint of an explicit specialisation of a member
/// template that the front end turned into a constrained overload (GCC rejects one in its
/// class; compiler/passes/member_specialisations.h).
template <class A, class B>
concept same_type = __is_same(A, B);

/// The first parameter, and argument, of a version of a function overloaded only on the
/// address spaces of pointer or reference parameters with a different body: the address
/// spaces (0 thread, 1 device, 2 constant, 3 threadgroup: compiler/address_space.h) of its
/// distinguishing parameters.
/// The front end passes it where a call's arguments are in those spaces, since the C++ types
/// no longer say (compiler/passes/address_space_dispatch.h). Empty: it costs nothing.
template <int... Spaces>
struct address_space_tag {};

} // namespace metalcpu_kernel

#include <metalcpu/coroutines.h>
#include <metalcpu/data_types.h>
#include <metalcpu/designators.h>
#include <metalcpu/division.h>
#include <metalcpu/function_constants.h>
#include <metalcpu/swizzle_assignments.h>
#include <metalcpu/work_items.h>

// What a translated file defines of its own — its embedded texts, its function constants,
// the one kernel a flavour keeps — it defines after this prelude, replacing the defaults below
// with #undef and #define: the prelude then reads only the macros of the file's flavour (math
// mode, MSL version, validation, tensors), so that one precompiled prelude serves every file
// of that flavour (jit/precompiled_prelude.h). Texts translated before defined the first
// three before the prelude; the #ifndef keeps their definitions, so their embedded
// validation and specialisation texts still compile.

/// The instrumented twin of a file (see mc_module::validation_source), defined by the kernel
/// compiler.
#ifndef METALCPU_VALIDATION_SOURCE
#define METALCPU_VALIDATION_SOURCE nullptr
#endif
/// The translated text of a file with function constants, which the runtime compiles again
/// with their values (mc_module::specialisation_source); defined by the kernel compiler.
#ifndef METALCPU_SPECIALISATION_SOURCE
#define METALCPU_SPECIALISATION_SOURCE nullptr
#endif
/// `count, table` of the file's function constants (mc_module::function_constants), defined
/// by the front end when the file has any.
#ifndef METALCPU_FUNCTION_CONSTANTS
#define METALCPU_FUNCTION_CONSTANTS 0, nullptr
#endif
/// `count, names` of the file's vertex and fragment functions, which the library names but does
/// not hold (mc_module::render_functions), defined by the front end when the file has any.
#ifndef METALCPU_RENDER_FUNCTIONS
#define METALCPU_RENDER_FUNCTIONS 0, nullptr
#endif
/// The selector (msl::kernelSelector()) of the one kernel whose code a file compiled for that
/// kernel keeps (a shader-validation flavour of one kernel, a specialised pipeline:
/// jit::selectingKernel() defines it); 0: every kernel's. Read where METALCPU_SELECTS_KERNEL is used, after the definition.
#define METALCPU_ONLY_KERNEL 0
/// Whether kernel `selector`'s code is in this compiler process's share of a file that is
/// compiled in several processes at once (jit/kernel_compiler.h, compileTranslation()), which
/// redefine it after the prelude; 1: every kernel's, a file compiled by one process.
#define METALCPU_IN_PARTITION(selector) 1
#define METALCPU_SELECTS_KERNEL(selector)                                                         \
    (((METALCPU_ONLY_KERNEL) == 0 || (selector) == (METALCPU_ONLY_KERNEL)) && METALCPU_IN_PARTITION(selector))
/// True only when the flavour keeps every kernel's code: what guards a function no kernel
/// can reach (msl::selectKernelCode()).
#define METALCPU_SELECTS_EVERY_KERNEL ((METALCPU_ONLY_KERNEL) == 0)
/// A kernel's entry point (its run_group or run_thread) as its row of the file's kernel table
/// names it: the function itself, or nullptr in a reflection image (jit::reflectionImageLines(),
/// deferred machine code: docs/architecture.md), which redefines it after the prelude. There
/// the rows keep every kernel's name, parameters and flags, and the entry points, referenced
/// by nothing, are never made into machine code: the front end still checks them and the
/// kernel instantiations they call, so a kernel that does not compile fails newLibrary.
#define METALCPU_KERNEL_CODE(function) function
/// A kernel's host name in a function constant's list of users (mc_function_constant::kernels),
/// null in a file compiled for another kernel: a specialised pipeline's library keeps no name
/// (and no relocation) of the file's other kernels.
#define METALCPU_KERNEL_USER(selector, name) (METALCPU_SELECTS_KERNEL(selector) ? (name) : nullptr)
/// Places one module descriptor in the library's module table (a linker section the
/// library's open function walks; see library_stub.h).
#define METALCPU_REGISTER_MODULE(kernels, count, source, constants, constant_count)              \
    static const ::mc_module metalcpu_module_descriptor = {METALCPU_KERNEL_ABI_VERSION, (count),  \
                                                           (kernels), (source),                  \
                                                           METALCPU_VALIDATION_SOURCE,           \
                                                           (constant_count), (constants),        \
                                                           METALCPU_FUNCTION_CONSTANTS,          \
                                                           METALCPU_SPECIALISATION_SOURCE,       \
                                                           METALCPU_RENDER_FUNCTIONS};           \
    __attribute__((used, section("metalcpu_modules"))) static const ::mc_module* const           \
        metalcpu_module_entry = &metalcpu_module_descriptor;
