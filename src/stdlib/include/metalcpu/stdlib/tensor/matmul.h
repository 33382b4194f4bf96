// mpp::tensor_ops (MetalPerformancePrimitives): matmul2d over tensors and cooperative
// tensors, and the row and column reductions of cooperative tensors. The arithmetic is the
// runtime's (tensor_matmul, cooperative_reduce): kernel code only describes the operands.
#pragma once

#include <metal_limits>
#include <metalcpu/stdlib/tensor/cooperative.h>
#include <metalcpu/stdlib/tensor/scope.h>
#include <metalcpu/stdlib/tensor/scopes.h>
#include <metalcpu/stdlib/tensor/tensor.h>

namespace mpp::tensor_ops {

/// The tile an operation computes: destination m rows by n columns, k dynamic unless given,
/// D = L x R (or D += L x R with multiply_accumulate).
struct matmul2d_descriptor {
    enum class mode { multiply, multiply_accumulate };

    int m, n, k;
    bool transpose_left, transpose_right;
    bool relaxed_precision;
    mode matmul_mode;

    constexpr matmul2d_descriptor(int m_, int n_, int k_ = static_cast<int>(metal::dynamic_extent),
                                  bool transpose_left_ = false, bool transpose_right_ = false,
                                  bool relaxed_precision_ = false, mode matmul_mode_ = mode::multiply)
        : m(m_), n(n_), k(k_), transpose_left(transpose_left_), transpose_right(transpose_right_),
          relaxed_precision(relaxed_precision_), matmul_mode(matmul_mode_) {}
};

/// A length read from the operands at run time (either spelling of a dynamic k works).
template <class T>
struct dynamic_length {
    static constexpr T value = metal::numeric_limits<T>::max();
};
template <class T>
inline constexpr T dynamic_length_v = dynamic_length<T>::value;

enum class reduction_operation { sum, max, min };

template <class ElementType>
struct reduction_operation_identity {
    static constexpr ElementType sum_identity = ElementType(0);
    static constexpr ElementType max_identity = metal::numeric_limits<ElementType>::lowest();
    static constexpr ElementType min_identity = metal::numeric_limits<ElementType>::max();
};

} // namespace mpp::tensor_ops

namespace metalcpu_stdlib::tensor {

/// The shapes (dim 0, dim 1) of an operation's operands: L is (k, m) or (m, k) transposed,
/// R is (n, k) or (k, n) transposed, D is (n, m).
template <mpp::tensor_ops::matmul2d_descriptor D>
struct matmul_shape {
    static constexpr bool dynamic_k = D.k <= 0 || D.k == mpp::tensor_ops::dynamic_length_v<int>;
    static constexpr mc_u32 k = dynamic_k ? 0 : mc_u32(D.k);
    static constexpr mc_u32 m = mc_u32(D.m), n = mc_u32(D.n);
    static constexpr mc_u32 left0 = D.transpose_left ? m : k, left1 = D.transpose_left ? k : m;
    static constexpr mc_u32 right0 = D.transpose_right ? k : n, right1 = D.transpose_right ? n : k;
};

template <class Scope> struct scope_size;
template <size_t N> struct scope_size<metal::execution_threads<N>> {
    static constexpr mc_u32 simdgroups = 0, threads = 1; // no rendezvous
};
template <size_t N> struct scope_size<metal::execution_simdgroups<N>> {
    static_assert(N != metal::metalcpu_execution::dynamic_size,
                  "mpp::tensor_ops::matmul2d: execution_dsimdgroups is not supported yet; use execution_simdgroups<N>");
    static constexpr mc_u32 simdgroups = mc_u32(N), threads = 32 * mc_u32(N);
};

template <class T>
inline constexpr bool is_operand = is_tensor<T>::value || is_cooperative<T>::value;

/// T in a non-deduced context: a reduction's identity converts to the element type (0.0f
/// for a half tensor) instead of conflicting with it.
template <class T> using same_t = typename remove_const<T>::type;

template <class T> struct element_of { using type = typename remove_const<typename T::element_type>::type; };

} // namespace metalcpu_stdlib::tensor

