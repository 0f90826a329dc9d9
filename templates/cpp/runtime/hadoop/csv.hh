// Hadoop Record I/O for C++: the CSV encoding (Hadoop's CsvRecordOutput/Input).
//
// Part of the runtime that `rcc -l c++` writes next to the generated code (see
// docs/cpp.md). Do not edit: rcc rewrites it when it differs.

#ifndef HADOOP_RECORDIO_CSV_HH
#define HADOOP_RECORDIO_CSV_HH

#include <cstdint>
#include <string>

#include "hadoop/archive.hh"
#include "hadoop/buffer.hh"
#include "hadoop/text.hh"
#include "hadoop/utf8.hh"

namespace hadoop {

/// Writes records in Hadoop's CSV encoding, byte for byte as Java does: a top-level
/// record's fields bare and comma-separated, ended by a line feed; nested records `s{…}`,
/// vectors `v{…}`, maps `m{k,v,…}`; booleans `T`/`F`; integers in decimal; floats widened
/// to double and printed with Java's `Double.toString`; strings `'` + text with the escapes
/// `%00 %0A %0D %2C %7D %25`; buffers `#` + lowercase hex. Output is buffered: call
/// flush() (RecordWriter does) when done.
class CsvOArchive final : public OArchive {
 public:
  explicit CsvOArchive(OutStream& out) : OArchive(detail::kCsvArchive), sink_(out) {}
  /// Flushes, ignoring errors (call flush() to see them).
  ~CsvOArchive() override;

  void writeByte(std::int8_t v, const char*) override { integer(v); }
  void writeBool(bool v, const char*) override {
    item();
    sink_.push(v ? 'T' : 'F');
  }
  void writeInt(std::int32_t v, const char*) override { integer(v); }
  void writeLong(std::int64_t v, const char*) override { integer(v); }
  // Java's CsvRecordOutput.writeFloat is writeDouble((double) f).
  void writeFloat(float v, const char*) override { number(static_cast<double>(v)); }
  void writeDouble(double v, const char*) override { number(v); }
  void writeString(const std::string& v, const char* tag) override;
  void writeBuffer(const std::string& v, const char* tag) override;
  void startRecord(const char* tag) override {
    if (*tag != '\0') open('s');
  }
  void endRecord(const char* tag) override {
    if (*tag == '\0') {
      sink_.push('\n');
      first_ = true;
      sink_.endOfRecord();
    } else {
      close();
    }
  }
  void startVector(std::size_t, const char*) override { open('v'); }
  void endVector(const char*) override { close(); }
  void startMap(std::size_t, const char*) override { open('m'); }
  void endMap(const char*) override { close(); }

  void flush() { sink_.flush(); }
  detail::Sink& sink() { return sink_; }
  /// Forgets a record abandoned midway: the next one starts a line.
  void reset() { first_ = true; }

 private:
  /// The comma before every item but the first of its record, vector or map.
  void item() {
    if (!first_) sink_.push(',');
    first_ = false;
  }
  void integer(std::int64_t v) {
    item();
    char* p = sink_.reserve(text::kMaxFloatText);
    sink_.commit(text::formatLong(v, p));
  }
  void number(double v) {
    item();
    char* p = sink_.reserve(text::kMaxFloatText);
    sink_.commit(text::formatDouble(v, p));
  }
  void open(char c) {
    item();
    char* p = sink_.reserve(2);
    p[0] = c;
    p[1] = '{';
    sink_.commit(2);
    first_ = true;
  }
  void close() {
    sink_.push('}');
    first_ = false;
  }

  detail::Sink sink_;
  bool first_ = true;
};

/// Reads records in Hadoop's CSV encoding. It reads everything Java's writer writes (JDK 17
/// and modern float text alike) and mirrors the writer's layout exactly: a comma between
/// items and nowhere else, `s{`, `v{`, `m{` and `}` where Java puts them, and a line end
/// (LF, CR or CRLF) after each top-level record. Where Java's reader is lenient by accident
/// this one gives an error instead: booleans other than `T`/`F`, integers outside the
/// field's type, buffers with an odd number of hex digits, fields running into the end of
/// input, stray commas. Errors carry the line and column.
class CsvIArchive final : public IArchive {
 public:
  explicit CsvIArchive(InStream& in) : IArchive(detail::kCsvArchive), src_(in) {}

