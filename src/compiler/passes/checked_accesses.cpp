#include "compiler/passes/checked_accesses.h"

#include "compiler/address_space.h"
#include "compiler/diagnostics.h"
#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/passes/air_intrinsics.h"
#include "compiler/passes/loop_ranges.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace metalcpu::msl {

namespace {

const Token kNone{};

const Token& at(const TokenList& tokens, std::size_t i) { return i < tokens.size() ? tokens[i] : kNone; }

/// Why an access the pass recognised stays unchecked (see UncheckedAccess).
enum class Unplaced { Operand, TemplateCall };

/// The first token of the postfix expression whose last token is `last`, or kNoToken with the
/// reason in `why`. A call with template arguments is refused: its `>` may as well end a
/// comparison (`a < b && c > (d)[i]`).
std::size_t postfixStart(const Unit& unit, std::size_t last, Unplaced* why) {
    bool templateArguments = false;
    const std::size_t start = unit.postfixStart(last, TemplateArguments::Refuse, &templateArguments);
    if (start == kNoToken) *why = templateArguments ? Unplaced::TemplateCall : Unplaced::Operand;
    return start;
}

/// What a checked operation does to the object it reaches, as reported when it faults.
enum class Use { Load, Store, Update };
struct UseSite {
    Use use = Use::Load;
    std::size_t operatorToken = kNoToken; ///< the assignment or increment, for the column
};

/// How the access [first, last] uses the element it reaches: stored by `=`, updated by a compound
/// assignment or `++`/`--`, or loaded, through the element's members too (`a[i].x = 0` stores
/// into the element). A unary `&` reads nothing, but where the element is not its whole operand
/// (`&a[i].x`) the checked operation still names the element, as a load; `&a[i]` itself has a
/// rewrite of its own (address_of()).
UseSite accessUse(const Unit& unit, std::size_t first, std::size_t last) {
    // `*list[i].target += x`: the element holds a pointer, which the `*` reads; what is
    // updated is what it points to, the dereference's own access.
    if (first > 0 && unit.role(first - 1) == TokenRole::Dereference) return {};
    const ExpressionUse use = unit.useOf(first, last, ObjectParts::Members);
    switch (use.kind) {
    case UseKind::Assigned: return {Use::Store, use.operatorToken};
    case UseKind::CompoundAssigned:
    case UseKind::Incremented: return {Use::Update, use.operatorToken};
    case UseKind::Read:
    case UseKind::AddressTaken: break;
    }
    return {};
}

/// The sites of the accesses, and how each access names its own. An access in a function
/// template (not a kernel: a kernel's frame takes its instantiation's name from reflection)
/// names an entry of a table local to the function, `__mc_local_sites`, a constant copy of its
/// `::__mc_sites` entry whose function is `__builtin_FUNCTION()`: the instantiation's name with
/// its template arguments (`argsort<1, float>`), as Apple's frames name it from debug
/// information. A constexpr function cannot hold a static table, so it keeps the name as written.
class SiteTable {
public:
    SiteTable(const Unit& unit, std::vector<AccessSite>& sites) : unit_(unit), sites_(sites) {}

    /// Adds the site of an access at `where` in `function` and returns how the access names it.
    std::string add(const Token& where, const FunctionDecl* function) {
        AccessSite site;
        site.file = where.location.file;
        site.function = function ? function->name : std::string();
        site.line = where.location.line;
        site.column = where.location.column;
        sites_.push_back(std::move(site));
        const std::size_t global = sites_.size() - 1;
        if (!function || !namesInstantiation(*function))
            return "::__mc_sites[" + std::to_string(global) + "]";
        std::vector<std::size_t>& local = local_[function->bodyOpen];
        local.push_back(global);
        return "__mc_local_sites[" + std::to_string(local.size() - 1) + "]";
    }

    /// Declares each function's local table at the start of its body.
    void declareLocalTables(EditList& edits) const {
        for (const auto& [bodyOpen, globals] : local_) {
            std::string table = " static constexpr ::mc_site __mc_local_sites[] = {";
            // Written out, not through a constexpr function: GCC names the function whose
            // initialiser it evaluates, so `__builtin_FUNCTION()` passed to one gives the name
            // without the template arguments.
            for (std::size_t g : globals) {
                const std::string site = "::__mc_sites[" + std::to_string(g) + "]";
                table += "{" + site + ".file, __builtin_FUNCTION(), " + site + ".line, " + site + ".column}, ";
            }
            edits.insertAfter(bodyOpen, table + "};");
        }
    }

private:
    bool namesInstantiation(const FunctionDecl& f) const {
        if (!f.isTemplate || f.isKernel || !f.hasBody || f.bodyOpen == kNoToken || f.name.starts_with("operator"))
            return false;
        for (std::size_t k = f.headerBegin; k < f.bodyOpen; ++k)
            if (unit_[k].isIdentifier("constexpr") || unit_[k].isIdentifier("consteval")) return false;
        return true;
    }

