#include "compiler/passes/threadgroup_variables.h"

#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/signature.h"
#include "compiler/statements.h"
#include "compiler/syntax.h"
#include "compiler/translate.h"
#include "compiler/unit.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

namespace metalcpu::msl {

namespace {

// The simple statements of function `function`'s body's statement tree and of the trees of the
// lambdas written in it (a lambda sees __mc_group through [&]; one in a local class does not,
// which the caller checks first), keyed by the token each starts at.
std::map<std::size_t, const Statement*> ownStatements(const Unit& unit, std::size_t function,
                                                      const std::vector<NestedBody>& nested) {
    std::map<std::size_t, const Statement*> out;
    auto add = [&](const std::vector<Statement>& statements, auto& self) -> void {
        for (const Statement& s : statements) {
            if (s.kind == StatementKind::Simple) out.emplace(s.keyword, &s);
            self(s.children, self);
        }
    };
    if (const std::vector<Statement>* body = unit.body(function)) add(*body, add);
    for (const NestedBody& b : nested)
        if (const std::vector<Statement>* tree = b.kind == NestedBody::Kind::Lambda ? unit.nestedBody(b.open) : nullptr)
            add(*tree, add);
    return out;
}

// The innermost `{` that holds token `i` with nothing but other braces' contents in between
// (a block, a class body), or kNoToken when a `(` or `[` is nearer: where a declaration
// statement could stand.
std::size_t enclosingBrace(const Unit& unit, std::size_t i) {
    const std::vector<std::size_t>& partner = unit.partner();
    for (std::size_t k = i; k-- > 0;) {
        if (partner[k] != kNoToken && partner[k] < k)
            k = partner[k];
        else if (partner[k] != kNoToken)
            return unit[k].isPunct("{") ? k : kNoToken;
    }
    return kNoToken;
}

// The simple statement that starts at token `i` in `statements` or nested in them, or nullptr.
const Statement* simpleStatementAt(const std::vector<Statement>& statements, std::size_t i) {
    for (const Statement& s : statements) {
        if (s.tokens.end <= i || i < s.tokens.begin) continue;
        if (s.kind == StatementKind::Simple) return s.keyword == i ? &s : nullptr;
        return simpleStatementAt(s.children, i);
    }
    return nullptr;
}

// For code the trees of ownStatements() do not hold (a local class's member function, a block
// of a body the parser could not delimit as a whole): the statements of the block around a
// token as the statement parser delimits them, each block parsed once.
class EnclosingBlocks {
public:
    explicit EnclosingBlocks(const Unit& unit) : unit_(unit) {}

