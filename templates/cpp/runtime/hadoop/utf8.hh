// Hadoop Record I/O for C++: UTF-8 checks and Java's string order.
//
// Part of the runtime that `rcc -l c++` writes next to the generated code (see
// docs/cpp.md). Do not edit: rcc rewrites it when it differs.

#ifndef HADOOP_RECORDIO_UTF8_HH
#define HADOOP_RECORDIO_UTF8_HH

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace hadoop {
namespace utf8 {

/// Whether all `n` bytes are ASCII (checked eight at a time).
inline bool isAscii(const char* p, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (w & 0x8080808080808080ULL) return false;
  }
  for (; i < n; ++i) {
    if (static_cast<unsigned char>(p[i]) & 0x80) return false;
  }
  return true;
}

/// Length of the longest valid UTF-8 prefix (strict: no overlong forms, no surrogates,
/// nothing above U+10FFFF, no truncated sequence): `n` exactly when all of it is valid.
std::size_t validPrefix(const char* p, std::size_t n);

/// Index of the first U+FFFE or U+FFFF (which Hadoop's binary writer refuses) in valid
/// UTF-8, or `n` when there is none; sets `codePoint` to which one.
std::size_t findNonchar(const char* p, std::size_t n, std::uint32_t* codePoint);

/// Java's `String.compareTo` order of two UTF-8 strings, by UTF-16 code units: negative,
/// zero or positive. It differs from byte order only where a supplementary character meets
/// one in U+E000..U+FFFF (Java sorts U+1F600 before U+FF5E). Invalid UTF-8 is compared
/// byte by byte.
int compareUtf16(const std::string& a, const std::string& b);

}  // namespace utf8
}  // namespace hadoop

#endif  // HADOOP_RECORDIO_UTF8_HH
