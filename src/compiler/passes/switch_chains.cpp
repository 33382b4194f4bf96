#include "compiler/passes/switch_chains.h"

#include "compiler/passes/collective_hoisting.h"
#include "compiler/statements.h"
#include "compiler/syntax.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace metalcpu::msl {

namespace {

/// One `case` group: its values (each a token range), whether it is `default`, and its
/// statements without the closing `break;`.
struct CaseGroup {
    std::vector<TokenRange> values;
    bool isDefault = false;
    TokenRange statements;
};

class SwitchRewriter {
public:
    SwitchRewriter(const Unit& unit, const CallGraph& graph)
        : unit_(unit), tokens_(unit.tokens()), graph_(graph) {}

    std::optional<TokenList> run() {
        const Module& module = unit_.module();
        for (std::size_t k = 0; k < module.functions.size(); ++k) {
            const FunctionDecl& f = module.functions[k];
            if (!f.isKernel || !f.hasBody) continue;
            if (const std::vector<Statement>* body = unit_.body(k)) walk(*body);
        }
        if (chains_.empty()) return std::nullopt;
        std::sort(chains_.begin(), chains_.end(),
                  [](const Chain& a, const Chain& b) { return a.statement.begin < b.statement.begin; });
        TokenList out;
        std::size_t next = 0;
        for (const Chain& c : chains_) {
            if (c.statement.begin < next) continue; // inside a switch already rewritten: the next run's
            for (; next < c.statement.begin; ++next) out.push_back(tokens_[next]);
            emit(c, out);
            next = c.statement.end;
        }
        for (; next < tokens_.size(); ++next) out.push_back(tokens_[next]);
        return out;
    }

private:
    struct Chain {
        TokenRange statement;
        std::size_t keyword = 0;
        TokenRange condition;
        std::vector<CaseGroup> groups;
    };

    void walk(const std::vector<Statement>& statements) {
        for (const Statement& s : statements) {
            if (s.kind == StatementKind::Switch) consider(s);
            walk(s.children);
        }
    }

    /// Whether tokens [begin, end) call a barrier, a SIMD-group function or a function of the
    /// file that reaches one.
    bool synchronises(std::size_t begin, std::size_t end) const {
        for (std::size_t i = begin; i < end; ++i) {
            if (!tokens_[i].isIdentifier() || unit_.callOpen(i) == kNoToken) continue;
            if (isBarrierFunction(tokens_[i].spelling)) return true;
            const auto functions = graph_.byName.find(tokens_[i].spelling);
            if (functions == graph_.byName.end()) continue;
            for (std::size_t f : functions->second)
                for (std::size_t r : reachableFunctions(graph_, f))
                    if (graph_.usesBarriersDirectly[r]) return true;
        }
        return false;
    }

    /// `name`, `a.b`, `p->n`, `ns::c`: nothing that calls, assigns or declares.
    bool plainCondition(TokenRange header) const {
        if (header.empty()) return false;
        for (std::size_t i = header.begin; i < header.end; ++i) {
            const Token& t = tokens_[i];
            const bool name = t.isIdentifier() && !isCppKeyword(t.spelling) && unit_.role(i) != TokenRole::Declarator;
            if (!name && !t.isPunct(".") && !t.isPunct("->") && !t.isPunct("::")) return false;
        }
        return true;
    }

    /// `v`, `-v` with `v` an integer literal, decimal or hexadecimal, with no suffix but `u`.
    bool integerLiteral(TokenRange value) const {
        std::size_t i = value.begin;
        if (i < value.end && tokens_[i].isPunct("-")) ++i;
        if (i + 1 != value.end || tokens_[i].kind != TokenKind::Number) return false;
        std::string digits = tokens_[i].spelling;
        if (!digits.empty() && (digits.back() == 'u' || digits.back() == 'U')) digits.pop_back();
        const bool hex = digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
        if (digits.empty()) return false;
        for (std::size_t c = hex ? 2 : 0; c < digits.size(); ++c)
            if (!(hex ? std::isxdigit(static_cast<unsigned char>(digits[c])) : std::isdigit(static_cast<unsigned char>(digits[c]))))
                return false;
        return true;
    }

