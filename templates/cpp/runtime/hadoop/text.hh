// Hadoop Record I/O for C++: Java's text for numbers, as the CSV and XML archives write and
// read it.
//
// Part of the runtime that `rcc -l c++` writes next to the generated code (see
// docs/cpp.md). Do not edit: rcc rewrites it when it differs.

#ifndef HADOOP_RECORDIO_TEXT_HH
#define HADOOP_RECORDIO_TEXT_HH

#include <cstddef>
#include <cstdint>
#include <string>

namespace hadoop {
namespace text {

/// The longest text formatDouble() or formatFloat() writes (`-2.2250738585072014E-308`).
constexpr std::size_t kMaxFloatText = 24;

/// Writes Java's `Double.toString(v)` (JDK 19 and later) to `out`, which has room for
/// kMaxFloatText bytes; returns its length. The digits are the shortest that read back as
/// `v` (the closest of those), laid out as Java does: plain for 10^-3 <= |v| < 10^7
/// (`100.0`, `0.001`), otherwise `d.dddE±n` without `+` (`1.0E7`, `4.9E-324`); `NaN`,
/// `Infinity`, `-Infinity`, `0.0`, `-0.0`. Hadoop's CSV archive prints a float as
/// `formatDouble(double(f))`.
std::size_t formatDouble(double v, char* out);
/// Java's `Float.toString(v)` (JDK 19 and later): the same rules with the digits a float
/// needs (`0.1f` prints `0.1`). Hadoop's XML archive uses it for floats.
std::size_t formatFloat(float v, char* out);
std::string doubleToString(double v);
std::string floatToString(float v);

/// Why a text is not a number `Double.parseDouble`/`Float.parseFloat` accept.
struct ParseError {
  std::size_t offset = 0;     ///< byte of the text where it stops being a number
  const char* reason = "";  ///< what was wrong there, e.g. "expected a digit"
};

/// Parses `text` as Java's `Double.parseDouble` does, correctly rounded: surrounding bytes
/// up to and including space, a sign, `NaN`, `Infinity`, decimals (`1`, `1.`, `.5`,
/// `-1.5E-7`, any number of digits), a trailing `f`/`F`/`d`/`D`, hex floats (`0x1.8p1`).
/// False (with `error` filled in when given) for anything else.
bool parseDouble(const char* text, std::size_t len, double& out, ParseError* error = nullptr);
/// `Float.parseFloat`: the same grammar, rounded once, straight to float.
bool parseFloat(const char* text, std::size_t len, float& out, ParseError* error = nullptr);

/// Java's `Long.parseLong` on ASCII narrowed to [min, max]: an optional sign and one or
/// more decimal digits, nothing else. Returns 0 on success, 1 when the text is not a
/// number, 2 when the number is out of range.
int parseInteger(const char* text, std::size_t len, std::int64_t min, std::int64_t max,
                 std::int64_t& out);

/// Decimal text of `v` (at most 20 bytes) into `out`, which has room for kMaxFloatText
/// bytes; returns its length.
std::size_t formatLong(std::int64_t v, char* out);

}  // namespace text
}  // namespace hadoop

#endif  // HADOOP_RECORDIO_TEXT_HH
