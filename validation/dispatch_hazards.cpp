#include "validation/dispatch_hazards.h"

#include "validation/dispatch_validation.h"

#include <metalcpu/kernel_abi.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <utility>

namespace metalcpu::val {
namespace {

using validation::Access;
using validation::AddressSpace;

/// A shadow word's bit for an atomic access; the rest is the dispatch's ordinal in its span.
constexpr std::uint32_t kAtomic = 0x80000000u;

/// Spans kept: a span's dispatches run one after the other, so only a few are ever live at once
/// (one per command buffer running); an older one's shadows are freed when a new one starts.
constexpr std::size_t kKeptSpans = 8;

std::uint32_t load(const std::uint32_t& word) { return __atomic_load_n(&word, __ATOMIC_RELAXED); }
void store(std::uint32_t& word, std::uint32_t value) { __atomic_store_n(&word, value, __ATOMIC_RELAXED); }

} // namespace

std::uint64_t newConcurrentSpan() {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

/// A buffer's shadow in one span: per byte, the last dispatch that stored to it and the first
/// that loaded it (0: none). calloc'd: pages never touched are never made.
struct DispatchHazards::Shadow {
    explicit Shadow(std::uint64_t length)
        : stores(static_cast<std::uint32_t*>(std::calloc(length, sizeof(std::uint32_t)))),
          loads(static_cast<std::uint32_t*>(std::calloc(length, sizeof(std::uint32_t)))) {}
    ~Shadow() {
        std::free(stores);
        std::free(loads);
    }
    Shadow(const Shadow&) = delete;
    Shadow& operator=(const Shadow&) = delete;
    bool made() const { return stores && loads; }

    std::uint32_t* stores;
    std::uint32_t* loads;
};

struct DispatchHazards::Span {
    std::uint64_t id = 0;
    std::mutex mutex;
    /// Per ordinal - 1: the dispatch's index in its encoder and its kernel.
    std::vector<std::pair<std::uint64_t, std::string>> dispatches;
    /// Per buffer (its start and length).
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::unique_ptr<Shadow>> shadows;
};

std::shared_ptr<DispatchHazards::Span> DispatchHazards::join(std::uint64_t id) {
    static std::mutex* mutex = new std::mutex; // both outlive static destructors of work still running
    static auto* recent = new std::deque<std::shared_ptr<Span>>;
    std::lock_guard lock(*mutex);
    std::shared_ptr<Span> span;
    const auto kept = std::find_if(recent->begin(), recent->end(), [&](const auto& s) { return s->id == id; });
    if (kept != recent->end()) {
        span = *kept;
        recent->erase(kept);
    } else {
        span = std::make_shared<Span>();
        span->id = id;
    }
    recent->push_front(span);
    if (recent->size() > kKeptSpans) recent->pop_back();
    return span;
}

DispatchHazards::DispatchHazards(const DispatchInfo& info, const std::vector<BufferBinding>& bindings)
    : span_(join(info.concurrentSpan)) {
    std::lock_guard lock(span_->mutex);
    span_->dispatches.emplace_back(info.dispatchIndex, info.kernel);
    ordinal_ = static_cast<std::uint32_t>(span_->dispatches.size());
    for (const BufferBinding& b : bindings) {
        if (!b.bound || b.space == AddressSpace::Threadgroup || b.resourceLength == 0) continue;
        std::unique_ptr<Shadow>& shadow = span_->shadows[{b.resourceBegin, b.resourceLength}];
        if (!shadow) shadow = std::make_unique<Shadow>(b.resourceLength);
        if (!shadow->made()) continue; // too large to shadow: not watched
        watched_.push_back({b.resourceBegin, b.resourceBegin + b.resourceLength, shadow.get(), &b});
    }
}

DispatchHazards::~DispatchHazards() = default;

std::optional<DispatchHazards::Conflict> DispatchHazards::access(std::uint64_t address, std::uint64_t size,
                                                                std::uint32_t op) {
    const auto in = std::find_if(watched_.begin(), watched_.end(),
                                 [&](const Watched& w) { return address >= w.begin && address < w.end; });
    if (in == watched_.end()) return std::nullopt;
    const bool atomic = (op & MC_OP_ATOMIC) != 0;
    const bool stores = (op & MC_OP_STORE) != 0;
    const std::uint32_t mine = ordinal_ | (atomic ? kAtomic : 0);
    // Another dispatch's access, which this one conflicts with unless both are atomic.
    const auto conflicts = [&](std::uint32_t word) {
        return word != 0 && (word & ~kAtomic) != ordinal_ && !(atomic && (word & kAtomic));
    };
    std::optional<Conflict> found;
    const auto note = [&](std::uint32_t word, Access otherAccess) {
        if (found) return;
        found.emplace();
        found->binding = in->binding;
        found->offset = address - in->begin;
        found->access = stores ? Access::Store : Access::Load;
        found->otherAccess = otherAccess;
        found->otherAtomic = (word & kAtomic) != 0;
        found->otherDispatchIndex = word & ~kAtomic; // an ordinal until named below
    };
    const std::uint64_t end = std::min(address + size, in->end);
    for (std::uint64_t at = address; at < end; ++at) {
        std::uint32_t& stored = in->shadow->stores[at - in->begin];
        std::uint32_t& loaded = in->shadow->loads[at - in->begin];
        const std::uint32_t storer = load(stored);
        if (conflicts(storer)) note(storer, Access::Store);
        const std::uint32_t loader = load(loaded);
        if (stores) {
            if (conflicts(loader)) note(loader, Access::Load);
            store(stored, mine);
        } else if (loader == 0) {
            // The first loader stays: a later dispatch that stores is then told of it.
            store(loaded, mine);
        }
    }
    if (found) {
        std::lock_guard lock(span_->mutex);
        const auto& [index, kernel] = span_->dispatches[found->otherDispatchIndex - 1];
        found->otherDispatchIndex = index;
        found->otherKernel = kernel;
    }
    return found;
}

} // namespace metalcpu::val
