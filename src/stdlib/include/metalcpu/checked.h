// Shader validation, kernel side: checked pointers and the accesses made through them.
//
// Only the instrumented flavour of a kernel file includes this (the translator defines
// METALCPU_VALIDATION there). In that flavour every `device`, `constant` and `threadgroup`
// pointer type becomes checked_ptr<T, Space>, and every subscript, dereference and `->` of
// the user's code becomes a call to load(), store() or update() naming its source site.
// docs/validation.md explains the scheme; the runtime side is validation/ and exec/services.
#pragma once

#include <metalcpu/kernel_abi.h>
#include <metalcpu/kernel_services.h>

namespace metal {
template <class T, decltype(sizeof 0) N> struct array;
} // namespace metal

namespace metalcpu_kernel {

inline constexpr mc_u64 kAddressMask = (mc_u64(1) << METALCPU_REGION_TAG_SHIFT) - 1;

template <class T>
struct array_traits {
    static constexpr bool is_array = false;
};
template <class T, decltype(sizeof 0) N>
struct array_traits<T[N]> {
    static constexpr bool is_array = true;
    using element = T;
};

template <class T>
using remove_cvref = typename remove_cv_t<typename remove_reference<T>::type>::type;

/// U* converts to T* implicitly (adding qualifiers, to void).
template <class U, class T>
concept pointer_converts = requires(void (*take)(T*), U* u) { take(u); };

template <class T> struct size_or_one { static constexpr mc_u64 value = sizeof(T); };
template <> struct size_or_one<void> { static constexpr mc_u64 value = 1; };
template <> struct size_or_one<const void> { static constexpr mc_u64 value = 1; };

template <class T, int Space>
struct checked_ptr;

/// An address made from an integer, as a checked pointer's bits: tagged as the binding of this
/// dispatch whose bound range holds it (at most 31 compares, once per conversion), so that it
/// is checked as a pointer derived from that argument is, inline, and a report names the
/// argument; untagged when no bound range holds it (another part of a buffer, threadgroup
/// memory, a program-scope constant, an address read from memory), so that each access looks
/// it up by address among the live buffers and this group's threadgroup memory.
inline mc_u64 bound_address_bits(mc_u64 address) {
    const mc_group* group = g_services->current_group();
    if (!group || !group->dispatch) return address;
    for (const mc_u64 bits : group->dispatch->checked_buffers) {
        const mc_region& region = g_regions[bits >> METALCPU_REGION_TAG_SHIFT];
        if ((bits >> METALCPU_REGION_TAG_SHIFT) != 0 && address - region.begin < region.length)
            return (bits & ~kAddressMask) | address;
    }
    return address;
}

/// Where the bits of every checked pointer live. `address` is written only by the conversion
/// from a raw pointer, which is constexpr so that a program-scope constant can hold an address
/// (`constant const char* constant names[] = {"a", "b"};`, `constant float* constant p =
/// kTable;`) while the library loads nothing at run time: constant evaluation may not turn a
/// pointer into an integer, but may store it. Everything else reads `bits`, the same 64 bits
/// (an untagged address): GCC defines reading another member of a union than the one last
/// written.
struct checked_root {
    union {
        mc_u64 bits = 0;
        const volatile void* address;
    };
    constexpr checked_root() = default;
    constexpr checked_root(const volatile void* raw) : address(raw) {}
};
static_assert(sizeof(checked_root) == sizeof(mc_u64), "the address and the bits are one word");

template <class T> struct is_const_t { static constexpr bool value = false; };
template <class T> struct is_const_t<const T> { static constexpr bool value = true; };

/// checked_ptr<T> derives from checked_ptr<const T>, so that a template parameter
/// `device const T*` deduces T from a `device T*` argument, as it does for raw pointers.
template <class T, int Space, bool = is_const_t<T>::value>
struct checked_parent {
    using type = checked_ptr<const T, Space>;
};
template <class T, int Space>
struct checked_parent<T, Space, true> {
    using type = checked_root;
};

/// A pointer into `device`, `constant` or `threadgroup` memory, Space its mc_address_space
/// (MC_ADDRESS_SPACE_DEVICE, ...): the number the translator writes for it
/// (compiler/address_space.h), so that its types and these are one. One 64-bit
/// word, like the raw pointer it replaces, so structs holding device pointers keep their
/// layout: the address in the low 48 bits and the tag of the region it was derived from in
/// the high 16. Addresses the host wrote into buffers (gpuAddress) carry tag 0 and are
/// looked up by address when used.
template <class T, int Space>
struct checked_ptr : checked_parent<T, Space>::type {
    using checked_root::bits;

    checked_ptr() = default;
    constexpr checked_ptr(decltype(nullptr)) {}
    /// An untagged address: `&x`, a thread pointer converted, a pointer read from memory, a
    /// string literal. Constexpr (through checked_root::address), for program-scope constants.
    constexpr checked_ptr(T* raw) : checked_parent<T, Space>::type(raw) {}
    /// The conversions raw pointers allow implicitly: adding const, to void.
    template <class U>
        requires pointer_converts<U, T>
    checked_ptr(checked_ptr<U, Space> other) {
        bits = other.bits;
    }
    /// Casts between pointer types and from integers (`(device float*)address`).
    template <class U, int S>
        requires(!pointer_converts<U, T> || S != Space)
    explicit checked_ptr(checked_ptr<U, S> other) {
        bits = other.bits;
    }
    /// Casts of a raw pointer to another pointee type, or of an array that decays to one:
    /// `(device const uint32_t*)xb->qh` (an array member of a struct in device memory, reached
    /// through a checked pointer as a reference), `(constant uint8_t*)(table + i)` (a
    /// program-scope constant). Untagged, like checked_ptr(T*): each access looks the address
    /// up among the live buffers and program-scope constants, so one that leaves the buffer
    /// or constant holding the array is still reported against it.
    template <class U>
        requires(!pointer_converts<U, T>)
    explicit checked_ptr(U* raw) {
        bits = reinterpret_cast<mc_u64>(raw);
    }
    /// An integer made back into a pointer (`(device atomic_uint*)address`, whatever the
    /// integer's type), and a raw pointer cast (pointer_cast()): tagged as the binding whose
    /// range holds the address, else untagged (bound_address_bits()).
    template <class I>
        requires ::metal::is_integral<I>::value
    explicit checked_ptr(I value) {
        bits = bound_address_bits(static_cast<mc_u64>(value));
    }

    static checked_ptr from_bits(mc_u64 value) {
        checked_ptr p;
        p.bits = value;
        return p;
    }

    T* address() const { return reinterpret_cast<T*>(bits & kAddressMask); }
    explicit operator bool() const { return (bits & kAddressMask) != 0; }
    /// `(ulong)p`, `long(p)`: the address, without the tag, as Metal gives it. Integers as
    /// wide as a pointer only, as for raw pointers (a narrower one loses the address).
    template <class I>
        requires(::metal::is_integral<I>::value && sizeof(I) == sizeof(mc_u64))
    explicit operator I() const {
        return static_cast<I>(bits & kAddressMask);
    }

    checked_ptr operator+(long long n) const { return from_bits(bits + static_cast<mc_u64>(n) * size_or_one<T>::value); }
    checked_ptr operator-(long long n) const { return from_bits(bits - static_cast<mc_u64>(n) * size_or_one<T>::value); }
    friend checked_ptr operator+(long long n, checked_ptr p) { return p + n; }
    long long operator-(checked_ptr other) const {
        return static_cast<long long>((bits & kAddressMask) - (other.bits & kAddressMask)) /
               static_cast<long long>(size_or_one<T>::value);
    }
    checked_ptr& operator+=(long long n) { return *this = *this + n; }
    checked_ptr& operator-=(long long n) { return *this = *this - n; }
    checked_ptr& operator++() { return *this += 1; }
    checked_ptr& operator--() { return *this -= 1; }
    checked_ptr operator++(int) {
        checked_ptr old = *this;
        *this += 1;
        return old;
    }
    checked_ptr operator--(int) {
        checked_ptr old = *this;
        *this -= 1;
        return old;
    }

    friend bool operator==(checked_ptr a, checked_ptr b) { return (a.bits & kAddressMask) == (b.bits & kAddressMask); }
    friend bool operator==(checked_ptr a, decltype(nullptr)) { return (a.bits & kAddressMask) == 0; }
    friend bool operator<(checked_ptr a, checked_ptr b) { return (a.bits & kAddressMask) < (b.bits & kAddressMask); }
    friend bool operator>(checked_ptr a, checked_ptr b) { return b < a; }
    friend bool operator<=(checked_ptr a, checked_ptr b) { return !(b < a); }
    friend bool operator>=(checked_ptr a, checked_ptr b) { return !(a < b); }

