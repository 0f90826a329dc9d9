// Hadoop Record I/O for C++: the binary encoding (Hadoop's BinaryRecordOutput/Input).
//
// Part of the runtime that `rcc -l c++` writes next to the generated code (see
// docs/cpp.md). Do not edit: rcc rewrites it when it differs.

#ifndef HADOOP_RECORDIO_BINARY_HH
#define HADOOP_RECORDIO_BINARY_HH

#include <cstdint>
#include <cstring>
#include <string>

#include "hadoop/archive.hh"
#include "hadoop/buffer.hh"
#include "hadoop/utf8.hh"

namespace hadoop {

namespace detail {
/// The number of leading zero bits of `x` (which is not zero).
inline unsigned leadingZeros(std::uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return static_cast<unsigned>(__builtin_clzll(x));
#else
  unsigned n = 0;
  while ((x & (std::uint64_t(1) << 63)) == 0) {
    x <<= 1;
    ++n;
  }
  return n;
#endif
}

#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HADOOP_RECORDIO_BSWAP 1
#endif

/// Stores `v` big-endian into `out[0..8)`.
inline void storeBigEndian64(std::uint64_t v, unsigned char* out) {
#ifdef HADOOP_RECORDIO_BSWAP
  v = __builtin_bswap64(v);
  std::memcpy(out, &v, 8);
#else
  for (int i = 7; i >= 0; --i) {
    out[i] = static_cast<unsigned char>(v);
    v >>= 8;
  }
#endif
}

/// Loads `in[0..8)` as a big-endian number.
inline std::uint64_t loadBigEndian64(const unsigned char* in) {
#ifdef HADOOP_RECORDIO_BSWAP
  std::uint64_t v;
  std::memcpy(&v, in, 8);
  return __builtin_bswap64(v);
#else
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | in[i];
  return v;
#endif
}

/// Hadoop's zero-compressed integer (`WritableUtils.writeVLong`): one byte for
/// -112..127, otherwise a marker byte and 1 to 8 big-endian bytes (`1024` is `8e 04 00`).
/// Writes into `out` (room for 9 bytes); returns the length.
inline std::size_t encodeVLong(std::int64_t v, unsigned char* out) {
  if (v >= -112 && v <= 127) {
    out[0] = static_cast<unsigned char>(v);
    return 1;
  }
  std::uint64_t u;
  int base;
  if (v < 0) {
    u = ~static_cast<std::uint64_t>(v);
    base = -120;
  } else {
    u = static_cast<std::uint64_t>(v);
    base = -112;
  }
  // Significant bytes of u (not zero here), 1 to 8.
  const unsigned n = 8 - leadingZeros(u) / 8;
  out[0] = static_cast<unsigned char>(base - static_cast<int>(n));
  storeBigEndian64(u << (64 - 8 * n), out + 1);
  return n + 1;
}

/// The number of bytes that follow a vint marker byte.
inline unsigned vlongPayload(unsigned char marker) {
  const int m = static_cast<signed char>(marker);
  if (m >= -112) return 0;
  return static_cast<unsigned>(m < -120 ? -120 - m : -112 - m);
}

/// The value of a vint from its marker and `vlongPayload(marker)` bytes after it.
inline std::int64_t decodeVLong(const unsigned char* p) {
  const int m = static_cast<signed char>(p[0]);
  if (m >= -112) return m;
  const unsigned n = vlongPayload(p[0]);
  std::uint64_t u = 0;
  for (unsigned i = 1; i <= n; ++i) u = (u << 8) | p[i];
  return m < -120 ? static_cast<std::int64_t>(~u) : static_cast<std::int64_t>(u);
}

/// decodeVLong when nine bytes are there to read.
inline std::int64_t decodeVLong9(const unsigned char* p) {
  const int m = static_cast<signed char>(p[0]);
  if (m >= -112) return m;
  const unsigned n = vlongPayload(p[0]);
  const std::uint64_t u = loadBigEndian64(p + 1) >> (64 - 8 * n);
  return m < -120 ? static_cast<std::int64_t>(~u) : static_cast<std::int64_t>(u);
}

/// Checks a ustring before it is written: IOError (kEncoding) for invalid UTF-8 and, when
/// `refuseNonchars`, for U+FFFE/U+FFFF (Hadoop's binary writer refuses both).
void checkOutgoingString(const std::string& v, bool refuseNonchars);
/// IOError (kLimit) unless `n` fits Hadoop's 32-bit lengths.
void checkLength(std::size_t n, const char* what);
}  // namespace detail

/// Writes records in Hadoop's binary encoding: no header, tags or delimiters;
/// zero-compressed integers, big-endian floats with NaN canonicalised, length-prefixed
/// UTF-8 strings and buffers, count-prefixed vectors and maps. Output is buffered: call
/// flush() (RecordWriter does) when done.
class BinaryOArchive final : public OArchive {
 public:
  explicit BinaryOArchive(OutStream& out) : OArchive(detail::kBinaryArchive), sink_(out) {}
  /// Flushes, ignoring errors (call flush() to see them).
  ~BinaryOArchive() override;

