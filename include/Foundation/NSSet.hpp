#pragma once

#include "NSDefines.hpp"
#include "NSEnumerator.hpp"
#include "NSObject.hpp"
#include "NSTypes.hpp"

namespace NS {

class Set : public NS::Copying<Set> {
public:
    [[nodiscard]] UInteger count() const;
    [[nodiscard]] Enumerator<Object>* objectEnumerator() const;

    static Set* alloc();

    Set* init();
    Set* init(const Object* const* pObjects, UInteger count);
    Set* init(const class Coder* pCoder);
};

} // namespace NS
