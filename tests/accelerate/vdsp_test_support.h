#pragma once

// What the vDSP tests share: each function's float or double version by element type, and
// strided vectors fenced with canaries.

#include <Accelerate/Accelerate.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <random>
#include <vector>

namespace accelerate_test {

// The element types every vDSP function comes in.
using ElementTypes = testing::Types<float, double>;

// vDSP's functions for element type T: Vdsp<float>::vadd is vDSP_vadd, Vdsp<double>::vadd is
// vDSP_vaddD.
template <class T>
struct Vdsp;

template <>
struct Vdsp<float> {
    static constexpr auto vadd = vDSP_vadd, vsub = vDSP_vsub, vmul = vDSP_vmul, vdiv = vDSP_vdiv;
    static constexpr auto vsadd = vDSP_vsadd, vsmul = vDSP_vsmul, vsdiv = vDSP_vsdiv, vsma = vDSP_vsma;
    static constexpr auto vma = vDSP_vma, vneg = vDSP_vneg, vabs = vDSP_vabs, vsq = vDSP_vsq;
    static constexpr auto vfill = vDSP_vfill, vclr = vDSP_vclr, vramp = vDSP_vramp;
    static constexpr auto dotpr = vDSP_dotpr, sve = vDSP_sve, svesq = vDSP_svesq, meanv = vDSP_meanv;
    static constexpr auto maxv = vDSP_maxv, minv = vDSP_minv, mmul = vDSP_mmul, mtrans = vDSP_mtrans;
    static constexpr auto maxvi = vDSP_maxvi, minvi = vDSP_minvi, maxmgvi = vDSP_maxmgvi, minmgvi = vDSP_minmgvi;
};

template <>
struct Vdsp<double> {
    static constexpr auto vadd = vDSP_vaddD, vsub = vDSP_vsubD, vmul = vDSP_vmulD, vdiv = vDSP_vdivD;
    static constexpr auto vsadd = vDSP_vsaddD, vsmul = vDSP_vsmulD, vsdiv = vDSP_vsdivD, vsma = vDSP_vsmaD;
    static constexpr auto vma = vDSP_vmaD, vneg = vDSP_vnegD, vabs = vDSP_vabsD, vsq = vDSP_vsqD;
    static constexpr auto vfill = vDSP_vfillD, vclr = vDSP_vclrD, vramp = vDSP_vrampD;
    static constexpr auto dotpr = vDSP_dotprD, sve = vDSP_sveD, svesq = vDSP_svesqD, meanv = vDSP_meanvD;
    static constexpr auto maxv = vDSP_maxvD, minv = vDSP_minvD, mmul = vDSP_mmulD, mtrans = vDSP_mtransD;
    static constexpr auto maxvi = vDSP_maxviD, minvi = vDSP_minviD, maxmgvi = vDSP_maxmgviD, minmgvi = vDSP_minmgviD;
};

// A value no function computes from the tests' data, written everywhere a vector has no element.
template <class T>
constexpr T canary = T(-1234.5);

// Multiples of 1/4 between -8 and 8, never 0: sums and products of a few thousand of them are
// exact in float, whatever the order of the additions, so results compare for equality.
template <class T>
std::vector<T> quarters(std::size_t count, unsigned seed) {
    std::mt19937 generator(seed);
    std::uniform_int_distribution<int> quarter(1, 32);
    std::vector<T> values(count);
    for (T& value : values) value = T(quarter(generator)) / 4 * (generator() % 2 ? 1 : -1);
    return values;
}

// `count` elements `stride` apart (backwards for a negative stride) inside a buffer whose other
// words, between the elements and in a margin around them, hold the canary.
template <class T>
class StridedVector {
public:
    StridedVector(const std::vector<T>& elements, vDSP_Stride stride)
        : count_(elements.size()), stride_(stride),
          storage_(2 * margin + (count_ == 0 ? 0 : (count_ - 1) * std::size_t(std::labs(stride)) + 1), canary<T>) {
        for (std::size_t i = 0; i < count_; ++i) (*this)[i] = elements[i];
    }

    // What vDSP is given: the address of element 0.
    T* first() {
        return storage_.data() + margin + (stride_ < 0 && count_ > 0 ? (count_ - 1) * std::size_t(-stride_) : 0);
    }
    vDSP_Stride stride() const { return stride_; }
    T& operator[](std::size_t i) { return first()[std::ptrdiff_t(i) * stride_]; }

    std::vector<T> elements() {
        std::vector<T> values(count_);
        for (std::size_t i = 0; i < count_; ++i) values[i] = (*this)[i];
        return values;
    }

    // Every word that is not an element still holds the canary.
    bool canariesIntact() {
        std::vector<bool> isElement(storage_.size());
        for (std::size_t i = 0; i < count_; ++i) isElement[std::size_t(&(*this)[i] - storage_.data())] = true;
        for (std::size_t word = 0; word < storage_.size(); ++word)
            if (!isElement[word] && storage_[word] != canary<T>) return false;
        return true;
    }

private:
    static constexpr std::size_t margin = 8;
    std::size_t count_;
    vDSP_Stride stride_;
    std::vector<T> storage_;
};

} // namespace accelerate_test
