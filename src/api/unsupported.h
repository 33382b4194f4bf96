#pragma once

namespace metalcpu::api {

/// Logs, once per method, that a declared Metal method does nothing yet in metalcpu.
/// `method` is e.g. "MTL::Device::newTexture"; `issue` names the issue that will add it.
void unsupported(const char* method, const char* issue = "");

} // namespace metalcpu::api
