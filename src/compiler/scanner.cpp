#include "compiler/scanner.h"

#include "compiler/address_space.h"

namespace metalcpu::msl {

namespace {

struct TemplateHeader {
    bool present = false;
    std::size_t begin = 0; ///< the first `template`
    TokenRange parameters;
    std::vector<std::string> typeNames;
    std::vector<std::string> valueNames;
};

bool isClassKey(const Token& t) {
    return t.isIdentifier("struct") || t.isIdentifier("class") || t.isIdentifier("union") ||
           t.isIdentifier("enum");
}

bool isOperatorSymbol(const Token& t) {
    return t.kind == TokenKind::Punctuator && !t.isPunct("(") && !t.isPunct(")") && !t.isPunct(";") &&
           !t.isPunct("{") && !t.isPunct("}");
}

class Scanner {
public:
    Scanner(const TokenList& tokens, const std::vector<std::size_t>& partner, Diagnostics& diagnostics)
        : t_(tokens), partner_(partner), diagnostics_(diagnostics) {}

    Module run() {
        scanSequence(0, t_.size() - 1, false);
        return std::move(module_);
    }

    /// The member functions of the class body whose `{` is at `open` (those of the classes
    /// nested in it included), or nothing when a part of it makes no sense to the scanner.
    std::vector<FunctionDecl> runClassBody(std::size_t open) {
        classes_.push_back("");
        classBodies_.push_back(open);
        classTemplates_.emplace_back();
        scanSequence(open + 1, partner_[open], true);
        if (failed_) return {};
        return std::move(module_.functions);
    }

private:
    void fail(std::size_t at, std::string message) {
        diagnostics_.error(t_[at].location, std::move(message));
        failed_ = true;
    }

    std::size_t skipToSemicolon(std::size_t i, std::size_t end) const {
        for (; i < end; ++i) {
            const Token& t = t_[i];
            if ((t.isPunct("(") || t.isPunct("[") || t.isPunct("{")) && partner_[i] != kNoToken) {
                i = partner_[i];
            } else if (t.isPunct(";")) {
                return i + 1;
            }
        }
        return end;
    }

    void scanSequence(std::size_t begin, std::size_t end, bool classScope) {
        std::size_t i = begin;
        while (i < end && !failed_) {
            const Token& t = t_[i];
            if (t.isPunct(";") || t.kind == TokenKind::Pragma) {
                ++i;
            } else if (classScope &&
                       (t.isIdentifier("public") || t.isIdentifier("private") ||
                        t.isIdentifier("protected")) &&
                       t_[i + 1].isPunct(":")) {
                i += 2;
            } else if (t.isIdentifier("inline") && t_[i + 1].isIdentifier("namespace")) {
                i = scanNamespace(i + 1, end);
            } else if (t.isIdentifier("namespace")) {
                i = scanNamespace(i, end);
            } else if (t.isIdentifier("extern") && t_[i + 1].kind == TokenKind::String) {
                if (t_[i + 2].isPunct("{")) {
                    scanSequence(i + 3, partner_[i + 2], classScope);
                    i = partner_[i + 2] + 1;
                } else {
                    i += 2;
                }
            } else if (t.isIdentifier("template")) {
                i = scanTemplate(i, end, classScope);
            } else if (t.isIdentifier("using") || t.isIdentifier("typedef") ||
                       t.isIdentifier("static_assert")) {
                i = skipToSemicolon(i, end);
            } else {
                i = scanDeclaration(i, end, classScope, TemplateHeader());
            }
        }
    }

    std::size_t scanNamespace(std::size_t i, std::size_t end) {
        std::size_t j = i + 1;
        std::vector<std::string> names;
        while (j < end) {
            if (t_[j].isIdentifier() && !t_[j].isIdentifier("inline")) {
                names.push_back(t_[j].spelling);
            } else if (startsAttributeSpec(t_, j)) {
                j = partner_[j];
            } else if (!t_[j].isPunct("::") && !t_[j].isIdentifier("inline")) {
                break;
            }
            ++j;
        }
        if (t_[j].isPunct("=")) return skipToSemicolon(j, end);
        if (!t_[j].isPunct("{")) {
            fail(j, "expected '{' after the namespace name");
            return end;
        }
        for (const std::string& n : names) namespaces_.push_back(n);
        scanSequence(j + 1, partner_[j], false);
        namespaces_.resize(namespaces_.size() - names.size());
        return partner_[j] + 1;
    }