    /// The simple statement that starts at token `i` in its innermost block, or nullptr.
    const Statement* statementAt(std::size_t i) {
        const std::size_t open = enclosingBrace(unit_, i);
        if (open == kNoToken) return nullptr;
        auto parsed = blocks_.find(open);
        if (parsed == blocks_.end())
            parsed = blocks_.emplace(open, parseBlock(unit_.tokens(), unit_.partner(), open)).first;
        return parsed->second ? simpleStatementAt(*parsed->second, i) : nullptr;
    }

private:
    const Unit& unit_;
    std::map<std::size_t, std::optional<std::vector<Statement>>> blocks_;
};

// Whether statement `s` is or holds token `i`.
bool holds(const Statement& s, std::size_t i) { return s.tokens.begin <= i && i < s.tokens.end; }

// Whether control cannot flow from the end of statement `s` to the statement after it: a jump,
// or a block or a labelled statement that ends in one (`case 1: { ...; break; }`).
bool endsInJump(const Statement& s) {
    switch (s.kind) {
    case StatementKind::Break:
    case StatementKind::Continue:
    case StatementKind::Return:
    case StatementKind::Goto: return true;
    case StatementKind::Compound: return !s.children.empty() && endsInJump(s.children.back());
    case StatementKind::Labeled: return !s.children.empty() && endsInJump(s.children.front());
    default: return false;
    }
}

// Whether statement `s` holds a `case` or `default` label below its own labels.
bool holdsNestedLabel(const Statement& s) {
    const Statement* inner = &s;
    while (inner->kind == StatementKind::Labeled && !inner->children.empty()) inner = &inner->children.front();
    for (const Statement& c : inner->children)
        if (c.kind == StatementKind::Labeled || holdsNestedLabel(c)) return true;
    return false;
}

// The values of the case labels of switch body `body` (a block) from which control reaches
// token `i`: those on the statement that holds it and on the statements before it that control
// falls through from. Nothing where a `default:` leads there, a label stands deeper than the
// block's own statements, or a value is no expression (`case 1 ... 3:`).
std::optional<std::vector<TokenRange>> casesReaching(const TokenList& tokens, const Statement& body, std::size_t i) {
    if (body.kind != StatementKind::Compound) return std::nullopt;
    std::size_t at = 0;
    while (at < body.children.size() && !holds(body.children[at], i)) ++at;
    if (at == body.children.size()) return std::nullopt;
    for (const Statement& c : body.children)
        if (holdsNestedLabel(c)) return std::nullopt;
    std::vector<TokenRange> cases;
    for (std::size_t k = at + 1; k-- > 0;) {
        const Statement& s = body.children[k];
        if (k < at && endsInJump(s)) break;
        for (const Statement* l = &s; l->kind == StatementKind::Labeled && !l->children.empty(); l = &l->children.front()) {
            const Token& label = tokens[l->keyword];
            if (label.isIdentifier("default")) return std::nullopt;
            if (!label.isIdentifier("case")) continue; // a goto's label
            const TokenRange value{l->keyword + 1, l->children.front().tokens.begin - 1};
            for (std::size_t t = value.begin; t < value.end; ++t)
                if (tokens[t].isPunct("...")) return std::nullopt;
            cases.push_back(value);
        }
    }
    if (cases.empty()) return std::nullopt;
    return cases;
}

// The condition of a `for` statement's header `init; condition; increment`, or an empty range.
TokenRange forCondition(const TokenList& tokens, const std::vector<std::size_t>& partner, TokenRange header) {
    std::size_t first = kNoToken;
    for (std::size_t k = header.begin; k < header.end; ++k) {
        if ((tokens[k].isPunct("(") || tokens[k].isPunct("[") || tokens[k].isPunct("{")) && partner[k] != kNoToken)
            k = partner[k];
        else if (tokens[k].isPunct(";") && first == kNoToken)
            first = k;
        else if (tokens[k].isPunct(";"))
            return {first + 1, k};
    }
    return {};
}

// Whether statement `s` is or holds the simple statement that starts at token `i`; the `if`,
// loop and `switch` statements on the way down whose conditions decide whether it runs are
// appended to `out`.
bool leadsTo(const TokenList& tokens, const std::vector<std::size_t>& partner, const Statement& s, std::size_t i,
             std::vector<EnclosingBranch>& out) {
    if (!holds(s, i)) return false;
    if (s.kind == StatementKind::Simple) return s.keyword == i;
    // An if's children are its then-statement and its else-statement; a loop's and a
    // switch's, their body. A do-while's body runs once whatever its condition.
    std::optional<EnclosingBranch> branch;
    if (s.kind == StatementKind::While && !s.header.empty()) {
        branch = EnclosingBranch{s.header, true, {}};
    } else if (s.kind == StatementKind::For) {
        if (const TokenRange condition = forCondition(tokens, partner, s.header); !condition.empty())
            branch = EnclosingBranch{condition, true, {}};
    } else if (s.kind == StatementKind::Switch && !s.header.empty() && !s.children.empty()) {
        if (auto cases = casesReaching(tokens, s.children.front(), i)) branch = EnclosingBranch{s.header, true, std::move(*cases)};
    }
    for (std::size_t c = 0; c < s.children.size(); ++c) {
        const bool pushed = (s.kind == StatementKind::If && !s.header.empty()) || branch;
        if (s.kind == StatementKind::If && !s.header.empty())
            out.push_back({s.header, c == 0, {}});
        else if (branch)
            out.push_back(*branch);
        if (leadsTo(tokens, partner, s.children[c], i, out)) return true;
        if (pushed) out.pop_back();
    }
    return false;
}

// The statements around the simple statement at token `i` in `trees` whose conditions decide
// whether it runs, outermost first.
std::vector<EnclosingBranch> enclosingBranches(const Unit& unit, const std::vector<const std::vector<Statement>*>& trees,
                                               std::size_t i) {
    std::vector<EnclosingBranch> out;
    for (const std::vector<Statement>* tree : trees)
        for (const Statement& s : *tree) {
            if (leadsTo(unit.tokens(), unit.partner(), s, i, out)) return out;
            out.clear();
        }
    return out;
}

// Whether condition `c` can be copied into a template argument of the declaration: made of
// the function's template parameters, constexpr locals and function constants (`names`),
// qualified names, names the function does not declare as variables (`locals`: those of the
// file and the library, `is_same_v<T, half>` under `using namespace metal`, which stay in scope
// wherever a later pass moves the declaration, as its own variables do not), literals and
// operators; no other keyword, no assignment, lambda or declaration, and untouched by the
// passes before this one.
bool constantShaped(const PassContext& c, TokenRange condition, const std::vector<std::string>& names,
                    const std::set<std::string>& locals) {
    const TokenList& tokens = c.unit.tokens();
    static constexpr std::string_view kWords[] = {"true", "false", "sizeof", "alignof", "static_cast", "nullptr"};
    for (std::size_t k = condition.begin; k < condition.end; ++k) {
        const Token& t = tokens[k];
        if (c.edits.isRewritten(k)) return false;
        if (t.kind == TokenKind::Punctuator) {
            const std::string& p = t.spelling;
            const bool comparison = p == "==" || p == "!=" || p == "<=" || p == ">=";
            if (p == "{" || p == "}" || p == ";" || p == "[" || p == "." || p == "->" || p == "++" || p == "--" ||
                (p.back() == '=' && !comparison))
                return false;
            continue;
        }
        if (!t.isIdentifier()) continue; // a literal
        const bool qualified = (k + 1 < condition.end && tokens[k + 1].isPunct("::")) ||
                               (k > condition.begin && tokens[k - 1].isPunct("::"));
        if (qualified || isTypeKeyword(t.spelling) || std::ranges::find(kWords, t.spelling) != std::end(kWords) ||
            std::ranges::find(names, t.spelling) != names.end())
            continue;
        if (isCppKeyword(t.spelling) || locals.contains(t.spelling)) return false;
    }
    return !condition.empty();
}

// The names function `f` declares as variables and parameters, its lambdas' and local classes'
// included (TokenRole::Declarator).
std::set<std::string> declaredVariables(const Unit& unit, const FunctionDecl& f) {
    std::set<std::string> out;
    const std::size_t begin = f.parametersOpen == kNoToken ? f.bodyOpen : f.parametersOpen;
    for (std::size_t i = begin; i < f.bodyClose; ++i)
        if (unit.role(i) == TokenRole::Declarator) out.insert(unit[i].spelling);
    return out;
}

// The names function `f`'s body declares `constexpr` (`constexpr bool kUse = false;`): like
// template parameters, constants wherever a later pass moves a threadgroup declaration to.
std::vector<std::string> constexprLocals(const Unit& unit, const FunctionDecl& f) {
    const TokenList& tokens = unit.tokens();
    std::vector<std::string> out;
    for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i) {
        if (!tokens[i].isIdentifier("constexpr") || tokens[i - 1].isIdentifier("if")) continue;
        const std::size_t end = simpleStatementEnd(tokens, unit.partner(), i, f.bodyClose);
        if (end == kNoToken) continue;
        if (const auto d = parseDeclaration(tokens, unit.partner(), i, end))
            for (std::size_t name : d->names) out.push_back(tokens[name].spelling);
        i = end;
    }
    return out;
}

// The template parameters of function `f`, split; empty for a non-template.
std::vector<TokenRange> templateParameters(const Unit& unit, const FunctionDecl& f) {
    if (!f.isTemplate || f.templateParameters.empty()) return {};
    return splitParameters(unit.tokens(), unit.partner(), f.templateParameters.begin - 1, f.templateParameters.end);
}

// The name a template parameter declares (`T` of `typename T`, `N` of `int N = 4`, `Ts` of
// `class... Ts`), with whether it is a pack; kNoToken when it has none the body could name.
std::pair<std::size_t, bool> templateParameterName(const Unit& unit, TokenRange p) {
    const TokenList& tokens = unit.tokens();
    for (std::size_t k = p.begin; k < p.end; ++k)
        if (tokens[k].isIdentifier("template")) return {kNoToken, false};
    const std::size_t end = parameterDefault(tokens, unit.partner(), p);
    if (end < p.begin + 2) return {kNoToken, false};
    const Token& name = tokens[end - 1];
    const Token& before = tokens[end - 2];
    if (!name.isIdentifier() || isCppKeyword(name.spelling)) return {kNoToken, false};
    if (before.isPunct("...")) return {end - 1, true};
    return {before.isIdentifier() ? end - 1 : kNoToken, false};
}

// The last token of the attribute that starts at `i` where a declaration may have one: a
// `[[...]]` specifier, GNU's `__attribute__((...))` or `alignas(...)`; kNoToken when none does.
std::size_t declarationAttributeEnd(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i) {
    if (const std::size_t end = attributeEnd(tokens, partner, i); end != kNoToken) return end;
    if (tokens[i].isIdentifier("alignas") && i + 1 < tokens.size() && tokens[i + 1].isPunct("(") &&
        partner[i + 1] != kNoToken)
        return partner[i + 1];
    return kNoToken;
}

// The first of the attributes and cv-qualifiers written right before token `i` and after
// `limit` (`__attribute__((aligned(16))) const` before a `threadgroup`), or `i`: where the
// declaration whose `threadgroup` is at `i` may start.
std::size_t declarationHead(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t limit,
                            std::size_t i) {
    std::size_t head = i;
    while (head > limit) {
        const Token& before = tokens[head - 1];
        const std::size_t open = partner[head - 1];
        if (before.isIdentifier("const") || before.isIdentifier("volatile")) {
            --head;
        } else if (before.isPunct("]") && open != kNoToken && open >= limit && startsAttributeSpec(tokens, open)) {
            head = open; // `[[...]]`: the last `]` closes the first `[`
        } else if (before.isPunct(")") && open != kNoToken && open > limit &&
                   declarationAttributeEnd(tokens, partner, open - 1) == head - 1) {
            head = open - 1; // `alignas(...)`, `__attribute__((...))`
        } else {
            break;
        }
    }
    return head;
}

// The name of the object a declaration declares when its `threadgroup` at `i` is followed by a
// type and a name (TokenRole::Declarator) with no `*` or `&` between, and the name by bounds,
// an initializer or a `;`; else kNoToken: one that is a threadgroup variable wherever it
// stands, not a pointer type.
std::size_t declaredObject(const Unit& unit, std::size_t i) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    for (std::size_t k = i + 1; k < tokens.size(); ++k) {
        if (const std::size_t last = declarationAttributeEnd(tokens, partner, k); last != kNoToken) {
            k = last;
            continue;
        }
        if (tokens[k].isPunct("<") && tokens[k - 1].isIdentifier()) {
            k = closingAngle(tokens, partner, k, tokens.size());
            if (k == kNoToken) return kNoToken;
            continue;
        }
        if (unit.role(k) == TokenRole::Declarator) {
            // A name that bounds, an initializer or the end of a statement follows; not a
            // template argument (`tensor<threadgroup half, extents>`), where a role can err.
            const Token& after = tokens[k + 1];
            const bool declares = after.isPunct("[") || after.isPunct("=") || after.isPunct("{") || after.isPunct(";");
            return declares ? k : kNoToken;
        }
        if (!tokens[k].isIdentifier() && !tokens[k].isPunct("::")) return kNoToken;
    }
    return kNoToken;
}

