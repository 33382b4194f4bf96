#include "compiler/syntax.h"

#include "compiler/address_space.h"

#include <array>
#include <cstdint>
#include <limits>

namespace metalcpu::msl {

namespace {

constexpr std::array<std::string_view, 100> kKeywords = {
    "alignas",
    "alignof",
    "asm",
    "auto",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char8_t",
    "char16_t",
    "char32_t",
    "class",
    "concept",
    "const",
    "consteval",
    "constexpr",
    "constinit",
    "const_cast",
    "continue",
    "co_await",
    "co_return",
    "co_yield",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "nullptr",
    "operator",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "__attribute__",
    "__attribute",
    "__asm__",
    "__asm",
    "__typeof__",
    "__typeof",
    "typeof",
    "__restrict",
    "__restrict__",
    "__extension__",
    "__thread",
    "_Thread_local",
    "__inline",
    "__inline__",
    "__volatile__",
    "__const",
    "__signed__",
    "__decltype",
};

constexpr std::array<std::string_view, 17> kTypeKeywords = {
    "bool", "char",  "char8_t", "char16_t", "char32_t", "const",    "double",  "float", "int",
    "long", "short", "signed",  "unsigned", "void",     "volatile", "wchar_t", "auto",
};

bool isWordish(const Token& t) {
    return t.kind == TokenKind::Identifier || t.kind == TokenKind::Number || t.kind == TokenKind::String ||
           t.kind == TokenKind::Character;
}

} // namespace

bool isCppKeyword(std::string_view word) {
    for (std::string_view k : kKeywords)
        if (k == word) return true;
    return false;
}

bool isTypeKeyword(std::string_view word) {
    for (std::string_view k : kTypeKeywords)
        if (k == word) return true;
    return false;
}

bool isTypeQualifier(std::string_view word) {
    for (std::string_view q : {"const", "volatile", "restrict", "__restrict"})
        if (q == word) return true;
    return addressSpaceNamed(word).has_value();
}

std::optional<std::vector<std::size_t>> matchBrackets(const TokenList& tokens, Diagnostics& diagnostics) {
    std::vector<std::size_t> partner(tokens.size(), kNoToken);
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        if (t.kind != TokenKind::Punctuator) continue;
        const std::string& s = t.spelling;
        if (s == "(" || s == "[" || s == "{") {
            if (open.size() == kMaxBracketDepth) {
                diagnostics.error(t.location,
                                  "bracket nesting level exceeded maximum of " + std::to_string(kMaxBracketDepth));
                return std::nullopt;
            }
            open.push_back(i);
        } else if (s == ")" || s == "]" || s == "}") {
            char expected = s == ")" ? '(' : s == "]" ? '[' : '{';
            if (open.empty()) {
                diagnostics.error(t.location, "unexpected '" + s + "'");
                return std::nullopt;
            }
            const Token& o = tokens[open.back()];
            if (o.spelling[0] != expected) {
                std::string closer = o.spelling == "(" ? ")" : o.spelling == "[" ? "]" : "}";
                diagnostics.error(t.location, "expected '" + closer + "' before '" + s + "'");
                diagnostics.note(o.location, "to match this '" + o.spelling + "'");
                return std::nullopt;
            }
            partner[open.back()] = i;
            partner[i] = open.back();
            open.pop_back();
        }
    }
    if (!open.empty()) {
        const Token& o = tokens[open.back()];
        std::string closer = o.spelling == "(" ? ")" : o.spelling == "[" ? "]" : "}";
        diagnostics.error(tokens.back().location, "expected '" + closer + "' at the end of the input");
        diagnostics.note(o.location, "to match this '" + o.spelling + "'");
        return std::nullopt;
    }
    return partner;
}

namespace {

/// Whether the `>` at `i` is the operator name `operator>`, which closes nothing.
bool namesOperator(const TokenList& tokens, std::size_t i) {
    return i > 0 && tokens[i - 1].isIdentifier("operator");
}

} // namespace

bool opensTemplateArguments(const TokenList& tokens, std::size_t i) {
    if (i == 0) return false;
    const Token& before = tokens[i - 1];
    return before.isIdentifier() && !before.neverTemplate &&
           (!isCppKeyword(before.spelling) || before.spelling == "template" || before.spelling == "static_cast" ||
            before.spelling == "reinterpret_cast" || before.spelling == "const_cast" ||
            before.spelling == "dynamic_cast");
}