    // The names declared by a template parameter list (tokens [begin, end)), type parameters
    // and value parameters apart.
    void templateParameterNames(std::size_t begin, std::size_t end, TemplateHeader& header) const {
        std::size_t segmentBegin = begin;
        int angle = 0;
        for (std::size_t i = begin; i <= end; ++i) {
            bool atEnd = i == end;
            if (!atEnd) {
                const Token& t = t_[i];
                if ((t.isPunct("(") || t.isPunct("[") || t.isPunct("{")) && partner_[i] != kNoToken) {
                    i = partner_[i];
                    continue;
                }
                if (t.isPunct("<")) ++angle;
                if (t.isPunct(">")) --angle;
                if (!(t.isPunct(",") && angle == 0)) continue;
            }
            // One parameter: [segmentBegin, i). Its name is the last identifier before a default.
            std::size_t stop = i;
            int depth = 0;
            for (std::size_t k = segmentBegin; k < i; ++k) {
                if (t_[k].isPunct("<")) ++depth;
                if (t_[k].isPunct(">")) --depth;
                if (t_[k].isPunct("=") && depth == 0) {
                    stop = k;
                    break;
                }
            }
            std::size_t nameToken = stop > segmentBegin + 1 ? stop - 1 : kNoToken;
            for (std::size_t k = segmentBegin; k + 2 < stop; ++k) // `float (*F)(float)`
                if (t_[k].isPunct("(") && t_[k + 1].isPunct("*") && t_[k + 2].isIdentifier())
                    nameToken = k + 2;
            if (nameToken != kNoToken && t_[nameToken].isIdentifier() &&
                !isCppKeyword(t_[nameToken].spelling)) {
                const Token& first = t_[segmentBegin];
                bool isType = first.isIdentifier("typename") || first.isIdentifier("class") ||
                              first.isIdentifier("template");
                (isType ? header.typeNames : header.valueNames).push_back(t_[nameToken].spelling);
            }
            segmentBegin = i + 1;
        }
    }

    std::size_t scanTemplate(std::size_t i, std::size_t end, bool classScope) {
        if (!t_[i + 1].isPunct("<")) return scanExplicitInstantiation(i, end);
        TemplateHeader header;
        header.present = true;
        header.begin = i;
        std::size_t j = i;
        while (t_[j].isIdentifier("template") && t_[j + 1].isPunct("<")) {
            std::size_t close = closingAngle(t_, partner_, j + 1, end);
            if (close == kNoToken) {
                fail(j + 1, "expected '>' to close the template parameter list (a '<' comparison in a template "
                            "argument whose left operand is a name not declared in this file as a constant or a "
                            "non-type template parameter reads as a nested list: parenthesise it, '(x < 8)')");
                return end;
            }
            header.parameters = {j + 2, close};
            templateParameterNames(j + 2, close, header);
            j = close + 1;
        }
        if (t_[j].isIdentifier("concept") || t_[j].isIdentifier("using")) return skipToSemicolon(j, end);
        return scanDeclaration(j, end, classScope, header);
    }

    std::size_t scanExplicitInstantiation(std::size_t i, std::size_t end) {
        std::size_t next = skipToSemicolon(i, end);
        std::size_t semicolon = next - 1;
        if (next > end || !t_[semicolon].isPunct(";")) {
            fail(i, "expected ';' after the explicit instantiation");
            return end;
        }
        ExplicitInstantiation inst;
        inst.tokens = {i, next};
        inst.namespaces = namespaces_;
        for (std::size_t j = i + 1; j < semicolon; ++j) {
            if (startsAttributeSpec(t_, j)) {
                AttributeSpec spec = parseAttributeSpec(t_, partner_, j);
                if (spec.find("kernel") || spec.find("host_name")) inst.marksKernel = true;
                j = spec.close;
                inst.attributes.push_back(std::move(spec));
            } else if (t_[j].isIdentifier("kernel")) {
                inst.marksKernel = true;
            } else if ((t_[j].isPunct("(") || t_[j].isPunct("[")) && partner_[j] != kNoToken) {
                j = partner_[j];
            }
        }
        std::size_t k = semicolon - 1;
        if (t_[k].isPunct(")") && partner_[k] != kNoToken && partner_[k] > i) {
            inst.hasParameters = true;
            inst.parameters = {partner_[k] + 1, k};
            k = partner_[k] - 1;
        }
        if (t_[k].isPunct(">")) {
            std::size_t open = openingAngle(t_, partner_, k, i + 1);
            if (open == kNoToken) {
                fail(k, "expected '<' to match this '>' in the explicit instantiation");
                return end;
            }
            inst.hasTemplateArguments = true;
            inst.templateArguments = {open + 1, k};
            k = open - 1;
        }
        if (k > i && t_[k].isIdentifier() && !isCppKeyword(t_[k].spelling)) {
            inst.nameToken = k;
            inst.qualifiedName = t_[k].spelling;
            while (k > i + 1 && t_[k - 1].isPunct("::")) {
                const Token& before = t_[k - 2];
                if (before.isIdentifier() && !isCppKeyword(before.spelling) &&
                    !before.isIdentifier("kernel")) {
                    inst.qualifiedName = before.spelling + "::" + inst.qualifiedName;
                    k -= 2;
                } else {
                    inst.qualifiedName = "::" + inst.qualifiedName;
                    break;
                }
            }
        } else if (inst.marksKernel) {
            fail(k, "expected the name of a kernel in this explicit instantiation");
            return end;
        }
        module_.instantiations.push_back(std::move(inst));
        return next;
    }