    const Unit& unit_;
    std::vector<AccessSite>& sites_;
    std::map<std::size_t, std::vector<std::size_t>> local_; ///< by body `{`: the global sites
};

/// The checked operation of `use` with its opening parenthesis: `::metalcpu_kernel::load(`, or
/// with a suffix for members (`load_member(`, `store_member_elements(`; checked.h).
std::string functionFor(Use use, std::string_view suffix = {}) {
    const char* verb = use == Use::Store ? "store" : use == Use::Update ? "update" : "load";
    return "::metalcpu_kernel::" + std::string(verb) + std::string(suffix) + "(";
}

/// Whether `name`, which follows the type of a parameter in an address space, declares it as an
/// array (`device float a[]`, `constant int k[4]`): the unit's declarator with its array bound,
/// followed by what ends a parameter.
bool isArrayParameter(const Unit& unit, std::size_t name) {
    if (unit.role(name) != TokenRole::Declarator || unit.role(name + 1) != TokenRole::ArrayBound ||
        unit.partner()[name + 1] == kNoToken)
        return false;
    // After its attributes (`[[buffer(0)]]`), a parameter's `,` or `)`; a local array with one
    // (`threadgroup float t[16] __attribute__((aligned(16)));`) ends at its `;`.
    std::size_t after = unit.partner()[name + 1] + 1;
    while (after < unit.tokens().size()) {
        const std::size_t last = attributeEnd(unit.tokens(), unit.partner(), after);
        if (last == kNoToken) break;
        after = last + 1;
    }
    return at(unit.tokens(), after).isPunct(",") || at(unit.tokens(), after).isPunct(")");
}

/// The accesses of a kernel's rows (issue 14): `p[i]`, where `i` is the kernel's `uint`
/// [[thread_position_in_grid]] parameter and `p` a pointer parameter into `device` or
/// `constant` memory, neither written in the body. In a group of a kernel that loops over its
/// threads, `i` runs over one range, so all of the group's `p[i]` lie inside p's region when
/// the first and the last do; the group function checks that once (rows_inside()) and runs
/// the threads with `__mc_rows_inside` true, where such an access is not checked again
/// (checked.h's load_in_rows()), and else as before, so reports stay the same. Empty `index`:
/// none.
struct RowAccesses {
    std::string index;
    std::vector<std::string> pointers; ///< the parameters that qualify
};
RowAccesses rowAccessesOf(const Unit& unit, const FunctionDecl& f, const std::vector<ParamInfo>& params) {
    RowAccesses rows;
    // The flag is a parameter of this definition alone: another declaration of the name (a
    // forward declaration, an overload) would declare another function.
    for (const FunctionDecl& other : unit.module().functions)
        if (&other != &f && other.name == f.name) return rows;
    // A lambda that names its captures would not capture the flag: `[&]` and `[=]` only.
    for (std::size_t j = f.bodyOpen + 1; j < f.bodyClose; ++j)
        if (unit.role(j) == TokenRole::LambdaIntroducer &&
            !(unit.partner()[j] == j + 2 && (unit[j + 1].isPunct("&") || unit[j + 1].isPunct("="))))
            return rows;
    for (const ParamInfo& p : params)
        if (p.kind == ParamKind::Builtin && p.builtin == Builtin::ThreadPositionInGrid && !p.name.empty() &&
            (p.typeText == "uint" || p.typeText == "unsigned int" || p.typeText == "uint32_t") &&
            keepsValue(unit, f, p.name, ObjectParts::All))
            rows.index = p.name;
    if (rows.index.empty()) return rows;
    for (const ParamInfo& p : params)
        if (p.kind == ParamKind::Buffer && !p.isReference && p.presentIf.empty() && !p.name.empty() &&
            (p.addressSpace == AddressSpace::Device || p.addressSpace == AddressSpace::Constant) &&
            !p.typeText.empty() && p.typeText.back() == '*' && keepsValue(unit, f, p.name, ObjectParts::None))
            rows.pointers.push_back(p.name);
    if (rows.pointers.empty()) rows.index.clear();
    return rows;
}

/// The loops of the kernels whose accesses are checked once, before the loop (loop_ranges.h):
/// each becomes `{ const bool __mc_range_n = <precheck>; for (...) ... }`. Only kernels whose
/// body runs per thread: work-item loops and coroutines run a loop once for the group, with
/// the threads inside it (the lane form checks its loops' ranges itself, lane_vectors.cpp).
/// Returns the `[` of each access so checked, with its loop's flag.
std::map<std::size_t, std::string> rangeCheckedLoops(PassContext& context) {
    const Unit& unit = context.unit;
    std::map<std::size_t, std::string> accesses;
    unsigned flags = 0;
    std::function<void(const FunctionDecl&, const std::vector<ParamInfo>&, const Statement&)> visit =
        [&](const FunctionDecl& f, const std::vector<ParamInfo>& params, const Statement& st) {
            if (const std::optional<RangedLoop> loop = rangedLoop(unit, f, params, st)) {
                const std::string flag = "__mc_range_" + std::to_string(flags++);
                context.edits.insertBefore(loop->keyword, "{ const bool " + flag + " = " + rangePrecheck(unit, *loop) + "; ");
                context.edits.insertAfter(loop->last, " }");
                for (std::size_t access : loop->accesses) accesses[access] = flag;
            }
            for (const Statement& child : st.children) visit(f, params, child);
        };
    for (const auto& [f, params] : context.findings.parameters) {
        const FunctionDecl& fn = unit.module().functions[f];
        const auto splits = [&](const auto& kernels) {
            return std::any_of(kernels.begin(), kernels.end(), [&](const auto& k) { return k.function == f; });
        };
        if (!fn.isKernel || splits(context.findings.workItemKernels) || splits(context.findings.coroutineKernels))
            continue;
        if (const std::vector<Statement>* body = unit.body(f))
            for (const Statement& st : *body) visit(fn, params, st);
    }
    return accesses;
}

/// The pointer a dereference [first, last] moved from, when the operand is written
/// `(type)(name + ...)` or `(name + ...)`: its name, else "". Passed to the checked operation
/// as a hint (checked.h's access_near()): the hint's region stays the same across a loop where
/// the moved pointer's is looked up at every access, and the check against it passes only where
/// the general one does, so any name is sound; one that is not a checked pointer is ignored.
std::string dereferenceHint(const Unit& unit, std::size_t first, std::size_t last) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    if (!at(tokens, first).isPunct("(") || partner[first] == kNoToken) return {};
    std::size_t open = first;
    if (unit.closesCStyleCast(partner[first])) open = partner[first] + 1;
    if (!at(tokens, open).isPunct("(") || partner[open] != last || unit.closesCStyleCast(partner[open])) return {};
    const std::size_t name = open + 1;
    const Token& n = at(tokens, name);
    if (!n.isIdentifier() || !unit.isUnqualifiedName(name) || !unit.isOperandName(name) ||
        !at(tokens, name + 1).isPunct("+") || n.erased || !n.prefix.empty() || !n.suffix.empty() || n.text != n.spelling)
        return {};
    return n.spelling;
}

/// The name declared by `(&name)[N]...` starting at `open`, or kNoToken.
std::size_t arrayReferenceName(const TokenList& tokens, std::size_t open) {
    const Token& name = at(tokens, open + 2);
    const bool shaped = at(tokens, open).isPunct("(") && at(tokens, open + 1).isPunct("&") && name.isIdentifier() &&
                        !isCppKeyword(name.spelling) && at(tokens, open + 3).isPunct(")") &&
                        at(tokens, open + 4).isPunct("[");
    return shaped ? open + 2 : kNoToken;
}