    // Accesses the translator did not rewrite (inside macros of the standard library, say)
    // are still checked; they report no source line.
    decltype(auto) operator[](long long index) const;
    decltype(auto) operator*() const;
    auto* operator->() const;
};

// Structs shared with the host hold device pointers: a checked one must be a raw one's twin.
static_assert(sizeof(checked_ptr<float, MC_ADDRESS_SPACE_DEVICE>) == sizeof(float*) &&
                  alignof(checked_ptr<float, MC_ADDRESS_SPACE_DEVICE>) == alignof(float*),
              "checked pointers keep the size and layout of raw pointers");

/// A named `threadgroup` array (`threadgroup float tile[16][16]`, A = float[16][16]) in a
/// validated kernel: a checked pointer to its first element, which it derives from, so that
/// everything taking such a pointer takes the array as it did, knowing the array's extents.
/// Its subscripts are checked by index, a compare against an extent the compiler knows,
/// instead of against the region table; `inside` says whether the indices that led to this
/// row (tile[y] of tile[y][x]) were in range. Only an index out of range takes the general
/// path, which reports exactly what checking the address against the region would.
template <class A, int S>
struct checked_array : checked_ptr<typename array_traits<A>::element, S> {
    using element = typename array_traits<A>::element;
    element* data = nullptr; ///< the address without its tag: the fast path's
    mc_u64 tag = 0;          ///< the tag's bits: bits == tag + data, as the general path has them
    bool inside = true;

    checked_array() = default;
    /// `cond ? nullptr : tile` (MLX's gemv): the null pointer as the array's type. Never
    /// inside, so an access through it takes the general path, which reports it.
    constexpr checked_array(decltype(nullptr)) : inside(false) {}
    /// `cond ? small_tile : big_tile` with the same element type: the larger array as the
    /// smaller one's type (only that way, so that the conditional has one type to convert
    /// to). An index past the smaller extent takes the general path, which checks it against
    /// the larger array's region, so what is inside the larger array still passes.
    template <class B>
        requires(__is_same(typename array_traits<B>::element, element) && (sizeof(B) > sizeof(A)))
    checked_array(const checked_array<B, S>& larger)
        : checked_ptr<element, S>(larger), data(larger.data), tag(larger.tag), inside(larger.inside) {}