    /// A `break` that leaves the switch, a `case`/`default`/label, or a `switch` of its own
    /// inside `statements` (nested loops' breaks are theirs).
    bool escapes(const std::vector<Statement>& statements, bool inLoop) const {
        for (const Statement& s : statements) {
            if (s.kind == StatementKind::Break && !inLoop) return true;
            if (s.kind == StatementKind::Labeled || s.kind == StatementKind::Goto) return true;
            const bool loop = s.kind == StatementKind::For || s.kind == StatementKind::While ||
                              s.kind == StatementKind::Do || s.kind == StatementKind::Switch;
            if (escapes(s.children, inLoop || loop)) return true;
        }
        return false;
    }

    bool declares(TokenRange r) const {
        for (std::size_t i = r.begin; i < r.end; ++i)
            if (unit_.role(i) == TokenRole::Declarator) return true;
        return false;
    }

    void consider(const Statement& s) {
        if (s.children.size() != 1 || s.children[0].kind != StatementKind::Compound) return;
        if (!synchronises(s.tokens.begin, s.tokens.end) || !plainCondition(s.header)) return;
        Chain chain{s.tokens, s.keyword, s.header, {}};
        const std::vector<Statement>& body = s.children[0].children;
        bool open = false; // a group whose statements are being collected
        std::vector<const Statement*> members;
        for (const Statement& child : body) {
            const Statement* statement = &child;
            if (statement->kind == StatementKind::Labeled) {
                if (open) return; // falls through into the next label
                CaseGroup group;
                // The labels of the group: `case 1: case 2: stmt`.
                while (statement->kind == StatementKind::Labeled) {
                    const Token& label = tokens_[statement->keyword];
                    if (label.isIdentifier("default")) {
                        group.isDefault = true;
                    } else if (label.isIdentifier("case")) {
                        std::size_t colon = statement->keyword + 1;
                        while (colon < statement->tokens.end && !tokens_[colon].isPunct(":")) ++colon;
                        const TokenRange value{statement->keyword + 1, colon};
                        if (!integerLiteral(value)) return;
                        group.values.push_back(value);
                    } else {
                        return; // a label a goto may jump to
                    }
                    if (statement->children.size() != 1) return;
                    statement = &statement->children[0];
                }
                if (!chain.groups.empty() && chain.groups.back().isDefault) return; // default not last
                if (group.isDefault && !group.values.empty()) return;
                group.statements = {statement->tokens.begin, statement->tokens.begin};
                chain.groups.push_back(group);
                open = true;
            } else if (!open) {
                return; // before the first label, or after a group's break
            }
            if (statement->kind == StatementKind::Break) {
                chain.groups.back().statements.end = statement->tokens.begin;
                open = false;
                continue;
            }
            if (statement->kind == StatementKind::Simple && declares(statement->tokens)) return;
            if (escapes({*statement}, false)) return;
            chain.groups.back().statements.end = statement->tokens.end;
        }
        if (open || chain.groups.empty()) return; // the last group falls off the end
        chains_.push_back(std::move(chain));
    }

    void emit(const Chain& c, TokenList& out) const {
        const Location at = tokens_[c.keyword].location;
        const auto put = [&](const char* spelling, TokenKind kind) { out.push_back(syntheticToken(spelling, kind, at)); };
        const auto copy = [&](TokenRange r) {
            for (std::size_t i = r.begin; i < r.end; ++i) out.push_back(tokens_[i]);
        };
        copy({c.statement.begin, c.keyword}); // pragmas and attributes
        for (std::size_t g = 0; g < c.groups.size(); ++g) {
            const CaseGroup& group = c.groups[g];
            if (g > 0) put("else", TokenKind::Identifier);
            if (!group.isDefault) {
                put("if", TokenKind::Identifier);
                put("(", TokenKind::Punctuator);
                for (std::size_t v = 0; v < group.values.size(); ++v) {
                    if (v > 0) put("||", TokenKind::Punctuator);
                    put("(", TokenKind::Punctuator);
                    copy(c.condition);
                    put(")", TokenKind::Punctuator);
                    put("==", TokenKind::Punctuator);
                    put("(", TokenKind::Punctuator);
                    copy(group.values[v]);
                    put(")", TokenKind::Punctuator);
                }
                put(")", TokenKind::Punctuator);
            }
            put("{", TokenKind::Punctuator);
            copy(group.statements);
            put("}", TokenKind::Punctuator);
        }
    }

    const Unit& unit_;
    const TokenList& tokens_;
    const CallGraph& graph_;
    std::vector<Chain> chains_;
};

} // namespace

std::optional<TokenList> switchesAsIfChains(const Unit& unit, const CallGraph& graph) {
    return SwitchRewriter(unit, graph).run();
}

} // namespace metalcpu::msl
