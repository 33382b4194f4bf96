#pragma once

#include "NSDefines.hpp"
#include "NSObject.hpp"
#include "NSTypes.hpp"

namespace NS {

class Date : public Copying<Date> {
public:
    static Date* dateWithTimeIntervalSinceNow(TimeInterval secs);
};

} // namespace NS
