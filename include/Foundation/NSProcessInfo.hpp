#pragma once

#include "NSDefines.hpp"
#include "NSNotification.hpp"
#include "NSObject.hpp"
#include "NSTypes.hpp"

#include <cstdint>
#include <functional>

namespace NS {

extern const NotificationName ProcessInfoThermalStateDidChangeNotification;
extern const NotificationName ProcessInfoPowerStateDidChangeNotification;
extern const NotificationName ProcessInfoPerformanceProfileDidChangeNotification;

enum ProcessInfoThermalState : Integer {
    ProcessInfoThermalStateNominal = 0,
    ProcessInfoThermalStateFair = 1,
    ProcessInfoThermalStateSerious = 2,
    ProcessInfoThermalStateCritical = 3,
};

using ActivityOptions = std::uint64_t;
enum : ActivityOptions {
    ActivityIdleDisplaySleepDisabled = (1ULL << 40),
    ActivityIdleSystemSleepDisabled = (1ULL << 20),
    ActivitySuddenTerminationDisabled = (1ULL << 14),
    ActivityAutomaticTerminationDisabled = (1ULL << 15),
    ActivityUserInitiated = (0x00FFFFFFULL | ActivityIdleSystemSleepDisabled),
    ActivityUserInitiatedAllowingIdleSystemSleep = (ActivityUserInitiated & ~ActivityIdleSystemSleepDisabled),
    ActivityBackground = 0x000000FFULL,
    ActivityLatencyCritical = 0xFF00000000ULL,
};

typedef Integer DeviceCertification;
extern const DeviceCertification DeviceCertificationiPhonePerformanceGaming;

typedef Integer ProcessPerformanceProfile;
extern const ProcessPerformanceProfile ProcessPerformanceProfileDefault;
extern const ProcessPerformanceProfile ProcessPerformanceProfileSustained;

// Facts about the running process and machine, read from Linux. The operating-system
// version is the macOS version metalcpu emulates (docs/foundation.md), so programs that
// gate features on it take their Metal path.
class ProcessInfo : public Referencing<ProcessInfo> {
public:
    static ProcessInfo* processInfo();

    class Array* arguments() const;
    class Dictionary* environment() const;
    class String* hostName() const;
    class String* processName() const;
    void setProcessName(const String* pString);
    int processIdentifier() const;
    class String* globallyUniqueString() const;

    class String* userName() const;
    class String* fullUserName() const;

    UInteger operatingSystem() const;
    OperatingSystemVersion operatingSystemVersion() const;
    class String* operatingSystemVersionString() const;
    bool isOperatingSystemAtLeastVersion(OperatingSystemVersion version) const;

    UInteger processorCount() const;
    UInteger activeProcessorCount() const;
    unsigned long long physicalMemory() const;
    TimeInterval systemUptime() const;

    void disableSuddenTermination();
    void enableSuddenTermination();

    void disableAutomaticTermination(const class String* pReason);
    void enableAutomaticTermination(const class String* pReason);
    bool automaticTerminationSupportEnabled() const;
    void setAutomaticTerminationSupportEnabled(bool enabled);

    class Object* beginActivity(ActivityOptions options, const class String* pReason);
    void endActivity(class Object* pActivity);
#if METALCPU_HAS_BLOCKS
    void performActivity(ActivityOptions options, const class String* pReason, void (^block)(void));
#endif
    void performActivity(ActivityOptions options, const class String* pReason, const std::function<void()>& func);
#if METALCPU_HAS_BLOCKS
    void performExpiringActivity(const class String* pReason, void (^block)(bool expired));
#endif
    void performExpiringActivity(const class String* pReason, const std::function<void(bool expired)>& func);

    ProcessInfoThermalState thermalState() const;
    bool isLowPowerModeEnabled() const;

    bool isiOSAppOnMac() const;
    bool isMacCatalystApp() const;

    bool isDeviceCertified(DeviceCertification performanceTier) const;
    bool hasPerformanceProfile(ProcessPerformanceProfile performanceProfile) const;
};

} // namespace NS

#if METALCPU_HAS_BLOCKS
// Blocks are adapted to the std::function overloads.
inline void NS::ProcessInfo::performActivity(ActivityOptions options, const String* pReason, void (^block)(void)) {
    performActivity(options, pReason, std::function<void()>([block]() { block(); }));
}

inline void NS::ProcessInfo::performExpiringActivity(const String* pReason, void (^block)(bool expired)) {
    performExpiringActivity(pReason, std::function<void(bool)>([block](bool expired) { block(expired); }));
}
#endif
