// Hadoop Record I/O for C++: records, and reading and writing them one after another.
//
// Part of the runtime that `rcc -l c++` writes next to the generated code (see
// docs/cpp.md). Do not edit: rcc rewrites it when it differs.

#ifndef HADOOP_RECORDIO_RECORD_HH
#define HADOOP_RECORDIO_RECORD_HH

#include <cstdint>
#include <memory>
#include <string>

#include "hadoop/archive.hh"
#include "hadoop/binary.hh"
#include "hadoop/csv.hh"
#include "hadoop/stream.hh"
#include "hadoop/xml.hh"

namespace hadoop {

/// A Hadoop record: the base class of every class `rcc -l c++` generates.
class Record {
 public:
  virtual ~Record();
  /// Writes the record under `tag` (empty, or null as Hadoop passes it, for a top-level
  /// record).
  virtual void serialize(OArchive& archive, const char* tag) const = 0;
  /// Reads a record written under `tag` (empty or null for a top-level record), replacing
  /// every field.
  virtual void deserialize(IArchive& archive, const char* tag) = 0;
  /// The DDL class name, e.g. `Link`.
  virtual const std::string& type() const = 0;
  /// Hadoop's type signature, the string Java's generated `signature()` returns, e.g.
  /// `LLink(szs)`.
  virtual const std::string& signature() const = 0;
  /// Whether every archive can write the record: every ustring (nested ones included) is
  /// valid UTF-8 without U+FFFE/U+FFFF (which Hadoop's binary format refuses), and every
  /// string, buffer, vector and map fits Hadoop's 32-bit lengths.
  virtual bool validate() const = 0;
};

/// Writes top-level records one after another (Hadoop's `RecordWriter`). Output is
/// buffered and flushed by flush() or, ignoring errors, by the destructor. A record that
/// fails to encode (invalid UTF-8, say) throws IOError naming the record number and field
/// path and leaves nothing of itself in the output (unless a string or buffer of 2 KiB or
/// more before the failure was already handed to the stream).
class RecordWriter {
 public:
  RecordWriter(OutStream& out, RecFormat format);
  ~RecordWriter();
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;
  void write(const Record& record) {
    const std::size_t len = sink_->buffered();
    const std::uint64_t handed = sink_->handedOver();
    try {
      record.serialize(*archive_, "");
    } catch (IOError& e) {
      failed(e, record, len, handed);
      throw;
    }
    ++records_;
  }
  /// Writes everything buffered and flushes the stream.
  void flush();
  RecFormat format() const { return format_; }
  std::uint64_t recordsWritten() const { return records_; }

 private:
  /// Takes a record that failed back out of the buffer, and adds the record's place to `e`.
  void failed(IOError& e, const Record& record, std::size_t len, std::uint64_t handed);

  RecFormat format_;
  std::unique_ptr<OArchive> archive_;
  detail::Sink* sink_;
  std::uint64_t records_ = 0;
};

/// Reads top-level records one after another (Hadoop's `RecordReader`). read() returns
/// false at a clean end of input (exactly after a record) and throws IOError for anything
/// else, a partial record included; errors carry the record number (from 0), the position
/// and the field path rooted at the type name, e.g.
/// `record 2, line 3:41, in Outer.c.vrec[3].tag: …`. After an error the reader stays
/// failed: a damaged stream cannot be resynchronised reliably.
class RecordReader {
 public:
  RecordReader(InStream& in, RecFormat format);
  ~RecordReader();
  RecordReader(const RecordReader&) = delete;
  RecordReader& operator=(const RecordReader&) = delete;
  bool read(Record& record) {
    if (failed_) failedBefore();
    try {
      if (archive_->atEnd()) return false;
      record.deserialize(*archive_, "");
    } catch (IOError& e) {
      failed(e, record);
      throw;
    }
    ++records_;
    return true;
  }
  RecFormat format() const { return format_; }
  std::uint64_t recordsRead() const { return records_; }
  /// Where the next record starts (or where reading failed).
  Position position() const { return archive_->position(); }
  /// The archive, e.g. to change its maxDepth().
  IArchive& archive() { return *archive_; }

 private:
  [[noreturn]] void failedBefore() const;
  /// Marks the reader failed and adds the record's place to `e`.
  void failed(IOError& e, const Record& record);

  RecFormat format_;
  std::unique_ptr<IArchive> archive_;
  std::uint64_t records_ = 0;
  bool failed_ = false;
};

namespace detail {
/// Calls `f` with the concrete type of a built-in archive (so that generated code calls it
/// without virtual dispatch), or with the archive itself.
template <class F>
void withOutput(OArchive& a, F&& f) {
  switch (a.builtin()) {
    case kBinaryArchive: f(static_cast<BinaryOArchive&>(a)); return;
    case kCsvArchive: f(static_cast<CsvOArchive&>(a)); return;
    case kXmlArchive: f(static_cast<XmlOArchive&>(a)); return;
    default: f(a);
  }
}
template <class F>
void withInput(IArchive& a, F&& f) {
  switch (a.builtin()) {
    case kBinaryArchive: f(static_cast<BinaryIArchive&>(a)); return;
    case kCsvArchive: f(static_cast<CsvIArchive&>(a)); return;
    case kXmlArchive: f(static_cast<XmlIArchive&>(a)); return;
    default: f(a);
  }
}
}  // namespace detail

}  // namespace hadoop

#endif  // HADOOP_RECORDIO_RECORD_HH