    bool isParameterListOpen(std::size_t paren, std::size_t start) const {
        if (paren == 0 || paren - 1 < start) return false;
        std::size_t prev = paren - 1;
        const Token& p = t_[prev];
        // A conversion function: `operator float()`, `operator const T&()`.
        for (std::size_t k = prev; k > start; --k) {
            const Token& q = t_[k];
            if (q.isIdentifier("operator")) return true;
            if (!(q.isIdentifier() || q.isPunct("::") || q.isPunct("*") || q.isPunct("&") ||
                  q.isPunct("&&") || q.isPunct("<") || q.isPunct(">") || q.isPunct(",")))
                break;
        }
        if (t_[start].isIdentifier("operator") && start + 1 <= prev) return true;
        if (p.isIdentifier()) {
            if (p.isIdentifier("operator")) return true;
            if (isCppKeyword(p.spelling)) return false;
            if (prev > start && (t_[prev - 1].isPunct(".") || t_[prev - 1].isPunct("->"))) return false;
            return true;
        }
        if (prev > start && t_[prev - 1].isIdentifier("operator") && isOperatorSymbol(p)) return true;
        if (p.isPunct(">")) {
            std::size_t open = openingAngle(t_, partner_, prev, start);
            return open != kNoToken && open > start && t_[open - 1].isIdentifier() &&
                   !isCppKeyword(t_[open - 1].spelling);
        }
        if (p.isPunct("]") && partner_[prev] != kNoToken && partner_[prev] > start &&
            t_[partner_[prev] - 1].isIdentifier("operator"))
            return true;
        return false;
    }

    // The function's name, given its parameter list.
    void nameFunction(FunctionDecl& f, std::size_t start) const {
        std::size_t k = f.parametersOpen - 1;
        const Token& p = t_[k];
        if (p.isPunct(")") && k > start && t_[k - 1].isPunct("(") && k >= 2 &&
            t_[k - 2].isIdentifier("operator")) {
            f.name = "operator()";
            f.nameToken = k - 2;
        } else if (p.isIdentifier()) {
            f.nameToken = k;
            f.name = p.spelling;
            if (k > start && t_[k - 1].isIdentifier("operator")) {
                f.name = p.isIdentifier("operator") ? "operator" : "operator " + p.spelling;
            } else if (k > start && t_[k - 1].isPunct("~")) {
                f.name = "~" + p.spelling;
            }
        } else if (p.isPunct(">") && k >= start + 2 && t_[k - 1].isPunct(">") &&
                   t_[k - 2].isIdentifier("operator")) {
            f.nameToken = k - 2;
            f.name = "operator>>";
        } else if (p.isPunct(">") && !(k > start && t_[k - 1].isIdentifier("operator"))) {
            std::size_t open = openingAngle(t_, partner_, k, start);
            f.nameToken = open != kNoToken && open > start ? open - 1 : k;
            f.name = t_[f.nameToken].spelling;
        } else if (p.isPunct("]")) {
            f.nameToken = partner_[k] - 1;
            f.name = "operator[]";
        } else {
            f.nameToken = k - 1;
            f.name = "operator" + p.spelling;
        }
    }

