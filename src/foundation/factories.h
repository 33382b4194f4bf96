#pragma once

// How the rest of the library makes and reads Foundation objects. Every make* function
// returns a +1 object (the caller releases it, or hands it out through autoreleased());
// readers accept null and return empty results for it.

#include <Foundation/NSTypes.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace NS {
class Array;
class Data;
class Dictionary;
class Error;
class Object;
class String;
class URL;
} // namespace NS

namespace metalcpu::ns {

/// A new string holding `utf8` (invalid UTF-8 bytes become U+FFFD).
NS::String* makeString(std::string_view utf8);

/// The UTF-8 text of a string; empty for null (or for a pointer that is not a string).
std::string stringOf(const NS::String* string);

/// An error whose localizedDescription() is `description`, in a domain named `domain`
/// (e.g. "MTLLibraryErrorDomain"); userInfo holds the description under
/// NS::LocalizedDescriptionKey.
NS::Error* makeError(std::string_view domain, NS::Integer code, std::string_view description);

/// An array holding (and retaining) `objects`; null entries are left out.
NS::Array* makeArray(const std::vector<NS::Object*>& objects);

/// An array of new strings, e.g. for MTL::Library::functionNames().
NS::Array* makeStringArray(const std::vector<std::string>& strings);

/// A dictionary from (key, value) pairs; keys are copied and values retained.
NS::Dictionary* makeDictionary(const std::vector<std::pair<NS::Object*, NS::Object*>>& entries);

/// The elements of an array, borrowed (valid while the array lives); empty for null.
std::vector<NS::Object*> arrayElements(const NS::Array* array);

/// The (key, value) pairs of a dictionary, borrowed, in insertion order; empty for null.
/// E.g. MTL::CompileOptions::preprocessorMacros (values are strings or numbers).
std::vector<std::pair<NS::Object*, NS::Object*>> dictionaryEntries(const NS::Dictionary* dictionary);

/// The text a value in a dictionary or array stands for: a string's text, a number's
/// stringValue(), else the description. Empty for null.
std::string textOfObject(const NS::Object* object);

/// A data object holding a copy of `bytes[0..length)`.
NS::Data* makeData(const void* bytes, std::size_t length);

/// A file URL for `path` (made absolute against the working directory).
NS::URL* makeFileURL(std::string_view path);

} // namespace metalcpu::ns
