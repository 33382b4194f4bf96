// metal::cooperative_tensor (<metal_cooperative_tensor>): a tile of a tensor operation whose
// elements are divided among the threads of the operation's scope; each thread's value holds
// its own slots. Which element a slot holds is the device's business (the layout kind of the
// dispatch, metalcpu/cooperative_layout.h): portable code asks get_multidimensional_index.
//
// The slots are sized for the largest layout of any kind, so a cooperative tensor is one type
// whatever the emulated device. It is trivially copyable (fiber stacks and coroutine frames
// copy it freely) and reads as zeros when new (llama.cpp accumulates into one unzeroed).
#pragma once

#include <metal_array>
#include <metalcpu/cooperative_layout.h>
#include <metalcpu/kernel_abi.h>
#include <metalcpu/kernel_services.h>
#include <metalcpu/stdlib/config.h>
#include <metalcpu/stdlib/tensor/call_site.h>
#include <metalcpu/stdlib/tensor/tensor.h>

namespace metalcpu_stdlib::tensor {

/// The Layout argument of a cooperative tensor: which operand of which tile, over how many
/// threads. (E0, E1) is the tile divided: for a reduction destination, the operation's
/// destination tile.
template <mc_u32 Role, mc_u32 E0, mc_u32 E1, mc_u32 Threads>
struct cooperative_layout {
    static constexpr mc_u32 role = Role, e0 = E0, e1 = E1, threads = Threads;
    static constexpr mc_u32 max_capacity = metalcpu_cooperative::max_capacity(Role, E0, E1, Threads);
};

template <bool Condition, class Then, class Else> struct pick { using type = Then; };
template <class Then, class Else> struct pick<false, Then, Else> { using type = Else; };

template <class T> struct is_cooperative { static constexpr bool value = false; };
template <class T> struct is_cooperative<const T> : is_cooperative<T> {};
template <class T> struct is_cooperative<T&> : is_cooperative<T> {};

/// The calling thread's index in its scope of `threads` consecutive threads, and the layout
/// kind of the dispatch (apple10 outside a dispatch: hosted tests).
struct scope_position {
    mc_u32 thread;
    mc_u32 kind;
    mc_u64 seed;
};
METALCPU_INLINE scope_position current_scope_position(mc_u32 threads) {
    const mc_group* group = metalcpu_kernel::g_services ? metalcpu_kernel::g_services->current_group() : nullptr;
    if (!group) return {0, MC_COOPERATIVE_LAYOUT_APPLE10, 1};
    const mc_u32 kind = group->dispatch->cooperative_layout ? group->dispatch->cooperative_layout
                                                             : mc_u32(MC_COOPERATIVE_LAYOUT_APPLE10);
    return {mc_u32(group->current_thread) % threads, kind, group->dispatch->cooperative_seed};
}

} // namespace metalcpu_stdlib::tensor

namespace metal {

template <class ElementType, class Extents, class Layout>
struct cooperative_tensor {
    static_assert(Extents::rank() == 2, "metal::cooperative_tensor: tiles of rank 2 only");
    using element_type = ElementType;
    using value_type = ElementType;
    using extents_type = Extents;
    using layout = Layout;
    using index_type = typename Extents::index_type;
    using thread_index_type = unsigned short;
    using multidimensional_index_type = array<index_type, 2>;
    static constexpr mc_u32 kSlots = Layout::max_capacity ? Layout::max_capacity : 1;

    template <bool Const>
    struct basic_iterator {
        using owner = typename metalcpu_stdlib::tensor::pick<Const, const cooperative_tensor*, cooperative_tensor*>::type;
        owner ct_;
        thread_index_type idx_;

        METALCPU_INLINE auto& operator*() const { return ct_->slots_[idx_]; }
        METALCPU_INLINE auto* operator->() const { return &ct_->slots_[idx_]; }
        /// As for a pointer; also what the validation flavour makes of `*it` (`it[0]`).
        METALCPU_INLINE auto& operator[](long long n) const { return ct_->slots_[idx_ + n]; }
        METALCPU_INLINE basic_iterator& operator++() {
            ++idx_;
            return *this;
        }
        METALCPU_INLINE basic_iterator operator++(int) {
            basic_iterator old = *this;
            ++idx_;
            return old;
        }
        friend bool operator==(basic_iterator a, basic_iterator b) { return a.ct_ == b.ct_ && a.idx_ == b.idx_; }
        friend bool operator!=(basic_iterator a, basic_iterator b) { return !(a == b); }
        METALCPU_INLINE multidimensional_index_type get_multidimensional_index() const {
            return ct_->get_multidimensional_index(idx_);
        }
        METALCPU_INLINE bool is_valid_element() const { return ct_->is_valid_element(idx_); }
        METALCPU_INLINE operator basic_iterator<true>() const
            requires(!Const)
        {
            return {ct_, idx_};
        }
    };
    using iterator = basic_iterator<false>;
    using const_iterator = basic_iterator<true>;