  void readByte(std::int8_t& v, const char*) override {
    v = static_cast<std::int8_t>(integer("a byte", INT8_MIN, INT8_MAX));
  }
  void readBool(bool& v, const char*) override;
  void readInt(std::int32_t& v, const char*) override {
    v = static_cast<std::int32_t>(integer("an int", INT32_MIN, INT32_MAX));
  }
  void readLong(std::int64_t& v, const char*) override {
    v = integer("a long", INT64_MIN, INT64_MAX);
  }
  void readFloat(float& v, const char*) override;
  void readDouble(double& v, const char*) override;
  void readString(std::string& v, const char*) override;
  void readBuffer(std::string& v, const char*) override;
  void startRecord(const char* tag) override;
  void endRecord(const char* tag) override;
  Index startVector(const char*) override {
    open('v', "a vector (`v{`)");
    return Index::delimited();
  }
  void endVector(const char*) override { close("the end of a vector (`}`)"); }
  Index startMap(const char*) override {
    open('m', "a map (`m{`)");
    return Index::delimited();
  }
  void endMap(const char*) override { close("the end of a map (`}`)"); }
  bool nextElement(Index& index) override;
  bool atEnd() override { return src_.peek() < 0; }
  Position position() const override { return positionAt(src_.offset()); }

 private:
  /// The fast path for integers: an item of up to 18 digits, wholly buffered.
  std::int64_t integer(const char* what, std::int64_t min, std::int64_t max) {
    const unsigned char* p = src_.data();
    std::size_t n = src_.available();
    std::size_t i = 0;
    if (!first_) {
      if (n == 0 || p[0] != ',') return integerSlow(what, min, max);
      i = 1;
    }
    const bool negative = i < n && p[i] == '-';
    if (negative) ++i;
    const std::size_t start = i;
    std::int64_t v = 0;
    while (i < n && static_cast<unsigned>(p[i] - '0') <= 9) {
      if (i - start == 18) return integerSlow(what, min, max);
      v = v * 10 + (p[i] - '0');
      ++i;
    }
    if (i == start || i == n || !endsField(p[i])) return integerSlow(what, min, max);
    if (negative) v = -v;
    if (v < min || v > max) return integerSlow(what, min, max);
    first_ = false;
    src_.consume(i);
    return v;
  }
  static bool endsField(unsigned char b) { return b == ',' || b == '}' || b == '\n' || b == '\r'; }

  std::int64_t integerSlow(const char* what, std::int64_t min, std::int64_t max);
  double number(const char* what);
  Position positionAt(std::uint64_t offset) const {
    return Position::lineCol(line_, offset - lineStart_ + 1);
  }
  void separator();
  void expect(unsigned char want, const char* expected);
  std::size_t fieldLength();
  /// The next field (after its separator): its bytes stay buffered at data().
  std::size_t field(const char* what);
  [[noreturn]] void unexpected(const char* expected);
  [[noreturn]] void fail(std::uint64_t at, IOError::Kind kind, std::string message);
  void open(char c, const char* expected);
  void close(const char* what);
  void enter();

  detail::Source src_;
  bool first_ = true;
  std::size_t depth_ = 0;
  std::uint64_t line_ = 1;
  std::uint64_t lineStart_ = 0;
};

/// Hadoop's names for these archives (`ICsvArchive`/`OCsvArchive`), so that code written
/// against Hadoop's headers finds them.
using ICsvArchive = CsvIArchive;
using OCsvArchive = CsvOArchive;

}  // namespace hadoop

#endif  // HADOOP_RECORDIO_CSV_HH
