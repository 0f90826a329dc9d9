// Hadoop Record I/O for C++: the one error type.
//
// Part of the runtime that `rcc -l c++` writes next to the generated code (see
// docs/cpp.md). Do not edit: rcc rewrites it when it differs.

#ifndef HADOOP_RECORDIO_ERROR_HH
#define HADOOP_RECORDIO_ERROR_HH

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace hadoop {

/// Where in the input an error was found: a byte offset (binary) or a 1-based line and
/// column counted in bytes (CSV, XML).
struct Position {
  enum Type { kNone, kByte, kLineCol };
  Type type = kNone;
  std::uint64_t offset = 0;  ///< kByte: bytes from the start of the input
  std::uint64_t line = 0;    ///< kLineCol: 1-based line
  std::uint64_t column = 0;  ///< kLineCol: 1-based column, in bytes

  static Position byte(std::uint64_t offset) {
    Position p;
    p.type = kByte;
    p.offset = offset;
    return p;
  }
  static Position lineCol(std::uint64_t line, std::uint64_t column) {
    Position p;
    p.type = kLineCol;
    p.line = line;
    p.column = column;
    return p;
  }
  /// `byte 17` or `line 3:41`; empty for kNone.
  std::string toString() const;
};

/// An error from reading or writing records: what went wrong (kind() and message()), where
/// in the input (position()), in which field (path(), e.g. `Outer.c.vrec[3].tag`) and in
/// which record of the stream (record()). what() puts it all together exactly as the Rust
/// runtime's errors print:
/// `record 1, byte 4, in Point.x: input ends inside an int`.
///
/// Every reader throws IOError for bad input, never anything else (besides std::bad_alloc
/// when memory runs out).
class IOError : public std::runtime_error {
 public:
  enum Kind {
    kIo,           ///< the underlying stream failed
    kEof,          ///< the input ended inside a record or value
    kSyntax,       ///< the input does not have the expected structure
    kOverflow,     ///< a number does not fit its type
    kEncoding,     ///< invalid UTF-8, an illegal code point, a bad escape
    kLimit,        ///< a length, count or nesting depth exceeds a limit
    kUnsupported,  ///< well-formed input this implementation refuses
    kSchema,       ///< a value or call does not match the record's structure
  };

  IOError(Kind kind, std::string message);
  /// Hadoop's constructor (`explicit IOError(const std::string& msg)`): an error of kind
  /// kIo, for streams and applications to throw.
  explicit IOError(const std::string& message) : IOError(kIo, message) {}

  Kind kind() const noexcept { return kind_; }
  /// The message alone, without position or path.
  const std::string& message() const noexcept { return message_; }
  const Position& position() const noexcept { return position_; }
  /// The field path, outermost first; empty when unknown.
  std::string path() const;
  bool hasRecord() const noexcept { return hasRecord_; }
  /// The 0-based number of the record within its stream (when hasRecord()).
  std::uint64_t record() const noexcept { return record_; }
  const char* what() const noexcept override { return what_.c_str(); }

  /// Sets the position unless one is set already (the innermost position wins).
  IOError& at(const Position& position);
  /// Prepends a field name to the path.
  IOError& inField(const char* name);
  /// Prepends an element index (`[3]`) to the path.
  IOError& inIndex(std::uint64_t index);
  /// Sets the record number unless one is set already.
  IOError& inRecord(std::uint64_t number);

 private:
  void update();

  Kind kind_;
  std::string message_;
  Position position_;
  // Innermost segment first: a field name, or "[n]".
  std::vector<std::string> segments_;
  bool hasRecord_ = false;
  std::uint64_t record_ = 0;
  std::string what_;
};

namespace detail {
[[noreturn]] void fail(IOError::Kind kind, std::string message, const Position& at);
}  // namespace detail

}  // namespace hadoop

#endif  // HADOOP_RECORDIO_ERROR_HH