    /// Zeros, placed in the calling thread's scope under the dispatch's layout kind.
    METALCPU_INLINE cooperative_tensor() {
        const metalcpu_stdlib::tensor::scope_position at =
            metalcpu_stdlib::tensor::current_scope_position(Layout::threads);
        layout_ = metalcpu_cooperative::make_layout(at.kind, Layout::role, Layout::e0, Layout::e1, Layout::threads,
                                                    at.seed);
        thread_ = at.thread;
        for (mc_u32 i = 0; i < kSlots; ++i) slots_[i] = ElementType(0);
    }

    /// The calling thread's slots (some may be invalid: see is_valid_element).
    METALCPU_INLINE thread_index_type get_capacity() const { return thread_index_type(layout_.capacity); }
    METALCPU_INLINE bool is_valid_element(thread_index_type i) const {
        mc_u32 x = 0, y = 0;
        return metalcpu_cooperative::coordinate(layout_, thread_, i, &x, &y);
    }
    /// Apple's header example calls the validity test get_mask.
    METALCPU_INLINE bool get_mask(thread_index_type i) const { return is_valid_element(i); }

    /// Unchecked, as in Metal (the storage covers every layout, so i < max capacity is safe).
    METALCPU_INLINE ElementType& operator[](thread_index_type i) { return slots_[i]; }
    METALCPU_INLINE const ElementType& operator[](thread_index_type i) const { return slots_[i]; }
    /// Checked: a slot past the capacity reads as 0 and is not written.
    METALCPU_INLINE ElementType get(thread_index_type i) const {
        return i < kSlots && i < layout_.capacity ? slots_[i] : ElementType(0);
    }
    METALCPU_INLINE void set(thread_index_type i, ElementType value) {
        if (i < kSlots && i < layout_.capacity) slots_[i] = value;
    }

    /// Slot i's element, tile-local: [0] = dim 0 (column), [1] = dim 1 (row). An invalid slot
    /// says (extent 0, extent 1), just outside the tile.
    METALCPU_INLINE multidimensional_index_type get_multidimensional_index(thread_index_type i) const {
        mc_u32 x = 0, y = 0;
        if (!metalcpu_cooperative::coordinate(layout_, thread_, i, &x, &y))
            return {index_type(Extents::static_extent(0)), index_type(Extents::static_extent(1))};
        return {index_type(x), index_type(y)};
    }
    METALCPU_INLINE multidimensional_index_type get_multidimensional_index(const_iterator it) const {
        return get_multidimensional_index(it.idx_);
    }
    METALCPU_INLINE multidimensional_index_type get_multidimensional_index(const ElementType* element) const {
        return get_multidimensional_index(thread_index_type(element - slots_));
    }

    METALCPU_INLINE iterator begin() { return {this, 0}; }
    METALCPU_INLINE iterator end() { return {this, get_capacity()}; }
    METALCPU_INLINE const_iterator begin() const { return {this, 0}; }
    METALCPU_INLINE const_iterator end() const { return {this, get_capacity()}; }
    METALCPU_INLINE iterator get_iterator(thread_index_type i) { return {this, i}; }
    METALCPU_INLINE const_iterator get_iterator(thread_index_type i) const { return {this, i}; }

    /// The slot of this tensor holding the element `it` designates in another cooperative
    /// tensor of the same operation (a destination, or a reduction of it); end() if this
    /// thread holds none.
    template <class OtherIterator>
    METALCPU_INLINE iterator map_iterator(OtherIterator it) {
        return {this, mapped(it.ct_->layout_, it.ct_->thread_, it.idx_)};
    }
    template <class OtherIterator>
    METALCPU_INLINE const_iterator map_iterator(OtherIterator it) const {
        return {this, mapped(it.ct_->layout_, it.ct_->thread_, it.idx_)};
    }