// The tokens [begin, end) of a declaration without the attributes written in it (`[[...]]`,
// `__attribute__((...))`, `alignas(...)`), brackets matched: how parseDeclaration() reads a
// declaration wherever its attributes stand, the attributes kept aside for their alignment.
struct WithoutAttributes {
    TokenList tokens;
    std::vector<std::size_t> partner;
    std::vector<std::size_t> original; ///< each kept token's index in the unit
    std::vector<TokenRange> attributes; ///< those left out, in the unit's indices

    WithoutAttributes(const TokenList& all, const std::vector<std::size_t>& allPartner, std::size_t begin,
                      std::size_t end) {
        std::vector<std::size_t> index(end - begin, kNoToken);
        for (std::size_t k = begin; k < end; ++k) {
            if (const std::size_t last = declarationAttributeEnd(all, allPartner, k); last != kNoToken && last < end) {
                attributes.push_back({k, last + 1});
                k = last;
                continue;
            }
            index[k - begin] = tokens.size();
            tokens.push_back(all[k]);
            original.push_back(k);
        }
        partner.assign(tokens.size(), kNoToken);
        for (std::size_t n = 0; n < tokens.size(); ++n)
            if (const std::size_t p = allPartner[original[n]]; p != kNoToken && p >= begin && p < end)
                partner[n] = index[p - begin];
    }

