// Hadoop Record I/O for C++: the byte streams records are read from and written to.
//
// Part of the runtime that `rcc -l c++` writes next to the generated code (see
// docs/cpp.md). Do not edit: rcc rewrites it when it differs.

#ifndef HADOOP_RECORDIO_STREAM_HH
#define HADOOP_RECORDIO_STREAM_HH

#include <cstddef>
#include <cstdio>
#include <string>

#include "hadoop/error.hh"

namespace hadoop {

/// Where serialized records come from (Hadoop's `InStream`). Archives read through an
/// internal buffer, so read() is called with large requests.
class InStream {
 public:
  virtual ~InStream();
  /// Reads up to `len` bytes into `buf`: the number read, 0 only at the end of input.
  /// Failures throw IOError (kIo).
  virtual std::size_t read(void* buf, std::size_t len) = 0;
  /// When the rest of the input is already in memory: sets `data` and `size` to it and
  /// returns true, so that archives read it in place. The stream is then consumed.
  virtual bool contiguous(const char** data, std::size_t* size);
};

/// Where serialized records go (Hadoop's `OutStream`). Archives write through an internal
/// buffer, so write() is called with large pieces.
class OutStream {
 public:
  virtual ~OutStream();
  /// Writes all `len` bytes of `buf`; failures throw IOError (kIo).
  virtual void write(const void* buf, std::size_t len) = 0;
  /// Hands buffered bytes on (to the file system, say). The default does nothing.
  virtual void flush();
};

/// Bytes in memory, read in place (not copied).
class MemoryInStream : public InStream {
 public:
  MemoryInStream(const void* data, std::size_t size);
  /// Reads `bytes`, which must outlive the stream.
  explicit MemoryInStream(const std::string& bytes);
  std::size_t read(void* buf, std::size_t len) override;
  bool contiguous(const char** data, std::size_t* size) override;

 private:
  const char* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

/// Collects what is written in a std::string.
class MemoryOutStream : public OutStream {
 public:
  void write(const void* buf, std::size_t len) override;
  const std::string& data() const { return data_; }
  /// Returns the bytes written so far and starts afresh.
  std::string take();

 private:
  std::string data_;
};

/// A file opened for reading (Hadoop's `FileInStream`).
class FileInStream : public InStream {
 public:
  FileInStream() = default;
  /// Opens `path`; throws IOError (kIo) when it cannot.
  explicit FileInStream(const std::string& path);
  ~FileInStream() override;
  FileInStream(const FileInStream&) = delete;
  FileInStream& operator=(const FileInStream&) = delete;
  /// Opens `path`, closing any file open before; false when it cannot.
  bool open(const std::string& path);
  /// Closes the file; false when closing failed.
  bool close();
  std::size_t read(void* buf, std::size_t len) override;

 private:
  std::FILE* file_ = nullptr;
  std::string path_;
};

/// A file opened for writing (Hadoop's `FileOutStream`).
class FileOutStream : public OutStream {
 public:
  FileOutStream() = default;
  /// Opens `path` for writing, replacing it when `overwrite` is true (otherwise an
  /// existing file is an error); throws IOError (kIo) when it cannot.
  explicit FileOutStream(const std::string& path, bool overwrite = true);
  /// Closes the file; errors are ignored here: call close() to see them.
  ~FileOutStream() override;
  FileOutStream(const FileOutStream&) = delete;
  FileOutStream& operator=(const FileOutStream&) = delete;
  bool open(const std::string& path, bool overwrite = true);
  /// Flushes and closes the file; false when that failed.
  bool close();
  void write(const void* buf, std::size_t len) override;
  void flush() override;

 private:
  std::FILE* file_ = nullptr;
  std::string path_;
};

}  // namespace hadoop

#endif  // HADOOP_RECORDIO_STREAM_HH
