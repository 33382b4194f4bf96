#pragma once

#include "NSDefines.hpp"
#include "NSObject.hpp"
#include "NSTypes.hpp"

namespace NS {

class Data : public Copying<Data> {
public:
    const void* bytes() const;
    UInteger length() const;
};

} // namespace NS