    static checked_array at(mc_u64 tag, element* data, bool inside) {
        checked_array a;
        a.bits = tag + reinterpret_cast<mc_u64>(data);
        a.data = data;
        a.tag = tag;
        a.inside = inside;
        return a;
    }
};

template <class X> struct is_checked_ptr_t { static constexpr bool value = false; };
template <class T, int S> struct is_checked_ptr_t<checked_ptr<T, S>> { static constexpr bool value = true; };
template <class A, int S> struct is_checked_ptr_t<checked_array<A, S>> { static constexpr bool value = true; };
template <class X>
concept checked_pointer = is_checked_ptr_t<remove_cvref<X>>::value;

/// A named array (`float v[4]` inside a struct in device memory, a thread-space array): its
/// elements are checked by index (see checked_array_element).
template <class X>
concept array_lvalue = is_reference<X>::value && array_traits<remove_cvref<X>>::is_array;

inline constexpr mc_site kUnknownSite = {"", "", 0, 0};

/// The runtime's side of a failed check, kept out of the kernel's hot code. Declared pure:
/// nothing it writes is visible to kernel code except the scratch it returns, and telling
/// the compiler so lets it keep regions and arguments in registers across checks (about a
/// third of validation's cost). The price: identical faults (same site, address and kind)
/// that the compiler merges within one thread are counted once, and a merged read-modify-
/// write may see its own dropped store instead of zero.
[[gnu::cold, gnu::noinline, gnu::pure]] inline void* report_fault(mc_u64 pointer, mc_u64 offset, mc_u64 size, mc_u32 op,
                                                      const mc_site* site) {
    return g_services->validation_fault(pointer, offset, size, op, site);
}

/// The threadgroup watch (METALCPU_SHADER_VALIDATION_CHECKS=races,uninitialized): while the
/// runtime has it on, every access of threadgroup memory is told to it — the object's address
/// with its pointer's tag, its size, MC_OP_* bits. Off, an access costs a load and a branch
/// never taken, enough to keep a loop scalar: work-item loops run a copy of themselves for
/// groups the watch is off in, where the host compiler folds the test away (for_each_row(),
/// kernel_support.h). Pure and returning the object's address, as report_fault() is, so that the
/// compiler keeps regions and values in registers across the call it never makes (a call
/// that may write memory made the validated tiled matmul 3 to 5 times slower with the watch
/// off); the price is report_fault()'s: identical accesses it merges within one thread are
/// told once.
[[gnu::cold, gnu::noinline, gnu::pure]] inline void* report_threadgroup_access(mc_u64 bits, mc_u64 size, mc_u32 op,
                                                                               const mc_site* site) {
    g_services->threadgroup_access(bits, size, op, site);
    return reinterpret_cast<void*>(bits & kAddressMask);
}
template <class T>
__attribute__((always_inline)) inline T& watch_threadgroup(mc_u64 tag_bits, T& object, mc_u32 op, const mc_site& site) {
    if (__builtin_expect(*g_access_watch != 0, 0)) {
        constexpr mc_u32 aggregate = __is_class(T) || __is_union(T) || array_traits<T>::is_array ? mc_u32(MC_OP_AGGREGATE) : 0u;
        return *(T*)report_threadgroup_access((tag_bits & ~kAddressMask) | reinterpret_cast<mc_u64>(&object), sizeof(T),
                                              op | aggregate, &site);
    }
    return object;
}

/// The device watch (METALCPU_SHADER_VALIDATION_CHECKS=hazards): while the runtime has the
/// watch on, every access of device or constant memory a checked pointer makes inside its
/// region is told to it, as watch_threadgroup() tells of threadgroup accesses, behind the same
/// word (so the copies of work-item loops run while it is zero fold both tests away).
[[gnu::cold, gnu::noinline, gnu::pure]] inline void* report_device_access(mc_u64 bits, mc_u64 size, mc_u32 op,
                                                                          const mc_site* site) {
    g_services->device_access(bits, size, op, site);
    return reinterpret_cast<void*>(bits & kAddressMask);
}
template <class T>
__attribute__((always_inline)) inline T& watch_device(mc_u64 tag_bits, T& object, mc_u32 op, const mc_site& site) {
    if (__builtin_expect(*g_access_watch != 0, 0))
        return *(T*)report_device_access((tag_bits & ~kAddressMask) | reinterpret_cast<mc_u64>(&object), sizeof(T), op,
                                         &site);
    return object;
}

/// An access of `object` through a pointer of address space S with tag `tag_bits`, found inside
/// its region: told to the watch of its address space, if any.
template <int S, class T>
__attribute__((always_inline)) inline T& watch_access(mc_u64 tag_bits, T& object, mc_u32 op, const mc_site& site) {
    if constexpr (S == MC_ADDRESS_SPACE_THREADGROUP) return watch_threadgroup(tag_bits, object, op, site);
    else if constexpr (S == MC_ADDRESS_SPACE_DEVICE || S == MC_ADDRESS_SPACE_CONSTANT)
        return watch_device(tag_bits, object, op, site);
    else return object;
}

/// The object of type T `offset` bytes past the pointer whose bits are `bits`, after checking
/// that all its bytes lie inside the pointer's region. When they do not, the runtime reports
/// the access (offset and size: the object's own bytes) and says what to touch instead.
template <class T>
__attribute__((always_inline)) inline T& checked_object(mc_u64 bits, mc_u64 offset, mc_u32 op, const mc_site& site) {
    const mc_region& region = g_regions[bits >> METALCPU_REGION_TAG_SHIFT];
    const mc_u64 into = ((bits & kAddressMask) - region.begin) + offset;
    // The object fits when it starts at one of the first `span` bytes of a region at least
    // its size. Both depend on the region alone: in a loop over one pointer the compiler
    // computes them once (and -funswitch-loops drops the second), so an access costs an add,
    // a compare and a branch, predicted taken. A branch rather than a select for the short
    // region keeps the loaded length off the compare's path where the region is looked up
    // at each access (a pointer moved by arithmetic): 10% on the register-tiled matmuls.
    const mc_u64 span = region.length - (sizeof(T) - 1);
    if (__builtin_expect((into < span) & (region.length >= sizeof(T)), 1))
        return *reinterpret_cast<T*>(region.begin + into); // the address, modulo 2^64
    return *static_cast<T*>(report_fault(bits, offset, sizeof(T), op, &site));
}

/// The op bits a failed check of a pointer into address space S reports: MC_OP_THREADGROUP
/// for threadgroup memory, whose null pointers are offsets into it (validation_fault()).
constexpr mc_u32 space_op(int S) { return S == MC_ADDRESS_SPACE_THREADGROUP ? mc_u32(MC_OP_THREADGROUP) : 0u; }

/// The object at `p + index`, after checking that it lies inside p's region.
template <class T, int S>
__attribute__((always_inline)) inline T& checked_element(checked_ptr<T, S> p, long long index, mc_u32 op,
                                                         const mc_site& site) {
    T& object = checked_object<T>(p.bits, static_cast<mc_u64>(index) * sizeof(T), op | space_op(S), site);
    return watch_access<S>(p.bits, object, op, site);
}

/// Element `index` of a named array (constexpr: constant expressions index constexpr arrays
/// too). In range (the common case) it is the element; out of
/// range the runtime checks the address as it checks any untagged one: an index that leaves
/// its array but stays inside the buffer (or threadgroup memory) holding it passes, as on a
/// GPU, and anything further is reported and contained.
template <class E, decltype(sizeof 0) N>
__attribute__((always_inline)) constexpr E& checked_array_element(E (&array)[N], long long index, mc_u32 op,
                                                                  const mc_site& site) {
    if (__builtin_expect(static_cast<unsigned long long>(index) < N, 1)) return array[index];
    return *static_cast<E*>(report_fault(reinterpret_cast<mc_u64>(&array[0]) & kAddressMask,
                                         static_cast<mc_u64>(index) * sizeof(E), sizeof(E), op, &site));
}

/// Indexing a pointer to arrays (a threadgroup `float tile[16][16]` is one) yields a
/// pointer to the row: nothing is accessed yet.
template <class T, int S>
__attribute__((always_inline)) inline decltype(auto) checked_index(checked_ptr<T, S> p, long long index, mc_u32 op,
                                                                   const mc_site& site) {
    if constexpr (array_traits<T>::is_array) {
        return checked_ptr<typename array_traits<T>::element, S>::from_bits(p.bits +
                                                                            static_cast<mc_u64>(index) * sizeof(T));
    } else {
        return checked_element(p, index, op, site);
    }
}

/// The general path of a named array's element whose index is out of range: kept out of
/// line, so the loop around the fast path keeps its registers for the fast path.
template <class T, int S>
[[gnu::cold, gnu::noinline, gnu::pure]] T& checked_array_fallback(mc_u64 bits, long long index, mc_u32 op,
                                                                 const mc_site& site) {
    return checked_element(checked_ptr<T, S>::from_bits(bits), index, op, site);
}

/// Subscript `index` of a named threadgroup array: the next row, or the element. An index in
/// range (and every index before it) is the whole check; otherwise the element is checked
/// through the pointer the general path sees, with the same offset, so reports are those of
/// the unchecked-by-index scheme, byte for byte.
template <class A, int S>
__attribute__((always_inline)) inline decltype(auto) checked_index(checked_array<A, S> a, long long index, mc_u32 op,
                                                                   const mc_site& site) {
    using E = typename array_traits<A>::element;
    constexpr auto extent = sizeof(A) / sizeof(E);
    const bool inside = a.inside & (static_cast<unsigned long long>(index) < extent);
    if constexpr (array_traits<E>::is_array) {
        return checked_array<E, S>::at(a.tag, a.data[index], inside);
    } else {
        if (__builtin_expect(inside, 1)) {
            return watch_access<S>(a.tag, a.data[index], op, site);
        }
        // The pointer the general path would have: the same bits (tag + address, both
        // modulo 2^64) and the same index, so the same report.
        return checked_array_fallback<E, S>(a.tag + reinterpret_cast<mc_u64>(a.data), index, op, site);
    }
}

template <class T, int Space>
decltype(auto) checked_ptr<T, Space>::operator[](long long index) const {
    return checked_index(*this, index, MC_OP_LOAD, kUnknownSite);
}
template <class T, int Space>
decltype(auto) checked_ptr<T, Space>::operator*() const {
    return checked_index(*this, 0, MC_OP_LOAD, kUnknownSite);
}
template <class T, int Space>
auto* checked_ptr<T, Space>::operator->() const {
    return &checked_element(*this, 0, MC_OP_LOAD, kUnknownSite);
}

// ---- What the translator writes for the user's accesses --------------------------------
// `x[i]` becomes load(x, i, site), `x[i] = v` store(...), `x[i] += v` and `++x[i]`
// update(...), `*p` load(p, 0, site), `p->m` load(p, 0, site).m, `&x[i]` address_of(x, i).
// Named arrays are checked by index; anything else that is not a checked pointer (vectors,
// matrices, thread pointers: `*p` is load(p, 0, site)) is the plain operation.

template <class X, class I>
    requires(!checked_pointer<X> && !array_lvalue<X &&>)
__attribute__((always_inline)) constexpr decltype(auto) load(X&& x, I&& i, const mc_site&) {
    return static_cast<X&&>(x)[static_cast<I&&>(i)];
}
template <class X, class I>
    requires(!checked_pointer<X> && !array_lvalue<X &&>)
__attribute__((always_inline)) constexpr decltype(auto) store(X&& x, I&& i, const mc_site&) {
    return static_cast<X&&>(x)[static_cast<I&&>(i)];
}
template <class X, class I>
    requires(!checked_pointer<X> && !array_lvalue<X &&>)
__attribute__((always_inline)) constexpr decltype(auto) update(X&& x, I&& i, const mc_site&) {
    return static_cast<X&&>(x)[static_cast<I&&>(i)];
}
template <class E, decltype(sizeof 0) N, class I>
__attribute__((always_inline)) constexpr E& load(E (&x)[N], I i, const mc_site& site) {
    return checked_array_element(x, static_cast<long long>(i), MC_OP_LOAD, site);
}
template <class E, decltype(sizeof 0) N, class I>
__attribute__((always_inline)) constexpr E& store(E (&x)[N], I i, const mc_site& site) {
    return checked_array_element(x, static_cast<long long>(i), MC_OP_STORE, site);
}
template <class E, decltype(sizeof 0) N, class I>
__attribute__((always_inline)) constexpr E& update(E (&x)[N], I i, const mc_site& site) {
    return checked_array_element(x, static_cast<long long>(i), MC_OP_LOAD | MC_OP_STORE, site);
}
template <class X, class I>
    requires(!checked_pointer<X>)
__attribute__((always_inline)) constexpr auto address_of(X&& x, I&& i) {
    return &static_cast<X&&>(x)[static_cast<I&&>(i)];
}
// A checked pointer or a named threadgroup array (checked_index() tells them apart).
template <class P, class I>
    requires checked_pointer<P>
__attribute__((always_inline)) inline decltype(auto) load(P p, I i, const mc_site& site) {
    return checked_index(p, static_cast<long long>(i), MC_OP_LOAD, site);
}
template <class P, class I>
    requires checked_pointer<P>
__attribute__((always_inline)) inline decltype(auto) store(P p, I i, const mc_site& site) {
    return checked_index(p, static_cast<long long>(i), MC_OP_STORE, site);
}
template <class P, class I>
    requires checked_pointer<P>
__attribute__((always_inline)) inline decltype(auto) update(P p, I i, const mc_site& site) {
    return checked_index(p, static_cast<long long>(i), MC_OP_LOAD | MC_OP_STORE, site);
}
template <class T, int S, class I>
__attribute__((always_inline)) inline checked_ptr<T, S> address_of(checked_ptr<T, S> p, I i) {
    return p + static_cast<long long>(i);
}
/// `&r` of a kernel's reference argument `device T& r` (space S), and `&r.m[i]` of an
/// element of its array member: a checked pointer, untagged (each access looks the address up
/// among the live buffers and the group's threadgroup memory), so that a function template
/// taking `device A*` (a checked_ptr<A, S>) deduces from it, as naga's atomic compare-exchange
/// helper does from `&a`.
template <int S, class T>
__attribute__((always_inline)) constexpr checked_ptr<T, S> reference_address(T& object) {
    return checked_ptr<T, S>(__builtin_addressof(object));
}
template <int S, class X, class I>
__attribute__((always_inline)) constexpr auto address_in(X&& x, I&& i) {
    if constexpr (checked_pointer<X>)
        return address_of(static_cast<X&&>(x), static_cast<I&&>(i));
    else
        return reference_address<S>(static_cast<X&&>(x)[static_cast<I&&>(i)]);
}

// ---- Members ---------------------------------------------------------------------------
// `x[i].a.b` becomes load_member(x, i, select, site) (store_member and update_member as for
// elements) and `p->a.b` load_member(p, 0, select, site), where select is a function object
// the translator defines once per distinct member, `(e.a.b)` of what it is given
// (compiler/passes/checked_accesses.h): the member is named through the element without
// reading it, so the check covers the member's own bytes, as a GPU's access
// does (the last block's first member near a buffer's end is in bounds though the whole block
// is not). A member that is an array is not accessed at all: it becomes a checked array of
// the pointer's region, so `x[i].qs + 8` reads nothing and keeps the buffer's tag, and
// `x[i].qs[j]` checks the element against the buffer. `&x[i].a` is member_address(x, i,
// select): a checked pointer to the member, tagged as x.

template <class P> struct pointee_of;
template <class T, int S> struct pointee_of<checked_ptr<T, S>> {
    using type = T;
    static constexpr int space = S;
};
template <class A, int S> struct pointee_of<checked_array<A, S>> {
    using type = typename array_traits<A>::element;
    static constexpr int space = S;
};

/// `*(device const float4*)(A + (i + 1) * n + k)`: a dereference of a pointer the kernel
/// moved from a named pointer, `A`, which the translator passes as a hint. Checked against
/// the hint's region, which stays the same over a loop, so the host compiler looks it up once
/// (against the moved pointer's own region, GCC looks it up at every access: the tag is in the
/// pointer's high bits, where the arithmetic might have carried). The fast check passes only
/// where the general one would, with the same region and offset: with another tag than the
/// hint's, `into` is at least 2^48 - begin, past any region (which ends below 2^48). Anything
/// else takes the general path, so reports are the same byte for byte.
template <class T, int S, class H>
__attribute__((always_inline)) inline T& checked_element_near(checked_ptr<T, S> p, const H& hint, mc_u32 op,
                                                              const mc_site& site) {
    const mc_region& region = g_regions[hint.bits >> METALCPU_REGION_TAG_SHIFT];
    const mc_u64 into = p.bits - ((hint.bits & ~kAddressMask) + region.begin);
    // Where an object of the size may start; none in a shorter region. A select, not a
    // second branch: the region is the hint's, so this is computed once before a loop.
    const mc_u64 span = region.length >= sizeof(T) ? region.length - (sizeof(T) - 1) : 0;
    if (__builtin_expect(into < span, 1)) {
        T& object = *reinterpret_cast<T*>(region.begin + into);
        return watch_access<S>(p.bits, object, op, site);
    }
    return checked_element(p, 0, op, site);
}
/// Whether access_near() checks a pointer of type X against hint H: a checked pointer to
/// one element, never a pointer of the kernel's own (`*(buf + 0)` of a thread array, whose
/// pointee_of is not defined: a single `&&` would still name its `type`).
template <class X, class H> constexpr bool checks_near() {
    if constexpr (is_checked_ptr_t<X>::value)
        return !array_traits<typename pointee_of<X>::type>::is_array && checked_pointer<H> &&
               __is_same(X, checked_ptr<typename pointee_of<X>::type, pointee_of<X>::space>);
    else
        return false;
}
template <mc_u32 Op, class P, class H>
__attribute__((always_inline)) constexpr decltype(auto) access_near(P&& p, const mc_site& site, const H& hint) {
    using X = remove_cvref<P>;
    if constexpr (checks_near<X, H>())
        return checked_element_near(p, hint, Op, site);
    else if constexpr (Op == MC_OP_LOAD)
        return load(static_cast<P&&>(p), 0, site);
    else if constexpr (Op == MC_OP_STORE)
        return store(static_cast<P&&>(p), 0, site);
    else
        return update(static_cast<P&&>(p), 0, site);
}
/// `*(cast)(name + ...)`: load(p, 0, site) with `name` as the hint (access_near()).
template <class P, class H>
__attribute__((always_inline)) constexpr decltype(auto) load(P&& p, int, const mc_site& site, const H& hint) {
    return access_near<MC_OP_LOAD>(static_cast<P&&>(p), site, hint);
}
template <class P, class H>
__attribute__((always_inline)) constexpr decltype(auto) store(P&& p, int, const mc_site& site, const H& hint) {
    return access_near<MC_OP_STORE>(static_cast<P&&>(p), site, hint);
}
template <class P, class H>
__attribute__((always_inline)) constexpr decltype(auto) update(P&& p, int, const mc_site& site, const H& hint) {
    return access_near<MC_OP_LOAD | MC_OP_STORE>(static_cast<P&&>(p), site, hint);
}

/// Whether the T at `offset` bytes past the pointer with bits `bits` lies inside its region
/// (checked_object()'s test, without a report).
template <class T>
__attribute__((always_inline)) inline bool inside_region(mc_u64 bits, mc_u64 offset) {
    const mc_region& region = g_regions[bits >> METALCPU_REGION_TAG_SHIFT];
    const mc_u64 into = ((bits & kAddressMask) - region.begin) + offset;
    return (into < region.length - (sizeof(T) - 1)) & (region.length >= sizeof(T));
}

// ---- The rows of a kernel that loops over its threads ---------------------------------
// `p[i]`, where `i` is the kernel's `uint` [[thread_position_in_grid]] and neither it nor the
// buffer pointer `p` is written in the body (compiler/passes/checked_accesses.cpp, RowAccesses),
// becomes load_in_rows(p, i, site, __mc_rows_inside), and the group function runs its threads
// with the flag true when rows_inside() found all of the group's elements of each such p inside
// p's region: no check of them can fail then, so none is made, and the loop over the threads
// vectorises as in the plain flavour. Otherwise the flag is false and every access is checked
// as before, so reports are the same, byte for byte.

/// Whether elements [first, last] of `p` all lie inside p's region: the first and the last do
/// (their offsets into the region differ by less than 2^40, and a region ends below 2^48, so
/// the offsets between them do not wrap and lie between the two).
template <class P>
__attribute__((always_inline)) inline bool elements_inside(const P& p, mc_u32 first, mc_u32 last) {
    if constexpr (is_checked_ptr_t<P>::value && !array_traits<typename pointee_of<P>::type>::is_array) {
        using T = typename pointee_of<P>::type;
        return inside_region<T>(p.bits, mc_u64(first) * sizeof(T)) & inside_region<T>(p.bits, mc_u64(last) * sizeof(T));
    } else {
        return false;
    }
}
/// Whether, for every thread of the group, `p[i]` lies inside p's region for each of `pointers`,
/// `i` the thread's position in the grid along x, as builtin() computes it.
template <class... P>
__attribute__((always_inline)) inline bool rows_inside(const mc_group* group, const P&... pointers) {
    const mc_u32 first = group->position[0] * group->dispatch->threads_per_threadgroup[0];
    const mc_u32 last = first + (group->size[0] - 1);
    // With the watch on, each access is checked, and so told to it (watch_device()).
    return (*g_access_watch == 0) & (elements_inside(pointers, first, last) & ...);
}
template <mc_u32 Op, class P, class I>
__attribute__((always_inline)) inline decltype(auto) access_in_rows(const P& p, I i, const mc_site& site, bool inside) {
    if constexpr (is_checked_ptr_t<P>::value && !array_traits<typename pointee_of<P>::type>::is_array) {
        if (inside) return *(p.address() + i);
    }
    if constexpr (Op == MC_OP_LOAD) return load(p, i, site);
    else if constexpr (Op == MC_OP_STORE) return store(p, i, site);
    else return update(p, i, site);
}
template <class P, class I>
__attribute__((always_inline)) inline decltype(auto) load_in_rows(const P& p, I i, const mc_site& site, bool inside) {
    return access_in_rows<MC_OP_LOAD>(p, i, site, inside);
}
template <class P, class I>
__attribute__((always_inline)) inline decltype(auto) store_in_rows(const P& p, I i, const mc_site& site, bool inside) {
    return access_in_rows<MC_OP_STORE>(p, i, site, inside);
}
template <class P, class I>
__attribute__((always_inline)) inline decltype(auto) update_in_rows(const P& p, I i, const mc_site& site, bool inside) {
    return access_in_rows<MC_OP_LOAD | MC_OP_STORE>(p, i, site, inside);
}

// ---- Loops whose accesses are checked once ----------------------------------------------
// `for (uint k = first; k < bound; ++k) ... p[index] ...`, with `index` affine in k and nothing
// in the loop writing k, the bound or what the index reads (compiler/passes/loop_ranges.h),
// becomes `{ const bool __mc_range_0 = range_inside<uint>(first, bound, p, [&](uint k) {
// return (index); }) & ...; for (...) ... load_in(__mc_range_0, p, index, site) ... }`: when
// every index of the range lies inside p's region no check in the loop can fail, and none is
// made; otherwise every access is checked as before, so reports are the same, byte for byte.
// The flag is the same in every step, so the host compiler runs a copy of the loop without the
// checks (-funswitch-loops), or at worst tests one register per access.

/// The lanes of an index (one, a scalar's; lane_checked.h has those of a row of threads).
template <class V> struct range_lanes {
    static constexpr int count = 1;
    static constexpr V lane(const V& v, int) { return v; }
};

/// Whether every element `index(k)` of `p`, for k from `first` while `k < bound` by steps of
/// one (the counter of type K), lies inside p's region. The index is affine in k modulo 2^32
/// (the translator saw to that: k once, with +, - and * of values of at most 32 bits), so
/// index(k) = i0 + (i1 - i0) * (k - k0) modulo 2^32 for each lane. Where that sum, computed
/// exactly, reaches index(last) from index(k0), it stays between the two, in the index type's
/// range, where values equal modulo 2^32 are equal: every index lies between the first and
/// the last, and their elements are inside when those two are. Anything this cannot tell is
/// false: the loop then checks each access.
template <class K, class F, class B, class P, class Index>
__attribute__((always_inline)) inline bool range_inside(const F& first, const B& bound, const P& p, const Index& index) {
    if constexpr (!is_checked_ptr_t<P>::value) {
        return false;
    } else {
        using T = typename pointee_of<P>::type;
        const K k0 = static_cast<K>(first);
        using C = decltype(+k0 + bound); // the type `k < bound` compares in
        if constexpr (!__is_same(P, checked_ptr<T, pointee_of<P>::space>) || array_traits<T>::is_array ||
                      pointee_of<P>::space == MC_ADDRESS_SPACE_THREADGROUP ||
                      !::metal::is_integral<C>::value || !__is_same(C, decltype(+k0)) || sizeof(C) != 4) {
            return false;
        } else {
            if (!(k0 < bound)) return true; // no step runs
            if (*g_access_watch != 0) return false; // each access is told to the watch (watch_device())
            const K kl = static_cast<K>(static_cast<C>(bound) - 1);
            using V = decltype(index(k0));
            using R = range_lanes<V>;
            using N = decltype(R::lane(index(k0), 0));
            if constexpr (!::metal::is_integral<N>::value || sizeof(N) > 4) {
                return false;
            } else {
                const V v0 = index(k0);
                const V vl = index(kl);
                const V v1 = index(k0 == kl ? k0 : static_cast<K>(k0 + 1));
                const __int128 steps = static_cast<long long>(kl) - static_cast<long long>(k0);
                bool inside = true;
                for (int l = 0; l < R::count; ++l) {
                    const long long a = static_cast<long long>(R::lane(v0, l));
                    const long long b = static_cast<long long>(R::lane(v1, l));
                    const long long z = static_cast<long long>(R::lane(vl, l));
                    inside &= static_cast<__int128>(a) + static_cast<__int128>(b - a) * steps == z;
                    inside &= inside_region<T>(p.bits, static_cast<mc_u64>(a) * sizeof(T)) &
                              inside_region<T>(p.bits, static_cast<mc_u64>(z) * sizeof(T));
                }
                return inside;
            }
        }
    }
}

/// `p[i]` in such a loop: the element, unchecked where the loop's range is inside.
template <mc_u32 Op, class P, class I>
__attribute__((always_inline)) inline decltype(auto) access_in_range(bool inside, const P& p, I i, const mc_site& site) {
    if constexpr (is_checked_ptr_t<P>::value) {
        using T = typename pointee_of<P>::type;
        if constexpr (__is_same(P, checked_ptr<T, pointee_of<P>::space>) && !array_traits<T>::is_array)
            if (inside) return *(p.address() + static_cast<long long>(i));
    }
    if constexpr (Op == MC_OP_LOAD) return load(p, i, site);
    else if constexpr (Op == MC_OP_STORE) return store(p, i, site);
    else return update(p, i, site);
}
template <class P, class I>
__attribute__((always_inline)) inline decltype(auto) load_in(bool inside, const P& p, I i, const mc_site& site) {
    return access_in_range<MC_OP_LOAD>(inside, p, i, site);
}
template <class P, class I>
__attribute__((always_inline)) inline decltype(auto) store_in(bool inside, const P& p, I i, const mc_site& site) {
    return access_in_range<MC_OP_STORE>(inside, p, i, site);
}
template <class P, class I>
__attribute__((always_inline)) inline decltype(auto) update_in(bool inside, const P& p, I i, const mc_site& site) {
    return access_in_range<MC_OP_LOAD | MC_OP_STORE>(inside, p, i, site);
}

/// The member `select` names in element `index` of checked pointer (or checked array) `p`: its
/// byte offset in the element, or none when it does not lie in the element (a static data
/// member, which is not in the buffer).
template <class P, class Select>
struct member_place {
    using element = typename pointee_of<remove_cvref<P>>::type;
    using type = typename remove_reference<decltype(::metal::declval<Select&>()(::metal::declval<element&>()))>::type;
    static constexpr int space = pointee_of<remove_cvref<P>>::space;

