// The runtime services as kernel code sees them. Part of every kernel library; compiled
// freestanding. kernel_support.h builds argument binding on top of this.
#pragma once

#include <metalcpu/kernel_abi.h>

// GCC before 14 gives a call's column only through __builtin_source_location(), which returns
// a std::source_location::__impl: the host's <source_location> has it (tests include this
// header in host programs); kernels compile without host headers, so it is declared here.
#if !__has_builtin(__builtin_COLUMN)
#if __has_include(<source_location>)
#include <source_location>
#define METALCPU_HOST_SOURCE_LOCATION 1
#else
namespace std {
struct source_location {
    struct __impl {
        const char* _M_file_name;
        const char* _M_function_name;
        unsigned _M_line;
        unsigned _M_column;
    };
};
} // namespace std
#endif
#endif

namespace metalcpu_kernel {

/// The services handed over by the runtime when it opened this library (library_stub.h).
/// An inline variable: one instance per kernel library however many files it holds.
inline const mc_services* g_services = nullptr;
/// Shader validation's region table (mc_services::regions), indexed by pointer tag.
inline const mc_region* g_regions = nullptr;
/// mc_services::access_watch: non-zero while instrumented kernels must tell the runtime of
/// their threadgroup accesses (METALCPU_SHADER_VALIDATION_CHECKS=races,uninitialized).
inline constexpr mc_u32 k_unwatched = 0;
inline const mc_u32* g_access_watch = &k_unwatched;

/// threadgroup_barrier(): wait until every thread of this threadgroup has arrived.
inline void threadgroup_barrier(unsigned mem_flags) { g_services->threadgroup_barrier(mem_flags); }
/// The same with the barrier's site: validated kernels pass it, for the barrier-divergence
/// check (barrier_rounds.h).
inline void threadgroup_barrier_at(unsigned mem_flags, const mc_simd_site& site) {
    g_services->threadgroup_barrier_at(mem_flags, &site);
}

/// What a threadgroup_barrier statement of a kernel split into work-item loops becomes: the
/// loops around it are the synchronisation, so in the plain flavour nothing; in the
/// instrumented one it tells the threadgroup watch that the whole group passed it
/// (mc_services::threadgroup_barrier_passed), once per group.
template <class Flags>
__attribute__((always_inline)) inline void work_items_barrier(Flags mem_flags) {
#ifdef METALCPU_VALIDATION
    if (__builtin_expect(*g_access_watch != 0, 0)) g_services->threadgroup_barrier_passed(static_cast<mc_u32>(mem_flags), 1);
#else
    (void)mem_flags;
#endif
}

/// A SIMD-group synchronisation a kernel split into work-item loops passed, for every thread of
/// the group at once (a `simdgroup_barrier` statement, the loops of a SIMD-group function
/// statement): in the instrumented flavour it tells the threadgroup watch, whose race check
/// orders a SIMD-group's threads by it; in the plain one, nothing.
__attribute__((always_inline)) inline void work_items_simdgroup_sync() {
#ifdef METALCPU_VALIDATION
    if (__builtin_expect(*g_access_watch != 0, 0)) g_services->threadgroup_barrier_passed(MC_SIMD_SYNC, 1);
#endif
}

/// The rendezvous of a SIMD-group function in a kernel split into work-item loops
/// (work_items.h, simd_collect): the function runs once per lane to record the values the
/// lanes hand in, then once more for the thread that wants its result, replaying them.
struct simd_replay {
    unsigned char* values; ///< lane i's value at values + i * METALCPU_SIMD_VALUE_BYTES
    mc_u64 active;
    /// simd_collect writes the lane for every thread, and the function reads it with the
    /// width: kept apart, so the two are not read as one 8-byte word, which would have to
    /// wait for the 4-byte store to retire (a store-forwarding stall per lane).
    mc_u32 lane;
    bool recording; ///< then the round shows no active lane: the result is thrown away
    mc_u32 width;
    /// A result the same for every lane of a group (a reduction), kept for the next lanes:
    /// the lanes it is for, [first, end) (the SIMD-group's, or a quad's; first ~0u for none),
    /// and the value.
    mc_u32* uniform_lanes;
    unsigned char* uniform;
    /// For a staged collective helper (work_items.h, simd_staged_collect): the record of each
    /// of its collectives, which the exchange picks by the collective's rank in the call;
    /// null for any other statement.
    struct simd_stages* stages = nullptr;
};

/// The most collectives one call of a staged collective helper may make.
#define METALCPU_SIMD_MAX_STAGES 32

/// The records of a staged collective helper's collectives for one SIMD-group: a helper
/// whose value takes several collectives (MLX's `CumMax::simd_scan`, a loop of
/// `simd_shuffle_up`s) runs for every lane once per collective. Pass p replays the
/// collectives ranked below p from their records, records what the lanes hand in at rank p,
/// and lets the later ones only record (their values are thrown away: a later pass computes
/// them again). A pass in which no lane reaches rank p gives every lane's value.
struct simd_stages {
    unsigned char* values;  ///< rank k's lanes at values + (k * width + lane) * METALCPU_SIMD_VALUE_BYTES
    unsigned char* uniform; ///< rank k's shared reduction result at uniform + k * METALCPU_SIMD_VALUE_BYTES
    mc_u64 active[METALCPU_SIMD_MAX_STAGES];           ///< the lanes that reached rank k
    mc_u32 uniform_lanes[METALCPU_SIMD_MAX_STAGES][2]; ///< simd_replay::uniform_lanes of rank k
    mc_u32 record;                                     ///< the rank this pass records
    mc_u32 next;                                       ///< the rank of the lane's next collective
    simd_replay current;                               ///< what the collective at hand reads

