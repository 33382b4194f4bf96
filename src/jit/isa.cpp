#include "jit/isa.h"

#include "support/config.h"
#include "support/log.h"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace metalcpu::jit {
namespace {

/// The position of `level` in knownLevels(), or -1 for an unknown one.
int rankOf(std::string_view level) {
    const std::vector<std::string>& levels = knownLevels();
    auto found = std::find(levels.begin(), levels.end(), level);
    return found == levels.end() ? -1 : static_cast<int>(found - levels.begin());
}

/// What the CPU itself runs, METALCPU_KERNEL_ISA aside. libgcc's answer includes the
/// operating system's: AVX and AVX-512 count only when XCR0 says their registers are saved.
bool hardwareRuns(int rank) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    switch (rank) {
    case 0: return true;
    case 1: return __builtin_cpu_supports("x86-64-v2");
    case 2: return __builtin_cpu_supports("x86-64-v3");
    case 3: return __builtin_cpu_supports("x86-64-v4");
    default: return false;
    }
#else
    return rank == 0;
#endif
}

/// METALCPU_KERNEL_ISA's rank: the best level allowed; every level when it is unset, the
/// baseline (with a warning, once per value) when it names no level.
int ceilingRank() {
    const std::string& ceiling = support::config().kernelIsa;
    if (ceiling.empty()) return static_cast<int>(knownLevels().size()) - 1;
    const int rank = rankOf(ceiling);
    if (rank < 0) {
        static std::string warned;
        if (warned != ceiling) {
            warned = ceiling;
            std::string levels;
            for (const std::string& level : knownLevels()) levels += (levels.empty() ? "" : ", ") + level;
            support::log().warn("METALCPU_KERNEL_ISA={} is not a level of this machine ({}); using {}", ceiling,
                                levels, baselineLevel());
        }
        return 0;
    }
    return rank;
}

/// This CPU's name, for the cache key of code tuned for it: the brand string on x86-64.
std::string cpuName() {
#if defined(__x86_64__)
    unsigned words[12] = {};
    for (unsigned leaf = 0; leaf < 3; ++leaf)
        if (!__get_cpuid(0x80000002u + leaf, &words[4 * leaf], &words[4 * leaf + 1], &words[4 * leaf + 2],
                         &words[4 * leaf + 3]))
            return "unknown";
    char brand[sizeof words + 1] = {};
    std::memcpy(brand, words, sizeof words);
    return brand;
#else
    return "unknown";
#endif
}

} // namespace

const std::vector<std::string>& knownLevels() {
#if defined(__x86_64__)
    static const std::vector<std::string> levels = {"x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"};
#else
    static const std::vector<std::string> levels = {"armv8-a"};
#endif
    return levels;
}

const std::string& baselineLevel() { return knownLevels().front(); }

const std::vector<std::string>& defaultLevels() {
#if defined(__x86_64__)
    static const std::vector<std::string> levels = {"x86-64", "x86-64-v3", "x86-64-v4"};
#else
    static const std::vector<std::string> levels = {"armv8-a"};
#endif
    return levels;
}

bool cpuRuns(std::string_view level) {
    const int rank = rankOf(level);
    return rank >= 0 && rank <= ceilingRank() && hardwareRuns(rank);
}

std::string hostLevel() {
    const std::vector<std::string>& levels = knownLevels();
    for (auto level = levels.rbegin(); level != levels.rend(); ++level)
        if (cpuRuns(*level)) return *level;
    return baselineLevel();
}

std::vector<std::string> levelFlags(const std::string& level, bool tunedForHost) {
    std::vector<std::string> flags = {"-march=" + level};
    if (tunedForHost) flags.push_back("-mtune=native");
    return flags;
}

std::string hostTarget() {
    static const std::string name = cpuName();
    return hostLevel() + " tuned for " + name;
}

std::string levelInFlags(const std::vector<std::string>& flags) {
    std::string level;
    for (const std::string& flag : flags)
        for (const char* prefix : {"-march=", "-mcpu="})
            if (flag.starts_with(prefix)) level = flag.substr(std::strlen(prefix));
    // -march=native or a CPU's name: code for this machine, tagged with its level.
    return level.empty() || rankOf(level) >= 0 ? level : hostLevel();
}

} // namespace metalcpu::jit