    mc_u64 bits;   ///< the element's: p's bits moved to it
    type* address; ///< the member's, untagged
    bool own;      ///< the member lies inside the element

    __attribute__((always_inline)) member_place(const P& p, long long index, Select& select)
        : bits(p.bits + static_cast<mc_u64>(index) * sizeof(element)) {
        // Names the element and its member; reads nothing (the offset is a constant).
        element& e = *reinterpret_cast<element*>(bits & kAddressMask);
        address = __builtin_addressof(select(e));
        const mc_u64 offset = reinterpret_cast<mc_u64>(address) - reinterpret_cast<mc_u64>(&e);
        own = offset <= sizeof(element) && sizeof(type) <= sizeof(element) - offset;
    }
    mc_u64 offset() const { return reinterpret_cast<mc_u64>(address) - (bits & kAddressMask); }
};

/// Reads the member (an array: none of it), as described above. Where `ArraysAsArrays`, an array
/// member stays the array, untagged, so that it binds to a reference to an array (a whole
/// argument of a call); a pointer it decays to is then looked up by address at each access.
template <bool ArraysAsArrays = false, class P, class I, class Select>
    requires checked_pointer<P>
__attribute__((always_inline)) inline decltype(auto) checked_member(const P& p, I index, Select select, mc_u32 op,
                                                                    const mc_site& site) {
    const member_place<P, Select> place(p, static_cast<long long>(index), select);
    using M = typename member_place<P, Select>::type;
    constexpr int S = member_place<P, Select>::space;
    if constexpr (array_traits<M>::is_array && ArraysAsArrays) {
        return *place.address;
    } else if constexpr (array_traits<M>::is_array) {
        using E = typename array_traits<M>::element;
        E* data = reinterpret_cast<E*>(place.address);
        if (!place.own) return checked_array<M, S>::at(0, data, false); // untagged: looked up by address
        const bool inside = inside_region<M>(place.bits, place.offset());
        return checked_array<M, S>::at(place.bits & ~kAddressMask, data, inside);
    } else {
        if (!place.own) return *place.address;
        M& member = checked_object<M>(place.bits, place.offset(), op | space_op(S), site);
        return watch_access<S>(place.bits, member, op, site);
    }
}
template <class P, class I, class Select>
    requires checked_pointer<P>
__attribute__((always_inline)) inline auto member_address(const P& p, I index, Select select) {
    const member_place<P, Select> place(p, static_cast<long long>(index), select);
    using Pointer = checked_ptr<typename member_place<P, Select>::type, member_place<P, Select>::space>;
    if (!place.own) return Pointer::from_bits(reinterpret_cast<mc_u64>(place.address));
    return Pointer::from_bits(place.bits + place.offset());
}

/// Members of what is not a checked pointer: a named array's element is checked by index, as
/// load() checks it; anything else is the plain member access (of a copy, where the element
/// is a temporary, so that no reference to it outlives it).
template <bool ArraysAsArrays = false, class X, class I, class Select>
    requires(!checked_pointer<X> && !array_lvalue<X &&>)
__attribute__((always_inline)) constexpr decltype(auto) checked_member(X&& x, I&& index, Select select, mc_u32,
                                                                       const mc_site&) {
    using Element = decltype(static_cast<X&&>(x)[static_cast<I&&>(index)]);
    if constexpr (!__is_same(Element, typename remove_reference<Element>::type)) {
        return select(static_cast<X&&>(x)[static_cast<I&&>(index)]);
    } else {
        auto element = static_cast<X&&>(x)[static_cast<I&&>(index)];
        return remove_cvref<decltype(select(element))>(select(element));
    }
}
template <bool ArraysAsArrays = false, class E, decltype(sizeof 0) N, class I, class Select>
__attribute__((always_inline)) constexpr decltype(auto) checked_member(E (&x)[N], I index, Select select, mc_u32 op,
                                                                       const mc_site& site) {
    return select(checked_array_element(x, static_cast<long long>(index), op, site));
}
template <class X, class I, class Select>
__attribute__((always_inline)) constexpr decltype(auto) load_member(X&& x, I&& index, Select select, const mc_site& site) {
    return checked_member(static_cast<X&&>(x), static_cast<I&&>(index), select, MC_OP_LOAD, site);
}
template <class X, class I, class Select>
__attribute__((always_inline)) constexpr decltype(auto) argument_member(X&& x, I&& index, Select select,
                                                                        const mc_site& site) {
    return checked_member<true>(static_cast<X&&>(x), static_cast<I&&>(index), select, MC_OP_LOAD, site);
}
template <class X, class I, class Select>
__attribute__((always_inline)) constexpr decltype(auto) store_member(X&& x, I&& index, Select select, const mc_site& site) {
    return checked_member(static_cast<X&&>(x), static_cast<I&&>(index), select, MC_OP_STORE, site);
}
template <class X, class I, class Select>
__attribute__((always_inline)) constexpr decltype(auto) update_member(X&& x, I&& index, Select select,
                                                                      const mc_site& site) {
    return checked_member(static_cast<X&&>(x), static_cast<I&&>(index), select, MC_OP_LOAD | MC_OP_STORE, site);
}
// `x[i].v[j]`, a member subscripted where it is named: a vector member becomes a checked array
// of its elements, tagged as x, which reads nothing, so the subscript checks element j's own
// bytes (the last element's v.x near a buffer's end is in bounds though v is not), as an array
// member does; a pointer member is read (the subscript reaches what it points to); any other
// member (a matrix, a packed vector, a class with operator[]) is checked whole, as by
// load_member() and its kin, and subscripted as it is.
template <mc_u32 Op, class P, class I, class Select>
    requires checked_pointer<P>
__attribute__((always_inline)) inline decltype(auto) member_elements(const P& p, I index, Select select,
                                                                     const mc_site& site) {
    using M = typename member_place<P, Select>::type;
    if constexpr (::metal::is_vector_v<remove_cvref<M>>) {
        const member_place<P, Select> place(p, static_cast<long long>(index), select);
        constexpr int S = member_place<P, Select>::space;
        using E = typename remove_reference<decltype(place.address->elems[0])>::type;
        using A = E[sizeof(place.address->elems) / sizeof(E)];
        E* data = &place.address->elems[0];
        if (!place.own) return checked_array<A, S>::at(0, data, false); // untagged: looked up by address
        return checked_array<A, S>::at(place.bits & ~kAddressMask, data, inside_region<A>(place.bits, place.offset()));
    } else if constexpr (is_checked_ptr_t<remove_cvref<M>>::value) {
        // `list[i].target[j] = v`: the subscript goes through the pointer, which is only read.
        return checked_member(p, index, select, MC_OP_LOAD, site);
    } else {
        return checked_member(p, index, select, Op, site);
    }
}
template <mc_u32 Op, class X, class I, class Select>
    requires(!checked_pointer<X>)
__attribute__((always_inline)) constexpr decltype(auto) member_elements(X&& x, I&& index, Select select,
                                                                        const mc_site& site) {
    return checked_member(static_cast<X&&>(x), static_cast<I&&>(index), select, Op, site);
}
template <class X, class I, class Select>
__attribute__((always_inline)) constexpr decltype(auto) load_member_elements(X&& x, I&& index, Select select,
                                                                             const mc_site& site) {
    return member_elements<MC_OP_LOAD>(static_cast<X&&>(x), static_cast<I&&>(index), select, site);
}
template <class X, class I, class Select>
__attribute__((always_inline)) constexpr decltype(auto) store_member_elements(X&& x, I&& index, Select select,
                                                                              const mc_site& site) {
    return member_elements<MC_OP_STORE>(static_cast<X&&>(x), static_cast<I&&>(index), select, site);
}
template <class X, class I, class Select>
__attribute__((always_inline)) constexpr decltype(auto) update_member_elements(X&& x, I&& index, Select select,
                                                                               const mc_site& site) {
    return member_elements<MC_OP_LOAD | MC_OP_STORE>(static_cast<X&&>(x), static_cast<I&&>(index), select, site);
}
template <class X, class I, class Select>
    requires(!checked_pointer<X>)
__attribute__((always_inline)) constexpr auto member_address(X&& x, I&& index, Select select) {
    return __builtin_addressof(select(static_cast<X&&>(x)[static_cast<I&&>(index)]));
}

// ---- Member function calls -------------------------------------------------------------
// `x[i].f(...)` becomes member_call(x, i, site)->f(...) and `p->f(...)` member_call(p, 0,
// site)->f(...). f reaches the element's members through `this`, a plain pointer, so what it
// reads cannot be checked member by member; a GPU reports only the members f touches. So the
// element is checked whole only for the common case: when all of it lies inside the pointer's
// region, f runs on it. When none of it does, every member f could read is out of bounds: the
// call is reported as a load of the element (at the call) and runs on zero-filled scratch, as
// before. When only a part of it does (the last element of a buffer that ends inside it), no
// report is made (f may read only members inside), and f runs on a copy whose bytes inside the
// region are the element's and the rest zero, so a read beyond the end gives zero; when the
// call ends, the copy's bytes inside the region are written back (a store beyond the end is
// dropped; only the bytes the call changed are written, so a call that only reads writes
// nothing). Missed there: a report of a member f reads or writes beyond the end.

/// What a member function is called on: the element, or a copy of its part inside the region
/// (kept until the end of the full expression, as the temporary this is).
template <class T>
class call_object {
public:
    __attribute__((always_inline)) explicit call_object(T* object) : object_(object) {}
    /// A copy of the element whose bytes [skip, skip + count) are `count` bytes at `home`.
    call_object(unsigned char* home, mc_u64 skip, mc_u64 count) : object_(reinterpret_cast<T*>(copy_)), home_(home),
                                                                  skip_(skip), count_(count) {
        __builtin_memset(copy_, 0, sizeof(T));
        __builtin_memcpy(copy_ + skip, home, count);
        __builtin_memcpy(before_, copy_, sizeof(T));
    }
    call_object(const call_object&) = delete;
    call_object& operator=(const call_object&) = delete;
    __attribute__((always_inline)) ~call_object() {
        if constexpr (!is_const_t<T>::value)
            if (__builtin_expect(home_ != nullptr, 0)) write_back();
    }
    __attribute__((always_inline)) T* operator->() const { return object_; }

private:
    /// Writes back the bytes inside the region that the call changed, and only those: a call
    /// that reads must not write back what another thread stored there meanwhile.
    [[gnu::cold, gnu::noinline]] void write_back() {
        for (mc_u64 b = 0; b < count_; ++b)
            if (copy_[skip_ + b] != before_[skip_ + b]) home_[b] = copy_[skip_ + b];
    }

