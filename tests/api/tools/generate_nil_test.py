#!/usr/bin/env python3
"""Writes tests/api/nil_messaging_test.cpp from the public headers.

metal-cpp promises that a method called on a null object does nothing and returns zero. The
generated test calls every method declared by every class in include/Metal/*.hpp and
include/QuartzCore/*.hpp on a null pointer and checks that the result is all zero bytes; it
also calls each static method and free function once and checks each extern constant. Since
every call is linked, the test also proves that every declared method has a definition.

Our headers are regular (one declaration per statement, classes derived from NS::Referencing,
NS::Copying or NS::SecureCoding, block overloads inside `#if defined(__BLOCKS__)`), which is all
this parser understands.

    generate_nil_test.py            rewrite the file
    generate_nil_test.py --check    exit 1 if the committed file differs from what it would write
    generate_nil_test.py --list     print the declarations, one a line
"""

import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
OUTPUT = ROOT / "tests" / "api" / "nil_messaging_test.cpp"
HEADER_GLOBS = ["include/Metal/*.hpp", "include/QuartzCore/*.hpp"]

# Methods whose nil result is not zero yet, with the reason; the test skips their check.
KNOWN_NONZERO = {}


class Declaration:
    """A method, static method, free function or extern constant."""

    def __init__(self, namespace, klass, text, blocks):
        self.namespace = namespace
        self.klass = klass  # None for free functions and constants
        self.text = text
        self.blocks = blocks
        self.static = False
        self.constant = False
        self.parse()

    def parse(self):
        text = re.sub(r"\[\[[^\]]*\]\]\]?", "", self.text).strip()
        text = re.sub(r"\s+", " ", text)
        self.const = False
        if text.startswith("extern "):
            self.constant = True
            self.name = text.split()[-1]
            self.result = " ".join(text.split()[1:-1])
            self.params = []
            return
        if text.startswith("static "):
            self.static = True
            text = text[len("static "):]
        open_paren = text.index("(")
        head = text[:open_paren].strip()
        self.name = re.findall(r"\w+$", head)[0]
        self.result = head[: -len(self.name)].strip()
        close_paren = matching(text, open_paren)
        self.params = [p.strip() for p in split_top(text[open_paren + 1:close_paren]) if p.strip()]
        self.const = text[close_paren + 1:].strip().startswith("const")

    @property
    def qualified(self):
        scope = f"{self.namespace}::{self.klass}" if self.klass else self.namespace
        return f"{scope}::{self.name}"

    def signature(self):
        static = "static " if self.static else ""
        params = ", ".join(self.params)
        const = " const" if self.const else ""
        blocks = "  [__BLOCKS__]" if self.blocks else ""
        return f"{static}{self.result} {self.qualified}({params}){const}{blocks}"


def matching(text, open_index):
    depth = 0
    for index in range(open_index, len(text)):
        if text[index] == "(":
            depth += 1
        elif text[index] == ")":
            depth -= 1
            if depth == 0:
                return index
    raise ValueError(f"unbalanced parentheses: {text}")


def split_top(text):
    """Splits a parameter list at the commas outside (), <> and []."""
    parts, depth, current = [], 0, ""
    for char in text:
        if char in "(<[":
            depth += 1
        elif char in ")>]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return parts


def parameter_type(param):
    """The type of a parameter declaration: the declaration without its name."""
    block = re.match(r"^(.*)\(\^\s*\w*\s*\)(.*)$", param)
    if block:
        return f"{block.group(1).strip()} (^){block.group(2)}"
    array = re.match(r"^(.*?)\s*\b\w+\s*\[\s*\]$", param)
    if array:
        return array.group(1).strip() + "*"
    named = re.match(r"^(.*?[\s\*&>])(\w+)$", param)
    if named and named.group(1).strip() not in ("", "const", "unsigned", "signed"):
        return named.group(1).strip()
    return param


def zero_argument(param):
    """A typed zero value for a parameter, so that overloads resolve as the declaration says."""
    kind = parameter_type(param)
    if re.sub(r"\s", "", kind) == "NS::Error**":
        return "&error"
    if "*" in kind or "^" in kind:
        return f"static_cast<{kind}>(nullptr)"
    return f"zero<{kind}>()"


