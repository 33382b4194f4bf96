#include "compiler/passes/designators.h"

#include "compiler/edits.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <optional>
#include <string>
#include <vector>

namespace metalcpu::msl {

namespace {

/// Whether an element starting at `i` (after `{` or `,`) is an array designator: `[ ... ] =`.
bool startsDesignator(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i) {
    if (!tokens[i].isPunct("[") || partner[i] == kNoToken || tokens[i + 1].isPunct("[")) return false;
    return tokens[partner[i] + 1].isPunct("=");
}

/// The end of the element that starts at `i` in the list closed at `close`: its `,` or `close`.
std::size_t elementEnd(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i,
                       std::size_t close) {
    for (; i < close; ++i) {
        const Token& t = tokens[i];
        if ((t.isPunct("(") || t.isPunct("[") || t.isPunct("{")) && partner[i] != kNoToken) i = partner[i];
        else if (t.isPunct(",")) return i;
    }
    return close;
}

/// One element of a braced list that holds array designators.
struct Element {
    std::size_t begin = 0;          ///< its first token: the designator's `[`, or the value's
    std::size_t end = 0;            ///< its `,` or the list's `}`
    std::size_t value = 0;          ///< the value's first token
    std::size_t ellipsis = kNoToken; ///< a range's `...`
    bool designated = false;

