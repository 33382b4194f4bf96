// Helper inlining (helper_inlining.h), after the rounds: the local type aliases of a kernel —
// its body's own (MLX's `using mma_t = typename gemm_kernel::mma_t;`, sdpa_vector's `typedef
// float U;`), a block's, an inlined helper's (its body is a block of the kernel now) — are
// replaced in their scope by the type they name. The barrier split gives a variable that
// lives across a barrier a slot per thread, declared before the loops, where an alias of the
// kernel is not in scope; the type's own spelling, one name, is in scope everywhere the
// alias's is.
#include "compiler/passes/inlining_round.h"

#include "compiler/syntax.h"

namespace metalcpu::msl {

namespace {

/// A local alias: its statement, its name's token and the type it names.
struct LocalAlias {
    const Statement* statement = nullptr;
    std::size_t name = kNoToken;
    TokenRange type;
};

bool isFundamentalType(const std::string& word) {
    for (std::string_view type : {"bool", "char", "short", "int", "long", "float", "double", "signed", "unsigned"})
        if (word == type) return true;
    return false;
}

/// Whether tokens [begin, end) name a type as one name: `[typename] [::] a [:: b] [<...>] ...`,
/// so that the spelling means the same wherever the alias is used (`U x;`, `U(0)`, `U::m`,
/// `const U`): no cv-qualifier, no `*`, `&` or bound, no multi-word type (`unsigned int`).
bool isOneName(const Unit& unit, std::size_t begin, std::size_t end) {
    const TokenList& tokens = unit.tokens();
    std::size_t i = begin;
    if (i < end && tokens[i].isIdentifier("typename")) ++i;
    if (i < end && tokens[i].isPunct("::")) ++i;
    bool name = false;
    for (; i < end; ++i) {
        const Token& t = tokens[i];
        if (t.isIdentifier()) {
            if (name) return false; // two names in a row: `unsigned int`
            // A keyword only as the whole type, and one that names a type (`float`, `int`).
            if (isCppKeyword(t.spelling) && !(i == begin && end == begin + 1 && isFundamentalType(t.spelling)))
                return false;
            name = true;
        } else if (t.isPunct("::") && name) {
            name = false;
        } else if (t.isPunct("<") && name) {
            const std::size_t close = closingAngle(tokens, unit.partner(), i, end);
            if (close == kNoToken) return false;
            i = close;
        } else {
            return false;
        }
    }
    return name;
}

class LocalAliases {
public:
    explicit LocalAliases(const Unit& unit) : unit_(unit), tokens_(unit.tokens()) {}

    std::optional<TokenList> run() {
        const Module& module = unit_.module();
        for (std::size_t k = 0; k < module.functions.size(); ++k) {
            const FunctionDecl& f = module.functions[k];
            if (!f.isKernel || !f.hasBody) continue;
            const std::vector<Statement>* body = unit_.body(k);
            if (!body) continue;
            aliasNames_.clear();
            collect(*body);
            visit(f, *body, {f.bodyOpen, f.bodyClose + 1});
        }
        if (replaced_.empty() && removed_.empty()) return std::nullopt;
        TokenList out;
        for (std::size_t i = 0; i < tokens_.size(); ++i) {
            if (const auto statement = removed_.find(i); statement != removed_.end()) {
                i = statement->second - 1;
                continue;
            }
            const auto r = replaced_.find(i);
            if (r == replaced_.end()) {
                out.push_back(tokens_[i]);
                continue;
            }
            for (std::size_t j = r->second.begin; j < r->second.end; ++j) {
                Token t = tokens_[j];
                t.location = tokens_[i].location;
                t.spaceBefore = j == r->second.begin ? tokens_[i].spaceBefore : tokens_[j].spaceBefore;
                t.startOfLine = j == r->second.begin && tokens_[i].startOfLine;
                out.push_back(std::move(t));
            }
        }
        return out;
    }

private:
    /// The names of the kernel's aliases (of `statements` and the statements in them).
    void collect(const std::vector<Statement>& statements) {
        for (const Statement& s : statements) {
            if (auto alias = aliasOf(s)) aliasNames_.insert(tokens_[alias->name].spelling);
            collect(s.children);
        }
    }

    /// The aliases of a block (`statements`, whose tokens are `block`) and of the blocks in it.
    /// An alias whose type names another is left to a later round (its uses would get that
    /// alias's name, whose declaration this round may remove).
    void visit(const FunctionDecl& f, const std::vector<Statement>& statements, TokenRange block) {
        for (const Statement& c : statements) {
            const std::optional<LocalAlias> alias = aliasOf(c);
            if (!alias) continue;
            bool namesAlias = false;
            for (std::size_t j = alias->type.begin; j < alias->type.end; ++j)
                namesAlias = namesAlias || (aliasNames_.count(tokens_[j].spelling) && unit_.isUnqualifiedName(j));
            if (!namesAlias) substitute(f, block, *alias);
        }
        for (const Statement& s : statements) nested(f, s);
    }

