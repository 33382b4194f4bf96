#pragma once

// metal-cpp declares ComparisonResult and NotFound here; metalcpu keeps them in
// NSTypes.hpp, so this header only forwards to it.
#include "NSDefines.hpp"
#include "NSTypes.hpp"
