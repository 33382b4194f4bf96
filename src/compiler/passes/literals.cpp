#include "compiler/passes/literals.h"

#include "compiler/edits.h"
#include "compiler/unit.h"

namespace metalcpu::msl {

namespace {

/// The length of a 16-bit float suffix at the end of `s` (`h`, `H`, `bf`, `BF`), 0 if none.
std::size_t suffixLength(const std::string& s) {
    if (s.size() >= 3 && (s.ends_with("bf") || s.ends_with("BF"))) return 2;
    if (s.size() >= 2 && (s.back() == 'h' || s.back() == 'H')) return 1;
    return 0;
}

} // namespace

void rewriteHalfLiterals(PassContext& c) {
    for (std::size_t i = 0; i < c.unit.size(); ++i) {
        const Token& t = c.unit[i];
        if (t.kind != TokenKind::Number) continue;
        // A number an earlier pass rewrote is part of what that pass erased or replaced (an
        // overload collapsed away, an attribute argument): it no longer prints as written.
        if (c.edits.isRewritten(i)) continue;
        const std::string& s = t.spelling;
        const std::size_t suffix = suffixLength(s);
        if (suffix == 0) continue;
        if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) continue;
        std::string digits = s.substr(0, s.size() - suffix);
        bool isFloat = digits.find_first_of(".eE") != std::string::npos;
        bool valid = !digits.empty();
        for (char c : digits)
            if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' ||
                  c == '\''))
                valid = false;
        if (!valid) continue;
        const char* type = suffix == 2 ? "bfloat(" : "half(";
        c.edits.replace(i, type + digits + (isFloat ? "f)" : ".0f)"));
    }
}

} // namespace metalcpu::msl
