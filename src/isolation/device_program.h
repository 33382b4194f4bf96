// The device process's program, carried inside metalcpu::metal: a program linked with metalcpu
// starts its device process from memory, wherever metalcpu and the program are installed.
#pragma once

#include <string>

namespace metalcpu::iso {

/// A sealed memory file holding the device program (made once per process, kept open);
/// -1 with the reason in `why` when it cannot be made.
int deviceProgramFile(std::string* why);

} // namespace metalcpu::iso