    // The first declarator's name in a variable declaration [begin, end): the last identifier
    // before its initializer, its array bounds or the end; attributes, parenthesised parts and
    // keywords are skipped.
    std::size_t declaratorName(std::size_t begin, std::size_t end) const {
        std::size_t name = kNoToken;
        bool classKey = false;
        for (std::size_t k = begin; k < end; ++k) {
            const Token& t = t_[k];
            if (isClassKey(t)) classKey = true;
            if (t.isPunct("{") && classKey && partner_[k] != kNoToken) { // `struct T { ... } t;`
                k = partner_[k];
                classKey = false;
                continue;
            }
            if (t.isPunct("=") || t.isPunct("{") || t.isPunct(",") ||
                (t.isPunct("[") && !startsAttributeSpec(t_, k)))
                break;
            if ((t.isPunct("(") || t.isPunct("[")) && partner_[k] != kNoToken) {
                k = partner_[k];
                continue;
            }
            if (t.isPunct("<") && k > begin && t_[k - 1].isIdentifier()) {
                std::size_t close = closingAngle(t_, partner_, k, end);
                if (close != kNoToken) k = close;
                continue;
            }
            if (t.isIdentifier() && !isCppKeyword(t.spelling) && !t.isIdentifier("constant")) name = k;
        }
        return name;
    }

    // Whether the member declaration [begin, end) is `static` (a data member with static storage).
    bool isStaticMember(std::size_t begin, std::size_t end) const {
        for (std::size_t k = begin; k < end && !t_[k].isPunct("="); ++k)
            if (t_[k].isIdentifier("static")) return true;
        return false;
    }

