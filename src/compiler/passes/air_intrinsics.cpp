#include "compiler/passes/air_intrinsics.h"

#include "compiler/edits.h"
#include "compiler/scanner.h"
#include "compiler/unit.h"

#include <array>
#include <utility>

namespace metalcpu::msl {

namespace {

// Each label as MFA's headers spell it, with the name the kernel library implements it
// under. Both directions of a copy have one name: the library tells them apart by the
// address spaces of the pointers, as the overloads of the declarations do.
constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kIntrinsics = {{
    {"air.simdgroup_async_copy_1d.p3i8.p1i8", "__metal_simdgroup_async_copy_1d"},
    {"air.simdgroup_async_copy_1d.p1i8.p3i8", "__metal_simdgroup_async_copy_1d"},
    {"air.simdgroup_async_copy_2d.p3i8.p1i8", "__metal_simdgroup_async_copy_2d"},
    {"air.simdgroup_async_copy_2d.p1i8.p3i8", "__metal_simdgroup_async_copy_2d"},
    {"air.wait_simdgroup_events", "__metal_wait_simdgroup_events"},
}};

bool isAsmKeyword(const Token& t) { return t.isIdentifier("asm") || t.isIdentifier("__asm") || t.isIdentifier("__asm__"); }

} // namespace

std::string_view airIntrinsicFunction(std::string_view label) {
    for (const auto& [air, function] : kIntrinsics)
        if (air == label) return function;
    return {};
}

std::size_t asmLabelToken(const Unit& unit, const FunctionDecl& f) {
    if (f.parametersClose == kNoToken) return kNoToken;
    for (std::size_t k = f.parametersClose + 1; k + 2 < f.declarationEnd; ++k)
        if (isAsmKeyword(unit[k]) && unit[k + 1].isPunct("(") && unit[k + 2].kind == TokenKind::String &&
            unit[k + 3].isPunct(")"))
            return k + 2;
    return kNoToken;
}

bool bindsAirIntrinsic(const Unit& unit, const FunctionDecl& f) {
    if (f.hasBody || !f.enclosingClass.empty()) return false;
    const std::size_t label = asmLabelToken(unit, f);
    if (label == kNoToken) return false;
    const std::string& quoted = unit[label].spelling;
    if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"') return false;
    const std::string_view function = airIntrinsicFunction(std::string_view(quoted).substr(1, quoted.size() - 2));
    return !function.empty() && function == f.name;
}

void eraseAirIntrinsicDeclarations(PassContext& c) {
    for (const FunctionDecl& f : c.unit.module().functions)
        if (bindsAirIntrinsic(c.unit, f)) c.edits.erase(TokenRange{f.headerBegin, f.declarationEnd});
}

} // namespace metalcpu::msl