    /// The declaration's `;`.
    std::size_t end() const { return tokens.size() - 1; }

    /// Range `r` of these tokens in the unit's indices (attributes inside it included).
    TokenRange originalRange(TokenRange r) const {
        if (r.empty()) return {original[r.begin], original[r.begin]};
        return {original[r.begin], original[r.end - 1] + 1};
    }
};

// The alignments attribute `a` (a range WithoutAttributes set aside) asks for, as C++
// constant expressions: `aligned(N)` in `__attribute__((...))` or `[[gnu::...]]`, `alignas(N)`
// or `alignas(type)`; `aligned` alone is GCC's largest alignment. None for other attributes.
std::vector<std::string> requestedAlignments(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                             TokenRange a) {
    auto alignment = [&](bool hasArgument, TokenRange argument) {
        return hasArgument ? "(" + outputText(tokens, argument.begin, argument.end) + ")"
                           : std::string("__BIGGEST_ALIGNMENT__");
    };
    std::vector<std::string> out;
    if (tokens[a.begin].isIdentifier("alignas")) {
        const TokenRange argument{a.begin + 2, a.end - 1};
        if (isTypeKeyword(tokens[argument.begin].spelling))
            out.push_back("alignof(" + outputText(tokens, argument.begin, argument.end) + ")");
        else if (!argument.empty())
            out.push_back(alignment(true, argument));
    } else if (startsAttributeSpec(tokens, a.begin)) {
        for (const Attribute& attribute : parseAttributeSpec(tokens, partner, a.begin).attributes)
            if (attribute.name == "gnu::aligned" || attribute.name == "gnu::__aligned__")
                out.push_back(alignment(attribute.hasArguments, attribute.arguments));
    } else { // __attribute__((aligned(16), unused))
        const std::size_t close = partner[a.begin + 2];
        for (std::size_t k = a.begin + 3; k < close; ++k) {
            const bool named = tokens[k].isIdentifier("aligned") || tokens[k].isIdentifier("__aligned__");
            const bool hasArgument = k + 1 < close && tokens[k + 1].isPunct("(") && partner[k + 1] != kNoToken;
            if (named && (k == a.begin + 3 || tokens[k - 1].isPunct(",")))
                out.push_back(alignment(hasArgument, {k + 2, hasArgument ? partner[k + 1] : k + 2}));
            if (hasArgument) k = partner[k + 1];
        }
    }
    return out;
}

} // namespace

