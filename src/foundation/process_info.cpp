// NS::ProcessInfo, read from Linux. The operating-system version is the macOS version
// metalcpu emulates, so programs that gate Metal features on it take their Metal path.
#include "foundation/collections.h"
#include "foundation/factories.h"
#include "foundation/string.h"
#include "support/files.h"

#include <Foundation/NSArray.hpp>
#include <Foundation/NSDictionary.hpp>
#include <Foundation/NSProcessInfo.hpp>

#include <pwd.h>
#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <random>

extern char** environ;

namespace metalcpu::ns {

namespace constants {
constinit Immortal<String> thermalStateDidChange{String::ConstantText{},
                                                 std::string_view("NSProcessInfoThermalStateDidChangeNotification")};
constinit Immortal<String> powerStateDidChange{String::ConstantText{},
                                               std::string_view("NSProcessInfoPowerStateDidChangeNotification")};
constinit Immortal<String> performanceProfileDidChange{
    String::ConstantText{}, std::string_view("NSProcessInfoPerformanceProfileDidChangeNotification")};
} // namespace constants

namespace {

/// The macOS version metalcpu stands in for (metal-cpp 26 is the API it implements).
constexpr NS::OperatingSystemVersion kEmulatedMacOS{26, 0, 0};

bool atLeast(const NS::OperatingSystemVersion& have, const NS::OperatingSystemVersion& want) {
    if (have.majorVersion != want.majorVersion) return have.majorVersion > want.majorVersion;
    if (have.minorVersion != want.minorVersion) return have.minorVersion > want.minorVersion;
    return have.patchVersion >= want.patchVersion;
}

/// An object that only stands for something (an activity).
class Token final : public Implements<NS::Object> {
public:
    const char* className() const override { return "NSProcessInfoActivity"; }
};

} // namespace

class ProcessInfo final : public Implements<NS::ProcessInfo> {
public:
    const char* className() const override { return "NSProcessInfo"; }

    NS::Array* arguments() const {
        std::call_once(argumentsOnce_, [this] {
            std::vector<std::string> words;
            std::string all = support::readFile("/proc/self/cmdline").value_or("");
            for (std::size_t start = 0; start < all.size();) {
                std::size_t end = all.find('\0', start);
                if (end == std::string::npos) end = all.size();
                words.push_back(all.substr(start, end - start));
                start = end + 1;
            }
            arguments_ = makeStringArray(words);
        });
        return arguments_;
    }

    NS::Dictionary* environment() const {
        std::vector<std::pair<NS::Object*, NS::Object*>> entries;
        for (char** variable = environ; variable && *variable; ++variable) {
            std::string_view text(*variable);
            std::size_t equals = text.find('=');
            if (equals == std::string_view::npos) continue;
            entries.emplace_back(makeString(text.substr(0, equals)), makeString(text.substr(equals + 1)));
        }
        NS::Dictionary* dictionary = makeDictionary(entries);
        for (auto& [key, value] : entries) {
            releaseIfAny(key);
            releaseIfAny(value);
        }
        return autoreleased(dictionary);
    }

    NS::String* hostName() const {
        char name[256] = {};
        gethostname(name, sizeof name - 1);
        return autoreleased(makeString(name));
    }

    NS::String* processName() const {
        std::lock_guard lock(mutex_);
        return autoreleased(makeString(processName_.empty() ? program_invocation_short_name : processName_));
    }
    void setProcessName(const NS::String* name) {
        std::lock_guard lock(mutex_);
        processName_ = textOf(name);
    }

    int processIdentifier() const { return static_cast<int>(getpid()); }

    NS::String* globallyUniqueString() const {
        static std::atomic<unsigned long> counter{0};
        std::random_device random;
        char text[96];
        std::snprintf(text, sizeof text, "%08X-%04X-%04X-%04X-%04X%08X-%d-%016lX", random(), random() & 0xFFFF,
                      (random() & 0x0FFF) | 0x4000, (random() & 0x3FFF) | 0x8000, random() & 0xFFFF, random(),
                      static_cast<int>(getpid()), counter.fetch_add(1));
        return autoreleased(makeString(text));
    }

