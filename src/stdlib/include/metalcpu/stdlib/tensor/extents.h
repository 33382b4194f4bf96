// metal::extents and metal::dextents (<metal_tensor>): the shape of a tensor, innermost
// dimension first, each extent fixed in the type or given at run time (dynamic_extent).
#pragma once

#include <metalcpu/stdlib/config.h>
#include <metalcpu/stdlib/scalar.h>

namespace metal {

/// An extent known only at run time. Apple's value: size_t(-1).
inline constexpr size_t dynamic_extent = size_t(-1);

template <class IndexType, size_t... Extents>
struct extents;

} // namespace metal

namespace metalcpu_stdlib::tensor {

inline constexpr size_t kMaxRank = 16;

template <size_t... Extents>
constexpr size_t count_dynamic() {
    return ((Extents == metal::dynamic_extent ? 1 : 0) + ... + 0);
}

template <class T> struct is_extents { static constexpr bool value = false; };
template <class I, size_t... E> struct is_extents<metal::extents<I, E...>> { static constexpr bool value = true; };

/// extents<I, dynamic_extent x R> spelled out for dextents.
template <class I, size_t R, size_t... Built>
struct make_dextents {
    using type = typename make_dextents<I, R - 1, metal::dynamic_extent, Built...>::type;
};
template <class I, size_t... Built>
struct make_dextents<I, 0, Built...> {
    using type = metal::extents<I, Built...>;
};

} // namespace metalcpu_stdlib::tensor

namespace metal {

/// Every extent is kept (static ones too), so extent(r) is one load and the type stays a small
/// aggregate a cooperative tensor or a kernel argument can copy.
template <class IndexType, size_t... Extents>
struct extents {
    static_assert(sizeof...(Extents) >= 1 && sizeof...(Extents) <= metalcpu_stdlib::tensor::kMaxRank,
                  "metal::extents: a tensor has rank 1 to 16");
    using index_type = IndexType;
    using size_type = size_t;
    using rank_type = size_t;

    static constexpr rank_type rank() { return sizeof...(Extents); }
    static constexpr rank_type rank_dynamic() { return metalcpu_stdlib::tensor::count_dynamic<Extents...>(); }
    static constexpr size_t static_extent(rank_type r) {
        constexpr size_t values[] = {Extents...};
        return values[r];
    }

    /// Static extents take their value; dynamic ones are 0 until given.
    constexpr extents() : values_{static_cast<index_type>(Extents == dynamic_extent ? 0 : Extents)...} {}

    /// The dynamic extents in order, or every extent (a static one must then equal its value).
    template <class... Values>
        requires(sizeof...(Values) >= 1 && (sizeof...(Values) == rank_dynamic() || sizeof...(Values) == rank()))
    constexpr extents(Values... values) : extents() {
        const index_type given[] = {static_cast<index_type>(values)...};
        rank_type next = 0;
        for (rank_type r = 0; r < rank(); ++r) {
            if (sizeof...(Values) == rank())
                values_[r] = static_extent(r) == dynamic_extent ? given[r] : values_[r];
            else if (static_extent(r) == dynamic_extent)
                values_[r] = given[next++];
        }
    }

    /// From extents of the same rank: static to dynamic, or another index type.
    template <class OtherIndex, size_t... Other>
        requires(sizeof...(Other) == sizeof...(Extents))
    constexpr extents(const extents<OtherIndex, Other...>& other) : extents() {
        for (rank_type r = 0; r < rank(); ++r)
            if (static_extent(r) == dynamic_extent) values_[r] = static_cast<index_type>(other.extent(r));
    }

    constexpr index_type extent(rank_type r) const { return values_[r]; }

    template <class OtherIndex, size_t... Other>
    friend constexpr bool operator==(const extents& a, const extents<OtherIndex, Other...>& b) {
        if (sizeof...(Other) != rank()) return false;
        for (rank_type r = 0; r < rank(); ++r)
            if (a.extent(r) != static_cast<index_type>(b.extent(r))) return false;
        return true;
    }

    /// Public so that extents stays an aggregate-like literal type; use extent(r).
    index_type values_[sizeof...(Extents)];
};

/// Rank R, every extent dynamic: dextents<int32_t, 2>(cols, rows).
template <class IndexType, size_t Rank>
using dextents = typename metalcpu_stdlib::tensor::make_dextents<IndexType, Rank>::type;

} // namespace metal
