// Resource IDs of textures and samplers: what a kernel reads from an argument buffer as its
// texture or sampler.
#pragma once

#include "runtime/buffer_memory.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace metalcpu::rt {

class SamplerState;
class Texture;

/// Metal 3 programs (and SPIRV-Cross's argument buffers for MoltenVK) fill an argument buffer
/// with each texture's gpuResourceID(), and the kernel reads that member as its texture2d.
/// A kernel-side texture is a pointer to an mc_texture, so a texture's resource ID is the
/// address of a copy of its mc_texture in buffer memory: a device process maps that memory at
/// the same address, as it maps buffers, and the kernel reads the texture there as it reads
/// one bound with setTexture. The runtime maps IDs back to their textures (MTL4 argument
/// tables bind IDs) through this table only, never by reading the slot, which kernels can write.
/// A sampler's resource ID is likewise the address of a copy of its mc_sampler, which a kernel's
/// argument-buffer `sampler` member (metal::sampler_reference) reads.
class ResourceDescriptors {
public:
    /// Bytes of one slot: an mc_texture, rounded to 16.
    static constexpr std::size_t kSlotSize = 192;

    static ResourceDescriptors& shared();

    /// A slot holding a copy of `size` bytes at `view` for `owner`: its address, or 0 when
    /// there is no memory for one.
    std::uint64_t publish(const Texture* owner, const void* view, std::size_t size);
    std::uint64_t publish(const SamplerState* owner, const void* view, std::size_t size);
    /// Frees `id`'s slot (0 does nothing).
    void withdraw(std::uint64_t id);
    /// The live texture or sampler whose resource ID is `id`, or nullptr.
    Texture* texture(std::uint64_t id);
    SamplerState* sampler(std::uint64_t id);

private:
    struct Owner {
        const Texture* texture = nullptr;
        const SamplerState* sampler = nullptr;
    };
    std::uint64_t publishFor(Owner owner, const void* view, std::size_t size);

    std::mutex mutex_;
    std::vector<std::unique_ptr<BufferMemory>> slabs_;
    std::vector<std::uint64_t> free_;
    std::unordered_map<std::uint64_t, Owner> owners_;
};

} // namespace metalcpu::rt