    NS::String* userName() const {
        const passwd* user = getpwuid(geteuid());
        return user ? autoreleased(makeString(user->pw_name)) : nullptr;
    }
    NS::String* fullUserName() const {
        const passwd* user = getpwuid(geteuid());
        if (!user) return nullptr;
        std::string_view gecos(user->pw_gecos ? user->pw_gecos : "");
        return autoreleased(makeString(gecos.substr(0, gecos.find(','))));
    }

    /// Not a Darwin system: none of Foundation's NSOperatingSystem values applies.
    NS::UInteger operatingSystem() const { return 0; }
    NS::OperatingSystemVersion operatingSystemVersion() const { return kEmulatedMacOS; }
    NS::String* operatingSystemVersionString() const {
        utsname system{};
        uname(&system);
        char text[256];
        std::snprintf(text, sizeof text, "Version %ld.%ld (metalcpu on %s %s)",
                      static_cast<long>(kEmulatedMacOS.majorVersion), static_cast<long>(kEmulatedMacOS.minorVersion),
                      system.sysname, system.release);
        return autoreleased(makeString(text));
    }
    bool isOperatingSystemAtLeastVersion(NS::OperatingSystemVersion version) const {
        return atLeast(kEmulatedMacOS, version);
    }

    NS::UInteger processorCount() const { return static_cast<NS::UInteger>(sysconf(_SC_NPROCESSORS_CONF)); }
    NS::UInteger activeProcessorCount() const {
        cpu_set_t set;
        if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<NS::UInteger>(CPU_COUNT(&set));
        return static_cast<NS::UInteger>(sysconf(_SC_NPROCESSORS_ONLN));
    }
    unsigned long long physicalMemory() const {
        return static_cast<unsigned long long>(sysconf(_SC_PHYS_PAGES)) *
               static_cast<unsigned long long>(sysconf(_SC_PAGESIZE));
    }
    NS::TimeInterval systemUptime() const {
        timespec now{};
        clock_gettime(CLOCK_BOOTTIME, &now);
        return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
    }

    void disableSuddenTermination() {}
    void enableSuddenTermination() {}
    void disableAutomaticTermination(const NS::String*) {}
    void enableAutomaticTermination(const NS::String*) {}
    bool automaticTerminationSupportEnabled() const { return false; }
    void setAutomaticTerminationSupportEnabled(bool) {}

    NS::Object* beginActivity(NS::ActivityOptions, const NS::String*) { return autoreleased(make<Token>()); }
    void endActivity(NS::Object*) {}
    // Activities only inform the system's power management; run the work right away.
    void performActivity(NS::ActivityOptions, const NS::String*, const std::function<void()>& function) {
        if (function) function();
    }
    void performExpiringActivity(const NS::String*, const std::function<void(bool)>& function) {
        if (function) function(false);
    }

    NS::ProcessInfoThermalState thermalState() const { return NS::ProcessInfoThermalStateNominal; }
    bool isLowPowerModeEnabled() const { return false; }
    bool isiOSAppOnMac() const { return false; }
    bool isMacCatalystApp() const { return false; }
    bool isDeviceCertified(NS::DeviceCertification) const { return false; }
    bool hasPerformanceProfile(NS::ProcessPerformanceProfile profile) const {
        return profile == NS::ProcessPerformanceProfileDefault;
    }

private:
    mutable std::once_flag argumentsOnce_;
    mutable NS::Array* arguments_ = nullptr; ///< owned; the process info is never freed
    mutable std::mutex mutex_;
    std::string processName_;
};

} // namespace metalcpu::ns

namespace ns = metalcpu::ns;

const NS::NotificationName NS::ProcessInfoThermalStateDidChangeNotification =
    &ns::constants::thermalStateDidChange.value;
const NS::NotificationName NS::ProcessInfoPowerStateDidChangeNotification = &ns::constants::powerStateDidChange.value;
const NS::NotificationName NS::ProcessInfoPerformanceProfileDidChangeNotification =
    &ns::constants::performanceProfileDidChange.value;

// Apple's values are private; metalcpu's only need to be distinct.
const NS::DeviceCertification NS::DeviceCertificationiPhonePerformanceGaming = 1;
const NS::ProcessPerformanceProfile NS::ProcessPerformanceProfileDefault = 1;
const NS::ProcessPerformanceProfile NS::ProcessPerformanceProfileSustained = 2;