namespace mpp::tensor_ops {

template <matmul2d_descriptor Descriptor, class Scope, class... Args>
class matmul2d {
    static_assert(metal::is_execution_thread_v<Scope> || metal::is_execution_simdgroups_v<Scope>,
                  "mpp::tensor_ops::matmul2d: the scope must be execution_thread or execution_simdgroups<N>");
    static_assert(Descriptor.m > 0 && Descriptor.n > 0, "mpp::tensor_ops::matmul2d: m and n must be positive");
    using shape = metalcpu_stdlib::tensor::matmul_shape<Descriptor>;
    using size = metalcpu_stdlib::tensor::scope_size<Scope>;
    template <mc_u32 Role, mc_u32 E0, mc_u32 E1>
    using layout = metalcpu_stdlib::tensor::cooperative_layout<Role, E0, E1, size::threads>;

public:
    static constexpr matmul2d_descriptor descriptor = Descriptor;
    using scope = Scope;

    matmul2d() = default;

    template <class LeftElementType, class RightElementType, class ElementType, class CoordType = int, class... CoopArgs>
    using cooperative_tensor_left_input_t =
        metal::cooperative_tensor<LeftElementType, metal::extents<CoordType, shape::left0, shape::left1>,
                                  layout<MC_COOPERATIVE_LEFT, shape::left0, shape::left1>>;
    template <class LeftElementType, class RightElementType, class ElementType, class CoordType = int, class... CoopArgs>
    using cooperative_tensor_right_input_t =
        metal::cooperative_tensor<RightElementType, metal::extents<CoordType, shape::right0, shape::right1>,
                                  layout<MC_COOPERATIVE_RIGHT, shape::right0, shape::right1>>;
    template <class LeftOperandType, class RightOperandType, class ElementType, class CoordType = int, class... CoopArgs>
    using cooperative_tensor_destination_t =
        metal::cooperative_tensor<ElementType, metal::extents<CoordType, shape::n, shape::m>,
                                  layout<MC_COOPERATIVE_DESTINATION, shape::n, shape::m>>;
    template <class LeftOperandType, class RightOperandType, class ElementType, class CoordType = int, class... CoopArgs>
    using cooperative_tensor_row_reduction_destination_t =
        metal::cooperative_tensor<ElementType, metal::extents<CoordType, 1, shape::m>,
                                  layout<MC_COOPERATIVE_ROW_REDUCTION, shape::n, shape::m>>;
    template <class LeftOperandType, class RightOperandType, class ElementType, class CoordType = int, class... CoopArgs>
    using cooperative_tensor_column_reduction_destination_t =
        metal::cooperative_tensor<ElementType, metal::extents<CoordType, shape::n, 1>,
                                  layout<MC_COOPERATIVE_COLUMN_REDUCTION, shape::n, shape::m>>;

    template <class LeftElementType, class RightElementType, class ElementType, class CoordType = int, class... CoopArgs>
    auto get_left_input_cooperative_tensor() const {
        static_assert(!shape::dynamic_k, "matmul2d: a cooperative left input needs a static k in the descriptor");
        return cooperative_tensor_left_input_t<LeftElementType, RightElementType, ElementType, CoordType>();
    }
    template <class LeftElementType, class RightElementType, class ElementType, class CoordType = int, class... CoopArgs>
    auto get_right_input_cooperative_tensor() const {
        static_assert(!shape::dynamic_k, "matmul2d: a cooperative right input needs a static k in the descriptor");
        return cooperative_tensor_right_input_t<LeftElementType, RightElementType, ElementType, CoordType>();
    }
    template <class LeftOperandType, class RightOperandType, class ElementType, class CoordType = int, class... CoopArgs>
    auto get_destination_cooperative_tensor() const {
        return cooperative_tensor_destination_t<LeftOperandType, RightOperandType, ElementType, CoordType>();
    }
    template <class LeftOperandType, class RightOperandType, class ElementType, class CoordType = int, class... CoopArgs>
    auto get_row_reduction_destination_cooperative_tensor() const {
        return cooperative_tensor_row_reduction_destination_t<LeftOperandType, RightOperandType, ElementType, CoordType>();
    }
    template <class LeftOperandType, class RightOperandType, class ElementType, class CoordType = int, class... CoopArgs>
    auto get_column_reduction_destination_cooperative_tensor() const {
        return cooperative_tensor_column_reduction_destination_t<LeftOperandType, RightOperandType, ElementType,
                                                                 CoordType>();
    }