    /// The replay for the lane's next collective: its record (a rank already recorded), or a
    /// recording of the lane's value.
    simd_replay* rank(const simd_replay& lane) {
        const mc_u32 k = next++;
        if (k >= METALCPU_SIMD_MAX_STAGES) __builtin_trap(); // the front end bounds a helper's collectives
        const bool replayed = k < record;
        if (k == record) active[k] |= mc_u64(1) << lane.lane;
        current = simd_replay{values + mc_u64(k) * lane.width * METALCPU_SIMD_VALUE_BYTES,
                              replayed ? active[k] : 0,
                              lane.lane,
                              !replayed,
                              lane.width,
                              uniform_lanes[k],
                              uniform + mc_u64(k) * METALCPU_SIMD_VALUE_BYTES,
                              nullptr};
        return &current;
    }
};

/// Where a collective is called: every public SIMD-group function takes one as a defaulted
/// last parameter, so it holds the position of the call in the kernel's source (#line keeps
/// the .metal file's), and the function adds its kind. On fibers, lanes meet in one round
/// only at the same site: that is how they know they diverged to different collectives.
///
/// A source position, not a code address (__builtin_return_address, the service call's
/// return address): the optimiser moves code about — it merges the same call from both sides
/// of a branch into one, duplicates a loop body when unrolling — so lanes at one collective
/// can run different instructions and lanes at two can run the same one. A position is a
/// value the call carries, which inlining, tail merging and unrolling keep. A template's
/// instantiations share their positions; the kind (one address per function and value
/// type) tells them apart when they differ in type. Two calls that one macro expansion makes
/// share a position too: if lanes diverge between two such calls of the same function and
/// type, they meet as one round.
struct simd_site : mc_simd_site {
#if __has_builtin(__builtin_COLUMN)
    constexpr simd_site(const char* file_ = __builtin_FILE(), unsigned line_ = __builtin_LINE(),
                        unsigned column_ = __builtin_COLUMN())
        : mc_simd_site{file_, line_, column_, nullptr} {}
#elif defined(METALCPU_HOST_SOURCE_LOCATION)
    simd_site(std::source_location here = std::source_location::current())
        : mc_simd_site{here.file_name(), here.line(), here.column(), nullptr} {}
#else
    simd_site(const void* here = __builtin_source_location())
        : mc_simd_site{static_cast<const std::source_location::__impl*>(here)->_M_file_name,
                       static_cast<const std::source_location::__impl*>(here)->_M_line,
                       static_cast<const std::source_location::__impl*>(here)->_M_column, nullptr} {}
#endif
    /// In a kernel split into work-item loops, the round simd_collect is recording or
    /// replaying: the collective finds it here, without asking the runtime for the calling
    /// thread's group (a call per lane). Not part of mc_simd_site: the runtime never sees it.
    simd_replay* replay = nullptr;