NS::ProcessInfo* NS::ProcessInfo::processInfo() {
    static NS::ProcessInfo* info = [] {
        NS::ProcessInfo* made = ns::make<ns::ProcessInfo>();
        ns::coreOf(made)->makeImmortal();
        return made;
    }();
    return info;
}

NS::Array* NS::ProcessInfo::arguments() const { return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::arguments); }

NS::Dictionary* NS::ProcessInfo::environment() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::environment);
}

NS::String* NS::ProcessInfo::hostName() const { return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::hostName); }

NS::String* NS::ProcessInfo::processName() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::processName);
}

void NS::ProcessInfo::setProcessName(const String* pString) {
    ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::setProcessName, pString);
}

int NS::ProcessInfo::processIdentifier() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::processIdentifier);
}

NS::String* NS::ProcessInfo::globallyUniqueString() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::globallyUniqueString);
}

NS::String* NS::ProcessInfo::userName() const { return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::userName); }

NS::String* NS::ProcessInfo::fullUserName() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::fullUserName);
}

NS::UInteger NS::ProcessInfo::operatingSystem() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::operatingSystem);
}

NS::OperatingSystemVersion NS::ProcessInfo::operatingSystemVersion() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::operatingSystemVersion);
}

NS::String* NS::ProcessInfo::operatingSystemVersionString() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::operatingSystemVersionString);
}

bool NS::ProcessInfo::isOperatingSystemAtLeastVersion(OperatingSystemVersion version) const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::isOperatingSystemAtLeastVersion, version);
}

NS::UInteger NS::ProcessInfo::processorCount() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::processorCount);
}

NS::UInteger NS::ProcessInfo::activeProcessorCount() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::activeProcessorCount);
}

unsigned long long NS::ProcessInfo::physicalMemory() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::physicalMemory);
}

NS::TimeInterval NS::ProcessInfo::systemUptime() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::systemUptime);
}

void NS::ProcessInfo::disableSuddenTermination() {
    ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::disableSuddenTermination);
}

void NS::ProcessInfo::enableSuddenTermination() {
    ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::enableSuddenTermination);
}

void NS::ProcessInfo::disableAutomaticTermination(const String* pReason) {
    ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::disableAutomaticTermination, pReason);
}

void NS::ProcessInfo::enableAutomaticTermination(const String* pReason) {
    ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::enableAutomaticTermination, pReason);
}

bool NS::ProcessInfo::automaticTerminationSupportEnabled() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::automaticTerminationSupportEnabled);
}

void NS::ProcessInfo::setAutomaticTerminationSupportEnabled(bool enabled) {
    ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::setAutomaticTerminationSupportEnabled, enabled);
}

NS::Object* NS::ProcessInfo::beginActivity(ActivityOptions options, const String* pReason) {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::beginActivity, options, pReason);
}

void NS::ProcessInfo::endActivity(Object* pActivity) {
    ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::endActivity, pActivity);
}

void NS::ProcessInfo::performActivity(ActivityOptions options, const String* pReason,
                                      const std::function<void()>& func) {
    ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::performActivity, options, pReason, func);
}

void NS::ProcessInfo::performExpiringActivity(const String* pReason, const std::function<void(bool expired)>& func) {
    ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::performExpiringActivity, pReason, func);
}

NS::ProcessInfoThermalState NS::ProcessInfo::thermalState() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::thermalState);
}

bool NS::ProcessInfo::isLowPowerModeEnabled() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::isLowPowerModeEnabled);
}

bool NS::ProcessInfo::isiOSAppOnMac() const { return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::isiOSAppOnMac); }

bool NS::ProcessInfo::isMacCatalystApp() const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::isMacCatalystApp);
}

bool NS::ProcessInfo::isDeviceCertified(DeviceCertification performanceTier) const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::isDeviceCertified, performanceTier);
}

bool NS::ProcessInfo::hasPerformanceProfile(ProcessPerformanceProfile performanceProfile) const {
    return ns::call<ns::ProcessInfo>(this, &ns::ProcessInfo::hasPerformanceProfile, performanceProfile);
}