    void nested(const FunctionDecl& f, const Statement& s) {
        if (s.kind == StatementKind::Compound) return visit(f, s.children, s.tokens);
        for (const Statement& c : s.children) nested(f, c);
    }

    /// `using N = T;` or `typedef T N;`, T one name.
    std::optional<LocalAlias> aliasOf(const Statement& s) const {
        if (s.kind != StatementKind::Simple) return std::nullopt;
        const std::size_t semicolon = s.tokens.end - 1;
        LocalAlias a;
        a.statement = &s;
        if (tokens_[s.keyword].isIdentifier("using") && s.keyword + 3 < semicolon &&
            tokens_[s.keyword + 1].isIdentifier() && tokens_[s.keyword + 2].isPunct("=")) {
            a.name = s.keyword + 1;
            a.type = {s.keyword + 3, semicolon};
        } else if (tokens_[s.keyword].isIdentifier("typedef") && s.keyword + 2 < semicolon &&
                   tokens_[semicolon - 1].isIdentifier()) {
            a.name = semicolon - 1;
            a.type = {s.keyword + 1, semicolon - 1};
        } else {
            return std::nullopt;
        }
        if (!isOneName(unit_, a.type.begin, a.type.end)) return std::nullopt;
        return a;
    }

    /// Whether the name at `i` is declared there: a declarator, `using i =`, `typedef ... i;`.
    bool declares(std::size_t i) const {
        if (unit_.role(i) == TokenRole::Declarator || (tokens_[i - 1].isIdentifier("using") && tokens_[i + 1].isPunct("=")))
            return true;
        if (!tokens_[i + 1].isPunct(";")) return false;
        std::size_t b = i;
        while (b > 0 && !tokens_[b - 1].isPunct(";") && !tokens_[b - 1].isPunct("{") && !tokens_[b - 1].isPunct("}")) --b;
        return tokens_[b].isIdentifier("typedef");
    }

    /// Replaces the uses of `alias` after it in `block`, when its name is declared nowhere else
    /// in the kernel and nothing else in the block declares a name its type spells (which would
    /// then mean something else there). In a use followed by `::` a leading `typename` is left
    /// out (`U::m` is `T::value_type::m`, a nested name needs none).
    void substitute(const FunctionDecl& f, TokenRange block, const LocalAlias& alias) {
        const std::string& name = tokens_[alias.name].spelling;
        for (std::size_t i = f.parametersOpen; i < f.bodyClose; ++i)
            if (i != alias.name && tokens_[i].isIdentifier(name) && declares(i)) return;
        for (std::size_t i = block.begin; i < block.end; ++i) {
            if (i == alias.name || unit_.role(i) != TokenRole::Declarator) continue;
            for (std::size_t j = alias.type.begin; j < alias.type.end; ++j)
                if (tokens_[j].isIdentifier(tokens_[i].spelling) && !tokens_[j - 1].isPunct("::")) return;
        }
        TokenRange qualifier = alias.type;
        if (tokens_[qualifier.begin].isIdentifier("typename")) ++qualifier.begin;
        std::map<std::size_t, TokenRange> uses;
        for (std::size_t i = alias.statement->tokens.end; i < block.end; ++i) {
            if (!tokens_[i].isIdentifier(name) || !unit_.isUnqualifiedName(i) || unit_.role(i) == TokenRole::Attribute)
                continue;
            if (replaced_.count(i)) return;
            uses[i] = tokens_[i + 1].isPunct("::") ? qualifier : alias.type;
        }
        replaced_.insert(uses.begin(), uses.end());
        // Unused now, the alias goes: the split would take its name, spelt again as a member
        // (MLX's `using mma_t = typename gemm_kernel::mma_t;`), for a type of the kernel.
        removed_[alias.statement->tokens.begin] = alias.statement->tokens.end;
    }

    const Unit& unit_;
    const TokenList& tokens_;
    std::map<std::size_t, TokenRange> replaced_; ///< a use of an alias -> the type to write there
    std::map<std::size_t, std::size_t> removed_;  ///< an alias's statement: its first token -> one past its last
    std::set<std::string> aliasNames_;            ///< of the kernel being read
};

} // namespace

std::optional<TokenList> substituteLocalAliases(const Unit& unit) { return LocalAliases(unit).run(); }

} // namespace metalcpu::msl
