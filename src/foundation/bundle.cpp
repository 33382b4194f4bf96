// NS::Bundle. A Linux program is not an application bundle: the main bundle is the
// directory of the executable, which is where metal-cpp command-line programs keep
// default.metallib. Bundle members with no Linux meaning return nullptr.
#include "foundation/collections.h"
#include "foundation/factories.h"
#include "foundation/string.h"
#include "foundation/url.h"
#include "support/files.h"

#include <Foundation/NSArray.hpp>
#include <Foundation/NSBundle.hpp>
#include <Foundation/NSString.hpp>
#include <Foundation/NSURL.hpp>

#include <filesystem>
#include <string>

namespace metalcpu::ns {

namespace constants {
constinit Immortal<String> bundleDidLoad{String::ConstantText{}, std::string_view("NSBundleDidLoadNotification")};
constinit Immortal<String> bundleResourceRequestLowDiskSpace{
    String::ConstantText{}, std::string_view("NSBundleResourceRequestLowDiskSpaceNotification")};
} // namespace constants

class Bundle final : public Implements<NS::Bundle> {
public:
    ~Bundle() override { clear(); }
    const char* className() const override { return "NSBundle"; }
    std::string description() const override {
        return "NSBundle <" + directory_ + ">" + (executable_.empty() ? "" : " (loaded)");
    }

    /// `directory`: the bundle's directory; `executable`: its program, or empty.
    void setPaths(const std::string& directory, const std::string& executable) {
        clear();
        directory_ = directory;
        executable_ = executable;
        directoryString_ = makeString(directory);
        directoryURL_ = makeFileURL(directory);
        if (!executable.empty()) {
            executableString_ = makeString(executable);
            executableURL_ = makeFileURL(executable);
        }
    }

    NS::Bundle* initWithPath(const NS::String* path) { return initWithDirectory(std::string(textOf(path))); }
    NS::Bundle* initWithURL(const NS::URL* url) {
        URL* impl = implOf<URL>(url);
        const char* path = impl ? impl->fileSystemRepresentation() : nullptr;
        return initWithDirectory(path ? path : "");
    }

    NS::Array* allBundles() const {
        NS::Object* main = NS::Bundle::mainBundle();
        return autoreleased(makeArray({main}));
    }
    NS::Array* allFrameworks() const { return autoreleased(makeArray({})); }
    bool load() { return true; }
    bool unload() { return false; }
    bool isLoaded() const { return !executable_.empty(); }
    bool preflightAndReturnError(NS::Error**) const { return true; }
    bool loadAndReturnError(NS::Error**) { return true; }

    NS::URL* bundleURL() const { return directoryURL_; }
    NS::URL* executableURL() const { return executableURL_; }
    NS::String* bundlePath() const { return directoryString_; }
    NS::String* executablePath() const { return executableString_; }
    NS::String* pathForAuxiliaryExecutable(const NS::String* name) const {
        std::string path = auxiliaryPath(name);
        return path.empty() ? nullptr : autoreleased(makeString(path));
    }
    NS::URL* URLForAuxiliaryExecutable(const NS::String* name) const {
        std::string path = auxiliaryPath(name);
        return path.empty() ? nullptr : autoreleased(makeFileURL(path));
    }
    NS::String* localizedString(const NS::String* key, const NS::String* value, const NS::String*) const {
        // No string tables: Foundation's answer for a missing key is the value, else the key.
        if (!textOf(value).empty()) return const_cast<NS::String*>(value);
        if (implOf<String>(key)) return const_cast<NS::String*>(key);
        return autoreleased(makeString(""));
    }

private:
    /// A bundle for an existing directory (Foundation's rule), else nil.
    NS::Bundle* initWithDirectory(const std::string& directory) {
        std::error_code error;
        if (directory.empty() || !std::filesystem::is_directory(directory, error)) return fail();
        setPaths(std::filesystem::absolute(directory, error).string(), {});
        return asPublicClass();
    }
    NS::Bundle* fail() {
        release();
        return nullptr;
    }
    std::string auxiliaryPath(const NS::String* name) const {
        std::string path = directory_ + "/" + std::string(textOf(name));
        return textOf(name).empty() || !support::fileExists(path) ? std::string() : path;
    }
    void clear() {
        releaseIfAny(directoryString_);
        releaseIfAny(executableString_);
        releaseIfAny(directoryURL_);
        releaseIfAny(executableURL_);
        directoryString_ = executableString_ = nullptr;
        directoryURL_ = executableURL_ = nullptr;
    }

    std::string directory_;
    std::string executable_;
    NS::String* directoryString_ = nullptr;
    NS::String* executableString_ = nullptr;
    NS::URL* directoryURL_ = nullptr;
    NS::URL* executableURL_ = nullptr;
};

} // namespace metalcpu::ns

namespace ns = metalcpu::ns;

const NS::NotificationName NS::BundleDidLoadNotification = &ns::constants::bundleDidLoad.value;
const NS::NotificationName NS::BundleResourceRequestLowDiskSpaceNotification =
    &ns::constants::bundleResourceRequestLowDiskSpace.value;

NS::String* NS::LocalizedString(const String* pKey, const String*) {
    return ns::call<ns::Bundle>(Bundle::mainBundle(), &ns::Bundle::localizedString, pKey, nullptr, nullptr);
}

NS::String* NS::LocalizedStringFromTable(const String* pKey, const String* pTbl, const String*) {
    return ns::call<ns::Bundle>(Bundle::mainBundle(), &ns::Bundle::localizedString, pKey, nullptr, pTbl);
}