    /// This thread's part of the operation, ready to run (scope_run and run use it).
    template <class L, class R, class D>
    metalcpu_stdlib::tensor::scope_operation<mc_matmul_call> prepare(L& left, R& right, D& destination,
                                                                     metalcpu_stdlib::tensor::call_site site) const {
        using namespace metalcpu_stdlib::tensor;
        using LT = typename remove_const<L>::type;
        using RT = typename remove_const<R>::type;
        using DT = typename remove_const<D>::type;
        static_assert(is_operand<LT> && is_operand<RT> && is_operand<DT>,
                      "matmul2d::run: operands are tensors or cooperative tensors");
        static_assert(data_type<typename element_of<LT>::type>::value != 0 &&
                          data_type<typename element_of<RT>::type>::value != 0 &&
                          data_type<typename element_of<DT>::type>::value != 0,
                      "matmul2d::run: elements must be half, float, bfloat, int8_t, uint8_t or int32_t");
        static_assert(!is_tensor<DT>::value || !__is_same(typename DT::element_type, const typename DT::value_type),
                      "matmul2d::run: the destination tensor must be writable");
        scope_operation<mc_matmul_call> op = {};
        op.call.m = Descriptor.m;
        op.call.n = Descriptor.n;
        op.call.k = shape::dynamic_k ? -1 : Descriptor.k;
        op.call.transpose_left = Descriptor.transpose_left;
        op.call.transpose_right = Descriptor.transpose_right;
        op.call.relaxed_precision = Descriptor.relaxed_precision;
        op.call.accumulate = Descriptor.matmul_mode == matmul2d_descriptor::mode::multiply_accumulate;
        op.call.left = operand_of(left, &op.pending.record.storage[MC_SCOPE_LEFT]);
        op.call.right = operand_of(right, &op.pending.record.storage[MC_SCOPE_RIGHT]);
        op.call.destination = operand_of(destination, &op.pending.record.storage[MC_SCOPE_DESTINATION]);
        bool known = false;
        take_thread(left, &op.pending.record.thread, &known);
        take_thread(right, &op.pending.record.thread, &known);
        take_thread(destination, &op.pending.record.thread, &known);
        if (!known) op.pending.record.thread = current_scope_position(size::threads).thread;
        metalcpu_stdlib::tensor::prepare(op, &matmul_on_scope, size::simdgroups, site);
        return op;
    }

    /// Every thread of the scope calls it; the scope computes the tile once. The validated
    /// flavour checks each tensor operand's footprint against its buffer, reported at `site`.
    template <class L, class R, class D>
    void run(L&& left, R&& right, D&& destination,
             metalcpu_stdlib::tensor::call_site site = metalcpu_stdlib::tensor::call_site::here()) const {
        metalcpu_stdlib::tensor::scope_operation<mc_matmul_call> op = prepare(left, right, destination, site);
        metalcpu_stdlib::tensor::execute(op);
    }
};

} // namespace mpp::tensor_ops

namespace metalcpu_stdlib::tensor {

template <class E, class SX, class DX, class SL, class DL>
METALCPU_INLINE scope_operation<mc_reduce_call> prepare_reduce(mc_u32 columns,
                                                               metal::cooperative_tensor<E, SX, SL>& source,
                                                               metal::cooperative_tensor<E, DX, DL>& destination,
                                                               mpp::tensor_ops::reduction_operation op, E identity,
                                                               call_site site) {
    static_assert(data_type<E>::value != 0,
                  "mpp::tensor_ops::reduce_rows/reduce_columns: elements must be half, float, bfloat or an integer");
    scope_operation<mc_reduce_call> operation = {};
    operation.call.columns = columns;
    operation.call.op = op == mpp::tensor_ops::reduction_operation::max   ? mc_u32(MC_REDUCE_MAX)
                        : op == mpp::tensor_ops::reduction_operation::min ? mc_u32(MC_REDUCE_MIN)
                                                                          : mc_u32(MC_REDUCE_SUM);
    operation.call.identity = double(identity);
    operation.call.source = operand_of(source, &operation.pending.record.storage[MC_SCOPE_LEFT]);
    operation.call.destination = operand_of(destination, &operation.pending.record.storage[MC_SCOPE_DESTINATION]);
    operation.pending.record.thread = source.thread_;
    const mc_u32 threads = SL::threads;
    prepare(operation, &reduce_on_scope, threads == 1 ? 0 : threads / 32, site);
    return operation;
}

} // namespace metalcpu_stdlib::tensor

