#pragma once

#include <metalcpu/kernel_abi.h>

#include <cstdint>

namespace metalcpu::exec {

/// matmul2d's run for a whole scope (services->tensor_matmul): gathers the operands (tensors
/// by their strides, cooperative tensors through their layout from the scope records),
/// multiplies with a blocked, vectorised GEMM in float (int8/uint8 inputs: exact int32),
/// rounds once and writes the destination. Returns nullptr, or what the dispatch fails with.
const char* runTensorMatmul(const mc_matmul_call& call);

/// The bytes a product reads or writes of its tensor operand `which` (MC_SCOPE_LEFT, RIGHT or
/// DESTINATION), from its data pointer: the operand's extents clipped to the m x n x k tile.
/// False when the operand is not a tensor or the product touches none of it.
bool tensorFootprint(const mc_matmul_call& call, int which, long long* byteOffset, unsigned long long* size);

/// reduce_rows / reduce_columns for a whole scope (services->cooperative_reduce).
const char* runCooperativeReduce(const mc_reduce_call& call);

/// The GEMM microkernels; which one runs is chosen at first use from the CPU's features.
enum class Microkernel { Automatic, Generic, Avx2, Avx512 };

/// Whether this CPU can run `kernel` (Automatic and Generic always can).
bool microkernelSupported(Microkernel kernel);

/// Test and benchmark hook: makes every later product use `kernel` (Automatic: the CPU's
/// best). Not thread-safe against running dispatches.
void forceMicrokernelForTesting(Microkernel kernel);

/// The microkernel products use now.
Microkernel activeMicrokernel();

/// An IEEE half (its bits) as float, exactly, in inline integer code: the library is built for
/// the baseline ISA, where a `_Float16` conversion is a libgcc call per element, which took
/// most of the time of a product with half inputs.
float halfBitsToFloat(std::uint16_t bits);
/// A float rounded to the nearest half (ties to even; NaNs stay NaNs), as its bits, in the
/// same kind of inline code: the other direction of the same libgcc cost, paid per element of
/// a half destination.
std::uint16_t floatToHalfBits(float value);

} // namespace metalcpu::exec
