// Hadoop Record I/O for C++: the archive interfaces, one method per DDL type.
//
// Part of the runtime that `rcc -l c++` writes next to the generated code (see
// docs/cpp.md). Do not edit: rcc rewrites it when it differs.

#ifndef HADOOP_RECORDIO_ARCHIVE_HH
#define HADOOP_RECORDIO_ARCHIVE_HH

#include <cstddef>
#include <cstdint>
#include <string>

#include "hadoop/error.hh"

namespace hadoop {

/// Hadoop's three encodings.
enum RecFormat { kBinary, kXML, kCSV };

/// How deeply records, vectors and maps may nest in input before reading fails with
/// IOError::kLimit instead of overflowing the stack: the Rust runtime's rule and default
/// (`DEFAULT_MAX_DEPTH`). The depth is the number of records, vectors and maps open at once,
/// the top-level record included; opening one more when the limit is reached fails at the
/// value that would open it. IArchive::setMaxDepth changes it per archive.
constexpr std::size_t kMaxDepth = 512;

/// Progress through a vector or map being read (Hadoop's `Index`): binary input knows the
/// element count up front, text input finds the end by looking for the closing delimiter.
class Index {
 public:
  /// An index over `count` elements; `hint` is how many a reader may safely preallocate
  /// for (never more than the input can still hold).
  static Index counted(std::uint64_t count, std::size_t hint = 0) {
    return Index(true, count, count < hint ? static_cast<std::size_t>(count) : hint);
  }
  static Index delimited() { return Index(false, 0, 0); }
  /// Whether the count is known up front.
  bool isCounted() const { return counted_; }
  /// Elements still expected (counted indices).
  std::uint64_t remaining() const { return remaining_; }
  /// How many elements a reader may safely preallocate for.
  std::size_t sizeHint() const { return hint_; }
  /// Counted indices: takes one element, returning whether there was one.
  bool takeOne() {
    if (remaining_ == 0) return false;
    --remaining_;
    return true;
  }

 private:
  Index(bool counted, std::uint64_t remaining, std::size_t hint)
      : counted_(counted), remaining_(remaining), hint_(hint) {}
  bool counted_;
  std::uint64_t remaining_;
  std::size_t hint_;
};

/// Where serialized records go: one method per DDL type, as Hadoop's `OArchive`. The tag
/// is the field name (XML writes it as `<name>`); it is empty exactly for a top-level
/// record. Elements of vectors and maps are passed the tag of their container; a map's keys
/// and values alternate, keys ascending in Java's order.
///
/// BinaryOArchive, CsvOArchive and XmlOArchive implement it; generated code calls them
/// without virtual dispatch. Other implementations work through the virtual methods.
class OArchive {
 public:
  virtual ~OArchive();
  virtual void writeByte(std::int8_t v, const char* tag) = 0;
  virtual void writeBool(bool v, const char* tag) = 0;
  virtual void writeInt(std::int32_t v, const char* tag) = 0;
  virtual void writeLong(std::int64_t v, const char* tag) = 0;
  virtual void writeFloat(float v, const char* tag) = 0;
  virtual void writeDouble(double v, const char* tag) = 0;
  /// A `ustring`: UTF-8 text (invalid UTF-8 is an IOError, kEncoding).
  virtual void writeString(const std::string& v, const char* tag) = 0;
  /// A `buffer`: any bytes.
  virtual void writeBuffer(const std::string& v, const char* tag) = 0;
  virtual void startRecord(const char* tag) = 0;
  virtual void endRecord(const char* tag) = 0;
  virtual void startVector(std::size_t len, const char* tag) = 0;
  virtual void endVector(const char* tag) = 0;
  virtual void startMap(std::size_t len, const char* tag) = 0;
  virtual void endMap(const char* tag) = 0;

  /// Which built-in archive this is (for static dispatch); 0 for other implementations.
  int builtin() const { return builtin_; }

 protected:
  OArchive() = default;
  explicit OArchive(int builtin) : builtin_(builtin) {}

 private:
  int builtin_ = 0;
};

/// Where serialized records come from: one method per DDL type, as Hadoop's `IArchive`.
/// Implementations never trust a length: a length larger than the input can hold is an
/// error before anything is allocated for it, and nesting deeper than maxDepth() is an
/// error. Errors are IOError with the input position; the field path is added as the error
/// travels up through the generated code.
class IArchive {
 public:
  virtual ~IArchive();
  virtual void readByte(std::int8_t& v, const char* tag) = 0;
  virtual void readBool(bool& v, const char* tag) = 0;
  virtual void readInt(std::int32_t& v, const char* tag) = 0;
  virtual void readLong(std::int64_t& v, const char* tag) = 0;
  virtual void readFloat(float& v, const char* tag) = 0;
  virtual void readDouble(double& v, const char* tag) = 0;
  /// A `ustring`; it is valid UTF-8 without U+FFFE/U+FFFF when this returns.
  virtual void readString(std::string& v, const char* tag) = 0;
  virtual void readBuffer(std::string& v, const char* tag) = 0;
  virtual void startRecord(const char* tag) = 0;
  virtual void endRecord(const char* tag) = 0;
  /// Start of a vector; pass the Index to nextElement().
  virtual Index startVector(const char* tag) = 0;
  virtual void endVector(const char* tag) = 0;
  /// Start of a map; each element is a key followed by its value.
  virtual Index startMap(const char* tag) = 0;
  virtual void endMap(const char* tag) = 0;
  /// Whether another element of the current vector or map follows (Java's
  /// `Index.done()`/`incr()`); advances `index` when it does.
  virtual bool nextElement(Index& index) = 0;
  /// Skips what may separate top-level records; true at a clean end of input.
  virtual bool atEnd() = 0;
  /// The current position in the input, for error reports.
  virtual Position position() const = 0;

  /// How deeply records, vectors and maps may nest (kMaxDepth unless changed).
  std::size_t maxDepth() const { return maxDepth_; }
  void setMaxDepth(std::size_t depth) { maxDepth_ = depth; }
  /// Which built-in archive this is (for static dispatch); 0 for other implementations.
  int builtin() const { return builtin_; }

 protected:
  IArchive() = default;
  explicit IArchive(int builtin) : builtin_(builtin) {}

 private:
  int builtin_ = 0;
  std::size_t maxDepth_ = kMaxDepth;
};

namespace detail {
/// The values of builtin() for the archives of this runtime.
enum Builtin { kOther = 0, kBinaryArchive = 1, kCsvArchive = 2, kXmlArchive = 3 };
}  // namespace detail

}  // namespace hadoop

#endif  // HADOOP_RECORDIO_ARCHIVE_HH
