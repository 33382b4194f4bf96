// Names of the reflection enums: MSL attribute spellings and the C enumerators of
// <metalcpu/kernel_abi.h> that the generated code uses.
#pragma once

#include "compiler/translate.h"

#include <optional>
#include <string>
#include <string_view>

namespace metalcpu::msl {

/// The builtin an MSL kernel-input attribute names ("thread_position_in_grid"), if any.
std::optional<Builtin> builtinFromAttribute(std::string_view attribute);

/// The attribute spelling of a builtin ("thread_position_in_grid"); "" for None.
std::string_view builtinAttribute(Builtin builtin);

/// "MC_BUILTIN_THREAD_POSITION_IN_GRID", "MC_BUILTIN_NONE".
std::string builtinEnumerator(Builtin builtin);

/// "MC_PARAM_BUFFER", ...
const char* paramKindEnumerator(ParamKind kind);

/// "MC_ADDRESS_SPACE_DEVICE", ...
const char* addressSpaceEnumerator(AddressSpace space);

/// "MC_ACCESS_READ_ONLY", "MC_ACCESS_READ_WRITE".
const char* accessEnumerator(Access access);

} // namespace metalcpu::msl
