#include "compiler/edits.h"

#include <algorithm>

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

void EditList::reportInternal(std::size_t i, const std::string& what) {
    if (reported_ || tokens_.empty()) return;
    reported_ = true;
    const Token& at = tokens_[std::min(i, tokens_.size() - 1)];
    diagnostics_.error(at.location, "internal error: the " + pass_ + " pass " + what +
                                        "; please report this with the kernel source");
}

bool EditList::claimable(std::size_t i) {
    if (i >= tokens_.size()) {
        reportInternal(i, "edits a token past the end of the file");
        return false;
    }
    if (owner_[i] == kUnowned) return true;
    const std::string& other = passes_[owner_[i]];
    reportInternal(i, "rewrites '" + tokens_[i].spelling + "', which the " +
                          (other == pass_ ? std::string("same") : other) + " pass already rewrote");
    return false;
}

bool EditList::claim(std::size_t i) {
    if (!claimable(i)) return false;
    owner_[i] = static_cast<std::uint16_t>(passes_.size() - 1);
    return true;
}

void EditList::replace(std::size_t i, std::string text) {
    if (claim(i)) tokens_[i].text = std::move(text);
}

void EditList::replace(TokenRange range, std::string text) {
    if (range.empty()) return;
    // All or nothing: erasing the rest of a range whose text could not be placed would drop
    // source silently.
    for (std::size_t i = range.begin; i < range.end; ++i)
        if (!claimable(i)) return;
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
    if (range.empty()) return;
    if (range.end > tokens_.size()) {
        reportInternal(range.end, "takes over tokens past the end of the file");
        return;
    }
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