std::string siteKeyLiteral(std::uint64_t key) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "0x%llxull", static_cast<unsigned long long>(key));
    return buffer;
}

std::vector<ThreadgroupDeclaration> findThreadgroupVariables(const Unit& unit, std::uint64_t fileKey,
                                                             Diagnostics& diagnostics) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    const Module& module = unit.module();
    std::vector<ThreadgroupDeclaration> out;
    std::uint64_t site = 0;

    for (const VariableDecl& v : module.variables) {
        if (v.tokens.empty()) continue;
        for (std::size_t i = v.tokens.begin; i < v.tokens.end; ++i) {
            if (!tokens[i].isIdentifier("threadgroup")) continue;
            bool pointer = false;
            for (std::size_t k = i + 1; k < v.tokens.end; ++k)
                if (tokens[k].isPunct("*") || tokens[k].isPunct("&")) pointer = true;
            if (!pointer)
                diagnostics.error(tokens[i].location,
                                  "threadgroup variables must be declared inside a function");
            break;
        }
    }

    for (std::size_t fi = 0; fi < module.functions.size(); ++fi) {
        const FunctionDecl& f = module.functions[fi];
        if (!f.hasBody) continue;
        const std::vector<NestedBody> nested = findNestedBodies(unit, fi);
        const std::map<std::size_t, const Statement*> ownStatement = ownStatements(unit, fi, nested);
        EnclosingBlocks enclosing(unit);
        std::vector<const std::vector<Statement>*> trees;
        if (const std::vector<Statement>* body = unit.body(fi)) trees.push_back(body);
        for (const NestedBody& b : nested)
            if (const std::vector<Statement>* tree = b.kind == NestedBody::Kind::Lambda ? unit.nestedBody(b.open) : nullptr)
                trees.push_back(tree);
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i) {
            // A body nested in this one that the scanner knows has its own turn.
            if (!tokens[i].isIdentifier("threadgroup") || unit.functionAt(i) != fi) continue;
            // The statement that starts at this `threadgroup`, or at the attributes and
            // qualifiers before it (`__attribute__((aligned(16))) threadgroup`, where the
            // statement parser's statement starts at the attribute), and the `;` that ends it.
            const std::size_t head = declarationHead(tokens, partner, f.bodyOpen + 1, i);
            std::size_t keyword = kNoToken, end = kNoToken;
            bool own = false;
            for (std::size_t k = head; k <= i && keyword == kNoToken; ++k) {
                const auto found = ownStatement.find(k);
                own = found != ownStatement.end();
                if (const Statement* s = own ? found->second : enclosing.statementAt(k)) {
                    keyword = k;
                    end = s->tokens.end - 1;
                }
            }
            for (std::size_t k = head; k <= i && keyword == kNoToken; ++k) {
                if (!unit.startsStatement(k)) continue;
                // A block the statement parser cannot delimit, in a body the unit judges by
                // its tokens (Unit::lexicalBodies()): the statement ends at its `;`.
                keyword = k;
                end = simpleStatementEnd(tokens, partner, k, f.bodyClose);
            }
            if (keyword != kNoToken && end == kNoToken) {
                diagnostics.error(tokens[i].location, "expected ';' after the threadgroup declaration");
                continue;
            }
            if (keyword == kNoToken) {
                // Not a declaration statement: a pointer type (a cast, a template argument, a
                // for-init's pointer) is rewriteAddressSpaces()'s; a variable here would
                // silently be a per-thread one.
                if (const std::size_t name = declaredObject(unit, i); name != kNoToken)
                    diagnostics.error(tokens[i].location, "threadgroup variable '" + tokens[name].spelling +
                                                              "' must be declared by a declaration statement of "
                                                              "its own in a function body");
                continue;
            }
            // The declaration with its attributes left out, as parseDeclaration() reads one.
            const WithoutAttributes plain(tokens, partner, keyword, end + 1);
            if (inNestedBody(nested, NestedBody::Kind::LocalClass, i)) {
                // A declaration in a local class's member function (which the scanner does not
                // list) cannot be given its group, and left alone it would silently be a
                // per-thread variable.
                const auto d = parseDeclaration(plain.tokens, plain.partner, 0, plain.end());
                if (d && declaratorParts(plain.tokens, plain.partner, *d, 0, plain.end()).pointer.empty())
                    diagnostics.error(tokens[i].location, "threadgroup variable '" +
                                                              plain.tokens[d->names.front()].spelling +
                                                              "' must be declared in a function body or a lambda, "
                                                              "not in a local class");
                continue;
            }
            const auto d = parseDeclaration(plain.tokens, plain.partner, 0, plain.end());
            if (!d) {
                diagnostics.error(tokens[i].location, "expected a variable name in this threadgroup declaration");
                continue;
            }
            // A pointer or a reference to threadgroup memory is rewriteAddressSpaces()'s.
            if (!declaratorParts(plain.tokens, plain.partner, *d, 0, plain.end()).pointer.empty()) continue;
            ThreadgroupDeclaration declaration;
            declaration.function = fi;
            declaration.type = {keyword, plain.original[d->names.front()]};
            declaration.statement = {keyword, end + 1};
            declaration.attributes = plain.attributes;
            if (own) declaration.branches = enclosingBranches(unit, trees, keyword);
            bool ok = true;
            for (std::size_t k = 0; k < d->names.size() && ok; ++k) {
                const DeclaratorParts parts = declaratorParts(plain.tokens, plain.partner, *d, k, plain.end());
                ThreadgroupDeclarator declarator;
                declarator.name = plain.tokens[parts.name].spelling;
                declarator.nameToken = plain.original[parts.name];
                declarator.arrayBounds = plain.originalRange(parts.bounds);
                declarator.key = (fileKey << 20) | ++site;
                if (!parts.pointer.empty()) {
                    diagnostics.error(plain.tokens[parts.pointer.begin].location,
                                      "expected a variable name in this threadgroup declaration");
                    ok = false;
                } else if (!parts.initializer.empty()) {
                    const Token& first = plain.tokens[parts.initializer.begin];
                    diagnostics.error(first.location, first.isPunct("=") || first.isPunct("{") || first.isPunct("(")
                                                          ? "threadgroup variable '" + declarator.name +
                                                                "' cannot have an initializer"
                                                          : std::string("expected ';' after the threadgroup declaration"));
                    ok = false;
                }
                declaration.declarators.push_back(std::move(declarator));
            }
            if (!ok) continue;
            out.push_back(std::move(declaration));
            i = end;
        }
    }
    return out;
}

