// The first line of every translated kernel file: the Metal standard library, the
// helpers the generated wrappers call, and the library entry point.
#pragma once

#include <metal_stdlib>
#include <metalcpu/kernel_support.h>
#ifdef METALCPU_VALIDATION
#include <metalcpu/checked.h>
#include <metalcpu/stdlib/async_copy_checked.h>
#include <metalcpu/stdlib/simdgroup_storage_checked.h>
#endif
// Metal 4's tensors: a kernel's own #include of them meets an empty stand-in before
// translation (as every top-level header does), so the translation defines
// METALCPU_TENSOR_HEADERS and the prelude brings the real ones (which need MSL 4.0: below it
// they are an #error naming -std=metal4.0). Kernels that do not include them may name their
// own `tensor`.
#ifdef METALCPU_TENSOR_HEADERS
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>
#endif
// The async copies' old header (MFA v1), the same way: its clamp-mode enum is in `metal`,
// where MFA's newer header defines its own.
#ifdef METALCPU_SIMDGROUP_FUTURE
#include <metal_simdgroup_future>
#endif
// The lane form of kernels whose threads run as vector lanes. Always, not only in files that
// have one: a define before the prelude would split each flavour's precompiled prelude in two,
// and a file's first compile of a kind goes without one (it costs 0.03 s of CPU in a compile
// that parses the prelude itself, nothing with the precompiled one).
#include <metalcpu/lane_statements.h>
#ifdef METALCPU_VALIDATION
#include <metalcpu/lane_checked.h>
#endif
#include <metalcpu/library_stub.h>
