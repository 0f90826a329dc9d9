// Hadoop Record I/O for C++: the buffers every archive reads and writes through.
//
// Part of the runtime that `rcc -l c++` writes next to the generated code (see
// docs/cpp.md). Do not edit: rcc rewrites it when it differs.

#ifndef HADOOP_RECORDIO_BUFFER_HH
#define HADOOP_RECORDIO_BUFFER_HH

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "hadoop/stream.hh"

namespace hadoop {
namespace detail {

/// Output bytes gathered in memory and handed to the stream in large pieces, so that
/// encoding a field is a store into a buffer rather than a call into the stream.
class Sink {
 public:
  explicit Sink(OutStream& out) : out_(&out) {}
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;

  /// Room for `n` more bytes at the end of the buffer; commit() what was used.
  char* reserve(std::size_t n) {
    if (static_cast<std::size_t>(limit_ - end_) < n) grow(n);
    return end_;
  }
  void commit(std::size_t n) { end_ += n; }
  void push(char c) {
    if (end_ == limit_) grow(1);
    *end_++ = c;
  }
  void append(const char* p, std::size_t n) {
    if (n == 0) return;
    std::memcpy(reserve(n), p, n);
    end_ += n;
  }
  /// Appends a payload; long ones bypass the buffer (one copy instead of two).
  void writeBytes(const char* p, std::size_t n) {
    if (n >= kDirectAt) {
      direct(p, n);
    } else {
      append(p, n);
    }
  }
  /// Called after each top-level record: hands the buffer over once it is large.
  void endOfRecord() {
    if (buffered() >= kFlushAt) drain();
  }
  /// Writes everything buffered and flushes the stream.
  void flush();
  /// Bytes written so far, buffered or not.
  std::uint64_t position() const { return written_ + buffered(); }
  /// Bytes handed to the stream so far.
  std::uint64_t handedOver() const { return written_; }
  std::size_t buffered() const { return static_cast<std::size_t>(end_ - buf_.get()); }
  /// Drops buffered bytes after the first `n` (to take back a record that failed).
  void truncate(std::size_t n) {
    if (n < buffered()) end_ = buf_.get() + n;
  }

 private:
  static constexpr std::size_t kFlushAt = 32 * 1024;
  static constexpr std::size_t kDirectAt = 2 * 1024;
  void grow(std::size_t n);
  void drain();
  void direct(const char* p, std::size_t n);
  /// Hands `p[0..n)` to the stream, continuing after short writes; IOError on failure.
  void writeAll(const char* p, std::size_t n);

  OutStream* out_;
  std::unique_ptr<char[]> buf_;
  // The buffered bytes are [buf_, end_); the buffer ends at limit_.
  char* end_ = nullptr;
  char* limit_ = nullptr;
  std::uint64_t written_ = 0;
};

/// Input bytes with a refillable window and the stream offset of every buffered byte.
/// Decoders look at data()/available() and decode straight from them when enough bytes are
/// there, and call fill() or request() only when they run short. The window grows only to
/// hold one token that is longer than it, as the bytes actually arrive, never from a length
/// the input claims. Input already in memory (InStream::contiguous) is read in place.
class Source {
 public:
  explicit Source(InStream& in);
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;

  /// The unconsumed bytes.
  const unsigned char* data() const { return cur_; }
  std::size_t available() const { return static_cast<std::size_t>(end_ - cur_); }
  void consume(std::size_t n) { cur_ += n; }
  /// Stream offset of the next unconsumed byte.
  std::uint64_t offset() const { return base_ + static_cast<std::uint64_t>(cur_ - buf_); }
  /// The next byte, or -1 at the end of input.
  int peek() {
    if (cur_ < end_) return *cur_;
    if (!fill()) return -1;
    return *cur_;
  }
  /// Reads more bytes after those available (keeping them: offsets counted from data()
  /// stay valid, pointers do not). False at the end of input.
  bool fill();
  /// Makes at least `n` bytes available when the input holds them.
  bool request(std::size_t n) {
    while (static_cast<std::size_t>(end_ - cur_) < n) {
      if (!fill()) return false;
    }
    return true;
  }
  /// Appends exactly `n` bytes to `out` (it grows only as bytes arrive); returns how many
  /// were appended: fewer means the input ended.
  std::size_t readInto(std::size_t n, std::string& out);
  bool atEof() const { return eof_; }

  /// Line of the byte at stream offset `offset` (which must still be in the window: not
  /// before the bytes consumed since the last fill()) and the stream offset where that line
  /// starts, for text formats that count lines in the bytes themselves. Needs trackLines().
  void lineAt(std::uint64_t offset, std::uint64_t* line, std::uint64_t* lineStart) const;
  /// Counts the lines of bytes dropped from the window from now on (XML).
  void trackLines() { trackLines_ = true; }

 private:
  static constexpr std::size_t kCapacity = 64 * 1024;
  /// One InStream::read of up to `n` bytes: the count, 0 at the end; IOError for -1.
  std::size_t readSome(void* buf, std::size_t n);

  InStream* in_;
  std::unique_ptr<unsigned char[]> own_;
  // The window is [buf_, end_) of a buffer of cap_ bytes; [cur_, end_) is unconsumed.
  const unsigned char* buf_ = nullptr;
  const unsigned char* cur_ = nullptr;
  const unsigned char* end_ = nullptr;
  std::size_t cap_ = 0;
  std::uint64_t base_ = 0;
  bool eof_ = false;
  bool borrowed_ = false;
  bool trackLines_ = false;
  // 1-based line of buf_[0], and the stream offset where that line starts.
  std::uint64_t baseLine_ = 1;
  std::uint64_t baseLineStart_ = 0;
};

}  // namespace detail
}  // namespace hadoop

#endif  // HADOOP_RECORDIO_BUFFER_HH
