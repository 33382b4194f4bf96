// Which of the functions named like a call the call can reach, by the parts of C++ name lookup
// the call graph can follow from the tokens: a class qualifier (through type aliases), member
// access, and the members of the caller's own class hiding functions of the same name outside.
#pragma once

#include "compiler/scanner.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace metalcpu::msl {

class CallTargets {
public:
    CallTargets(const TokenList& tokens, const std::vector<std::size_t>& partner, const Module& module);

    /// Of `named` (every function with a body named like the callee), those the call whose
    /// name is token `callee`, in the body of function `caller`, may call. MLX's sort calls
    /// `thread_sort_t::sort(...)` from `BlockMergeSort::sort`: only ThreadSort's `sort`, not
    /// the caller itself. Where lookup is not followed (a qualifier naming a template
    /// parameter, a class that inherits the name), all of `named`.
    std::vector<std::size_t> narrow(const std::vector<std::size_t>& named, std::size_t caller,
                                    std::size_t callee) const;

private:
    /// `using name = definition;` or `typedef definition name;`, and the `{` of the scope it is
    /// declared in (kNoToken at file scope).
    struct Alias {
        std::size_t scope = kNoToken;
        TokenRange definition;
    };
    using ClassNames = std::optional<std::set<std::string>>; ///< nullopt: not followed

    /// The classes the qualifier `name` before token `at` may name: itself if a class of the
    /// file is named so, else what its aliases name (those of the innermost scope around `at`
    /// that declares one, else all of them). nullopt when one of them is not followed.
    ClassNames classesNamed(const std::string& name, std::size_t at, int depth) const;
    /// The class an alias's definition names (`ThreadSort<val_t, idx_t>`, `typename Outer::inner_t`).
    ClassNames classesDefined(TokenRange definition, int depth) const;
    /// The class of member function `f`: its enclosing class, or the one its qualified name
    /// names where it is defined outside it (`void S<T>::f() {...}`); "" for a free function.
    std::string classOf(const FunctionDecl& f) const;
    /// Whether `f` is a friend defined in a class body (a free function found by ADL).
    bool isFriend(const FunctionDecl& f) const;

    const TokenList& tokens_;
    const std::vector<std::size_t>& partner_;
    const Module& module_;
    std::set<std::string, std::less<>> classNames_; ///< the classes with member functions
    std::map<std::string, std::vector<Alias>, std::less<>> aliases_;
};

} // namespace metalcpu::msl