    /// Each valid slot whose element lies inside `source`'s extents reads it; the others
    /// become 0. The validated flavour checks each read, reported as a load at `site`.
    template <class E, class X, class D, class... Tags>
    METALCPU_INLINE void load(const tensor<E, X, D, Tags...>& source,
                              metalcpu_stdlib::tensor::call_site site = metalcpu_stdlib::tensor::call_site::here()) {
        static_assert(__is_same(typename metalcpu_stdlib::tensor::remove_const<E>::type, ElementType),
                      "cooperative_tensor::load: the tensor's element type must be the cooperative tensor's");
        for (mc_u32 i = 0; i < layout_.capacity; ++i) {
            long long at = 0;
            slots_[i] = element_offset(source, i, &at) ? read(source, at, site) : ElementType(0);
        }
    }

    /// Each valid slot whose element lies inside `destination`'s extents is written there. The
    /// validated flavour checks each write, reported as a store at `site`.
    template <class E, class X, class D, class... Tags>
    METALCPU_INLINE void store(const tensor<E, X, D, Tags...>& destination,
                               metalcpu_stdlib::tensor::call_site site = metalcpu_stdlib::tensor::call_site::here()) const {
        static_assert(__is_same(E, ElementType),
                      "cooperative_tensor::store: the tensor's element type must be the cooperative tensor's");
        for (mc_u32 i = 0; i < layout_.capacity; ++i) {
            long long at = 0;
            if (element_offset(destination, i, &at)) write(destination, at, slots_[i], site);
        }
    }

    // The representation, public for the operations (mpp::tensor_ops) and iterators.
    ElementType slots_[kSlots];
    mc_cooperative_layout layout_;
    mc_u32 thread_;

private:
    template <class Tensor>
    METALCPU_INLINE bool element_offset(const Tensor& t, mc_u32 slot, long long* at) const {
        mc_u32 x = 0, y = 0;
        if (!metalcpu_cooperative::coordinate(layout_, thread_, slot, &x, &y)) return false;
        if (Tensor::kRank < 2 && y != 0) return false;
        if ((long long)x >= (long long)t.get_extent(0)) return false;
        long long offset = (long long)x * t.get_stride(0);
        if constexpr (Tensor::kRank >= 2) {
            if ((long long)y >= (long long)t.get_extent(1)) return false;
            offset += (long long)y * t.get_stride(1);
        }
        *at = offset;
        return true;
    }
    template <class Tensor>
    static METALCPU_INLINE ElementType read(const Tensor& t, long long at,
                                            [[maybe_unused]] metalcpu_stdlib::tensor::call_site site) {
#ifdef METALCPU_VALIDATION
        if (t.checked_)
            return metalcpu_kernel::checked_element(
                metalcpu_kernel::checked_ptr<const ElementType, MC_ADDRESS_SPACE_DEVICE>::from_bits(t.checked_), at,
                MC_OP_LOAD, *site.site());
#endif
        return t.data_[at];
    }
    template <class Tensor>
    static METALCPU_INLINE void write(const Tensor& t, long long at, ElementType value,
                                      [[maybe_unused]] metalcpu_stdlib::tensor::call_site site) {
#ifdef METALCPU_VALIDATION
        if (t.checked_) {
            metalcpu_kernel::checked_element(
                metalcpu_kernel::checked_ptr<ElementType, MC_ADDRESS_SPACE_DEVICE>::from_bits(t.checked_), at,
                MC_OP_STORE, *site.site()) = value;
            return;
        }
#endif
        t.data_[at] = value;
    }
    METALCPU_INLINE thread_index_type mapped(const mc_cooperative_layout& other, mc_u32 other_thread,
                                              mc_u32 other_slot) const {
        mc_u32 ox = 0, oy = 0;
        if (!metalcpu_cooperative::coordinate(other, other_thread, other_slot, &ox, &oy)) return get_capacity();
        for (mc_u32 i = 0; i < layout_.capacity; ++i) {
            mc_u32 x = 0, y = 0;
            if (!metalcpu_cooperative::coordinate(layout_, thread_, i, &x, &y)) continue;
            const bool row_match = y == oy, column_match = x == ox;
            if (layout_.role == MC_COOPERATIVE_ROW_REDUCTION ? row_match
                : layout_.role == MC_COOPERATIVE_COLUMN_REDUCTION ? column_match
                                                                   : row_match && column_match)
                return thread_index_type(i);
        }
        return get_capacity();
    }
};

} // namespace metal

namespace metalcpu_stdlib::tensor {
template <class E, class X, class L> struct is_cooperative<metal::cooperative_tensor<E, X, L>> {
    static constexpr bool value = true;
};
} // namespace metalcpu_stdlib::tensor
