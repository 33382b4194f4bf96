#include "device/sandbox.h"

namespace metalcpu::device {

bool enterSandbox(SandboxReport* report, std::string* error) {
    (void)report;
    *error = "the device sandbox is not written yet";
    return false;
}

} // namespace metalcpu::device