/// The last name of the data members named from `name` on (`a.b` in `x[i].a.b`, `m` in
/// `p->m`), or kNoToken when `name` itself is none: a member function called
/// (`x[i].f()`, `x[i].a.f()` stops at `a`), a qualified member (`x.Base::m`), `template`.
std::size_t dataMembersEnd(const Unit& unit, std::size_t name) {
    const TokenList& tokens = unit.tokens();
    std::size_t last = kNoToken;
    for (; name < tokens.size(); name += 2) {
        const Token& t = tokens[name];
        if (!t.isIdentifier() || isCppKeyword(t.spelling) || unit.role(name) != TokenRole::Member ||
            unit.callOpen(name) != kNoToken || at(tokens, name + 1).isPunct("::"))
            break;
        last = name;
        if (!at(tokens, name + 1).isPunct(".")) break;
    }
    return last;
}

/// Whether `name` is a member function called on what stands before its `.` or `->`
/// (`x[i].f()`, `p->f<T>(v)`, `x[i].template f<T>()`).
bool calledMember(const Unit& unit, std::size_t name) {
    if (at(unit.tokens(), name).isIdentifier("template")) ++name;
    const Token& t = at(unit.tokens(), name);
    return t.isIdentifier() && !isCppKeyword(t.spelling) && unit.role(name) == TokenRole::Member &&
           unit.callOpen(name) != kNoToken;
}

/// Where an expression stands, for what may replace an array member by a checked array:
/// never in the operands of `sizeof`, `alignof`, `decltype` and friends, which are not
/// evaluated and whose type it would change; nor as a whole argument of a call or a
/// reference's whole initialiser, which may bind it to a reference to an array (PyTorch's
/// `copy_string(buf->file, ...)` deduces the array's extent).
class ExpressionPlaces {
public:
    explicit ExpressionPlaces(const Unit& unit)
        : unit_(unit), tokens_(unit.tokens()), enclosing_(tokens_.size(), kNoToken) {
        const std::vector<std::size_t>& partner = unit.partner();
        std::vector<std::size_t> open;
        for (std::size_t i = 0; i < tokens_.size(); ++i) {
            if (!open.empty() && partner[open.back()] == i) open.pop_back();
            enclosing_[i] = open.empty() ? kNoToken : open.back();
            const Token& t = tokens_[i];
            if ((t.isPunct("(") || t.isPunct("[") || t.isPunct("{")) && partner[i] != kNoToken && partner[i] > i)
                open.push_back(i);
        }
    }
    /// Whether the expression [first, last] is a whole argument of a call.
    bool isWholeArgument(std::size_t first, std::size_t last) const {
        const Token& before = at(tokens_, first - 1);
        const Token& after = at(tokens_, last + 1);
        if (!(before.isPunct("(") || before.isPunct(",")) || !(after.isPunct(")") || after.isPunct(",")))
            return false;
        const std::size_t open = before.isPunct("(") ? first - 1 : enclosing_[first];
        return open != kNoToken && unit_.role(open) == TokenRole::CallOpen;
    }
    /// The callee of the call of which [first, last] is a whole argument: its name, or
    /// kNoToken (not a whole argument, or a callee that is not a plain name).
    std::size_t calleeOfWholeArgument(std::size_t first, std::size_t last) const {
        if (!isWholeArgument(first, last)) return kNoToken;
        const std::size_t open = at(tokens_, first - 1).isPunct("(") ? first - 1 : enclosing_[first];
        return open > 0 && unit_.role(open - 1) == TokenRole::Callee ? open - 1 : kNoToken;
    }
    /// Whether token `k` is in a lambda's capture list.
    bool isCapture(std::size_t k) const {
        return enclosing_[k] != kNoToken && unit_.role(enclosing_[k]) == TokenRole::LambdaIntroducer;
    }
    /// Whether the expression [first, last] is the whole initialiser of a reference
    /// (`auto& q = x[i].qs;`), which a checked array, a value, could not bind.
    bool initialisesReference(std::size_t first, std::size_t last) const {
        const Token& after = at(tokens_, last + 1);
        return first >= 3 && tokens_[first - 1].isPunct("=") && unit_.role(first - 2) == TokenRole::Declarator &&
               (tokens_[first - 3].isPunct("&") || tokens_[first - 3].isPunct("&&")) &&
               (after.isPunct(";") || after.isPunct(","));
    }
    /// Whether the expression that starts at `first` is (in) an unevaluated operand.
    bool isUnevaluated(std::size_t first) const {
        if (first > 0 && isUnevaluating(tokens_[first - 1])) return true; // `sizeof x[0].m`
        for (std::size_t o = enclosing_[first]; o != kNoToken; o = enclosing_[o]) {
            if (tokens_[o].isPunct("{")) return false; // a body, evaluated where it runs
            if (tokens_[o].isPunct("(") && o > 0 && isUnevaluating(tokens_[o - 1])) return true;
        }
        return false;
    }

private:
    static bool isUnevaluating(const Token& t) {
        for (const char* word : {"sizeof", "alignof", "_Alignof", "__alignof__", "decltype", "typeof", "__typeof__",
                                 "__typeof", "noexcept", "typeid"})
            if (t.isIdentifier(word)) return true;
        return false;
    }
    const Unit& unit_;
    const TokenList& tokens_;
    std::vector<std::size_t> enclosing_; ///< the innermost `(`, `[` or `{` around each token
};

/// Whether the members ending at `last` are subscripted right away (`x[i].v[j]`): the
/// `_member_elements` operations then give the member's elements, each checked by the subscript
/// (checked.h's member_elements), and take the subscripted element's use, for a member checked
/// whole.
bool subscriptedMember(const Unit& unit, std::size_t last) {
    return unit.role(last + 1) == TokenRole::Subscript && unit.partner()[last + 1] != kNoToken;
}

