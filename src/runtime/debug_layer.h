#pragma once

#include <functional>
#include <string>

namespace metalcpu::rt {

/// Metal's API validation (`MTL_DEBUG_LAYER=1`): with it on, encoders, command buffers and
/// the device check each call as it is made and report a mistake in Apple's words
/// (docs/validation-api.md lists the checks).
///
/// A check that fails calls report() or reject(); what happens then depends on the mode
/// (MTL_DEBUG_LAYER_ERROR_MODE): `assert` prints the report to stderr and aborts, `nslog`
/// prints it and the call continues, `ignore` behaves as if the layer were off. The call
/// then goes on as without the layer, except that a command only the layer objects to is
/// dropped (see report()).
class DebugLayer {
public:
    enum class Mode { Off, Assert, NSLog, Ignore };

    /// Where Apple's layer raises a failure: `-[className selector]:line`, or the bare
    /// `selector:line` of a helper function (validateComputeFunctionArguments) when
    /// className is null. Lines are Apple's where a real report shows one, else fixed
    /// values of ours.
    struct Site {
        const char* className;
        const char* selector;
        unsigned line;
    };

    /// Reads MTL_DEBUG_LAYER (or the legacy METAL_DEVICE_WRAPPER_TYPE) and
    /// MTL_DEBUG_LAYER_ERROR_MODE, and prints "Metal API Validation Enabled" when the layer
    /// turns on. The device calls it when it is created.
    static void configure();
    static Mode mode();

    /// A mistake only the layer objects to (Metal itself would run the call). Reports it
    /// and returns true when the mode reports (the caller then drops the call); returns
    /// false, doing nothing, when the layer is off or ignores errors. Does not return in
    /// assert mode.
    static bool report(const Site& site, const std::string& message);
    /// A mistake metalcpu refuses in any case: reported as report() does, or else written to
    /// the project log as before the layer existed.
    static void reject(const Site& site, const std::string& message);

    /// `-[class selector]:line: failed assertion `message'`, as Apple prints it.
    static std::string format(const Site& site, const std::string& message);

    /// Test hook: turns the layer on in `mode` (or off) without the environment, and hands
    /// every formatted report to `observer` as well (before the abort in assert mode).
    using Observer = std::function<void(const std::string& report)>;
    static void setForTesting(Mode mode, Observer observer = {});
};

} // namespace metalcpu::rt