std::size_t closingAngle(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t open,
                         std::size_t limit) {
    int depth = 0;
    for (std::size_t i = open; i < limit && i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        if (t.kind != TokenKind::Punctuator) continue;
        if ((t.spelling == "(" || t.spelling == "[") && partner[i] != kNoToken) {
            i = partner[i];
        } else if (t.spelling == "<") {
            if (i == open || opensTemplateArguments(tokens, i)) ++depth;
        } else if (t.spelling == ">") {
            if (namesOperator(tokens, i)) continue;
            if (--depth == 0) return i;
        } else if (t.spelling == ";" || t.spelling == "{" || t.spelling == "}") {
            return kNoToken;
        }
    }
    return kNoToken;
}

std::size_t openingAngle(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t close,
                         std::size_t lowerLimit) {
    int depth = 0;
    for (std::size_t i = close + 1; i-- > lowerLimit;) {
        const Token& t = tokens[i];
        if (t.kind != TokenKind::Punctuator) continue;
        if ((t.spelling == ")" || t.spelling == "]") && partner[i] != kNoToken) {
            i = partner[i];
        } else if (t.spelling == ">") {
            if (!namesOperator(tokens, i)) ++depth;
        } else if (t.spelling == "<") {
            if (!opensTemplateArguments(tokens, i)) continue;
            if (--depth == 0) return i;
        } else if (t.spelling == ";" || t.spelling == "{" || t.spelling == "}") {
            return kNoToken;
        }
    }
    return kNoToken;
}

const Attribute* AttributeSpec::find(std::string_view name) const {
    for (const Attribute& a : attributes)
        if (a.name == name) return &a;
    return nullptr;
}

bool startsAttributeSpec(const TokenList& tokens, std::size_t i) {
    return i + 1 < tokens.size() && tokens[i].isPunct("[") && tokens[i + 1].isPunct("[");
}

bool startsGnuAttribute(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i) {
    return (tokens[i].isIdentifier("__attribute__") || tokens[i].isIdentifier("__attribute")) && i + 1 < tokens.size() &&
           tokens[i + 1].isPunct("(") && partner[i + 1] != kNoToken;
}

std::size_t attributeEnd(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i) {
    if (startsAttributeSpec(tokens, i) && partner[i] != kNoToken) return partner[i];
    if (startsGnuAttribute(tokens, partner, i)) return partner[i + 1];
    return kNoToken;
}

AttributeSpec parseAttributeSpec(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                 std::size_t i) {
    AttributeSpec spec;
    spec.open = i;
    spec.close = partner[i];
    std::size_t innerEnd = partner[i + 1];
    std::size_t j = i + 2;
    std::string usingPrefix;
    if (j + 2 < innerEnd && tokens[j].isIdentifier("using") && tokens[j + 2].isPunct(":")) {
        usingPrefix = tokens[j + 1].spelling + "::";
        j += 3;
    }
    while (j < innerEnd) {
        if (tokens[j].isPunct(",")) {
            ++j;
            continue;
        }
        Attribute a;
        if (tokens[j].isIdentifier()) {
            a.name = usingPrefix + tokens[j].spelling;
            a.nameToken = j;
            ++j;
            while (j + 1 < innerEnd && tokens[j].isPunct("::") && tokens[j + 1].isIdentifier()) {
                a.name += "::" + tokens[j + 1].spelling;
                j += 2;
            }
        } else {
            a.nameToken = j;
            a.name = tokens[j].spelling;
            ++j;
        }
        if (j < innerEnd && tokens[j].isPunct("(") && partner[j] != kNoToken) {
            a.hasArguments = true;
            a.arguments = {j + 1, partner[j]};
            j = partner[j] + 1;
        }
        // Anything else up to the next comma (a pack expansion `...`) belongs to this attribute.
        while (j < innerEnd && !tokens[j].isPunct(",")) {
            if ((tokens[j].isPunct("(") || tokens[j].isPunct("[") || tokens[j].isPunct("{")) &&
                partner[j] != kNoToken)
                j = partner[j];
            ++j;
        }
        spec.attributes.push_back(std::move(a));
    }
    return spec;
}

bool isStandardAttribute(std::string_view name) {
    static constexpr std::array<std::string_view, 11> kStandard = {
        "noreturn",
        "carries_dependency",
        "deprecated",
        "fallthrough",
        "nodiscard",
        "maybe_unused",
        "likely",
        "unlikely",
        "no_unique_address",
        "assume",
        "optimize_for_synchronized",
    };
    for (std::string_view s : kStandard)
        if (s == name) return true;
    return name.starts_with("gnu::") || name.starts_with("__gnu__::");
}

