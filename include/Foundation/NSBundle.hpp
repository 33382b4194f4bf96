#pragma once

#include "NSDefines.hpp"
#include "NSNotification.hpp"
#include "NSObject.hpp"
#include "NSTypes.hpp"

namespace NS {

extern const NotificationName BundleDidLoadNotification;
extern const NotificationName BundleResourceRequestLowDiskSpaceNotification;

class String* LocalizedString(const String* pKey, const String*);
class String* LocalizedStringFromTable(const String* pKey, const String* pTbl, const String*);
class String* LocalizedStringFromTableInBundle(const String* pKey, const String* pTbl, const class Bundle* pBdle,
                                               const String*);
class String* LocalizedStringWithDefaultValue(const String* pKey, const String* pTbl, const class Bundle* pBdle,
                                              const String* pVal, const String*);

// On Linux a program is not an application bundle: the main bundle is the directory that
// holds the executable (bundlePath and resourcePath), so resources such as
// default.metallib are looked up beside the binary. Members without a Linux meaning
// return nullptr.
class Bundle : public Referencing<Bundle> {
public:
    static Bundle* mainBundle();

    static Bundle* bundle(const class String* pPath);
    static Bundle* bundle(const class URL* pURL);

    static Bundle* alloc();

    Bundle* init(const class String* pPath);
    Bundle* init(const class URL* pURL);

    [[nodiscard]] class Array* allBundles() const;
    [[nodiscard]] class Array* allFrameworks() const;

    bool load();
    bool unload();

    [[nodiscard]] bool isLoaded() const;

    bool preflightAndReturnError(class Error** pError) const;
    bool loadAndReturnError(class Error** pError);

    [[nodiscard]] class URL* bundleURL() const;
    [[nodiscard]] class URL* resourceURL() const;
    [[nodiscard]] class URL* executableURL() const;
    [[nodiscard]] class URL* URLForAuxiliaryExecutable(const class String* pExecutableName) const;

    [[nodiscard]] class URL* privateFrameworksURL() const;
    [[nodiscard]] class URL* sharedFrameworksURL() const;
    [[nodiscard]] class URL* sharedSupportURL() const;
    [[nodiscard]] class URL* builtInPlugInsURL() const;
    [[nodiscard]] class URL* appStoreReceiptURL() const;

    [[nodiscard]] class String* bundlePath() const;
    [[nodiscard]] class String* resourcePath() const;
    [[nodiscard]] class String* executablePath() const;
    [[nodiscard]] class String* pathForAuxiliaryExecutable(const class String* pExecutableName) const;

    [[nodiscard]] class String* privateFrameworksPath() const;
    [[nodiscard]] class String* sharedFrameworksPath() const;
    [[nodiscard]] class String* sharedSupportPath() const;
    [[nodiscard]] class String* builtInPlugInsPath() const;

    [[nodiscard]] class String* bundleIdentifier() const;
    [[nodiscard]] class Dictionary* infoDictionary() const;
    [[nodiscard]] class Dictionary* localizedInfoDictionary() const;
    [[nodiscard]] class Object* objectForInfoDictionaryKey(const class String* pKey);

    [[nodiscard]] class String* localizedString(const class String* pKey, const class String* pValue = nullptr,
                                                const class String* pTableName = nullptr) const;
};

} // namespace NS