std::optional<ThreadgroupOwnerHelper> threadgroupOwnerHelper(const Unit& unit, std::size_t function) {
    const FunctionDecl& f = unit.module().functions[function];
    if (!f.isKernel || !f.isTemplate || f.templateParameters.begin < 2 ||
        !unit[f.templateParameters.begin - 2].isIdentifier("template"))
        return std::nullopt;
    ThreadgroupOwnerHelper helper;
    helper.name = "__mc_tg_owner_" + std::to_string(function);
    for (TokenRange p : templateParameters(unit, f)) {
        const auto [name, pack] = templateParameterName(unit, p);
        if (name == kNoToken) return std::nullopt;
        if (!helper.bodyArguments.empty()) helper.bodyArguments += ", ";
        helper.bodyArguments += unit[name].spelling + (pack ? "..." : "");
        ++helper.parameters;
        helper.pack = helper.pack || pack;
        if (!pack && parameterDefault(unit.tokens(), unit.partner(), p) == p.end) helper.required = helper.parameters;
    }
    if (helper.parameters == 0) return std::nullopt;
    return helper;
}

bool namesThreadgroupOwner(const ThreadgroupOwnerHelper& helper, const Unit& unit, TokenRange arguments) {
    if (arguments.empty()) return false;
    const std::size_t given =
        splitParameters(unit.tokens(), unit.partner(), arguments.begin - 1, arguments.end).size();
    return given >= helper.required && (given <= helper.parameters || helper.pack);
}