std::string typeText(const TokenList& tokens, std::size_t begin, std::size_t end) {
    std::vector<std::size_t> indices;
    for (std::size_t i = begin; i < end && i < tokens.size(); ++i) indices.push_back(i);
    return typeText(tokens, indices);
}

std::string typeText(const TokenList& tokens, const std::vector<std::size_t>& indices) {
    std::string out;
    const Token* previous = nullptr;
    for (std::size_t i : indices) {
        const Token& t = tokens[i];
        if (previous) {
            const std::string& p = previous->spelling;
            bool afterPunct =
                previous->kind == TokenKind::Punctuator &&
                (p == "*" || p == "&" || p == "&&" || p == ">" || p == ")" || p == "]" || p == "...");
            if (p == "," || (isWordish(t) && (isWordish(*previous) || afterPunct))) out += ' ';
        }
        out += t.spelling;
        previous = &t;
    }
    return out;
}

std::string sourceText(const TokenList& tokens, std::size_t begin, std::size_t end) {
    std::string out;
    for (std::size_t i = begin; i < end && i < tokens.size(); ++i) {
        if (i > begin && tokens[i].spaceBefore) out += ' ';
        out += tokens[i].spelling;
    }
    return out;
}

std::string outputText(const TokenList& tokens, std::size_t begin, std::size_t end) {
    std::string out;
    for (std::size_t i = begin; i < end && i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        std::string piece = t.prefix + (t.erased ? std::string() : t.text) + t.suffix;
        if (piece.empty()) continue;
        if (!out.empty() && t.spaceBefore && out.back() != ' ') out += ' ';
        out += piece;
    }
    return out;
}

std::optional<std::string> stringLiteralValue(const TokenList& tokens, std::size_t begin, std::size_t end) {
    if (begin >= end) return std::nullopt;
    std::string value;
    for (std::size_t i = begin; i < end; ++i) {
        const std::string& s = tokens[i].spelling;
        if (tokens[i].kind != TokenKind::String || s.size() < 2 || s.front() != '"' || s.back() != '"')
            return std::nullopt;
        for (std::size_t k = 1; k + 1 < s.size(); ++k) {
            char c = s[k];
            if (c != '\\') {
                value += c;
                continue;
            }
            char e = s[++k];
            switch (e) {
            case 'n': value += '\n'; break;
            case 't': value += '\t'; break;
            case 'r': value += '\r'; break;
            case '0': value += '\0'; break;
            default: value += e; break;
            }
        }
    }
    return value;
}

namespace {

// A tiny precedence-climbing evaluator over tokens.
class IntegerEvaluator {
public:
    IntegerEvaluator(const TokenList& tokens, std::size_t begin, std::size_t end)
        : tokens_(tokens), pos_(begin), end_(end) {}

    std::optional<long long> run() {
        auto value = binary(0);
        if (!value || pos_ != end_) return std::nullopt;
        return value;
    }

private:
    static int precedence(const std::string& op) {
        if (op == "|") return 1;
        if (op == "^") return 2;
        if (op == "&") return 3;
        if (op == "<<" || op == ">>") return 4;
        if (op == "+" || op == "-") return 5;
        if (op == "*" || op == "/" || op == "%") return 6;
        return -1;
    }

    // `>>` is two `>` tokens.
    std::string peekOperator() const {
        if (pos_ >= end_ || tokens_[pos_].kind != TokenKind::Punctuator) return {};
        if (tokens_[pos_].spelling == ">" && pos_ + 1 < end_ && tokens_[pos_ + 1].isPunct(">") &&
            !tokens_[pos_ + 1].spaceBefore)
            return ">>";
        return tokens_[pos_].spelling;
    }

    // Nesting deeper than this is no constant the front end needs to read (and would only
    // deepen the recursion).
    static constexpr int kMaxDepth = 256;