/// The selector of the members [first, last] (`a . b`: names and dots, none rewritten by an
/// earlier pass), `::__mc_member_<i>{}`, added to `selectors` when new; empty when a token
/// there was rewritten.
std::string memberSelector(const Unit& unit, const EditList& edits, std::size_t first, std::size_t last,
                           std::vector<std::string>& selectors) {
    std::string chain;
    for (std::size_t k = first; k <= last; ++k) {
        if (edits.isRewritten(k)) return {};
        chain += unit[k].spelling;
    }
    std::size_t index = 0;
    while (index < selectors.size() && selectors[index] != chain) ++index;
    if (index == selectors.size()) selectors.push_back(chain);
    return "::__mc_member_" + std::to_string(index) + "{}";
}

/// A scalar threadgroup variable (`threadgroup float total;`) whose uses are all rewritten as
/// accesses of element 0 of an array of one, and those uses: the names after its declaration
/// in its function's body, outside lambda captures.
struct WatchedScalar {
    const ThreadgroupDeclarator* variable;
    std::vector<std::size_t> uses;
};

/// The scalar threadgroup variables whose every use can be such an access: not subscripted (a
/// vector's `v[1]`, which would index the array of one), and their name declared nowhere else
/// in the function (a local or a lambda's parameter that could hide it). The others stay plain
/// references, unwatched, as before.
std::vector<WatchedScalar> watchedScalars(const Unit& unit, const std::vector<ThreadgroupDeclaration>& declarations,
                                          const ExpressionPlaces& places) {
    const TokenList& tokens = unit.tokens();
    std::vector<WatchedScalar> watched;
    for (const ThreadgroupDeclaration& d : declarations) {
        const FunctionDecl& f = unit.module().functions[d.function];
        if (f.bodyOpen == kNoToken || unit.partner()[f.bodyOpen] == kNoToken) continue;
        const std::size_t bodyClose = unit.partner()[f.bodyOpen];
        for (const ThreadgroupDeclarator& v : d.declarators) {
            if (!v.arrayBounds.empty()) continue;
            WatchedScalar scalar{&v, {}};
            bool plain = false;
            for (std::size_t k = f.bodyOpen + 1; k < bodyClose && !plain; ++k) {
                if (!tokens[k].isIdentifier(v.name) || k == v.nameToken) continue;
                if (unit.role(k) == TokenRole::Declarator) plain = true;
                // The statement ends past its `;`: the next statement's first token is a use.
                else if (k >= d.statement.end && unit.role(k) == TokenRole::Name && !places.isCapture(k))
                    scalar.uses.push_back(k);
                plain = plain || unit.role(k + 1) == TokenRole::Subscript;
            }
            if (!plain) watched.push_back(std::move(scalar));
        }
    }
    return watched;
}

/// Functions of <metal_stdlib> that access memory through a pointer argument, whose checked
/// overloads (metalcpu/checked.h) take the call's site as a first argument.
bool takesCallSite(std::string_view name) {
    static const char* const kSited[] = {
        "atomic_load_explicit",      "atomic_store_explicit",     "atomic_exchange_explicit",
        "atomic_fetch_add_explicit", "atomic_fetch_sub_explicit", "atomic_fetch_and_explicit",
        "atomic_fetch_or_explicit",  "atomic_fetch_xor_explicit", "atomic_fetch_min_explicit",
        "atomic_fetch_max_explicit", "atomic_min_explicit",       "atomic_max_explicit",
        "atomic_compare_exchange_weak_explicit", "atomic_compare_exchange_strong_explicit",
        "simdgroup_load",            "simdgroup_store",
        "__metal_simdgroup_async_copy_1d", "__metal_simdgroup_async_copy_2d",
        "__metal_simdgroup_matrix_8x8_load", "__metal_simdgroup_matrix_8x8_store",
    };
    for (const char* sited : kSited)
        if (name == sited) return true;
    return false;
}

} // namespace

