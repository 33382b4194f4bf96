#include "support/landlock.h"

#include <cerrno>
#include <cstring>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace metalcpu::support {
namespace {

constexpr std::uint64_t kBindTcp = 1ULL << 0, kConnectTcp = 1ULL << 1;                 // ABI 4, network
constexpr std::uint64_t kScopeAbstractUnixSocket = 1ULL << 0, kScopeSignal = 1ULL << 1; // ABI 6

/// struct landlock_ruleset_attr as ABI 6 has it; older kernels are given a prefix of it.
struct RulesetAttributes {
    std::uint64_t handledFileAccess = 0;
    std::uint64_t handledNetworkAccess = 0;
    std::uint64_t scoped = 0;
};

} // namespace

int landlockAbi() {
#ifdef SYS_landlock_create_ruleset
    long abi = syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi > 0 ? static_cast<int>(abi) : 0;
#else
    return 0;
#endif
}

std::uint64_t landlockFileRights(int abi) {
    std::uint64_t rights = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; // ABI 1: execute to make_sym
    if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) rights |= kLandlockTruncate;
    if (abi >= 5) rights |= kLandlockIoctlDevice;
    return rights;
}

int makeLandlockRuleset(int abi, std::string* error) {
    RulesetAttributes attributes;
    attributes.handledFileAccess = landlockFileRights(abi);
    std::size_t size = sizeof attributes.handledFileAccess;
    if (abi >= 4) {
        attributes.handledNetworkAccess = kBindTcp | kConnectTcp;
        size += sizeof attributes.handledNetworkAccess;
    }
    if (abi >= 6) {
        attributes.scoped = kScopeAbstractUnixSocket | kScopeSignal;
        size += sizeof attributes.scoped;
    }
    const int ruleset =
        static_cast<int>(syscall(SYS_landlock_create_ruleset, &attributes, size, static_cast<std::uint32_t>(0)));
    if (ruleset < 0) *error = "cannot create a Landlock ruleset: " + std::string(std::strerror(errno));
    return ruleset;
}

int restrictSelfByLandlock(int ruleset, const char** failedStep) noexcept {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        *failedStep = "no_new_privs";
        return errno;
    }
    if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
        *failedStep = "landlock_restrict_self";
        return errno;
    }
    return 0;
}

} // namespace metalcpu::support