    // a op b, or nothing where C++ has no value for it (overflow, division by zero,
    // LLONG_MIN / -1, shifts out of range): the evaluation runs in this process.
    static std::optional<long long> apply(const std::string& op, long long a, long long b) {
        long long r = 0;
        if (op == "+") return __builtin_add_overflow(a, b, &r) ? std::nullopt : std::optional(r);
        if (op == "-") return __builtin_sub_overflow(a, b, &r) ? std::nullopt : std::optional(r);
        if (op == "*") return __builtin_mul_overflow(a, b, &r) ? std::nullopt : std::optional(r);
        if (op == "/" || op == "%") {
            if (b == 0 || (a == std::numeric_limits<long long>::min() && b == -1)) return std::nullopt;
            return op == "/" ? a / b : a % b;
        }
        if (op == "<<" || op == ">>") {
            if (b < 0 || b > 62) return std::nullopt;
            if (op == ">>") return a >> b;
            return __builtin_mul_overflow(a, 1LL << b, &r) ? std::nullopt : std::optional(r);
        }
        if (op == "&") return a & b;
        if (op == "|") return a | b;
        if (op == "^") return a ^ b;
        return std::nullopt;
    }

    // The recursion through binary() alone is as deep as the precedence levels; unary()
    // counts the rest (parentheses, prefix operators).
    std::optional<long long> binary(int minPrecedence) {
        auto left = unary();
        for (; left;) {
            std::string op = peekOperator();
            int p = precedence(op);
            if (p < 0 || p < minPrecedence) break;
            pos_ += op == ">>" ? 2 : 1;
            auto right = binary(p + 1);
            left = right ? apply(op, *left, *right) : std::nullopt;
        }
        return left;
    }

    std::optional<long long> unary() {
        if (pos_ >= end_ || ++depth_ > kMaxDepth) return std::nullopt;
        std::optional<long long> value = operand();
        --depth_;
        return value;
    }

    std::optional<long long> operand() {
        const Token& t = tokens_[pos_];
        if (t.isPunct("-") || t.isPunct("+") || t.isPunct("~") || t.isPunct("!")) {
            ++pos_;
            auto v = unary();
            if (!v) return std::nullopt;
            if (t.spelling == "-") return apply("-", 0, *v);
            if (t.spelling == "~") return ~*v;
            if (t.spelling == "!") return *v == 0 ? 1 : 0;
            return v;
        }
        if (t.isPunct("(")) {
            ++pos_;
            auto v = binary(0);
            if (!v || pos_ >= end_ || !tokens_[pos_].isPunct(")")) return std::nullopt;
            ++pos_;
            return v;
        }
        if (t.kind == TokenKind::Number) {
            ++pos_;
            return literal(t.spelling);
        }
        if (t.isIdentifier("true")) {
            ++pos_;
            return 1;
        }
        if (t.isIdentifier("false")) {
            ++pos_;
            return 0;
        }
        return std::nullopt;
    }

    static std::optional<long long> literal(const std::string& s) {
        std::string digits;
        for (char c : s)
            if (c != '\'') digits += c;
        while (!digits.empty() &&
               (digits.back() == 'u' || digits.back() == 'U' || digits.back() == 'l' || digits.back() == 'L'))
            digits.pop_back();
        if (digits.empty()) return std::nullopt;
        int base = 10;
        std::size_t i = 0;
        if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
            base = 16;
            i = 2;
        } else if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) {
            base = 2;
            i = 2;
        } else if (digits.size() > 1 && digits[0] == '0') {
            base = 8;
            i = 1;
        }
        unsigned long long value = 0;
        for (; i < digits.size(); ++i) {
            char c = digits[i];
            int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : 99;
            if (d >= base) return std::nullopt;
            value = value * static_cast<unsigned>(base) + static_cast<unsigned>(d);
            if (value > 0x7fffffffffffffffull) return std::nullopt;
        }
        return static_cast<long long>(value);
    }

    const TokenList& tokens_;
    std::size_t pos_;
    std::size_t end_;
    int depth_ = 0;
};

} // namespace

std::optional<long long> evaluateInteger(const TokenList& tokens, std::size_t begin, std::size_t end) {
    if (begin >= end || end > tokens.size()) return std::nullopt;
    return IntegerEvaluator(tokens, begin, end).run();
}

bool hasConstantSpecifier(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t begin,
                          std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
        const Token& t = tokens[k];
        if ((t.isPunct("(") || t.isPunct("[") || t.isPunct("{")) && partner[k] != kNoToken && partner[k] < end) {
            k = partner[k];
        } else if (t.isPunct("<") && k > begin && tokens[k - 1].isIdentifier()) {
            std::size_t close = closingAngle(tokens, partner, k, end);
            if (close != kNoToken) k = close;
        } else if (t.isIdentifier("constant") || t.isIdentifier("const") || t.isIdentifier("constexpr")) {
            return true;
        }
    }
    return false;
}

} // namespace metalcpu::msl