void rewriteCheckedPointerTypes(PassContext& context) {
    const Unit& unit = context.unit;
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    EditList& edits = context.edits;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        const std::optional<Space> qualifier = addressSpaceOf(t);
        if (!qualifier || !isCheckedSpace(*qualifier) || !unit.isUnqualifiedName(i)) continue;
        const SpaceInfo& space = infoOf(*qualifier);
        // The rest of the type, up to its `*`, the declared name or what else ends it; what it
        // says of itself outside its template arguments.
        const std::size_t j = unit.typeEnd(i + 1);
        bool constInside = false;
        bool sawType = false;
        bool placeholder = false;
        for (std::size_t k = i + 1; k < j; ++k) {
            const Token& n = tokens[k];
            if (n.isPunct("<")) {
                k = closingAngle(tokens, partner, k, j);
            } else if (n.isIdentifier("const") || n.isIdentifier("volatile")) {
                constInside = constInside || n.isIdentifier("const");
            } else if (n.isIdentifier() && !n.isIdentifier("typename")) {
                sawType = true;
                placeholder = placeholder || n.isIdentifier("auto");
            }
        }
        const std::size_t star = j < tokens.size() ? j : tokens.size() - 1;
        // `device float a[] [[buffer(0)]]`: an array parameter is a pointer.
        const std::size_t arrayName = sawType && isArrayParameter(unit, j) ? j : kNoToken;
        // `threadgroup float (&t)[4][8]`: a reference to a named threadgroup array is the checked
        // array itself, so a helper checks its subscripts as the kernel does (checked.h).
        const std::size_t referenceName =
            space.space == Space::Threadgroup && sawType && !placeholder ? arrayReferenceName(tokens, j) : kNoToken;
        if (referenceName != kNoToken) {
            if (tokens[j].erased) continue;
            std::size_t lastBound = j + 4;
            if (partner[lastBound] == kNoToken) continue;
            while (at(tokens, partner[lastBound] + 1).isPunct("[") && partner[partner[lastBound] + 1] != kNoToken)
                lastBound = partner[lastBound] + 1;
            const std::string name = outputText(tokens, referenceName, referenceName + 1);
            edits.erase(TokenRange{j, referenceName + 2}); // `(&t)`
            edits.insertAfter(partner[lastBound], ", " + std::to_string(space.number) + "> " + name);
        } else if (arrayName != kNoToken) {
            // Erased whole: a kernel's explicit instantiation, which the glue replaces (its
            // address-space token is erased too, and must stay so).
            if (tokens[j].erased) continue;
            edits.insertAfter(arrayName - 1, ", " + std::to_string(space.number) + ">");
            edits.erase(TokenRange{arrayName + 1, partner[arrayName + 1] + 1});
        } else if (!sawType || !tokens[star].isPunct("*") || tokens[star].erased) {
            // Not a pointer, or one in a declaration an earlier pass erased (a kernel's explicit
            // instantiation, an overload collapsed into another).
            continue;
        } else if (placeholder) {
            // `const constant auto* p = in;`: a checked pointer cannot hold `auto`, and `auto*`
            // deduces nothing from one; `auto p = in;` deduces the checked pointer itself.
            for (std::size_t k = i; k > 0 && (tokens[k - 1].isIdentifier("const") || tokens[k - 1].isIdentifier("volatile"));
                 --k)
                edits.erase(k - 1);
            for (std::size_t k = i; k <= j; ++k)
                if (!tokens[k].isIdentifier("auto")) edits.erase(k);
            continue;
        }
        // `const device T*`, `volatile device atomic_int*`: qualifiers written before the address
        // space qualify the pointee, so they go inside, where templates deduce T the same way
        // (left outside, `volatile` would qualify the checked pointer object itself).
        std::string volatileInside;
        for (std::size_t k = i; k > 0 && !tokens[k - 1].erased &&
                                (tokens[k - 1].isIdentifier("const") || tokens[k - 1].isIdentifier("volatile"));
             --k) {
            edits.erase(k - 1);
            if (tokens[k - 1].isIdentifier("const")) constInside = true;
            else volatileInside = "volatile ";
        }
        const bool addConst = space.readOnly && !constInside;
        // A threadgroup array is never a const object, so its checked array holds mutable
        // elements, and a reference to const elements drops the const: `threadgroup const T
        // (&src)[A]` must deduce T from the checked array of floats the caller passes
        // (SPIRV-Cross's spvArrayCopyFromThreadGroup* helpers), which `const T` would not. The
        // plain flavour keeps the const, and with it the compile error a store through it is.
        const bool keepConst = referenceName == kNoToken;
        edits.replace(i, std::string(referenceName != kNoToken ? "::metalcpu_kernel::checked_array<"
                                                               : "::metalcpu_kernel::checked_ptr<") +
                             (keepConst && (addConst || constInside) ? "const " : "") + volatileInside);
        if (constInside || !keepConst) // the const written inside now comes first; drop the original
            for (std::size_t k = i + 1; k < j; ++k)
                if (tokens[k].isIdentifier("const")) edits.erase(k);
        if (arrayName == kNoToken && referenceName == kNoToken)
            edits.replace(star, ", " + std::to_string(space.number) + ">");

        // reinterpret_cast<device T*>(x) and friends.
        for (std::size_t k = i; k-- > 0;) {
            if (tokens[k].isPunct("<") && k > 0) {
                // A named cast's operand is in CastOpen parentheses after its type.
                const std::size_t close = closingAngle(tokens, partner, k, tokens.size());
                if (close != kNoToken && close > j && tokens[k - 1].isIdentifier() && !unit.isOperandName(k - 1) &&
                    unit.role(close + 1) == TokenRole::CastOpen)
                    edits.replace(k - 1, "::metalcpu_kernel::pointer_cast");
                break;
            }
            if (!tokens[k].isIdentifier() && !tokens[k].isPunct("::")) break;
        }
    }
}

std::string memberSelectorDefinitions(const std::vector<std::string>& members) {
    std::string out;
    for (std::size_t i = 0; i < members.size(); ++i)
        out += "struct __mc_member_" + std::to_string(i) +
               " { template <class E> constexpr decltype(auto) operator()(E&& e) const { return (e." + members[i] +
               "); } };\n";
    return out;
}

std::string accessSiteTable(const std::vector<AccessSite>& sites, const FileTable& files) {
    if (sites.empty()) return {};
    std::string out = "static constexpr ::mc_site __mc_sites[] = {\n";
    for (const AccessSite& s : sites)
        out += "    {" + quoteString(files.reportedName(s.file)) + ", " + quoteString(s.function) + ", " +
               std::to_string(s.line) + "u, " + std::to_string(s.column) + "u},\n";
    return out + "};\n";
}