def parse_header(path):
    """The declarations of one header: class members, free functions and extern constants."""
    declarations = []
    namespace = klass = None
    blocks = False  # inside #if defined(__BLOCKS__)
    statement = ""  # the statement being read, which may span lines
    for raw in path.read_text().splitlines():
        line = raw.split("//")[0].strip()
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#if") and "__BLOCKS__" in line:
                blocks = True
            elif line.startswith("#endif"):
                blocks = False
            continue
        if klass:  # a class body: one declaration per statement
            if line == "};":
                klass = None
            elif line not in ("public:", "protected:", "private:"):
                statement = f"{statement} {line}".strip()
                if statement.endswith(";"):
                    declarations.append(Declaration(namespace, klass, statement[:-1], blocks))
                    statement = ""
            continue
        if not statement:
            opened = re.match(r"^namespace (\w+) \{$", line)
            if opened:
                namespace = opened.group(1)
                continue
            if line == "}":
                namespace = None
                continue
        statement = f"{statement} {line}".strip()
        if statement.startswith("class ") and statement.endswith("{"):
            klass = statement.split()[1]
            statement = ""
        elif statement.startswith(("struct ", "enum ", "union ")):
            # Value types and enums end at the semicolon after their closing brace.
            if statement.endswith(";") and statement.count("{") == statement.count("}"):
                statement = ""
        elif statement.endswith(";"):
            skipped = statement.startswith(("using ", "class ", "template", "constexpr "))
            if statement.startswith("extern ") or ("(" in statement and not skipped):
                declarations.append(Declaration(namespace, None, statement[:-1], blocks))
            statement = ""
    return declarations


def all_declarations():
    declarations = []
    for pattern in HEADER_GLOBS:
        for path in sorted(ROOT.glob(pattern)):
            declarations.extend(parse_header(path))
    return declarations


def call_expression(target, declaration):
    arguments = ", ".join(zero_argument(p) for p in declaration.params)
    return f"{target}{declaration.name}({arguments})"


def uses_error(declaration):
    return any(zero_argument(p) == "&error" for p in declaration.params)


def statement(declaration, target, indent):
    """The lines that call a declaration and check its zero result."""
    pad = " " * indent
    call = call_expression(target, declaration)
    lines = []
    if declaration.result == "void":
        lines.append(f"{pad}{call};")
    elif declaration.qualified in KNOWN_NONZERO:
        lines.append(f"{pad}(void){call}; // {KNOWN_NONZERO[declaration.qualified]}")
    else:
        lines.append(f'{pad}EXPECT_TRUE(isZero({call})) << "{declaration.qualified}";')
    if uses_error(declaration):
        lines.append(f'{pad}EXPECT_EQ(error, nullptr) << "{declaration.qualified} wrote an error";')
    return lines


def guarded(declaration, lines):
    if not declaration.blocks:
        return lines
    return ["#if defined(__BLOCKS__)"] + lines + ["#endif"]


def class_test(namespace, klass, methods):
    instance = [m for m in methods if not m.static]
    statics = [m for m in methods if m.static]
    out = [
        f"// Test that every method of {namespace}::{klass} does nothing and returns zero on nil.",
        f"TEST(NilMessaging, {namespace}_{klass}) {{",
        f"    using namespace {namespace}; // the headers name types relative to their namespace",
        f"    {namespace}::{klass}* object = nil<{namespace}::{klass}>();",
    ]
    if any(uses_error(m) for m in instance):
        out.append("    NS::Error* error = nullptr;")
    for method in instance:
        out += guarded(method, statement(method, "object->", 4))
    out.append("}")
    tests = [out]
    if statics:
        body = [
            f"// Test that the static methods of {namespace}::{klass} can be called, and that what",
            "// alloc()->init() returns can be released (factories' results go to the pool).",
            f"TEST(NilMessaging, {namespace}_{klass}_static) {{",
            f"    using namespace {namespace};",
            "    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();",
        ]
        for method in statics:
            arguments = ", ".join(zero_argument(p) for p in method.params)
            call = f"{namespace}::{klass}::{method.name}({arguments})"
            if method.name == "alloc":
                lines = [f"    releaseIfAny({call}->init());"]
            else:
                lines = [f"    (void){call};"]
            body += guarded(method, lines)
        body += ["    pool->release();", "}"]
        tests.append(body)
    return tests


