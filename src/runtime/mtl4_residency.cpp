#include "runtime/mtl4_residency.h"

#include "runtime/buffer.h"
#include "runtime/debug_layer.h"
#include "runtime/dispatch_builder.h"
#include "runtime/residency_set.h"
#include "runtime/tensor.h"
#include "runtime/texture.h"

#include <metalcpu/kernel_abi.h>

#include <algorithm>

namespace metalcpu::rt {
namespace {

/// Our line: Apple's own report of this rule has not been found (docs/validation-api.md).
constexpr DebugLayer::Site kCommitSite = {"MTL4DebugCommandQueue", "commit:count:options:", 440};

const void* identity(const ResourceCore* allocation) { return static_cast<const ns::ObjectBase*>(allocation); }

/// A texture and what it is made over (the textures a view is made from, a buffer), each of
/// which makes it resident.
std::vector<const ResourceCore*> chainOf(const Texture* texture) {
    std::vector<const ResourceCore*> chain;
    for (; texture; texture = texture->parent()) {
        chain.push_back(texture);
        if (texture->buffer()) chain.push_back(texture->buffer());
    }
    return chain;
}

} // namespace

ResidencySets::~ResidencySets() { clear(); }

void ResidencySets::add(const MTL::ResidencySet* const* sets, std::uint64_t count) {
    std::lock_guard lock(mutex_);
    for (std::uint64_t i = 0; sets && i < count; ++i) {
        auto* set = ns::implOf<ResidencySet>(sets[i]);
        if (!set || std::find(sets_.begin(), sets_.end(), set) != sets_.end()) continue;
        set->retain();
        sets_.push_back(set);
    }
}

void ResidencySets::remove(const MTL::ResidencySet* const* sets, std::uint64_t count) {
    std::vector<ResidencySet*> removed;
    {
        std::lock_guard lock(mutex_);
        for (std::uint64_t i = 0; sets && i < count; ++i) {
            auto found = std::find(sets_.begin(), sets_.end(), ns::implOf<ResidencySet>(sets[i]));
            if (found == sets_.end()) continue;
            removed.push_back(*found);
            sets_.erase(found);
        }
    }
    for (ResidencySet* set : removed) set->release(); // outside the lock: this may free the set
}

void ResidencySets::clear() {
    std::vector<ResidencySet*> removed;
    {
        std::lock_guard lock(mutex_);
        removed.swap(sets_);
    }
    for (ResidencySet* set : removed) set->release();
}

bool ResidencySets::holdCommitted(const ResourceCore* allocation) const {
    std::lock_guard lock(mutex_);
    return std::any_of(sets_.begin(), sets_.end(),
                       [&](const ResidencySet* set) { return set->containsCommitted(identity(allocation)); });
}

ResidencySet* ResidencySets::stagingOnly(const ResourceCore* allocation) const {
    std::lock_guard lock(mutex_);
    for (ResidencySet* set : sets_)
        if (set->contains(allocation) && !set->containsCommitted(identity(allocation))) return set;
    return nullptr;
}

void ResidencyUses::note(std::size_t command, const mc_kernel& kernel, const Bindings& bindings) {
    for (mc_u32 i = 0; i < kernel.param_count; ++i) {
        const mc_param& param = kernel.params[i];
        const std::string index = std::to_string(param.index);
        Use use{command, {}, {}, kernel.name};
        if (param.kind == MC_PARAM_BUFFER && bindings.buffers[param.index].buffer) {
            use.chain = {bindings.buffers[param.index].buffer};
            use.what = "the buffer bound at index " + index + " for " + param.name + "[0]";
        } else if (param.kind == MC_PARAM_TEXTURE && bindings.textures[param.index]) {
            use.chain = chainOf(bindings.textures[param.index]);
            use.what = "the texture bound at texture index " + index + " for " + param.name + "[0]";
        } else if (param.kind == MC_PARAM_TENSOR && bindings.tensors[param.index]) {
            const Tensor* tensor = bindings.tensors[param.index];
            use.chain = {tensor, tensor->buffer()};
            use.what = "the tensor bound at index " + index + " for " + param.name;
        }
        if (!use.chain.empty()) uses_.push_back(std::move(use));
    }
}

void ResidencyUses::check(const ResidencySets& own, const ResidencySets& queue, std::vector<Command>& commands) const {
    for (const Use& use : uses_) {
        const bool resident = std::any_of(use.chain.begin(), use.chain.end(), [&](const ResourceCore* a) {
            return own.holdCommitted(a) || queue.holdCommitted(a);
        });
        if (resident) continue;
        std::string message = "Compute Function(" + use.kernel + "): " + use.what + " (label: " +
                              use.chain.front()->label().text("(null)") +
                              ") is in no committed residency set of the command buffer or its command queue";
        // The commonest cause: addAllocation without the commit() that makes it count.
        ResidencySet* staging = nullptr;
        for (const ResourceCore* allocation : use.chain) {
            if (!staging) staging = own.stagingOnly(allocation);
            if (!staging) staging = queue.stagingOnly(allocation);
        }
        message += staging ? ": it was added to residency set (label: " + staging->label().text("(null)") +
                                 "), but that set was not committed since (call commit() after addAllocation)."
                           : ".";
        if (!DebugLayer::report(kCommitSite, message)) continue;
        auto* dispatch = use.command < commands.size() ? std::get_if<DispatchCommand>(&commands[use.command]) : nullptr;
        if (dispatch && dispatch->encodeError.empty()) dispatch->encodeError = message;
    }
}

} // namespace metalcpu::rt
