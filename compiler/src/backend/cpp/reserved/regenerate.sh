#!/usr/bin/env bash
# Regenerates macros.txt and globals.txt: the names the C++ back end must not give a
# namespace, class or member (see ../names.rs). Run from this directory with the C++
# compiler whose headers should be covered (the checked-in lists come from g++ 12 with
# glibc 2.36 on Debian 12):
#
#   macros.txt   every macro the C++17 standard headers define (all_headers.cc), except the
#                reserved ones starting with `_`: such a name cannot be used anywhere.
#   globals.txt  every name those headers declare in the global namespace (functions such as
#                `time` or `log`, types such as `FILE`), found by asking the compiler which
#                of the headers' identifiers cannot also be a global namespace, plus `main`.
set -euo pipefail
CXX=${CXX:-g++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$CXX" -std=c++17 -dM -E all_headers.cc | awk '{print $2}' | sed 's/(.*//' | grep -v '^_' \
  | LC_ALL=C sort -u > macros.txt
"$CXX" -std=c++17 -E -P all_headers.cc | grep -oE '\b[A-Za-z][A-Za-z0-9_]*\b' \
  | LC_ALL=C sort -u | grep -vxFf macros.txt > "$work/idents"
{
  cat all_headers.cc
  # Keywords cannot be namespace names at all; they are escaped separately.
  grep -vxE 'alignas|alignof|and|and_eq|asm|auto|bitand|bitor|bool|break|case|catch|char|char16_t|char32_t|class|compl|const|constexpr|const_cast|continue|decltype|default|delete|do|double|dynamic_cast|else|enum|explicit|export|extern|false|float|for|friend|goto|if|inline|int|long|mutable|namespace|new|noexcept|not|not_eq|nullptr|operator|or|or_eq|private|protected|public|register|reinterpret_cast|return|short|signed|sizeof|static|static_assert|static_cast|struct|switch|template|this|thread_local|throw|true|try|typedef|typeid|typename|union|unsigned|using|virtual|void|volatile|wchar_t|while|xor|xor_eq' \
    "$work/idents" | sed 's/.*/namespace & {}/'
} > "$work/test.cc"
"$CXX" -std=c++17 -fsyntax-only -fmax-errors=0 "$work/test.cc" 2> "$work/errors" || true
{
  echo main
  grep -E '^.*test.cc:[0-9]+:[0-9]+: error' "$work/errors" \
    | sed -nE "s/.*namespace ([A-Za-z0-9_]+) \{ \}.*/\1/p"
} | LC_ALL=C sort -u > globals.txt
wc -l macros.txt globals.txt
