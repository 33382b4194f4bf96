// MTL::StructType, StructMember, ArrayType and PointerType of a buffer binding, made from the
// member tables (mc_argument) the kernel library's compiler laid out.
#pragma once

#include <metalcpu/kernel_abi.h>

#include <Metal/MTLArgument.hpp>

#include <memory>
#include <string>

namespace metalcpu::api {

/// A struct as a table of the kernel library describes it: `count` rows of a struct `size`
/// bytes aligned to `align`. `argumentBuffer` for an argument buffer's, whose members have ids.
struct StructTable {
    const mc_argument* members = nullptr;
    mc_u32 count = 0;
    mc_u64 size = 0;
    mc_u64 align = 0;
    bool argumentBuffer = false;
};

/// What a pointer points at, as MTL::PointerType describes it; `pointee` is its struct's table
/// (no members when the pointee is no struct the front end described).
struct PointerShape {
    MTL::DataType elementType = MTL::DataTypeNone;
    MTL::BindingAccess access = MTL::BindingAccessReadWrite;
    mc_u64 dataSize = 0, alignment = 0;
    bool elementIsArgumentBuffer = false;
    StructTable pointee;
};

/// A +1 StructType of `table`, or nullptr, with a debug-level log line naming `what`, when the
/// table has no rows or its rows do not account for every byte of the struct but padding (a
/// member the front end did not read): a nil struct type, never a wrong one. `keeper` keeps
/// the library holding the table loaded while the type (lazily) reads it.
MTL::StructType* newStructType(const StructTable& table, std::shared_ptr<const void> keeper, const std::string& what);

/// A +1 PointerType of `shape` (its elementStructType, newStructType()'s, made when first asked).
MTL::PointerType* newPointerType(const PointerShape& shape, std::shared_ptr<const void> keeper,
                                 const std::string& what);

} // namespace metalcpu::api