    T* object_;
    unsigned char* home_ = nullptr;
    mc_u64 skip_ = 0, count_ = 0;
    alignas(T) unsigned char copy_[sizeof(T)];
    unsigned char before_[sizeof(T)];
};

/// The cold half of member_call(): the element at `bits` is not all inside its region.
template <class T, int S>
[[gnu::cold, gnu::noinline]] call_object<T> member_call_outside(checked_ptr<T, S> p, long long index,
                                                                const mc_site& site) {
    const mc_u64 bits = p.bits + static_cast<mc_u64>(index) * sizeof(T);
    const mc_region& region = g_regions[bits >> METALCPU_REGION_TAG_SHIFT];
    // The element's bytes as offsets into the region, signed: [first, first + sizeof(T)).
    const long long first = static_cast<long long>((bits & kAddressMask) - region.begin);
    const long long length = static_cast<long long>(region.length);
    const long long begin = first > 0 ? first : 0;
    const long long end = first + static_cast<long long>(sizeof(T)) < length ? first + static_cast<long long>(sizeof(T))
                                                                           : length;
    if (begin < end && (bits >> METALCPU_REGION_TAG_SHIFT) != 0)
        return call_object<T>(reinterpret_cast<unsigned char*>(region.begin + begin), static_cast<mc_u64>(begin - first),
                              static_cast<mc_u64>(end - begin));
    return call_object<T>(&checked_element(p, index, MC_OP_LOAD, site)); // reports, or looks an untagged one up
}
template <class T, int S>
__attribute__((always_inline)) inline call_object<T> member_call_checked(checked_ptr<T, S> p, long long index,
                                                                      const mc_site& site) {
    const mc_u64 bits = p.bits + static_cast<mc_u64>(index) * sizeof(T);
    const mc_region& region = g_regions[bits >> METALCPU_REGION_TAG_SHIFT];
    const mc_u64 into = (bits & kAddressMask) - region.begin;
    if (__builtin_expect((into < region.length - (sizeof(T) - 1)) & (region.length >= sizeof(T)), 1)) {
        T& object = *reinterpret_cast<T*>(region.begin + into);
        return call_object<T>(&watch_access<S>(p.bits, object, MC_OP_LOAD, site));
    }
    return member_call_outside(p, index, site);
}
/// Of anything else a checked access takes (a named threadgroup array, a named array, a
/// vector), the element as load() gives it, checked by index where load() checks one.
template <class E>
struct held_object {
    E object;
    constexpr auto operator->() { return __builtin_addressof(object); }
};
template <class X, class I>
__attribute__((always_inline)) constexpr auto member_call(X&& x, I&& index, const mc_site& site) {
    using P = remove_cvref<X>;
    if constexpr (is_checked_ptr_t<P>::value) {
        if constexpr (__is_same(P, checked_ptr<typename pointee_of<P>::type, pointee_of<P>::space>) &&
                      !array_traits<typename pointee_of<P>::type>::is_array)
            return member_call_checked(P(x), static_cast<long long>(index), site);
        else
            return held_object<decltype(load(static_cast<X&&>(x), static_cast<I&&>(index), site))>{
                load(static_cast<X&&>(x), static_cast<I&&>(index), site)};
    } else {
        return held_object<decltype(load(static_cast<X&&>(x), static_cast<I&&>(index), site))>{
            load(static_cast<X&&>(x), static_cast<I&&>(index), site)};
    }
}

// ---- Subscripts of a dereferenced pointer to an array -----------------------------------
// `(*p)[i]` and `&(*p)[i]`, where p points to a metal::array (Slang's `(*(&ctx)->tile)[i]`
// and `&((*((&ctx)->sa_0)))[0] + n`): the dereference becomes elements_of(p, site), a checked
// array of the array's elements tagged as p, which reads nothing, so the subscript checks
// element i's own bytes against p's region and `&` keeps the tag (a reference to the
// metal::array would leave only its operator[], unchecked, and an untagged address). Any other
// pointee is the dereference as before.

template <class A> struct metal_array_traits {
    static constexpr bool is_array = false;
};
template <class T, decltype(sizeof 0) N> struct metal_array_traits<::metal::array<T, N>> {
    static constexpr bool is_array = true;
    using element = T;
    static constexpr decltype(sizeof 0) extent = N ? N : 1;
};
template <class T, decltype(sizeof 0) N> struct metal_array_traits<const ::metal::array<T, N>> {
    static constexpr bool is_array = true;
    using element = const T;
    static constexpr decltype(sizeof 0) extent = N ? N : 1;
};
template <class P>
__attribute__((always_inline)) inline decltype(auto) elements_of(P&& p, const mc_site& site) {
    using X = remove_cvref<P>;
    if constexpr (is_checked_ptr_t<X>::value) {
        using A = typename pointee_of<X>::type;
        constexpr int S = pointee_of<X>::space;
        if constexpr (__is_same(X, checked_ptr<A, S>) && metal_array_traits<A>::is_array) {
            using E = typename metal_array_traits<A>::element;
            using Elements = E[metal_array_traits<A>::extent];
            const mc_u64 bits = p.bits;
            return checked_array<Elements, S>::at(bits & ~kAddressMask, reinterpret_cast<E*>(bits & kAddressMask),
                                                  inside_region<A>(bits, 0));
        } else {
            return load(static_cast<P&&>(p), 0, site);
        }
    } else {
        return load(static_cast<P&&>(p), 0, site);
    }
}

/// `reinterpret_cast<device T*>(p)` and friends, when the target is a checked pointer.
template <class To, class From>
__attribute__((always_inline)) inline To pointer_cast(From&& from) {
    if constexpr (checked_pointer<From>)
        return To(from);
    else if constexpr (array_traits<remove_cvref<From>>::is_array) // decays: an untagged address
        return To(reinterpret_cast<unsigned long long>(&from[0]));
    else if constexpr (is_pointer<remove_cvref<From>>::value)
        return To(reinterpret_cast<unsigned long long>(from));
    else
        return To(static_cast<unsigned long long>(from));
}

/// `reinterpret_cast<X>(v)` where X is not written as a pointer or reference type (PyTorch's
/// `reinterpret_cast<ulong>(data)` in c10/metal/atomic.h): the translator cannot tell whether
/// v is a checked pointer, so it calls this. A checked pointer (or named threadgroup array)
/// made into an integer gives its address without the tag, as Metal gives the address; a
/// checked pointer type named through an alias or template parameter is a pointer_cast;
/// anything else is the reinterpret_cast as written.
template <class To, class From>
__attribute__((always_inline)) inline To reinterpret_value(From from) {
    if constexpr (checked_pointer<To>) {
        return pointer_cast<To>(from);
    } else if constexpr (checked_pointer<From>) {
        static_assert(::metal::is_integral<To>::value && sizeof(To) == sizeof(mc_u64),
                      "a device, constant or threadgroup pointer converts only to a pointer or a 64-bit integer");
        return static_cast<To>(from.bits & kAddressMask);
    } else {
        return reinterpret_cast<To>(from);
    }
}

// ---- Arguments and threadgroup memory ---------------------------------------------------

/// A [[buffer(n)]] argument of a validated kernel. Pointers get the binding's tag; a
/// reference or a value is checked once, as a load of the whole object, when the group starts.
/// An argument a function constant removes (`present` false: `[[function_constant(c)]]` with c
/// false) is not there to load, as in Metal: it is a zeroed object, and nothing is checked; a
/// pointer points at zeros (absent_argument, as in the plain flavour) through a region that
/// holds every address (METALCPU_ABSENT_REGION_TAG).
template <class P>
__attribute__((always_inline)) inline P checked_buffer_argument(const mc_group* group, unsigned index,
                                                                const mc_site& site, bool present = true) {
    using R = typename remove_reference<P>::type;
    if constexpr (checked_pointer<P>) {
        if (!present) {
            using E = typename remove_cv_t<typename remove_pointer<R>::type>::type;
            return R::from_bits((mc_u64(METALCPU_ABSENT_REGION_TAG) << METALCPU_REGION_TAG_SHIFT) |
                                reinterpret_cast<mc_u64>(absent_argument<E>));
        }
        // The argument's region, loaded here where every thread passes: a check against it in
        // a loop (access_near(): a pointer the kernel moved from this one) reuses these loads.
        // Made in a block some threads skip (an interleaved lane's piece), they could not be
        // hoisted (a load there might fault) and were repeated for every thread.
        const mc_u64 bits = group->dispatch->checked_buffers[index];
        const mc_region& region = g_regions[bits >> METALCPU_REGION_TAG_SHIFT];
        __asm__ volatile("" : : "r"(region.begin), "r"(region.length));
        return R::from_bits(bits);
    } else {
        using T = typename remove_cv_t<R>::type;
        if (!present) {
            alignas(T) static const unsigned char absent[sizeof(T)] = {};
            return const_cast<R&>(*reinterpret_cast<const T*>(absent));
        }
        auto p = checked_ptr<const T, MC_ADDRESS_SPACE_DEVICE>::from_bits(group->dispatch->checked_buffers[index]);
        if constexpr (is_reference<P>::value)
            return const_cast<R&>(checked_element(p, 0, MC_OP_LOAD, site));
        else
            return checked_element(p, 0, MC_OP_LOAD, site);
    }
}

/// A [[threadgroup(n)]] argument of a validated kernel. A reference (`threadgroup T&`, naga's
/// workgroup variables) is checked as a buffer reference is, once as a load of the whole
/// object: a setThreadgroupMemoryLength shorter than T is reported there, and the kernel gets
/// zeroed scratch instead of the memory of the next argument.
template <class P>
__attribute__((always_inline)) inline P checked_threadgroup_argument(const mc_group* group, unsigned index,
                                                                     const mc_site& site) {
    const mc_u64 bits = g_services->checked_threadgroup_argument(group, index);
    if constexpr (checked_pointer<P>) {
        return remove_cvref<P>::from_bits(bits);
    } else {
        using R = typename remove_reference<P>::type;
        return const_cast<R&>(checked_object<typename remove_cv_t<R>::type>(bits, 0, MC_OP_LOAD, site));
    }
}

/// A `threadgroup` variable in a validated kernel: arrays become checked arrays, checked
/// pointers to their first element checked by index (an index out of range is checked
/// against the whole array: `tile[0][20]` of a 16×16 tile passes, as on a GPU), anything else
/// is the object itself, as in the plain flavour.
template <class T, mc_u64 Key, mc_u64 Owner = 0, bool Live = true, mc_u64 Align = 0>
__attribute__((always_inline)) inline decltype(auto) threadgroup_object(const mc_group* group) {
    if constexpr (array_traits<T>::is_array) {
        register_threadgroup_site<T, Key, Owner, Live, Align>();
        if (!group) group = g_services->current_group();
        mc_group* cached = const_cast<mc_group*>(group);
        constexpr unsigned slot = static_cast<unsigned>(Key % METALCPU_THREADGROUP_SITE_CACHE);
        mc_u64 bits;
        if (cached->threadgroup_site_keys[slot] == Key) {
            bits = reinterpret_cast<mc_u64>(cached->threadgroup_site_addresses[slot]);
        } else {
            bits = g_services->checked_threadgroup_variable(group, Key, sizeof(T), threadgroup_alignment<T, Align>);
            cached->threadgroup_site_keys[slot] = Key;
            cached->threadgroup_site_addresses[slot] = reinterpret_cast<void*>(bits);
        }
        using element = typename array_traits<T>::element;
        return checked_array<T, MC_ADDRESS_SPACE_THREADGROUP>::at(bits & ~kAddressMask,
                                                                  reinterpret_cast<element*>(bits & kAddressMask), true);
    } else {
        return threadgroup_variable<T, Key, Owner, Live, Align>(group);
    }
}

} // namespace metalcpu_kernel

