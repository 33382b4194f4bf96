// Barrier kernels as work-item loops: the front end splits a kernel at its barriers (see
// src/compiler/passes/work_item_loops.h) and runs each piece as a loop over the group's
// threads. This is what that code calls: the per-thread slots of variables that live across
// a barrier, and the loop itself.
#pragma once

#include <metalcpu/kernel_abi.h>
#include <metalcpu/kernel_services.h>
// remove_cv_t and thread_ids come from kernel_support.h, which includes this file last.

namespace metalcpu_kernel {

/// Selects the placement form of operator new below (kernels have no <new>).
struct work_item_slot_tag {};

} // namespace metalcpu_kernel

inline void* operator new(decltype(sizeof 0), metalcpu_kernel::work_item_slot_tag, void* where) noexcept {
    return where;
}

namespace metalcpu_kernel {

/// The threads of one group, run a piece at a time. With `TracksReturns`, a thread that
/// returns drops out of the pieces after it, which is how returned threads count as arrived.
template <bool TracksReturns>
class work_items {
public:
    explicit work_items(const mc_group* group)
        : group_(group), count_(group->size[0] * group->size[1] * group->size[2]) {
        if constexpr (TracksReturns) {
            returned_ = static_cast<unsigned char*>(g_services->coroutine_frame(count_));
            for (mc_u32 i = 0; i < count_; ++i) returned_[i] = 0;
        }
    }

    /// Room for one T per thread, from the worker's per-group arena (freed when the next
    /// group starts). Each thread's object is made by place() where its declaration runs,
    /// so T needs no default constructor; MSL types need no destructor.
    template <class T>
    typename remove_cv_t<T>::type* slots() const {
        using U = typename remove_cv_t<T>::type;
        return static_cast<U*>(g_services->coroutine_frame(sizeof(U) * count_));
    }

    /// The thread whose slots the condition of a loop or if that runs once per group reads:
    /// the first that has not returned (the condition is the same for all threads, as Metal
    /// requires of control flow around a barrier).
    mc_u32 lead() const {
        if constexpr (TracksReturns) {
            for (mc_u32 i = 0; i < count_; ++i)
                if (!returned_[i]) return i;
        }
        return 0;
    }

    bool all_returned() const {
        if constexpr (TracksReturns) {
            for (mc_u32 i = 0; i < count_; ++i)
                if (!returned_[i]) return false;
            return true;
        }
        return false;
    }

    /// What a kernel's `return` becomes inside a piece.
    void retire(const thread_ids& t) const {
        if constexpr (TracksReturns) returned_[t.linear] = 1;
    }

    bool returned(mc_u32 linear) const {
        if constexpr (TracksReturns) return returned_[linear] != 0;
        return false;
    }

    const mc_group* group() const { return group_; }

private:
    const mc_group* group_;
    mc_u32 count_;
    unsigned char* returned_ = nullptr;
};

/// Copies a thread's variable into its slot: where its declaration has run, and at the end
/// of each piece that loaded it. Constructing over the old copy (MSL types need no
/// destructor) works for types that cannot be assigned, such as structs with const members.
template <class U, class V>
__attribute__((always_inline)) inline void place(U& slot, const V& value) {
    ::new (work_item_slot_tag{}, __builtin_addressof(slot)) U(value);
}

/// Runs one piece of a kernel for every thread of the group that has not returned, x
/// fastest, so that the host compiler can vectorise over neighbouring threads.
template <bool TracksReturns, class Piece>
__attribute__((always_inline)) inline void run_work_items(const work_items<TracksReturns>& threads, Piece&& piece) {
    const mc_group* group = threads.group();
    const mc_u32 sx = group->size[0], sy = group->size[1], sz = group->size[2];
    mc_u32 linear = 0;
    for (mc_u32 z = 0; z < sz; ++z)
        for (mc_u32 y = 0; y < sy; ++y)
            for (mc_u32 x = 0; x < sx; ++x, ++linear) {
                if (threads.returned(linear)) continue;
#ifdef METALCPU_VALIDATION
                const_cast<mc_group*>(group)->current_thread = static_cast<unsigned short>(linear); // reports
#endif
                piece(thread_ids{x, y, z, linear});
            }
}

} // namespace metalcpu_kernel
