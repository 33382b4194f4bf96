#include "compiler/edits.h"

namespace metalcpu::msl {

EditList::EditList(TokenList& tokens, Diagnostics& diagnostics)
    : tokens_(tokens), diagnostics_(diagnostics), owner_(tokens.size(), kUnowned) {
    beginPass("(unnamed)");
}

void EditList::beginPass(std::string_view name) {
    pass_ = std::string(name);
    if (passes_.empty() || passes_.back() != pass_) passes_.push_back(pass_);
}

std::string_view EditList::rewrittenBy(std::size_t i) const {
    if (!isRewritten(i)) return {};
    return passes_[owner_[i]];
}

bool EditList::claim(std::size_t i) {
    if (i >= tokens_.size()) return false;
    const auto current = static_cast<std::uint16_t>(passes_.size() - 1);
    if (owner_[i] == kUnowned) {
        owner_[i] = current;
        return true;
    }
    if (!reported_) {
        reported_ = true;
        const std::string& other = passes_[owner_[i]];
        diagnostics_.error(tokens_[i].location,
                           "internal error: the " + pass_ + " pass rewrites '" + tokens_[i].spelling + "', which the " +
                               (other == pass_ ? std::string("same") : other) +
                               " pass already rewrote; please report this with the kernel source");
    }
    return false;
}

void EditList::replace(std::size_t i, std::string text) {
    if (claim(i)) tokens_[i].text = std::move(text);
}

void EditList::replace(TokenRange range, std::string text) {
    if (range.empty()) return;
    replace(range.begin, std::move(text));
    for (std::size_t i = range.begin + 1; i < range.end; ++i) erase(i);
}

void EditList::erase(std::size_t i) {
    if (claim(i)) tokens_[i].erased = true;
}

void EditList::erase(TokenRange range) {
    for (std::size_t i = range.begin; i < range.end; ++i) erase(i);
}

void EditList::takeOver(TokenRange range, std::string text) {
    if (range.empty() || range.end > tokens_.size()) return;
    const auto current = static_cast<std::uint16_t>(passes_.size() - 1);
    for (std::size_t i = range.begin; i < range.end; ++i) {
        Token& t = tokens_[i];
        owner_[i] = current;
        t.erased = true;
        t.prefix.clear();
        t.suffix.clear();
    }
    Token& first = tokens_[range.begin];
    first.erased = false;
    first.text = std::move(text);
}

void EditList::insertBefore(std::size_t i, std::string text) {
    if (i < tokens_.size()) tokens_[i].prefix.insert(0, text);
}

void EditList::insertAfter(std::size_t i, std::string text) {
    if (i < tokens_.size()) tokens_[i].suffix += text;
}

void EditList::attachBefore(std::size_t i, std::string text) {
    if (i < tokens_.size()) tokens_[i].prefix += text;
}

} // namespace metalcpu::msl