// ---- Atomics through checked pointers ----------------------------------------------------
// An atomic is an access: a load for atomic_load, a store for everything that writes; marked
// MC_OP_ATOMIC for the threadgroup watch, for which two atomics never race.

namespace metal {

// The caller's file and line, as default arguments (GCC 12 has no __builtin_COLUMN).
#define METALCPU_CHECKED_SITE const char *file = __builtin_FILE(), unsigned line = __builtin_LINE()
#define METALCPU_SITE_ARGUMENT ::mc_site{file, "", line, 0u}

template <class A, int S>
__attribute__((always_inline)) inline auto atomic_load_explicit(::metalcpu_kernel::checked_ptr<A, S> object,
                                                                memory_order order, METALCPU_CHECKED_SITE) {
    return atomic_load_explicit(&::metalcpu_kernel::checked_element(object, 0, MC_OP_LOAD | MC_OP_ATOMIC, METALCPU_SITE_ARGUMENT), order);
}
template <class A, int S, class V>
__attribute__((always_inline)) inline void atomic_store_explicit(::metalcpu_kernel::checked_ptr<A, S> object,
                                                                 V desired, memory_order order, METALCPU_CHECKED_SITE) {
    atomic_store_explicit(&::metalcpu_kernel::checked_element(object, 0, MC_OP_STORE | MC_OP_ATOMIC, METALCPU_SITE_ARGUMENT), desired, order);
}

#define METALCPU_CHECKED_ATOMIC_UPDATE(name)                                                                 \
    template <class A, int S, class V>                                                                       \
    __attribute__((always_inline)) inline auto name(::metalcpu_kernel::checked_ptr<A, S> object, V operand,   \
                                                    memory_order order, METALCPU_CHECKED_SITE) {             \
        return name(&::metalcpu_kernel::checked_element(object, 0, MC_OP_STORE | MC_OP_ATOMIC, METALCPU_SITE_ARGUMENT), operand, order); \
    }
METALCPU_CHECKED_ATOMIC_UPDATE(atomic_exchange_explicit)
METALCPU_CHECKED_ATOMIC_UPDATE(atomic_fetch_add_explicit)
METALCPU_CHECKED_ATOMIC_UPDATE(atomic_fetch_sub_explicit)
METALCPU_CHECKED_ATOMIC_UPDATE(atomic_fetch_and_explicit)
METALCPU_CHECKED_ATOMIC_UPDATE(atomic_fetch_or_explicit)
METALCPU_CHECKED_ATOMIC_UPDATE(atomic_fetch_xor_explicit)
METALCPU_CHECKED_ATOMIC_UPDATE(atomic_fetch_min_explicit)
METALCPU_CHECKED_ATOMIC_UPDATE(atomic_fetch_max_explicit)
METALCPU_CHECKED_ATOMIC_UPDATE(atomic_min_explicit)
METALCPU_CHECKED_ATOMIC_UPDATE(atomic_max_explicit)
#undef METALCPU_CHECKED_ATOMIC_UPDATE

#define METALCPU_CHECKED_ATOMIC_CAS(name)                                                                    \
    template <class A, int S, class E, class V>                                                              \
    __attribute__((always_inline)) inline bool name(::metalcpu_kernel::checked_ptr<A, S> object, E expected, \
                                                    V desired, memory_order success, memory_order failure,   \
                                                    METALCPU_CHECKED_SITE) {                                 \
        return name(&::metalcpu_kernel::checked_element(object, 0, MC_OP_STORE | MC_OP_ATOMIC, METALCPU_SITE_ARGUMENT), expected, desired, \
                    success, failure);                                                                       \
    }
METALCPU_CHECKED_ATOMIC_CAS(atomic_compare_exchange_weak_explicit)
METALCPU_CHECKED_ATOMIC_CAS(atomic_compare_exchange_strong_explicit)
#undef METALCPU_CHECKED_ATOMIC_CAS
#undef METALCPU_CHECKED_SITE
#undef METALCPU_SITE_ARGUMENT

// The same, with the call's site first: the translator passes `::__mc_sites[n]` to every
// atomic function and simdgroup_load/simdgroup_store a validated kernel calls by name
// (compiler/passes/checked_accesses.h), so that their reports carry the call's line and column
// and the function it is in, as other accesses' do. Pointers that are not checked (a
// threadgroup scalar's address) take the plain functions.
#define METALCPU_SITED_ATOMIC(name, op)                                                                        \
    template <class A, int S, class... Rest>                                                                   \
    __attribute__((always_inline)) inline decltype(auto) name(const ::mc_site& site,                            \
                                                              ::metalcpu_kernel::checked_ptr<A, S> object,     \
                                                              Rest... rest) {                                  \
        return name(&::metalcpu_kernel::checked_element(object, 0, op, site), rest...);                         \
    }                                                                                                          \
    template <class A, class... Rest>                                                                          \
    __attribute__((always_inline)) inline decltype(auto) name(const ::mc_site&, A* object, Rest... rest) {      \
        return name(object, rest...);                                                                          \
    }
METALCPU_SITED_ATOMIC(atomic_load_explicit, MC_OP_LOAD | MC_OP_ATOMIC)
METALCPU_SITED_ATOMIC(atomic_store_explicit, MC_OP_STORE | MC_OP_ATOMIC)
METALCPU_SITED_ATOMIC(atomic_exchange_explicit, MC_OP_STORE | MC_OP_ATOMIC)
METALCPU_SITED_ATOMIC(atomic_fetch_add_explicit, MC_OP_STORE | MC_OP_ATOMIC)
METALCPU_SITED_ATOMIC(atomic_fetch_sub_explicit, MC_OP_STORE | MC_OP_ATOMIC)
METALCPU_SITED_ATOMIC(atomic_fetch_and_explicit, MC_OP_STORE | MC_OP_ATOMIC)
METALCPU_SITED_ATOMIC(atomic_fetch_or_explicit, MC_OP_STORE | MC_OP_ATOMIC)
METALCPU_SITED_ATOMIC(atomic_fetch_xor_explicit, MC_OP_STORE | MC_OP_ATOMIC)
METALCPU_SITED_ATOMIC(atomic_fetch_min_explicit, MC_OP_STORE | MC_OP_ATOMIC)
METALCPU_SITED_ATOMIC(atomic_fetch_max_explicit, MC_OP_STORE | MC_OP_ATOMIC)
METALCPU_SITED_ATOMIC(atomic_min_explicit, MC_OP_STORE | MC_OP_ATOMIC)
METALCPU_SITED_ATOMIC(atomic_max_explicit, MC_OP_STORE | MC_OP_ATOMIC)
METALCPU_SITED_ATOMIC(atomic_compare_exchange_weak_explicit, MC_OP_STORE | MC_OP_ATOMIC)
METALCPU_SITED_ATOMIC(atomic_compare_exchange_strong_explicit, MC_OP_STORE | MC_OP_ATOMIC)
#undef METALCPU_SITED_ATOMIC

template <class T, int Cols, int Rows, class P>
METALCPU_INLINE void simdgroup_load(const ::mc_site& site, simdgroup_matrix<T, Cols, Rows>& d, P src,
                                    ulong elements_per_row = Cols, ulong2 matrix_origin = 0,
                                    bool transpose_matrix = false, metalcpu_kernel::simd_site where = {}) {
    static_assert(__is_same(pointee_t<P>, T), "simdgroup_load: the source's element type must be the matrix's");
    metalcpu_stdlib::simd_matrix::load_block(
        &d, [&](long i) -> decltype(auto) { return ::metalcpu_kernel::load(src, i, site); }, elements_per_row,
        matrix_origin, transpose_matrix, where);
}
template <class T, int Cols, int Rows, class P>
METALCPU_INLINE void simdgroup_store(const ::mc_site& site, const simdgroup_matrix<T, Cols, Rows>& a, P dst,
                                     ulong elements_per_row = Cols, ulong2 matrix_origin = 0,
                                     bool transpose_matrix = false, metalcpu_kernel::simd_site where = {}) {
    static_assert(__is_same(pointee_t<P>, T), "simdgroup_store: the destination's element type must be the matrix's");
    metalcpu_stdlib::simd_matrix::store_block(
        a, [&](long i) -> decltype(auto) { return ::metalcpu_kernel::store(dst, i, site); }, elements_per_row,
        matrix_origin, transpose_matrix, where);
}

} // namespace metal
