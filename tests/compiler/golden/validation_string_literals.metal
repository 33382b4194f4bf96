// String literals in the shader-validation flavour: those that decay to pointers become named
// constant objects (one per spelling) listed with the program-scope constants; those that
// initialise character arrays or must stay literals are left as written.
#include <metal_stdlib>
using namespace metal;

constant const char* constant kNames[] = {"zero", "one"}; // pointers: named objects
constant char kWord[] = "word";                            // a character array: stays
constant char kWords[2][4] = {"ab", "cd"};                 // stays
struct Entry { char tag[4]; int value; };
constant Entry kEntries[] = {{"ef", 1}};                   // may hold a character array: stays
static_assert(sizeof(kWord) == 5, "five bytes");           // must be a literal: stays
struct Named {
    constant const char* name;
    constexpr Named(constant const char* n) constant : name(n) {}
};
constant Named kNamed("named"); // constant-initialised: the checked pointer's constructor is constexpr

static uint first(constant const char* s) { return uint(s[0]); }

[[kernel, host_name("literal_kernel")]] void literals(device uint* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    constant const char* text = "zero";       // shares kNames[0]'s object
    constant const char* joined = "one" "two"; // adjacent pieces: one object
    char local[] = "xy";                       // a thread array: stays
    out[i] = first("abc") + uint(text[i % 5]) + uint(joined[0]) + uint(local[0]) + uint(__func__[0]) +
             uint(kNames[1][0]) + uint(kWord[0]) + uint(kWords[1][0]) + uint(kEntries[0].tag[0]) +
             uint(kNamed.name[0]);
}
