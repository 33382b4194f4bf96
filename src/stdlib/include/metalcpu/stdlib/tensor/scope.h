// How a tensor operation runs once per scope. Every thread of the scope calls it with its own
// cooperative operands; it hands in its record (its index in the scope and where its slots
// are), and one thread runs the whole operation through the runtime (tensor_matmul,
// cooperative_reduce) with every record, while the others wait. Three ways to get there:
//   - execution_thread: the caller alone, no rendezvous;
//   - on fibers (any kernel): services->scope_call, the last thread to arrive runs it;
//   - in a coroutine kernel: the front end makes the statement `co_await scope_run(...)`;
//     the thread suspends with its record in its promise, and run_coroutines runs the
//     operation once per scope between two passes (metalcpu/coroutines.h).
// Records name the operands' slots at MC_SCOPE_LEFT/RIGHT/DESTINATION (a reduction's
// source at MC_SCOPE_LEFT).
#pragma once

#include <metalcpu/kernel_abi.h>
#include <metalcpu/kernel_services.h>
#include <metalcpu/kernel_support.h>
#include <metalcpu/coroutines.h>
#include <metalcpu/stdlib/tensor/call_site.h>
#include <metalcpu/stdlib/tensor/cooperative.h>

namespace metalcpu_stdlib::tensor {

/// An operand of an operation as the runtime sees it; a cooperative one also gives its slots.
template <class Operand>
METALCPU_INLINE mc_tensor_operand operand_of(Operand& operand, void** slots) {
    using T = typename remove_const<Operand>::type;
    mc_tensor_operand o = {};
    o.data_type = data_type<typename T::element_type>::value;
    if constexpr (is_cooperative<T>::value) {
        o.kind = MC_OPERAND_COOPERATIVE;
        o.layout = operand.layout_;
        o.extents[0] = operand.layout_.e0;
        o.extents[1] = operand.layout_.e1;
        *slots = const_cast<void*>(static_cast<const void*>(operand.slots_));
    } else {
        static_assert(T::kRank == 2, "mpp::tensor_ops: tensor operands have rank 2");
        o.kind = MC_OPERAND_TENSOR;
        o.data = const_cast<void*>(static_cast<const void*>(operand.data_));
        o.checked = operand.checked_;
        for (int d = 0; d < 2; ++d) {
            o.extents[d] = operand.get_extent(d);
            o.strides[d] = operand.get_stride(d);
        }
        *slots = nullptr;
    }
    return o;
}

/// The calling thread's index in its scope: from a cooperative operand, else from the group.
template <class Operand>
METALCPU_INLINE void take_thread(const Operand& operand, mc_u32* thread, bool* known) {
    if constexpr (is_cooperative<Operand>::value) {
        if (!*known) *thread = operand.thread_;
        *known = true;
    }
}

inline void matmul_on_scope(void* context, const mc_scope_record* records, mc_u32 count) {
    mc_matmul_call* call = static_cast<mc_matmul_call*>(context);
    call->records = records;
    call->record_count = count;
    metalcpu_kernel::g_services->tensor_matmul(call);
}
inline void reduce_on_scope(void* context, const mc_scope_record* records, mc_u32 count) {
    mc_reduce_call* call = static_cast<mc_reduce_call*>(context);
    call->records = records;
    call->record_count = count;
    metalcpu_kernel::g_services->cooperative_reduce(call);
}

/// One operation's uniform arguments and the calling thread's part of it.
template <class Call>
struct scope_operation {
    Call call;
    metalcpu_kernel::pending_scope_op pending; ///< record, fn, simdgroups (and the call, once placed)
    call_site called_at;
};

/// The context (the call's address) and the call's site pointer are set only where the
/// operation stays put: when it runs, or while its coroutine is suspended (see place()).
template <class Call>
METALCPU_INLINE void prepare(scope_operation<Call>& op, mc_scope_fn fn, mc_u32 simdgroups, call_site site) {
    op.pending.fn = fn;
    op.pending.context = nullptr;
    op.pending.simdgroups = simdgroups;
    op.pending.record.scope_simdgroups = simdgroups; // the runtime checks the threadgroup holds the scope
    op.called_at = site;
}

/// Points the operation's context and site at where `op` now lives.
template <class Call>
METALCPU_INLINE void place(scope_operation<Call>& op) {
    op.pending.context = &op.call;
    op.call.site = op.called_at.site();
}

/// Runs an operation now: alone (simdgroups 0: execution_thread) or through the fiber
/// rendezvous of its scope.
template <class Call>
METALCPU_INLINE void execute(scope_operation<Call>& op) {
    place(op);
    if (op.pending.simdgroups == 0)
        op.pending.fn(op.pending.context, &op.pending.record, 1);
    else
        metalcpu_kernel::g_services->scope_call(op.pending.simdgroups, &op.pending.record, op.pending.fn,
                                                op.pending.context);
}

} // namespace metalcpu_stdlib::tensor

namespace metalcpu_kernel {

/// What `NAME.run(a, b, c);` and `reduce_rows(...);` become in a coroutine kernel: the
/// thread suspends with its record; run_coroutines runs the operation once per scope before
/// the next pass. An execution_thread operation runs at once without suspending.
template <class Call>
struct scope_awaitable {
    metalcpu_stdlib::tensor::scope_operation<Call> op;
    bool await_ready() {
        if (op.pending.simdgroups != 0) return false;
        metalcpu_stdlib::tensor::execute(op);
        return true;
    }
    void await_suspend(std::coroutine_handle<barrier_task::promise_type> thread) {
        metalcpu_stdlib::tensor::place(op); // this awaiter lives in the suspended frame
        thread.promise().pending = &op.pending;
    }
    void await_resume() const noexcept {}
};

} // namespace metalcpu_kernel