    std::size_t scanDeclaration(std::size_t i, std::size_t end, bool classScope,
                                const TemplateHeader& header) {
        const std::size_t start = i;
        std::size_t j = i;
        std::size_t paramOpen = kNoToken;
        std::size_t classKey = kNoToken;
        std::size_t classBody = kNoToken;
        bool sawEquals = false;
        std::size_t equalsAt = kNoToken;
        // After `struct S :` and before the class body: a `(` there belongs to a base's template
        // arguments (`struct E : bool_constant<__is_empty(T)> {}`), never to a parameter list.
        bool inBaseClause = false;
        std::vector<AttributeSpec> attributes;

        // The identifiers between the parameter list and `=` (`S() thread = default;`).
        auto qualifierCount = [&]() -> std::size_t {
            std::size_t k = partner_[paramOpen] + 1, count = 0;
            while (k < equalsAt && t_[k].isIdentifier()) ++k, ++count;
            return count;
        };

        auto finishFunction = [&](std::size_t bodyOpen, std::size_t declEnd) {
            FunctionDecl f;
            f.declarationBegin = start;
            f.headerBegin = header.present ? header.begin : start;
            f.classBody = classBodies_.empty() ? kNoToken : classBodies_.back();
            f.namespaces = namespaces_;
            f.enclosingClass = classes_.empty() ? std::string() : classes_.back();
            f.isTemplate = header.present;
            f.templateParameters = header.parameters;
            f.templateTypeParameters = header.typeNames;
            f.templateValueParameters = header.valueNames;
            for (const TemplateHeader& h : classTemplates_) {
                f.templateTypeParameters.insert(f.templateTypeParameters.end(), h.typeNames.begin(),
                                                h.typeNames.end());
                f.templateValueParameters.insert(f.templateValueParameters.end(), h.valueNames.begin(),
                                                 h.valueNames.end());
            }
            f.parametersOpen = paramOpen;
            f.parametersClose = partner_[paramOpen];
            nameFunction(f, start);
            for (std::size_t k = f.parametersClose + 1; k < declEnd && t_[k].isIdentifier(); ++k) {
                const Token& q = t_[k];
                if (q.isIdentifier("const") || q.isIdentifier("volatile") || supportedAddressSpaceOf(q))
                    f.trailingQualifiers.push_back(k);
            }
            f.attributes = attributes;
            for (std::size_t k = start; k < paramOpen; ++k) {
                if (startsAttributeSpec(t_, k)) {
                    k = partner_[k];
                } else if (t_[k].isIdentifier("kernel")) {
                    f.kernelKeyword = k;
                    f.isKernel = true;
                } else if (t_[k].isIdentifier("vertex") || t_[k].isIdentifier("fragment")) {
                    f.renderKeyword = k;
                }
            }
            for (const AttributeSpec& spec : attributes) {
                if (spec.find("kernel")) f.isKernel = true;
                for (const Attribute& a : spec.attributes)
                    if (a.name == "vertex" || a.name == "fragment") f.renderKeyword = a.nameToken;
            }
            if (bodyOpen != kNoToken) {
                f.hasBody = true;
                f.bodyOpen = bodyOpen;
                f.bodyClose = partner_[bodyOpen];
            }
            f.declarationEnd = declEnd;
            module_.functions.push_back(std::move(f));
        };

        // Whether a declaration that ends without a body declares a variable rather than a
        // function (`constant float4 v(1, 2, 3, 4);`).
        auto looksLikeVariable = [&]() {
            for (std::size_t k = start; k < paramOpen; ++k)
                if (t_[k].isIdentifier("constant") || t_[k].isIdentifier("constexpr")) return true;
            // A literal argument (`float x(2);`), but not one in a parameter's template
            // arguments (`vec<T, 2> v`) or default (`uint n = 4`).
            std::size_t close = partner_[paramOpen];
            bool inDefault = false;
            for (std::size_t k = paramOpen + 1; k < close; ++k) {
                if (!inDefault && (t_[k].kind == TokenKind::Number || t_[k].kind == TokenKind::String)) return true;
                if ((t_[k].isPunct("(") || t_[k].isPunct("[") || t_[k].isPunct("{")) &&
                    partner_[k] != kNoToken) {
                    k = partner_[k];
                } else if (t_[k].isPunct("<") && opensTemplateArguments(t_, k)) {
                    const std::size_t angle = closingAngle(t_, partner_, k, close);
                    if (angle != kNoToken) k = angle;
                } else if (t_[k].isPunct("=")) {
                    inDefault = true;
                } else if (t_[k].isPunct(",")) {
                    inDefault = false;
                }
            }
            return false;
        };

        auto declaresVariable = [&](std::size_t semicolon) {
            if (classKey == kNoToken) return true;
            if (classBody != kNoToken) return partner_[classBody] + 1 < semicolon;
            int names = 0;
            for (std::size_t k = classKey + 1; k < semicolon; ++k) {
                if (startsAttributeSpec(t_, k))
                    k = partner_[k];
                else if (t_[k].isIdentifier() && !isCppKeyword(t_[k].spelling))
                    ++names;
            }
            return names >= 2;
        };

        while (j < end && !failed_) {
            const Token& t = t_[j];
            if (t.kind == TokenKind::Punctuator) {
                const std::string& s = t.spelling;
                if (s == "(") {
                    if (paramOpen == kNoToken && !sawEquals && !inBaseClause && isParameterListOpen(j, start)) {
                        if (j > start && t_[j - 1].isIdentifier("operator") && partner_[j] == j + 1 &&
                            t_[j + 2].isPunct("(")) {
                            paramOpen = j + 2; // operator()(...)
                        } else {
                            paramOpen = j;
                        }
                        j = partner_[paramOpen] + 1;
                        continue;
                    }
                    j = partner_[j] + 1;
                    continue;
                }
                if (s == "[") {
                    if (startsAttributeSpec(t_, j)) attributes.push_back(parseAttributeSpec(t_, partner_, j));
                    j = partner_[j] + 1;
                    continue;
                }
                if (s == ";") {
                    if (paramOpen != kNoToken && sawEquals &&
                        equalsAt == partner_[paramOpen] + 1 + qualifierCount()) {
                        finishFunction(kNoToken, j + 1);
                        module_.functions.back().isDefaulted = true;
                    } else if (paramOpen != kNoToken && !sawEquals && !looksLikeVariable()) {
                        finishFunction(kNoToken, j + 1);
                    } else if ((paramOpen != kNoToken || declaresVariable(j)) &&
                               (!classScope || isStaticMember(start, j))) {
                        VariableDecl v;
                        v.tokens = {start, j};
                        v.namespaces = namespaces_;
                        v.nameToken = declaratorName(start, j);
                        v.isTemplate = header.present;
                        if (classScope) v.enclosingClass = classes_.back();
                        module_.variables.push_back(std::move(v));
                    }
                    return j + 1;
                }
                if (s == "=" && !(j > start && t_[j - 1].isIdentifier("operator"))) { // not `operator=`
                    if (!sawEquals) equalsAt = j;
                    sawEquals = true;
                    ++j;
                    continue;
                }
                if (s == "{") {
                    if (classKey != kNoToken && paramOpen == kNoToken && !sawEquals &&
                        classBody == kNoToken) {
                        classBody = j;
                        if (!t_[classKey].isIdentifier("enum")) {
                            std::string className;
                            for (std::size_t k = classKey + 1; k < j; ++k) {
                                if (startsAttributeSpec(t_, k))
                                    k = partner_[k];
                                else if (t_[k].isIdentifier() && !isCppKeyword(t_[k].spelling) &&
                                         !t_[k].isIdentifier("final")) {
                                    className = t_[k].spelling;
                                    break;
                                } else if (t_[k].isPunct(":") || t_[k].isPunct("(")) {
                                    break;
                                }
                            }
                            classes_.push_back(className);
                            classBodies_.push_back(j);
                            classTemplates_.push_back(header);
                            scanSequence(j + 1, partner_[j], true);
                            classTemplates_.pop_back();
                            classBodies_.pop_back();
                            classes_.pop_back();
                        }
                        j = partner_[j] + 1;
                        continue;
                    }
                    if (paramOpen != kNoToken && !sawEquals) {
                        finishFunction(j, partner_[j] + 1);
                        return partner_[j] + 1;
                    }
                    j = partner_[j] + 1; // a brace initializer
                    continue;
                }
                if (s == ":" && classKey != kNoToken && classBody == kNoToken && paramOpen == kNoToken &&
                    !sawEquals) {
                    inBaseClause = true;
                    ++j;
                    continue;
                }
                if (s == ":" && paramOpen != kNoToken && !sawEquals) {
                    // A constructor's member initializers, then its body.
                    std::size_t k = j + 1;
                    while (k < end) {
                        if (t_[k].isPunct("(")) {
                            k = partner_[k] + 1;
                        } else if (t_[k].isPunct("{")) {
                            if (t_[k - 1].isIdentifier() || t_[k - 1].isPunct(">")) {
                                k = partner_[k] + 1;
                            } else {
                                finishFunction(k, partner_[k] + 1);
                                return partner_[k] + 1;
                            }
                        } else if (t_[k].isPunct(";")) {
                            break;
                        } else {
                            ++k;
                        }
                    }
                    j = k;
                    continue;
                }
                if (s == "}") {
                    fail(j, "unexpected '}'");
                    return end;
                }
            } else if (t.kind == TokenKind::Identifier) {
                if (isClassKey(t) && paramOpen == kNoToken && !sawEquals && classKey == kNoToken)
                    classKey = j;
            } else if (t.kind == TokenKind::Pragma) {
                // A pragma in the middle of a declaration (from _Pragma in a macro): skip it.
            }
            ++j;
        }
        if (!failed_ && j >= end && start < end) {
            fail(start, paramOpen != kNoToken && !t_[paramOpen - 1].isPunct(")")
                            ? "expected ';' or a function body after the declaration of '" +
                                  t_[paramOpen - 1].spelling + "'"
                            : "expected ';' at the end of the declaration");
        }
        return end;
    }