  void writeByte(std::int8_t v, const char*) override { sink_.push(static_cast<char>(v)); }
  void writeBool(bool v, const char*) override { sink_.push(v ? 1 : 0); }
  void writeInt(std::int32_t v, const char*) override { vlong(v); }
  void writeLong(std::int64_t v, const char*) override { vlong(v); }
  void writeFloat(float v, const char*) override {
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    if (v != v) bits = 0x7fc00000u;  // Java's floatToIntBits: one NaN
    // Eight bytes stored, four kept: one fixed-size store.
    detail::storeBigEndian64(std::uint64_t(bits) << 32, reinterpret_cast<unsigned char*>(sink_.reserve(8)));
    sink_.commit(4);
  }
  void writeDouble(double v, const char*) override {
    std::uint64_t bits;
    std::memcpy(&bits, &v, 8);
    if (v != v) bits = 0x7ff8000000000000ULL;
    detail::storeBigEndian64(bits, reinterpret_cast<unsigned char*>(sink_.reserve(8)));
    sink_.commit(8);
  }
  void writeString(const std::string& v, const char*) override {
    if (!utf8::isAscii(v.data(), v.size())) detail::checkOutgoingString(v, true);
    length(v.size(), "a string length");
    sink_.writeBytes(v.data(), v.size());
  }
  void writeBuffer(const std::string& v, const char*) override {
    length(v.size(), "a buffer length");
    sink_.writeBytes(v.data(), v.size());
  }
  void startRecord(const char*) override {}
  void endRecord(const char* tag) override {
    if (*tag == '\0') sink_.endOfRecord();
  }
  void startVector(std::size_t len, const char*) override { length(len, "a vector length"); }
  void endVector(const char*) override {}
  void startMap(std::size_t len, const char*) override { length(len, "a map size"); }
  void endMap(const char*) override {}

  void flush() { sink_.flush(); }
  /// The output buffer (RecordWriter takes back a record that failed).
  detail::Sink& sink() { return sink_; }
  /// Forgets a record abandoned midway (nothing to forget in binary).
  void reset() {}

 private:
  void vlong(std::int64_t v) {
    unsigned char* p = reinterpret_cast<unsigned char*>(sink_.reserve(9));
    sink_.commit(detail::encodeVLong(v, p));
  }
  void length(std::size_t n, const char* what) {
    if (n > 0x7fffffffu) detail::checkLength(n, what);
    vlong(static_cast<std::int64_t>(n));
  }
  detail::Sink sink_;
};

/// Reads records in Hadoop's binary encoding. Strict about structure, lenient where Java
/// is: non-minimal integers and any non-zero boolean byte are accepted; an `int` beyond 32
/// bits, a negative length, invalid UTF-8 (including overlong forms, which Java's reader
/// decodes but no writer produces) and U+FFFE/U+FFFF are errors. Lengths are never
/// trusted: a string or buffer grows only as its bytes arrive. Errors carry the byte offset.
class BinaryIArchive final : public IArchive {
 public:
  explicit BinaryIArchive(InStream& in) : IArchive(detail::kBinaryArchive), src_(in) {}

