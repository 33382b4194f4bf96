#pragma once

// Command-line values the benchmarks share.
#include <cstdlib>
#include <cstring>
#include <vector>

namespace bench {

/// "4,64" as {4, 64}.
inline std::vector<unsigned> parseList(const char* text) {
    std::vector<unsigned> values;
    for (const char* p = text; *p;) {
        values.push_back(unsigned(std::strtoul(p, nullptr, 10)));
        p = std::strchr(p, ',');
        if (!p) break;
        ++p;
    }
    return values;
}

} // namespace bench
