#include "compiler/passes/literals.h"

namespace metalcpu::msl {

void rewriteHalfLiterals(TokenList& tokens) {
    for (Token& t : tokens) {
        if (t.kind != TokenKind::Number) continue;
        const std::string& s = t.spelling;
        if (s.size() < 2 || (s.back() != 'h' && s.back() != 'H')) continue;
        if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) continue;
        std::string digits = s.substr(0, s.size() - 1);
        bool isFloat = digits.find_first_of(".eE") != std::string::npos;
        bool valid = !digits.empty();
        for (char c : digits)
            if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' ||
                  c == '\''))
                valid = false;
        if (!valid) continue;
        t.text = "half(" + digits + (isFloat ? "f)" : ".0f)");
    }
}

} // namespace metalcpu::msl
