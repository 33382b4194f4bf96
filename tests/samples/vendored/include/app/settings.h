#pragma once

namespace app {
inline constexpr const char* kGreeting = "running on ";
} // namespace app