namespace mpp::tensor_ops {

/// destination[row] = identity folded with every valid element of the row (overwrites).
/// The default identity is 0 whatever the operation, as in Apple's header: pass
/// reduction_operation_identity<T>::max_identity with reduction_operation::max.
template <class E, class SX, class DX, class SL, class DL>
inline void reduce_rows(metal::cooperative_tensor<E, SX, SL>& source, metal::cooperative_tensor<E, DX, DL>& destination,
                        reduction_operation op = reduction_operation::sum,
                        metalcpu_stdlib::tensor::same_t<E> identity = reduction_operation_identity<E>::sum_identity,
                        metalcpu_stdlib::tensor::call_site site = metalcpu_stdlib::tensor::call_site::here()) {
    auto operation = metalcpu_stdlib::tensor::prepare_reduce(0, source, destination, op, identity, site);
    metalcpu_stdlib::tensor::execute(operation);
}

/// destination[column] likewise over the columns.
template <class E, class SX, class DX, class SL, class DL>
inline void reduce_columns(metal::cooperative_tensor<E, SX, SL>& source,
                           metal::cooperative_tensor<E, DX, DL>& destination,
                           reduction_operation op = reduction_operation::sum,
                           metalcpu_stdlib::tensor::same_t<E> identity = reduction_operation_identity<E>::sum_identity,
                           metalcpu_stdlib::tensor::call_site site = metalcpu_stdlib::tensor::call_site::here()) {
    auto operation = metalcpu_stdlib::tensor::prepare_reduce(1, source, destination, op, identity, site);
    metalcpu_stdlib::tensor::execute(operation);
}

/// Whether destination.map_iterator(an iterator of source) finds source's elements: a tile
/// and the tiles or reductions of the same operation tile, under one layout kind.
template <class SE, class DE, class SX, class DX, class SL, class DL>
inline bool is_iterator_compatible(const metal::cooperative_tensor<SE, SX, SL>& source,
                                   const metal::cooperative_tensor<DE, DX, DL>& destination) {
    const mc_cooperative_layout& s = source.layout_;
    const mc_cooperative_layout& d = destination.layout_;
    const bool same_tile = s.kind == d.kind && s.seed == d.seed && s.threads == d.threads && s.e0 == d.e0 && s.e1 == d.e1;
    const bool from_destination = s.role == MC_COOPERATIVE_DESTINATION;
    return same_tile && from_destination &&
           (d.role == MC_COOPERATIVE_DESTINATION || d.role == MC_COOPERATIVE_ROW_REDUCTION ||
            d.role == MC_COOPERATIVE_COLUMN_REDUCTION);
}

} // namespace mpp::tensor_ops

namespace metalcpu_kernel {

/// The coroutine form of `op.run(left, right, destination);` (the front end writes
/// `co_await ::metalcpu_kernel::scope_run(op, left, right, destination);`).
template <class Op, class L, class R, class D>
METALCPU_INLINE scope_awaitable<mc_matmul_call> scope_run(
    const Op& op, L&& left, R&& right, D&& destination,
    metalcpu_stdlib::tensor::call_site site = metalcpu_stdlib::tensor::call_site::here()) {
    return {op.prepare(left, right, destination, site)};
}

/// The coroutine forms of reduce_rows and reduce_columns.
template <class E, class SX, class DX, class SL, class DL>
METALCPU_INLINE scope_awaitable<mc_reduce_call> scope_reduce_rows(metal::cooperative_tensor<E, SX, SL>& source,
                                                                 metal::cooperative_tensor<E, DX, DL>& destination,
                                                                 mpp::tensor_ops::reduction_operation op =
                                                                     mpp::tensor_ops::reduction_operation::sum,
                                                                 metalcpu_stdlib::tensor::same_t<E> identity = E(0),
                                                                 metalcpu_stdlib::tensor::call_site site =
                                                                     metalcpu_stdlib::tensor::call_site::here()) {
    return {metalcpu_stdlib::tensor::prepare_reduce(0, source, destination, op, identity, site)};
}
template <class E, class SX, class DX, class SL, class DL>
METALCPU_INLINE scope_awaitable<mc_reduce_call> scope_reduce_columns(metal::cooperative_tensor<E, SX, SL>& source,
                                                                    metal::cooperative_tensor<E, DX, DL>& destination,
                                                                    mpp::tensor_ops::reduction_operation op =
                                                                        mpp::tensor_ops::reduction_operation::sum,
                                                                    metalcpu_stdlib::tensor::same_t<E> identity = E(0),
                                                                    metalcpu_stdlib::tensor::call_site site =
                                                                        metalcpu_stdlib::tensor::call_site::here()) {
    return {metalcpu_stdlib::tensor::prepare_reduce(1, source, destination, op, identity, site)};
}

} // namespace metalcpu_kernel