void rewriteThreadgroupVariables(PassContext& c) {
    const TokenList& tokens = c.unit.tokens();
    const Module& module = c.unit.module();
    const bool validation = c.options.validation;
    std::map<std::size_t, std::optional<ThreadgroupOwnerHelper>> owners; // by kernel template
    for (const ThreadgroupDeclaration& d : c.findings.threadgroupVariables) {
        const FunctionDecl& f = module.functions[d.function];
        const char* group = f.isKernel ? "__mc_group" : "nullptr";
        // The type and the bounds without the declaration's attributes, which a template
        // argument cannot carry: their alignment is passed on by itself.
        std::vector<std::string> alignments;
        std::vector<bool> written(tokens.size() + 1, true);
        for (const TokenRange& a : d.attributes) {
            for (std::string& alignment : requestedAlignments(tokens, c.unit.partner(), a))
                alignments.push_back(std::move(alignment));
            for (std::size_t k = a.begin; k < a.end; ++k) written[k] = false;
        }
        const auto text = [&](TokenRange r) {
            std::string out;
            for (std::size_t k = r.begin; k < r.end; ++k) {
                if (!written[k] || tokens[k].isIdentifier("threadgroup")) continue;
                std::size_t run = k;
                while (run < r.end && written[run] && !tokens[run].isIdentifier("threadgroup")) ++run;
                const std::string part = outputText(tokens, k, run);
                if (!out.empty() && !part.empty()) out += ' ';
                out += part;
                k = run - 1;
            }
            return out;
        };
        const std::string type = text(d.type);
        std::string alignment;
        for (const std::string& a : alignments) // the largest
            alignment = alignment.empty() ? a : "(" + a + " > " + alignment + " ? " + a + " : " + alignment + ")";
        // The template arguments after the key: the owner, then whether the branch can run.
        auto owner = owners.find(d.function);
        if (owner == owners.end()) {
            owner = owners.emplace(d.function, threadgroupOwnerHelper(c.unit, d.function)).first;
            if (owner->second) {
                // Before the kernel's template header, where the body can name it.
                c.edits.insertBefore(f.templateParameters.begin - 2,
                                     "namespace { template <" +
                                         sourceText(tokens, f.templateParameters.begin, f.templateParameters.end) +
                                         "> constexpr mc_u64 " + owner->second->name +
                                         "() { return ::metalcpu_kernel::instantiation_owner(__PRETTY_FUNCTION__); } } ");
            }
        }
        std::vector<std::string> constants = constexprLocals(c.unit, f);
        // A function constant is a constant of the library compiled with its values.
        for (const FunctionConstantDecl& fc : c.findings.functionConstants) constants.push_back(fc.name);
        for (TokenRange p : templateParameters(c.unit, f))
            if (const std::size_t name = templateParameterName(c.unit, p).first; name != kNoToken)
                constants.push_back(tokens[name].spelling);
        const std::set<std::string> locals = declaredVariables(c.unit, f);
        std::string live;
        for (const EnclosingBranch& b : d.branches) {
            if (!constantShaped(c, b.condition, constants, locals)) continue;
            std::string condition = "(" + sourceText(tokens, b.condition.begin, b.condition.end) + ")";
            if (!b.cases.empty()) { // `(c) == (1) || (c) == (2)`
                bool shaped = true;
                std::string any;
                for (const TokenRange& value : b.cases) {
                    shaped = shaped && constantShaped(c, value, constants, locals);
                    any += std::string(any.empty() ? "" : " || ") + condition + " == (" +
                           sourceText(tokens, value.begin, value.end) + ")";
                }
                if (!shaped) continue;
                condition = "(" + any + ")";
            }
            live += std::string(live.empty() ? "" : " && ") + "!(__builtin_constant_p" + condition + " && " +
                    (b.then ? "!" : "") + condition + ")";
        }
        std::string extra;
        if (owner->second || !live.empty() || !alignment.empty())
            extra = std::string(", ") + (owner->second ? owner->second->name + "<" + owner->second->bodyArguments + ">()" : "0");
        if (!live.empty() || !alignment.empty()) extra += ", " + (live.empty() ? std::string("true") : live);
        if (!alignment.empty()) extra += ", " + alignment;
        // A scalar whose uses the checked-accesses pass made accesses of element 0 is an array
        // of one, which the threadgroup watch sees (findings.h).
        const auto watched = [&](const ThreadgroupDeclarator& v) {
            const std::vector<std::uint64_t>& keys = c.findings.watchedThreadgroupScalars;
            return std::find(keys.begin(), keys.end(), v.key) != keys.end();
        };
        std::string replacement;
        for (const ThreadgroupDeclarator& v : d.declarators) {
            if (!replacement.empty()) replacement += ' ';
            replacement += (validation ? "auto&& " : "auto& ") + v.name +
                           (validation ? " = ::metalcpu_kernel::threadgroup_object<"
                                       : " = ::metalcpu_kernel::threadgroup_variable<") +
                           type +
                           (validation && watched(v) ? std::string("[1]") : text(v.arrayBounds)) + ", " +
                           siteKeyLiteral(v.key) + extra + ">(" + group + ");";
        }
        // The type and bounds carry the earlier passes' edits (address-spaces erased
        // `threadgroup`, divisions rewrote bounds): the statement is theirs to take over.
        c.edits.takeOver(d.statement, replacement);
    }
}

} // namespace metalcpu::msl
