#include "compiler/passes/member_overloads.h"

#include "compiler/statements.h"
#include "compiler/syntax.h"

#include <map>
#include <string_view>
#include <tuple>
#include <utility>

namespace metalcpu::msl {

namespace {

bool isAddressSpace(const Token& t) {
    return t.isIdentifier("thread") || t.isIdentifier("device") || t.isIdentifier("constant") ||
           t.isIdentifier("threadgroup") || t.isIdentifier("threadgroup_imageblock") ||
           t.isIdentifier("ray_data") || t.isIdentifier("object_data");
}

/// Whether the address space at `i` qualifies a pointer (`device const T* p`) rather than a
/// reference or `this`: the first `*`, `&`, `,` or `)` after its type decides.
bool qualifiesPointer(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i,
                      std::size_t limit) {
    for (std::size_t j = i + 1; j < limit; ++j) {
        const Token& t = tokens[j];
        if (t.isPunct("<")) {
            std::size_t close = closingAngle(tokens, partner, j, limit);
            if (close == kNoToken) return false;
            j = close;
        } else if (t.isPunct("*")) {
            return true;
        } else if (!t.isIdentifier() && !t.isPunct("::")) {
            return false;
        }
    }
    return false;
}

/// A declaration with its address spaces erased (`key`), and the spaces it had (`spaces`).
struct Shape {
    std::string key;
    std::string spaces;
    int otherSpaces = 0;  ///< address spaces other than `thread`
    int threadSpaces = 0; ///< `thread`s
};

Shape shapeOf(const TokenList& tokens, const std::vector<std::size_t>& partner, const FunctionDecl& f,
              bool checkedPointers) {
    Shape shape;
    for (const std::string& n : f.namespaces) shape.key += n + "::";
    shape.key += std::to_string(f.classBody) + "|";
    std::size_t end = f.parametersClose + 1;
    if (!f.trailingQualifiers.empty()) end = std::max(end, f.trailingQualifiers.back() + 1);
    for (std::size_t k = f.headerBegin; k < end; ++k) {
        const Token& t = tokens[k];
        if (isAddressSpace(t) && isUnqualifiedName(tokens, k) &&
            !(checkedPointers && !t.isIdentifier("thread") && qualifiesPointer(tokens, partner, k, end))) {
            shape.spaces += t.spelling + " ";
            (t.isIdentifier("thread") ? shape.threadSpaces : shape.otherSpaces) += 1;
            continue;
        }
        shape.key += t.spelling;
        shape.key += ' ';
    }
    return shape;
}

/// Whether `a` is the better declaration to keep: fewer spaces other than `thread`, then more
/// `thread`s.
bool preferred(const Shape& a, const Shape& b) {
    return std::pair(a.otherSpaces, -a.threadSpaces) < std::pair(b.otherSpaces, -b.threadSpaces);
}

} // namespace

void collapseAddressSpaceOverloads(TokenList& tokens, const std::vector<std::size_t>& partner, const Module& module,
                                   bool checkedPointers) {
    // key -> (declaration, its shape), in source order
    std::map<std::string, std::vector<std::pair<std::size_t, Shape>>> groups;
    for (std::size_t i = 0; i < module.functions.size(); ++i) {
        const FunctionDecl& f = module.functions[i];
        if (f.isKernel || f.parametersOpen == kNoToken || f.parametersClose == kNoToken) continue;
        Shape shape = shapeOf(tokens, partner, f, checkedPointers);
        groups[shape.key].emplace_back(i, std::move(shape));
    }
    for (auto& [key, members] : groups) {
        const Shape* best = &members.front().second;
        bool differ = false;
        for (const auto& [index, shape] : members) {
            if (shape.spaces != best->spaces) differ = true;
            if (preferred(shape, *best)) best = &shape;
        }
        if (!differ) continue; // a prototype and its definition, or one declaration
        const std::string keep = best->spaces;
        for (const auto& [index, shape] : members) {
            if (shape.spaces == keep) continue;
            const FunctionDecl& f = module.functions[index];
            for (std::size_t k = f.headerBegin; k < f.declarationEnd; ++k) tokens[k].erased = true;
        }
    }
}

} // namespace metalcpu::msl
