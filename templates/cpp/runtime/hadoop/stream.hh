// Hadoop Record I/O for C++: the byte streams records are read from and written to.
//
// Part of the runtime that `rcc -l c++` writes next to the generated code (see
// docs/cpp.md). Do not edit: rcc rewrites it when it differs.

#ifndef HADOOP_RECORDIO_STREAM_HH
#define HADOOP_RECORDIO_STREAM_HH

#include <sys/types.h>  // ssize_t, as in Hadoop's declarations

#include <cstddef>
#include <cstdio>
#include <limits>
#include <string>

#include "hadoop/error.hh"

namespace hadoop {

namespace detail {
/// The most bytes one read() or write() is asked for: what its ssize_t result can count.
constexpr std::size_t kMaxStreamRequest =
    static_cast<std::size_t>(std::numeric_limits<ssize_t>::max());
}  // namespace detail

/// Where serialized records come from: Hadoop's `InStream`, declared as Hadoop declares it,
/// so that a stream class written against Hadoop's header compiles unchanged. Archives read
/// through an internal buffer, so read() is called with large requests.
class InStream {
 public:
  virtual ~InStream();
  /// Hadoop's contract, that of a blocking read(2): reads up to `n` bytes into `buf` and
  /// returns how many, 0 only at the end of input, or -1 on an error (errno may say which).
  /// Fewer than `n` bytes is not the end: the archives ask again. A -1 becomes an IOError
  /// (kIo) naming `InStream::read` and, when errno is set, its message; -1 with errno EINTR
  /// is retried. A read() may also throw IOError itself.
  virtual ssize_t read(void* buf, size_t n) = 0;
  /// An addition to Hadoop's interface, which subclasses need not implement: when the rest
  /// of the input is already in memory, sets `data` and `size` to it and returns true, so
  /// that archives read it in place instead of copying it through read(). The stream is
  /// then consumed. The default returns false.
  virtual bool contiguous(const char** data, std::size_t* size);
};

/// Where serialized records go: Hadoop's `OutStream`, declared as Hadoop declares it.
/// Archives write through an internal buffer, so write() is called with large pieces.
class OutStream {
 public:
  virtual ~OutStream();
  /// Hadoop's contract, that of a blocking write(2): writes up to `n` bytes of `buf` and
  /// returns how many, or -1 on an error (errno may say which). A short write is continued
  /// with the rest; -1 (retried when errno is EINTR) or a write of nothing
  /// becomes an IOError (kIo) naming `OutStream::write`. A write() may also throw IOError.
  virtual ssize_t write(const void* buf, size_t n) = 0;
  /// An addition to Hadoop's interface, which subclasses need not implement: hands buffered
  /// bytes on (to the file system, say). The default does nothing.
  virtual void flush();
};

/// Bytes in memory, read in place (not copied).
class MemoryInStream : public InStream {
 public:
  MemoryInStream(const void* data, std::size_t size);
  /// Reads `bytes`, which must outlive the stream.
  explicit MemoryInStream(const std::string& bytes);
  ssize_t read(void* buf, size_t n) override;
  bool contiguous(const char** data, std::size_t* size) override;

 private:
  const char* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

/// Collects what is written in a std::string.
class MemoryOutStream : public OutStream {
 public:
  ssize_t write(const void* buf, size_t n) override;
  const std::string& data() const { return data_; }
  /// Returns the bytes written so far and starts afresh.
  std::string take();

 private:
  std::string data_;
};

/// A file opened for reading (Hadoop's `FileInStream`, with its methods).
class FileInStream : public InStream {
 public:
  FileInStream() = default;
  /// Opens `path`; throws IOError (kIo) naming it when it cannot.
  explicit FileInStream(const std::string& path);
  ~FileInStream() override;
  FileInStream(const FileInStream&) = delete;
  FileInStream& operator=(const FileInStream&) = delete;
  /// Opens `path`, closing any file open before; false when it cannot.
  bool open(const std::string& path);
  /// Skips `nbytes` bytes (Hadoop's `skip`); false when the file cannot seek.
  bool skip(size_t nbytes);
  /// Closes the file; false when closing failed.
  bool close();
  /// The bytes read, 0 at the end of the file, -1 (errno set) on an error or when no file
  /// is open.
  ssize_t read(void* buf, size_t n) override;

 private:
  std::FILE* file_ = nullptr;
  std::string path_;
};

/// A file opened for writing (Hadoop's `FileOutStream`, with its methods).
class FileOutStream : public OutStream {
 public:
  FileOutStream() = default;
  /// Opens `path` for writing, replacing it when `overwrite` is true (otherwise an
  /// existing file is an error); throws IOError (kIo) naming it when it cannot.
  explicit FileOutStream(const std::string& path, bool overwrite = true);
  /// Closes the file; errors are ignored here: call close() to see them.
  ~FileOutStream() override;
  FileOutStream(const FileOutStream&) = delete;
  FileOutStream& operator=(const FileOutStream&) = delete;
  /// Opens `path` for writing (see the constructor); false when it cannot.
  bool open(const std::string& path, bool overwrite = true);
  /// Moves `nbytes` bytes forward in the file (Hadoop's `advance`); false when it cannot.
  bool advance(size_t nbytes);
  /// Flushes and closes the file; false when that failed.
  bool close();
  /// The bytes written (all of them, or fewer before an error), -1 (errno set) when none
  /// could be or no file is open.
  ssize_t write(const void* buf, size_t n) override;
  /// Flushes the C library's buffer; throws IOError (kIo) when that fails.
  void flush() override;

 private:
  std::FILE* file_ = nullptr;
  std::string path_;
};

}  // namespace hadoop

#endif  // HADOOP_RECORDIO_STREAM_HH