  void readByte(std::int8_t& v, const char*) override {
    v = static_cast<std::int8_t>(byte("a byte"));
  }
  void readBool(bool& v, const char*) override { v = byte("a boolean") != 0; }
  void readInt(std::int32_t& v, const char*) override { v = vint("an int"); }
  void readLong(std::int64_t& v, const char*) override { v = vlong("a long"); }
  void readFloat(float& v, const char*) override {
    const std::uint32_t bits = static_cast<std::uint32_t>(bigEndian(4, "a float"));
    std::memcpy(&v, &bits, 4);
  }
  void readDouble(double& v, const char*) override {
    const std::uint64_t bits = bigEndian(8, "a double");
    std::memcpy(&v, &bits, 8);
  }
  void readString(std::string& v, const char*) override {
    const std::size_t n = length("a string length");
    const std::uint64_t start = src_.offset();
    payload(v, n, "a string");
    if (!utf8::isAscii(v.data(), v.size())) checkText(v, start);
  }
  void readBuffer(std::string& v, const char*) override {
    payload(v, length("a buffer length"), "a buffer");
  }
  void startRecord(const char*) override { enter(); }
  void endRecord(const char*) override { leave(); }
  Index startVector(const char*) override { return counted("a vector length"); }
  void endVector(const char*) override { leave(); }
  Index startMap(const char*) override { return counted("a map size"); }
  void endMap(const char*) override { leave(); }
  bool nextElement(Index& index) override { return index.takeOne(); }
  bool atEnd() override { return src_.peek() < 0; }
  Position position() const override { return Position::byte(src_.offset()); }

  /// Bytes consumed so far.
  std::uint64_t offset() const { return src_.offset(); }

 private:
  unsigned char byte(const char* what) {
    if (src_.available() > 0) {
      const unsigned char b = *src_.data();
      src_.consume(1);
      return b;
    }
    return byteSlow(what);
  }
  std::int64_t vlong(const char* what) {
    if (src_.available() >= 9) {
      const unsigned char* p = src_.data();
      src_.consume(1 + detail::vlongPayload(p[0]));
      return detail::decodeVLong9(p);
    }
    return vlongSlow(what);
  }
  std::int32_t vint(const char* what) {
    const std::uint64_t start = src_.offset();
    const std::int64_t v = vlong(what);
    if (v < INT32_MIN || v > INT32_MAX) tooLong(v, start);
    return static_cast<std::int32_t>(v);
  }
  std::size_t length(const char* what) {
    const std::uint64_t start = src_.offset();
    const std::int32_t n = vint(what);
    if (n < 0) negative(n, what, start);
    return static_cast<std::size_t>(n);
  }
  std::uint64_t bigEndian(unsigned n, const char* what) {
    if (src_.available() >= 8) {
      const std::uint64_t bits = detail::loadBigEndian64(src_.data()) >> (64 - 8 * n);
      src_.consume(n);
      return bits;
    }
    if (!src_.request(n)) eof(what);
    const unsigned char* p = src_.data();
    std::uint64_t bits = 0;
    for (unsigned i = 0; i < n; ++i) bits = (bits << 8) | p[i];
    src_.consume(n);
    return bits;
  }
  void payload(std::string& v, std::size_t n, const char* what) {
    if (src_.available() >= n) {
      v.assign(reinterpret_cast<const char*>(src_.data()), n);
      src_.consume(n);
      return;
    }
    payloadSlow(v, n, what);
  }
  Index counted(const char* what) {
    enter();
    const std::size_t n = length(what);
    // Every element takes at least one byte: never preallocate for more elements than are
    // buffered, nor for more than a few thousand.
    const std::size_t buffered = src_.available();
    return Index::counted(n, buffered < 4096 ? buffered : 4096);
  }
  void enter() {
    if (depth_ >= maxDepth()) tooDeep();
    ++depth_;
  }
  void leave() {
    if (depth_ > 0) --depth_;
  }

  unsigned char byteSlow(const char* what);
  std::int64_t vlongSlow(const char* what);
  void payloadSlow(std::string& v, std::size_t n, const char* what);
  void checkText(const std::string& v, std::uint64_t start);
  [[noreturn]] void eof(const char* what);
  [[noreturn]] void tooLong(std::int64_t v, std::uint64_t at);
  [[noreturn]] void negative(std::int32_t n, const char* what, std::uint64_t at);
  [[noreturn]] void tooDeep();

  detail::Source src_;
  std::size_t depth_ = 0;
};

/// Hadoop's names for these archives (`IBinArchive`/`OBinArchive`), so that code written
/// against Hadoop's headers finds them.
using IBinArchive = BinaryIArchive;
using OBinArchive = BinaryOArchive;

}  // namespace hadoop

#undef HADOOP_RECORDIO_BSWAP

#endif  // HADOOP_RECORDIO_BINARY_HH