    /// The designator's `]` (designated elements only).
    std::size_t bracket() const { return value - 2; }
};

/// The elements of the list whose braces are [open, close], or nothing when none is designated.
std::vector<Element> designatedElements(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                        std::size_t open, std::size_t close) {
    std::vector<Element> elements;
    bool any = false;
    for (std::size_t i = open + 1; i < close;) {
        Element e;
        e.begin = i;
        e.end = elementEnd(tokens, partner, i, close);
        e.value = i;
        if (startsDesignator(tokens, partner, i)) {
            any = e.designated = true;
            e.value = partner[i] + 2;
            for (std::size_t k = i + 1; k < partner[i]; ++k)
                if (tokens[k].isPunct("...")) e.ellipsis = k;
        }
        // `{a, b, }`: the trailing comma ends the list, not an element.
        if (e.end > e.begin) elements.push_back(e);
        i = e.end + 1;
    }
    if (!any) elements.clear();
    return elements;
}

/// The indices of a designator as integers, when they are constants made of literals.
struct LiteralBounds {
    long long first = 0;
    long long last = 0;
};
std::optional<LiteralBounds> literalBounds(const TokenList& tokens, const Element& e) {
    const std::size_t bracket = e.bracket();
    std::optional<long long> first =
        evaluateInteger(tokens, e.begin + 1, e.ellipsis == kNoToken ? bracket : e.ellipsis);
    std::optional<long long> last = e.ellipsis == kNoToken ? first : evaluateInteger(tokens, e.ellipsis + 1, bracket);
    if (!first || !last) return std::nullopt;
    return LiteralBounds{*first, *last};
}

/// Writes the elements out in order when every designator's indices are literal constants,
/// increasing, and within kMaxDesignatedElements; false (and nothing edited) otherwise, with
/// `refused` the designator that is not.
bool writeOut(PassContext& c, const std::vector<Element>& elements, const Element*& refused) {
    const TokenList& tokens = c.unit.tokens();
    struct Planned {
        const Element* element;
        LiteralBounds bounds;
        long long gap;
    };
    std::vector<Planned> plan;
    long long position = 0;
    long long written = 0;
    for (const Element& e : elements) {
        if (!e.designated) {
            ++position;
            ++written;
            continue;
        }
        std::optional<LiteralBounds> b = literalBounds(tokens, e);
        if (!b || b->first < position || b->last < b->first ||
            written + (b->last - position + 1) > kMaxDesignatedElements) {
            refused = &e;
            return false;
        }
        plan.push_back({&e, *b, b->first - position});
        written += b->last - position + 1;
        position = b->last + 1;
    }
    for (const Planned& p : plan) {
        const Element& e = *p.element;
        std::string gap;
        for (long long k = 0; k < p.gap; ++k) gap += "{}, ";
        const std::string value = outputText(tokens, e.value, e.end);
        std::string copies;
        for (long long k = p.bounds.first; k < p.bounds.last; ++k) copies += ", " + value;
        // `[first ... last] =` prints nothing, nor anything an earlier pass made of it (an
        // index's division): an empty takeOver, not an erase that would meet those edits.
        c.edits.takeOver(TokenRange{e.begin, e.value}, "");
        c.edits.insertBefore(e.value, gap);
        c.edits.insertAfter(e.end - 1, copies);
    }
    return true;
}

/// The variable a designated list initialises, when the fill can follow its declaration: the
/// list is the whole initializer (`= {...}`) of the last declarator of a declaration statement
/// in a function body, an array that is not static, thread_local, constexpr, const or constant.
struct FillTarget {
    std::size_t name = kNoToken;      ///< the declarator's name
    std::size_t semicolon = kNoToken; ///< the declaration's `;`
};
std::optional<FillTarget> fillTarget(const PassContext& c, std::size_t open, std::size_t close) {
    const TokenList& tokens = c.unit.tokens();
    const std::vector<std::size_t>& partner = c.unit.partner();
    if (open < 3 || close + 1 >= tokens.size() || !tokens[open - 1].isPunct("=") || !tokens[close + 1].isPunct(";") ||
        c.unit.functionAt(open) == kNoToken)
        return std::nullopt;
    // Back over the bounds `[N][4]` to the name.
    std::size_t name = open - 2;
    bool array = false;
    while (name > 0 && tokens[name].isPunct("]") && partner[name] != kNoToken && partner[name] > 0) {
        name = partner[name] - 1;
        array = true;
    }
    if (!array || !tokens[name].isIdentifier() || c.unit.role(name) != TokenRole::Declarator) return std::nullopt;
    // Back to the statement's first token, over whole brackets (`alignas(16)`); an unmatched
    // `(` means a for-init or a condition, where no statement can follow.
    std::size_t start = name;
    while (!c.unit.startsStatement(start)) {
        if (start == 0) return std::nullopt;
        --start;
        const Token& t = tokens[start];
        if ((t.isPunct(")") || t.isPunct("]")) && partner[start] != kNoToken) start = partner[start];
        else if (t.isPunct(";") || t.isPunct("{") || t.isPunct("}") || t.isPunct("(") || t.isPunct("["))
            return std::nullopt;
    }
    if (hasConstantSpecifier(tokens, partner, start, name)) return std::nullopt;
    for (std::size_t k = start; k < name; ++k)
        if (tokens[k].isIdentifier("static") || tokens[k].isIdentifier("thread_local")) return std::nullopt;
    return FillTarget{name, close + 1};
}

/// Whether a range writes its value more than once and the value may have side effects (a
/// call, an assignment, an increment): GCC evaluates a range's value once, so the copies of
/// writeOut() would not do.
bool repeatsEffects(const Unit& unit, const std::vector<Element>& elements) {
    const TokenList& tokens = unit.tokens();
    for (const Element& e : elements) {
        if (e.ellipsis == kNoToken) continue;
        if (std::optional<LiteralBounds> b = literalBounds(tokens, e); b && b->first == b->last) continue;
        for (std::size_t i = e.value; i < e.end; ++i)
            if (unit.isAssignmentOperator(i) || unit.role(i) == TokenRole::Increment ||
                (tokens[i].isPunct("(") && i > e.value &&
                 (tokens[i - 1].isIdentifier() || tokens[i - 1].isPunct(">"))))
                return true;
    }
    return false;
}

/// `(index)` for a designator's bound [begin, end), with whatever earlier passes did to it.
std::string boundText(const TokenList& tokens, std::size_t begin, std::size_t end) {
    return "(" + outputText(tokens, begin, end) + ")";
}

/// The initializer becomes `{}` (every element value-initialised, as the positions no
/// designator names are) and each element a fill after the declaration, in order, so that a
/// later designator overrides an earlier one as in GNU C:
///   float s[N] = {[0 ... N - 1] = 1.0f, 2.0f};
/// becomes
///   float s[N] = {}; ::metalcpu_kernel::designate<(0), (N - 1)>(s, 1.0f);
///   ::metalcpu_kernel::designate<(N - 1) + 1, (N - 1) + 1>(s, 2.0f);
/// designate() checks the indices against the bound at compile time and evaluates the value
/// once (metalcpu/designators.h).
void fill(PassContext& c, std::size_t open, std::size_t close, const std::vector<Element>& elements,
          const FillTarget& target) {
    const TokenList& tokens = c.unit.tokens();
    const std::string name = tokens[target.name].text;
    std::string fills;
    std::string next = "0"; // the index of an element without a designator
    for (const Element& e : elements) {
        std::string first = next, last = next;
        if (e.designated) {
            first = boundText(tokens, e.begin + 1, e.ellipsis == kNoToken ? e.bracket() : e.ellipsis);
            last = e.ellipsis == kNoToken ? first : boundText(tokens, e.ellipsis + 1, e.bracket());
        }
        fills += "; ::metalcpu_kernel::designate<" + first + ", " + last + ">(" + name + ", " +
                 outputText(tokens, e.value, e.end) + ")";
        next = last + " + 1";
    }
    // The list's own braces stay, with what earlier passes put around them (a work-item
    // slot's `emplace(slot, T{` ... `})`); what they hold goes, carried by the fills.
    c.edits.takeOver(TokenRange{open + 1, close}, "");
    // Inside what earlier passes inserted before the `;`: the declaration's last `;` ends
    // the last fill.
    c.edits.attachBefore(target.semicolon, fills);
}

/// Rewrites the list whose braces are [open, close] if it holds array designators.
void rewriteList(PassContext& c, std::size_t open, std::size_t close) {
    const TokenList& tokens = c.unit.tokens();
    const std::vector<Element> elements = designatedElements(tokens, c.unit.partner(), open, close);
    if (elements.empty()) return;
    const std::optional<FillTarget> target = fillTarget(c, open, close);
    const Element* refused = &elements.front();
    if (!(target && repeatsEffects(c.unit, elements)) && writeOut(c, elements, refused)) return;
    if (target) {
        fill(c, open, close, elements, *target);
        return;
    }
    c.diagnostics.error(tokens[refused->begin].location,
                        "array designators need increasing integer constants made of literals, at most " +
                            std::to_string(kMaxDesignatedElements) +
                            " elements in all, except in the initializer `= {...}` of a local array declaration "
                            "that is not static, const or constexpr");
}

} // namespace

void rewriteArrayDesignators(PassContext& c) {
    const TokenList& tokens = c.unit.tokens();
    const std::vector<std::size_t>& partner = c.unit.partner();
    // Innermost lists first: a range's copies of a value that is itself a designated list
    // then carry that list written out.
    for (std::size_t i = tokens.size(); i-- > 0;)
        if (tokens[i].isPunct("{") && partner[i] != kNoToken && partner[i] + 1 < tokens.size())
            rewriteList(c, i, partner[i]);
}

} // namespace metalcpu::msl
