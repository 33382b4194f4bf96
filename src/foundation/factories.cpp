#include "foundation/factories.h"

#include "foundation/collections.h"
#include "foundation/data.h"
#include "foundation/error.h"
#include "foundation/string.h"
#include "foundation/string_encoding.h"
#include "foundation/url.h"
#include "foundation/value.h"

#include <Foundation/NSError.hpp>

namespace metalcpu::ns {

NS::String* makeString(std::string_view utf8) {
    if (isValidUtf8(utf8)) return make<String>(std::string(utf8));
    return make<String>(utf8Of(utf16Of(utf8)));
}

std::string stringOf(const NS::String* string) { return std::string(textOf(string)); }

NS::Error* makeError(std::string_view domain, NS::Integer code, std::string_view description) {
    NS::String* domainString = makeString(domain);
    NS::String* text = makeString(description);
    NS::Dictionary* userInfo = makeDictionary({{NS::LocalizedDescriptionKey, text}});
    NS::Error* error = NS::Error::alloc()->init(domainString, code, userInfo);
    releaseIfAny(userInfo);
    releaseIfAny(text);
    releaseIfAny(domainString);
    return error;
}

NS::Array* makeArray(const std::vector<NS::Object*>& objects) {
    NS::Array* array = make<Array>();
    static_cast<Array*>(coreOf(array))->elements().add(objects.data(), objects.size(), "metalcpu::ns::makeArray");
    return array;
}

NS::Array* makeStringArray(const std::vector<std::string>& strings) {
    NS::Array* array = make<Array>();
    for (const std::string& text : strings) {
        ObjectBase* string = coreOf(makeString(text));
        static_cast<Array*>(coreOf(array))->elements().add(string);
        string->release();
    }
    return array;
}

NS::Dictionary* makeDictionary(const std::vector<std::pair<NS::Object*, NS::Object*>>& entries) {
    NS::Dictionary* dictionary = make<Dictionary>();
    for (const auto& [key, value] : entries) {
        ObjectBase* keyCore = ObjectBase::from(key);
        ObjectBase* valueCore = ObjectBase::from(value);
        if (keyCore && valueCore) static_cast<Dictionary*>(coreOf(dictionary))->set(keyCore, valueCore);
    }
    return dictionary;
}

std::vector<NS::Object*> arrayElements(const NS::Array* array) {
    std::vector<NS::Object*> elements;
    if (Array* impl = implOf<Array>(array))
        for (ObjectBase* element : impl->items()) elements.push_back(element->asPublic());
    return elements;
}

std::vector<std::pair<NS::Object*, NS::Object*>> dictionaryEntries(const NS::Dictionary* dictionary) {
    std::vector<std::pair<NS::Object*, NS::Object*>> entries;
    if (Dictionary* impl = implOf<Dictionary>(dictionary))
        for (std::size_t i = 0; i < impl->keys().size(); ++i)
            entries.emplace_back(impl->keys()[i]->asPublic(), impl->values()[i]->asPublic());
    return entries;
}

std::string textOfObject(const NS::Object* object) {
    ObjectBase* core = ObjectBase::from(object);
    if (!core) return {};
    if (auto* string = dynamic_cast<String*>(core)) return std::string(string->utf8());
    if (auto* number = dynamic_cast<Number*>(core)) return number->text();
    return core->description();
}

NS::Data* makeData(const void* bytes, std::size_t length) { return make<Data>(bytes, length); }

NS::URL* makeFileURL(std::string_view path) {
    NS::URL* url = make<URL>();
    static_cast<URL*>(coreOf(url))->setFilePath(path);
    return url;
}

} // namespace metalcpu::ns