def free_test(namespace, functions):
    out = [
        f"// Test that the free functions and constants of namespace {namespace} can be used.",
        f"TEST(NilMessaging, {namespace}_functions_and_constants) {{",
        f"    using namespace {namespace};",
    ]
    for function in functions:
        if function.constant:
            out.append(f'    EXPECT_NE({namespace}::{function.name}, nullptr);')
            out.append(f'    EXPECT_GT({namespace}::{function.name}->length(), 0u);')
            continue
        params = function.params
        arguments = []
        for param in params:
            kind = re.sub(r"\s", "", parameter_type(param))
            arguments.append("&observer" if kind == "NS::Object**" else zero_argument(param))
        call = f"{namespace}::{function.name}({', '.join(arguments)})"
        lines = []
        if any(a == "&observer" for a in arguments):
            lines.append("    NS::Object* observer = nullptr;")
        if function.result == "void":
            lines.append(f"    {call};")
        elif function.name.startswith(("Create", "Copy")):
            lines.append(f"    releaseIfAny({call});")
        else:
            lines.append(f"    (void){call};")
        if any(a == "&observer" for a in arguments):
            lines.append(f"    {namespace}::RemoveDeviceObserver(observer);")
        out += guarded(function, ["    {"] + ["    " + l for l in lines] + ["    }"])
    out.append("}")
    return out


PROLOGUE = """\
// Generated by tests/api/tools/generate_nil_test.py from include/Metal and include/QuartzCore:
// do not edit. Regenerate with `python3 tests/api/tools/generate_nil_test.py`.
//
// metal-cpp promises that a method called on a null object does nothing and returns zero.
// Each test below calls every method of one class on a null pointer and checks that the
// result is all zero bytes (nullptr, 0, false, a zeroed struct). Because every call is
// linked, building this file also proves that every declared method is defined.

#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>
#include <QuartzCore/QuartzCore.hpp>

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstring>
#include <type_traits>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace {

// A null pointer the compiler cannot see through, so that it neither warns about calling a
// method on it nor assumes anything about the call.
template <class T>
T* nil() {
    static T* volatile null = nullptr;
    return null;
}

// A zero value of a parameter type (NS::Range has no default constructor).
template <class T>
std::remove_cvref_t<T> zero() {
    using Value = std::remove_cvref_t<T>;
    if constexpr (std::is_default_constructible_v<Value>)
        return Value{};
    else
        return std::bit_cast<Value>(std::array<unsigned char, sizeof(Value)>{});
}

template <class T>
bool isZero(const T& value) {
    if constexpr (std::is_pointer_v<T>) {
        return value == nullptr;
    } else {
        unsigned char zero[sizeof(T)] = {};
        return std::memcmp(&value, zero, sizeof(T)) == 0;
    }
}

template <class T>
void releaseIfAny(T* object) {
    if (object) object->release();
}

"""


def generate():
    declarations = all_declarations()
    classes = {}
    functions = {}
    for declaration in declarations:
        if declaration.klass:
            classes.setdefault((declaration.namespace, declaration.klass), []).append(declaration)
        else:
            functions.setdefault(declaration.namespace, []).append(declaration)
    blocks = [PROLOGUE.rstrip("\n"), ""]
    for (namespace, klass) in sorted(classes):
        for test in class_test(namespace, klass, classes[(namespace, klass)]):
            blocks += test + [""]
    for namespace in sorted(functions):
        blocks += free_test(namespace, functions[namespace]) + [""]
    blocks.append("} // namespace")
    return "\n".join(blocks) + "\n", declarations, classes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the committed file is stale")
    parser.add_argument("--list", action="store_true", help="print the declarations")
    parser.add_argument("--output", type=pathlib.Path, default=OUTPUT)
    args = parser.parse_args()
    text, declarations, classes = generate()
    if args.list:
        for declaration in declarations:
            print(declaration.signature())
        return 0
    if args.check:
        current = args.output.read_text() if args.output.exists() else ""
        if current != text:
            print(f"{args.output} is stale: run {pathlib.Path(__file__).relative_to(ROOT)}", file=sys.stderr)
            return 1
        return 0
    args.output.write_text(text)
    methods = sum(1 for d in declarations if d.klass)
    print(f"wrote {args.output.relative_to(ROOT)}: {len(classes)} classes, {methods} methods, "
          f"{len(declarations) - methods} free functions and constants")
    return 0


if __name__ == "__main__":
    sys.exit(main())
