#include "compiler/passes/designators.h"

#include "compiler/edits.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <optional>
#include <string>

namespace metalcpu::msl {

namespace {

/// An element `[first ... last] = value` or `[first] = value` of a braced list.
struct Designated {
    std::size_t open = 0;  ///< the `[`
    std::size_t value = 0; ///< the first token after the `=`
    long long first = 0;
    long long last = 0;
};

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

/// Rewrites the list whose braces are [open, close] if it holds array designators.
void rewriteList(PassContext& c, std::size_t open, std::size_t close) {
    const TokenList& tokens = c.unit.tokens();
    const std::vector<std::size_t>& partner = c.unit.partner();
    if (!startsDesignator(tokens, partner, open + 1)) {
        bool any = false;
        for (std::size_t i = open + 1; i < close; i = elementEnd(tokens, partner, i, close) + 1)
            if (startsDesignator(tokens, partner, i)) any = true;
        if (!any) return;
    }
    long long position = 0;
    long long written = 0;
    for (std::size_t i = open + 1; i < close;) {
        const std::size_t end = elementEnd(tokens, partner, i, close);
        if (startsDesignator(tokens, partner, i)) {
            const std::size_t bracket = partner[i];
            std::size_t ellipsis = kNoToken;
            for (std::size_t k = i + 1; k < bracket; ++k)
                if (tokens[k].isPunct("...")) ellipsis = k;
            std::optional<long long> first = evaluateInteger(tokens, i + 1, ellipsis == kNoToken ? bracket : ellipsis);
            std::optional<long long> last =
                ellipsis == kNoToken ? first : evaluateInteger(tokens, ellipsis + 1, bracket);
            if (!first || !last || *first < position || *last < *first ||
                written + (*last - position + 1) > kMaxDesignatedElements) {
                c.diagnostics.error(tokens[i].location,
                                  "array designators need increasing integer constants made of literals, at most " +
                                      std::to_string(kMaxDesignatedElements) + " elements in all");
                return;
            }
            std::string gap;
            for (; position < *first; ++position) gap += "{}, ";
            const std::string value = outputText(tokens, bracket + 2, end);
            std::string copies;
            for (long long k = *first; k < *last; ++k) copies += ", " + value;
            // `[first ... last] =` prints nothing, nor anything an earlier pass made of it (an
            // index's division): an empty takeOver, not an erase that would meet those edits.
            c.edits.takeOver(TokenRange{i, bracket + 2}, "");
            c.edits.insertBefore(bracket + 2, gap);
            c.edits.insertAfter(end - 1, copies);
            written += *last - *first + 1 + static_cast<long long>(gap.size() / 4);
            position = *last + 1;
        } else {
            ++position;
            ++written;
        }
        i = end + 1;
    }
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