void rewriteCheckedAccesses(PassContext& context) {
    const Unit& unit = context.unit;
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    const std::vector<FunctionDecl>& functions = unit.module().functions;
    EditList& edits = context.edits;
    SiteTable sites(unit, context.findings.accessSites);
    std::vector<UncheckedAccess>& unchecked = context.findings.uncheckedAccesses;
    auto giveUp = [&](std::size_t where, std::string_view access, Unplaced why) {
        unchecked.push_back({tokens[where].location, std::string(access) + (why == Unplaced::TemplateCall
                                                                                ? " of a call with template arguments"
                                                                                : " whose operand the front end "
                                                                                  "cannot delimit")});
    };
    const ExpressionPlaces places(unit);
    // Opens a wrapper around the access [first, last]. Inside a collective call's site wrapper
    // that starts at the same token and ends after the access (`p` of `p->f()`, whose call
    // is `(simd_call_site(), p->f())`), it must open inside that wrapper, or its closing part
    // would close the call's.
    auto openAround = [&](std::size_t first, std::size_t last, const std::string& text) {
        const std::vector<TokenRange>& calls = context.findings.collectiveCallSites;
        const bool insideCall = std::any_of(calls.begin(), calls.end(), [&](const TokenRange& call) {
            return call.begin == first && call.end > last + 1;
        });
        if (insideCall) edits.attachBefore(first, text);
        else edits.insertBefore(first, text);
    };
    std::vector<std::string>& selectors = context.findings.memberSelectors;
    const FunctionDecl* function = nullptr;
    std::map<std::size_t, RowAccesses> rowAccesses; // by kernel definition, when first needed
    // The access [first, last] of members, whose element's operands and selector are written
    // (`x, i, select` or `p, 0, select`): wrapped in load_member() and its kin, or, where it is
    // the whole operand of a `&`, in member_address(), which reads nothing.
    // `operand` (the `]` or the `->`) becomes `, index, selector` and the members' tokens
    // (`.a.b`, `a.b`) go.
    auto accessMembers = [&](std::size_t first, std::size_t operand, std::string_view index, std::size_t members,
                             std::size_t last, const std::string& selector, const UseSite& use, const Token& where) {
        edits.replace(operand, ", " + std::string(index) + selector);
        edits.erase(TokenRange{members, last + 1});
        const ExpressionUse whole = unit.useOf(first, last, ObjectParts::None);
        if (whole.kind == UseKind::AddressTaken) {
            edits.erase(whole.operatorToken);
            openAround(first, last, "::metalcpu_kernel::member_address(");
            edits.insertAfter(last, ")");
            return;
        }
        const bool boundWhole = places.isWholeArgument(first, last) || places.initialisesReference(first, last);
        const std::string wrapper = subscriptedMember(unit, last)        ? functionFor(use.use, "_member_elements")
                                    : use.use == Use::Load && boundWhole ? "::metalcpu_kernel::argument_member("
                                                                         : functionFor(use.use, "_member");
        openAround(first, last, wrapper);
        edits.insertAfter(last, ", " + sites.add(where, function) + ")");
    };
    // How the members [first, last] are used: a member subscripted right away by its element's
    // use (`x[i].v[j] = 0` stores), others as accessUse() says.
    auto membersUse = [&](std::size_t first, std::size_t last) {
        return accessUse(unit, first, subscriptedMember(unit, last) ? partner[last + 1] : last);
    };
    // A function of the file's own that shares a sited function's name takes no site.
    std::vector<std::string_view> ownFunctions;
    // (Not a declaration bound to an AIR intrinsic: its calls reach the library's function.)
    for (const FunctionDecl& fn : functions)
        if (!bindsAirIntrinsic(unit, fn)) ownFunctions.push_back(fn.name);
    auto isOwnFunction = [&](std::string_view name) {
        for (std::string_view own : ownFunctions)
            if (own == name) return true;
        return false;
    };
    // The reference argument (`device T& r`, `threadgroup T& a`) of kernel `f` that token `name`
    // names where an expression starts (not a member: `x.r`), or nullptr. Its uses stay plain
    // references (checked once per group where they are bound), so `&r` is a raw address.
    auto referenceArgument = [&](std::size_t f, std::size_t name) -> const ParamInfo* {
        const auto params = context.findings.parameters.find(f);
        if (params == context.findings.parameters.end() || !tokens[name].isIdentifier() ||
            at(tokens, name - 1).isPunct(".") || at(tokens, name - 1).isPunct("->") || at(tokens, name - 1).isPunct("::"))
            return nullptr;
        const ParamInfo* p = parameterNamed(params->second, tokens[name].spelling);
        const bool space = p && (p->addressSpace == AddressSpace::Device || p->addressSpace == AddressSpace::Constant ||
                                 p->addressSpace == AddressSpace::Threadgroup);
        return space && p->isReference && (p->kind == ParamKind::Buffer || p->kind == ParamKind::Threadgroup) ? p : nullptr;
    };
    // `total` of `threadgroup float total;`: an array of one (the threadgroup-variables pass),
    // each use an access of its element 0, so that the threadgroup watch sees it as it sees an
    // array's. A whole argument of a call that may bind it to a reference (the file's own
    // functions, member functions) or a reference's whole initialiser is the element itself,
    // unwatched: the callee may store through it, and a load would be told.
    for (const WatchedScalar& scalar : watchedScalars(unit, context.findings.threadgroupVariables, places)) {
        context.findings.watchedThreadgroupScalars.push_back(scalar.variable->key);
        for (const std::size_t k : scalar.uses) {
            const std::size_t f = unit.functionAt(k);
            function = f == kNoToken ? nullptr : &functions[f];
            if (places.isUnevaluated(k)) { // `sizeof(total)`: the element's type
                edits.insertAfter(k, "[0]");
                continue;
            }
            std::size_t members = at(tokens, k + 1).isPunct(".") ? dataMembersEnd(unit, k + 2) : kNoToken;
            const std::string selector =
                members != kNoToken ? memberSelector(unit, edits, k + 2, members, selectors) : std::string();
            if (selector.empty()) members = kNoToken;
            const std::size_t last = members != kNoToken ? members : k;
            const ExpressionUse whole = unit.useOf(k, last, ObjectParts::None);
            const std::string operands = members != kNoToken ? ", 0, " + selector : ", 0";
            if (whole.kind == UseKind::AddressTaken) { // `&total`, `&total.m`: a checked pointer
                edits.erase(whole.operatorToken);
                openAround(k, last, members != kNoToken ? "::metalcpu_kernel::member_address("
                                                        : "::metalcpu_kernel::address_of(");
                edits.insertAfter(k, operands);
                if (members != kNoToken) edits.erase(TokenRange{k + 1, members + 1});
                edits.insertAfter(last, ")");
                continue;
            }
            const std::size_t callee = places.calleeOfWholeArgument(k, last);
            const bool bindsReference = places.initialisesReference(k, last) ||
                                        (places.isWholeArgument(k, last) &&
                                         (callee == kNoToken || isOwnFunction(tokens[callee].spelling)));
            if (members == kNoToken && bindsReference) {
                edits.insertAfter(k, ".data[0]");
                continue;
            }
            const UseSite use = members != kNoToken ? membersUse(k, members) : accessUse(unit, k, k);
            const Token& where = use.operatorToken != kNoToken ? tokens[use.operatorToken] : tokens[k];
            const std::string wrapper = members == kNoToken            ? functionFor(use.use)
                                        : subscriptedMember(unit, last) ? functionFor(use.use, "_member_elements")
                                        : use.use == Use::Load && bindsReference
                                            ? "::metalcpu_kernel::argument_member("
                                            : functionFor(use.use, "_member");
            openAround(k, last, wrapper);
            edits.insertAfter(k, operands);
            if (members != kNoToken) edits.erase(TokenRange{k + 1, members + 1});
            edits.insertAfter(last, ", " + sites.add(where, function) + ")");
        }
    }
    const std::map<std::size_t, std::string> rangedAccesses = rangeCheckedLoops(context);
    std::vector<std::pair<std::size_t, std::string>> dereferenceCloses; // after the loop
    for (std::size_t k = 1; k + 1 < tokens.size(); ++k) {
        const Token& t = tokens[k];
        // Tokens earlier passes rewrote are types (checked pointers) or erased declarations.
        if (t.kind != TokenKind::Punctuator || edits.isRewritten(k) || t.erased) continue;
        const std::size_t f = unit.functionAt(k);
        if (f == kNoToken) continue; // only function bodies run
        function = &functions[f];

        // `&r` of a kernel's reference argument (`threadgroup atomic_uint& a`, naga's workgroup
        // variables): a checked pointer of its space, which a function template taking
        // `threadgroup A*` deduces from (a raw pointer would not).
        if (unit.role(k) == TokenRole::AddressOf && tokens[k + 1].isIdentifier() && !edits.isRewritten(k + 1)) {
            const ParamInfo* reference = referenceArgument(f, k + 1);
            const ExpressionUse whole = unit.useOf(k + 1, k + 1, ObjectParts::None);
            if (reference && whole.kind == UseKind::AddressTaken && whole.operatorToken == k) {
                edits.erase(k);
                edits.insertBefore(k + 1, "::metalcpu_kernel::reference_address<" +
                                              std::to_string(int(reference->addressSpace)) + ">(");
                edits.insertAfter(k + 1, ")");
                continue;
            }
        }

        // `atomic_fetch_add_explicit(p, ...)`: the call's site goes first, for its checked
        // overload's report (the column of the function's name).
        if (unit.role(k) == TokenRole::CallOpen && tokens[k - 1].isIdentifier() && !edits.isRewritten(k - 1) &&
            takesCallSite(tokens[k - 1].spelling) && !isOwnFunction(tokens[k - 1].spelling)) {
            const bool noArguments = at(tokens, k + 1).isPunct(")");
            edits.insertAfter(k, sites.add(tokens[k - 1], function) + (noArguments ? "" : ", "));
            continue;
        }

        if (unit.role(k) == TokenRole::Subscript || unit.role(k) == TokenRole::ArrayBound) {
            if (unit.role(k) == TokenRole::ArrayBound) continue; // `float a[4]`, `T* p[2]`
            const std::size_t close = partner[k];
            const Token& before = tokens[k - 1];
            Unplaced why = Unplaced::Operand;
            const std::size_t s = postfixStart(unit, k - 1, &why);
            if (s == kNoToken) {
                giveUp(k, "a subscript", why);
                continue;
            }
            // `&a[i]`, `&(a[i])`, the whole operand of the `&`: a checked pointer's address
            // arithmetic (the address of a loaded element would be a raw pointer).
            const ExpressionUse whole = unit.useOf(s, close, ObjectParts::None);
            if (whole.kind == UseKind::AddressTaken) {
                edits.erase(whole.operatorToken);
                // Of an element reached through a kernel's reference argument (`&arr.inner[i]`,
                // `device T& arr`): a checked pointer of its space all the same.
                const ParamInfo* reference = referenceArgument(f, s);
                openAround(s, close, reference ? "::metalcpu_kernel::address_in<" +
                                                     std::to_string(int(reference->addressSpace)) + ">("
                                               : std::string("::metalcpu_kernel::address_of("));
                edits.replace(k, ", ");
                edits.replace(close, ")");
                continue;
            }
            // `x[i].a.b`: the members' bytes alone (checked.h's load_member).
            std::size_t members = tokens[close + 1].isPunct(".") && !places.isUnevaluated(s)
                                      ? dataMembersEnd(unit, close + 2)
                                      : kNoToken;
            const std::string selector =
                members != kNoToken ? memberSelector(unit, edits, close + 2, members, selectors) : std::string();
            if (selector.empty()) members = kNoToken;
            const UseSite use = members != kNoToken ? membersUse(s, members) : accessUse(unit, s, close);
            const Token& where = use.operatorToken != kNoToken ? tokens[use.operatorToken]
                                 : before.isIdentifier()       ? before
                                                               : tokens[s];
            if (members != kNoToken) {
                edits.replace(k, ", ");
                accessMembers(s, close, "", close + 1, members, selector, use, where);
                continue;
            }
            // `x[i].f()`: f reads the element through `this` (checked.h's member_call()).
            if (tokens[close + 1].isPunct(".") && calledMember(unit, close + 2) && !places.isUnevaluated(s)) {
                openAround(s, close, "::metalcpu_kernel::member_call(");
                edits.replace(k, ", ");
                edits.replace(close, ", " + sites.add(where, function) + ")");
                edits.replace(close + 1, "->");
                continue;
            }
            // `p[i]` of a kernel's rows: checked once per group where it can be.
            if (function->isKernel && s == k - 1 && close == k + 2 && tokens[k + 1].isIdentifier() &&
                !edits.isRewritten(k - 1) && !edits.isRewritten(k + 1)) {
                auto known = rowAccesses.find(f);
                if (known == rowAccesses.end()) {
                    const auto params = context.findings.parameters.find(f);
                    known = rowAccesses
                                .emplace(f, params == context.findings.parameters.end()
                                                ? RowAccesses{}
                                                : rowAccessesOf(unit, *function, params->second))
                                .first;
                }
                const RowAccesses& rows = known->second;
                if (!rows.index.empty() && tokens[k + 1].spelling == rows.index &&
                    std::find(rows.pointers.begin(), rows.pointers.end(), before.spelling) != rows.pointers.end()) {
                    openAround(s, close, functionFor(use.use, "_in_rows"));
                    edits.replace(k, ", ");
                    edits.replace(close, ", " + sites.add(where, function) + ", __mc_rows_inside)");
                    std::vector<std::string>& used = context.findings.rowCheckedPointers[f];
                    if (std::find(used.begin(), used.end(), before.spelling) == used.end())
                        used.push_back(before.spelling);
                    continue;
                }
            }
            // `p[index]` in a loop whose range was checked before it.
            if (auto ranged = rangedAccesses.find(k); ranged != rangedAccesses.end() && s == k - 1) {
                openAround(s, close, functionFor(use.use, "_in") + ranged->second + ", ");
                edits.replace(k, ", ");
                edits.replace(close, ", " + sites.add(where, function) + ")");
                continue;
            }
            openAround(s, close, functionFor(use.use));
            edits.replace(k, ", ");
            edits.replace(close, ", " + sites.add(where, function) + ")");
        } else if (unit.role(k) == TokenRole::Dereference) {
            // `&*p` computes an address and reads nothing.
            if (unit.role(k - 1) == TokenRole::AddressOf) continue;
            const std::size_t last = unit.postfixEnd(k + 1);
            if (last == kNoToken) {
                giveUp(k, "a dereference", Unplaced::Operand);
                continue;
            }
            // `(*f)(x)` calls what `f` points to and `void (*f)(int)` declares a pointer to a
            // function: where the dereference is a whole callee in parentheses, it reads nothing.
            if (unit.role(last + 2) == TokenRole::CallOpen &&
                unit.postfixStart(last + 1, TemplateArguments::Refuse) == k - 1)
                continue;
            // `(*p).a.b`: the members' bytes alone, as for `p->a.b`.
            const std::size_t open = k - 1, close = last + 1;
            std::size_t members = kNoToken;
            if (tokens[open].isPunct("(") && unit.role(open) != TokenRole::CallOpen &&
                unit.role(open) != TokenRole::CastOpen && partner[open] == close && at(tokens, close + 1).isPunct(".") &&
                !places.isUnevaluated(open))
                members = dataMembersEnd(unit, close + 2);
            const std::string selector =
                members != kNoToken ? memberSelector(unit, edits, close + 2, members, selectors) : std::string();
            if (!selector.empty()) {
                const UseSite use = membersUse(open, members);
                const Token& where = use.operatorToken != kNoToken ? tokens[use.operatorToken] : tokens[close + 2];
                edits.erase(open);
                edits.erase(k);
                accessMembers(open, close, "0, ", close + 1, members, selector, use, where);
                continue;
            }
            // `(*p)[i]`, `((*p))[i]`: the subscript checks the element (checked.h's elements_of()).
            auto grouping = [&](std::size_t o, std::size_t c) {
                return o < tokens.size() && tokens[o].isPunct("(") && unit.role(o) != TokenRole::CallOpen &&
                       unit.role(o) != TokenRole::CastOpen && partner[o] == c;
            };
            std::size_t outerClose = close;
            for (std::size_t o = open; grouping(o, outerClose) && o > 0 && grouping(o - 1, outerClose + 1); --o)
                ++outerClose;
            if (grouping(open, close) && unit.role(outerClose + 1) == TokenRole::Subscript && !places.isUnevaluated(open)) {
                edits.replace(k, "::metalcpu_kernel::elements_of(");
                dereferenceCloses.push_back({last, ", " + sites.add(t, function) + ")"});
                continue;
            }
            const UseSite use = accessUse(unit, k, last);
            const Token& where = use.operatorToken != kNoToken ? tokens[use.operatorToken] : t;
            const std::string hint = dereferenceHint(unit, k + 1, last);
            edits.replace(k, functionFor(use.use));
            dereferenceCloses.push_back(
                {last, ", 0, " + sites.add(where, function) + (hint.empty() ? "" : ", " + hint) + ")"});
        } else if (t.isPunct("->")) {
            if (unit.startsTrailingReturnType(k)) continue;
            const Token& before = tokens[k - 1];
            // A call's result: what it returns is not known here (a pointer, or a class with
            // operator->), so the access stays unchecked.
            if (before.isPunct(")") && unit.role(partner[k - 1]) == TokenRole::CallOpen) {
                unchecked.push_back({t.location, "a member access through a call's result"});
                continue;
            }
            // `(p + 1)->m`, `static_cast<device T*>(q)->m`, `p->m`, `a[i]->m`: checked below;
            // what else ends an operand (`p++->m`) is counted.
            if (!unit.isOperandName(k - 1) && !before.isPunct("]") && !before.isPunct(")")) {
                giveUp(k, "a member access", Unplaced::Operand);
                continue;
            }
            if (!unit.isOperandName(k + 1)) {
                giveUp(k, "a member access", Unplaced::Operand); // p->template f<T>(), p->~T()
                continue;
            }
            Unplaced why = Unplaced::Operand;
            const std::size_t s = postfixStart(unit, k - 1, &why);
            if (s == kNoToken) {
                giveUp(k, "a member access", why);
                continue;
            }
            // `p->a.b`: the members' bytes alone, as for `p[0].a.b`.
            std::size_t members = places.isUnevaluated(s) ? kNoToken : dataMembersEnd(unit, k + 1);
            const std::string selector =
                members != kNoToken ? memberSelector(unit, edits, k + 1, members, selectors) : std::string();
            if (selector.empty()) members = kNoToken;
            const UseSite use = members != kNoToken ? membersUse(s, members) : accessUse(unit, s, k + 1);
            const Token& where = use.operatorToken != kNoToken ? tokens[use.operatorToken] : tokens[k + 1];
            if (members != kNoToken) {
                accessMembers(s, k, "0, ", k + 1, members, selector, use, where);
                continue;
            }
            if (calledMember(unit, k + 1) && !places.isUnevaluated(s)) { // `p->f()`, as `x[i].f()`
                openAround(s, k, "::metalcpu_kernel::member_call(");
                edits.replace(k, ", 0, " + sites.add(where, function) + ")->");
                continue;
            }
            openAround(s, k, functionFor(use.use));
            edits.replace(k, ", 0, " + sites.add(where, function) + ").");
        }
    }
    // A dereference encloses every access in its operand that ends where it does (`*p->m`,
    // `*(&c)->tile`, `**pp`), which this loop wraps after it: its closing part goes outside
    // theirs, the outermost (first found) last.
    for (auto close = dereferenceCloses.rbegin(); close != dereferenceCloses.rend(); ++close)
        edits.insertAfter(close->first, close->second);
    // The flag the group function passes (emitter/entry_points.cpp), after `__mc_group`.
    for (const auto& [f, pointers] : context.findings.rowCheckedPointers)
        edits.attachBefore(functions[f].parametersClose, ", const bool __mc_rows_inside = false");
    sites.declareLocalTables(edits);
    if (!unchecked.empty()) {
        const UncheckedAccess& first = unchecked.front();
        const std::size_t n = unchecked.size();
        context.diagnostics.warning(first.where, "shader validation cannot check " + std::to_string(n) +
                                                     (n == 1 ? " access" : " accesses") + " in this file; the first: " +
                                                     first.reason);
    }
}

} // namespace metalcpu::msl