    const TokenList& t_;
    const std::vector<std::size_t>& partner_;
    Diagnostics& diagnostics_;
    Module module_;
    bool failed_ = false;
    std::vector<std::string> namespaces_;
    std::vector<std::string> classes_;
    std::vector<std::size_t> classBodies_;
    std::vector<TemplateHeader> classTemplates_;
};

} // namespace

Module scanModule(const TokenList& tokens, const std::vector<std::size_t>& partner,
                  Diagnostics& diagnostics) {
    return Scanner(tokens, partner, diagnostics).run();
}

std::vector<FunctionDecl> scanClassMembers(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                           std::size_t open) {
    if (open >= tokens.size() || !tokens[open].isPunct("{") || partner[open] == kNoToken) return {};
    // What the scanner cannot make sense of here is the host compiler's to report.
    const FileTable files("");
    Diagnostics silent(files);
    return Scanner(tokens, partner, silent).runClassBody(open);
}

bool declaresConstant(const TokenList& tokens, const std::vector<std::size_t>& partner, const VariableDecl& v) {
    return hasConstantSpecifier(tokens, partner, v.tokens.begin, v.nameToken == kNoToken ? v.tokens.end : v.nameToken);
}

bool declaresExternOrThreadgroup(const TokenList& tokens, const VariableDecl& v) {
    const std::size_t end = v.nameToken == kNoToken ? v.tokens.end : v.nameToken;
    for (std::size_t k = v.tokens.begin; k < end; ++k)
        if (tokens[k].isIdentifier("extern") || tokens[k].isIdentifier("threadgroup")) return true;
    return false;
}

} // namespace metalcpu::msl