NS::String* NS::LocalizedStringFromTableInBundle(const String* pKey, const String* pTbl, const Bundle* pBdle,
                                                 const String*) {
    return ns::call<ns::Bundle>(pBdle, &ns::Bundle::localizedString, pKey, nullptr, pTbl);
}

NS::String* NS::LocalizedStringWithDefaultValue(const String* pKey, const String* pTbl, const Bundle* pBdle,
                                                const String* pVal, const String*) {
    return ns::call<ns::Bundle>(pBdle, &ns::Bundle::localizedString, pKey, pVal, pTbl);
}

NS::Bundle* NS::Bundle::mainBundle() {
    static NS::Bundle* main = [] {
        NS::Bundle* made = ns::make<ns::Bundle>();
        std::error_code error;
        std::string executable = std::filesystem::read_symlink("/proc/self/exe", error).string();
        static_cast<ns::Bundle*>(ns::coreOf(made))->setPaths(metalcpu::support::executableDirectory(), executable);
        ns::coreOf(made)->makeImmortal();
        return made;
    }();
    return main;
}

NS::Bundle* NS::Bundle::bundle(const String* pPath) { return ns::autoreleased(alloc()->init(pPath)); }

NS::Bundle* NS::Bundle::bundle(const URL* pURL) { return ns::autoreleased(alloc()->init(pURL)); }

NS::Bundle* NS::Bundle::alloc() { return ns::make<ns::Bundle>(); }

NS::Bundle* NS::Bundle::init(const String* pPath) { return ns::call<ns::Bundle>(this, &ns::Bundle::initWithPath, pPath); }

NS::Bundle* NS::Bundle::init(const URL* pURL) { return ns::call<ns::Bundle>(this, &ns::Bundle::initWithURL, pURL); }

NS::Array* NS::Bundle::allBundles() const { return ns::call<ns::Bundle>(this, &ns::Bundle::allBundles); }

NS::Array* NS::Bundle::allFrameworks() const { return ns::call<ns::Bundle>(this, &ns::Bundle::allFrameworks); }

bool NS::Bundle::load() { return ns::call<ns::Bundle>(this, &ns::Bundle::load); }

bool NS::Bundle::unload() { return ns::call<ns::Bundle>(this, &ns::Bundle::unload); }

bool NS::Bundle::isLoaded() const { return ns::call<ns::Bundle>(this, &ns::Bundle::isLoaded); }

bool NS::Bundle::preflightAndReturnError(Error** pError) const {
    return ns::call<ns::Bundle>(this, &ns::Bundle::preflightAndReturnError, pError);
}

bool NS::Bundle::loadAndReturnError(Error** pError) {
    return ns::call<ns::Bundle>(this, &ns::Bundle::loadAndReturnError, pError);
}

NS::URL* NS::Bundle::bundleURL() const { return ns::call<ns::Bundle>(this, &ns::Bundle::bundleURL); }

NS::URL* NS::Bundle::resourceURL() const { return ns::call<ns::Bundle>(this, &ns::Bundle::bundleURL); }

NS::URL* NS::Bundle::executableURL() const { return ns::call<ns::Bundle>(this, &ns::Bundle::executableURL); }

NS::URL* NS::Bundle::URLForAuxiliaryExecutable(const String* pExecutableName) const {
    return ns::call<ns::Bundle>(this, &ns::Bundle::URLForAuxiliaryExecutable, pExecutableName);
}

NS::URL* NS::Bundle::privateFrameworksURL() const { return nullptr; }
NS::URL* NS::Bundle::sharedFrameworksURL() const { return nullptr; }
NS::URL* NS::Bundle::sharedSupportURL() const { return nullptr; }
NS::URL* NS::Bundle::builtInPlugInsURL() const { return nullptr; }
NS::URL* NS::Bundle::appStoreReceiptURL() const { return nullptr; }

NS::String* NS::Bundle::bundlePath() const { return ns::call<ns::Bundle>(this, &ns::Bundle::bundlePath); }

NS::String* NS::Bundle::resourcePath() const { return ns::call<ns::Bundle>(this, &ns::Bundle::bundlePath); }

NS::String* NS::Bundle::executablePath() const { return ns::call<ns::Bundle>(this, &ns::Bundle::executablePath); }

NS::String* NS::Bundle::pathForAuxiliaryExecutable(const String* pExecutableName) const {
    return ns::call<ns::Bundle>(this, &ns::Bundle::pathForAuxiliaryExecutable, pExecutableName);
}

NS::String* NS::Bundle::privateFrameworksPath() const { return nullptr; }
NS::String* NS::Bundle::sharedFrameworksPath() const { return nullptr; }
NS::String* NS::Bundle::sharedSupportPath() const { return nullptr; }
NS::String* NS::Bundle::builtInPlugInsPath() const { return nullptr; }
NS::String* NS::Bundle::bundleIdentifier() const { return nullptr; }
NS::Dictionary* NS::Bundle::infoDictionary() const { return nullptr; }
NS::Dictionary* NS::Bundle::localizedInfoDictionary() const { return nullptr; }
NS::Object* NS::Bundle::objectForInfoDictionaryKey(const String*) { return nullptr; }

NS::String* NS::Bundle::localizedString(const String* pKey, const String* pValue, const String* pTableName) const {
    return ns::call<ns::Bundle>(this, &ns::Bundle::localizedString, pKey, pValue, pTableName);
}