    /// The same site, as the collective of kind `k`.
    simd_site of_kind(const void* k) const {
        simd_site s = *this;
        s.kind = k;
        return s;
    }
};

/// The translator wraps each call of a function that can reach a collective in one of these
/// (`(::metalcpu_kernel::simd_call_site(), helper(x))`, docs/compiler.md): while the call runs
/// it is the thread's current call (mc_services::simd_call_path), so a collective inside knows
/// the chain of calls it was reached through. Two calls of one helper are then two places,
/// and places compare call by call, the way structured code reaches them: a helper defined
/// below its caller has its collectives ordered by where it is called, not by where it is.
/// A temporary: it lives until the end of the full expression holding the call.
struct simd_call_site : mc_simd_call {
    simd_call_site(simd_site here = {}) : mc_simd_call{here, nullptr} {
        if (g_services->simd_call_path) caller = g_services->simd_call_path(this);
    }
    ~simd_call_site() {
        if (g_services->simd_call_path) g_services->simd_call_path(caller);
    }
    simd_call_site(const simd_call_site&) = delete;
    simd_call_site& operator=(const simd_call_site&) = delete;
};

/// One address per collective kind: a function and the types it exchanges. Hidden: an inline
/// variable of default visibility is a GNU unique symbol, which keeps the kernel library
/// loaded after dlclose, and the loader then hands out that stale library for the next one
/// opened under the same /proc/<pid>/fd/<n> name.
template <class... Kind>
__attribute__((visibility("hidden"))) inline constexpr char simd_kind = 0;

/// A SIMD-group collective's rendezvous: hands in `size` bytes at `value`, waits for the other
/// live threads of the SIMD-group and describes the round (mc_services::simdgroup_exchange:
/// only the lanes at `site` as the collective of kind `kind`), or, in a kernel split into
/// work-item loops, records or replays the round (and returns the replay, else null).
/// The site is read only on the first path: copying it for the replay (its fields stored one
/// by one in the caller, loaded at once here) stalled store forwarding at every lane.
inline simd_replay* simdgroup_exchange(const void* value, unsigned size, const simd_site& site, const void* kind,
                                       mc_simd_round* round) {
    simd_replay* replay = site.replay;
    if (!replay) {
        const mc_group* group = g_services->current_group();
        if (group) replay = static_cast<simd_replay*>(group->simd_replay);
    }
    if (replay && replay->stages) replay = replay->stages->rank(*replay);
    if (replay) {
        if (replay->recording && size > 0)
            // (The lane widened first: counted up in simd_record's loop, it is then a step of
            // a pointer there instead of a product per lane.)
            __builtin_memcpy(replay->values + mc_u64(replay->lane) * METALCPU_SIMD_VALUE_BYTES, value,
                             size < METALCPU_SIMD_VALUE_BYTES ? size : METALCPU_SIMD_VALUE_BYTES);
        *round = mc_simd_round{replay->values, replay->recording ? 0u : replay->active, replay->lane, replay->width};
        return replay;
    }
    const simd_site kinded = site.of_kind(kind);
    g_services->simdgroup_exchange(value, size, &kinded, round);
    return nullptr;
}

/// A lockstep point the front end inserted before a store some lanes make after reads
/// (compiler/passes/lockstep_points.h), in the instrumented flavour: the rendezvous of a
/// `simdgroup_barrier` (the fiber scheduler then releases the lanes in lane order), of its own
/// kind, so that the race check does not take it for a synchronisation the kernel wrote.
inline void lockstep_point(simd_site where = {}) {
    mc_simd_round round;
    simdgroup_exchange(nullptr, 0, where, MC_SIMD_LOCKSTEP_KIND, &round);
}

} // namespace metalcpu_kernel
