// Streams an application writes itself, against Hadoop's declarations of InStream and
// OutStream (`virtual ssize_t read(void *buf, size_t n) = 0;`,
// `virtual ssize_t write(const void *buf, size_t n) = 0;`), and what the runtime makes of
// their results: short reads and writes, -1, EINTR, nonsense counts, exceptions.
//
//   copy TYPE FORMAT IN OUT   read every record of IN through FdInStream (a file
//                             descriptor), write them to OUT in the same format through
//                             FdOutStream; `ok COUNT` or `error MESSAGE`
//   copystd TYPE FORMAT IN OUT  the same through StdInStream/StdOutStream (iostreams)
//   faults TYPE IN            IN holds binary records of TYPE: one line per scenario of
//                             faults() (`NAME same`, `NAME ok`, `NAME error KIND WHAT`)
//
// Commands come one per line of the job file, fields tab-separated.

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "registry.hh"

// ---------------------------------------------------------------------------------------
// Written exactly as Hadoop's documentation (the record package's package.html) describes
// an application's streams: "a one method wrapper around an existing stream
// implementation", with the same semantics as a blocking read or write system call.

class FdInStream : public hadoop::InStream {
public:
  FdInStream(int fd) : fd(fd) {}
  virtual ssize_t read(void *buf, size_t n) { return ::read(fd, buf, n); }
private:
  int fd;
};

class FdOutStream : public hadoop::OutStream {
public:
  FdOutStream(int fd) : fd(fd) {}
  virtual ssize_t write(const void *buf, size_t n) { return ::write(fd, buf, n); }
private:
  int fd;
};

class StdInStream : public hadoop::InStream {
public:
  StdInStream(std::istream& in) : in(in) {}
  virtual ssize_t read(void *buf, size_t n) {
    in.read(static_cast<char*>(buf), n);
    return in.bad() ? -1 : in.gcount();
  }
private:
  std::istream& in;
};

class StdOutStream : public hadoop::OutStream {
public:
  StdOutStream(std::ostream& out) : out(out) {}
  virtual ssize_t write(const void *buf, size_t n) {
    out.write(static_cast<const char*>(buf), n);
    return out ? static_cast<ssize_t>(n) : -1;
  }
private:
  std::ostream& out;
};

// ---------------------------------------------------------------------------------------
// Streams that misbehave on purpose.

/// Serves `data` in pieces of at most `piece` bytes; after `failAt` bytes (if set) every
/// read returns `failWith` with errno `err`; every `eintrEvery`-th call fails with EINTR.
class Scripted : public hadoop::InStream {
public:
  explicit Scripted(std::string data) : data_(std::move(data)) {}
  std::size_t piece = static_cast<std::size_t>(-1);
  std::size_t failAt = static_cast<std::size_t>(-1);
  ssize_t failWith = -1;
  int err = 0;
  int eintrEvery = 0;
  bool throwAtFail = false;

  virtual ssize_t read(void *buf, size_t n) {
    ++calls_;
    if (eintrEvery > 0 && calls_ % eintrEvery == 0) {
      errno = EINTR;
      return -1;
    }
    if (pos_ >= failAt) {
      if (throwAtFail) throw hadoop::IOError("the disk went away");
      errno = err;
      return failWith;
    }
    std::size_t k = data_.size() - pos_;
    if (k > n) k = n;
    if (k > piece) k = piece;
    if (pos_ + k > failAt) k = failAt - pos_;
    std::memcpy(buf, data_.data() + pos_, k);
    pos_ += k;
    return static_cast<ssize_t>(k);
  }

private:
  std::string data_;
  std::size_t pos_ = 0;
  int calls_ = 0;
};

/// Collects at most `piece` bytes per write; after `failAt` bytes, returns `failWith` with
/// errno `err`; every `eintrEvery`-th call fails with EINTR.
class Collecting : public hadoop::OutStream {
public:
  std::string data;
  std::size_t piece = static_cast<std::size_t>(-1);
  std::size_t failAt = static_cast<std::size_t>(-1);
  ssize_t failWith = -1;
  int err = 0;
  int eintrEvery = 0;

  virtual ssize_t write(const void *buf, size_t n) {
    ++calls_;
    if (eintrEvery > 0 && calls_ % eintrEvery == 0) {
      errno = EINTR;
      return -1;
    }
    if (data.size() >= failAt) {
      errno = err;
      return failWith;
    }
    std::size_t k = n < piece ? n : piece;
    if (data.size() + k > failAt) k = failAt - data.size();
    data.append(static_cast<const char*>(buf), k);
    return static_cast<ssize_t>(k);
  }

private:
  int calls_ = 0;
};

// ---------------------------------------------------------------------------------------

namespace {

hadoop::RecFormat format(const std::string& name) {
  hadoop::RecFormat f;
  if (parseFormat(name, &f)) return f;
  std::cerr << "unknown format " << name << "\n";
  std::exit(2);
}

const char* kindName(hadoop::IOError::Kind k) {
  switch (k) {
    case hadoop::IOError::kIo: return "kIo";
    case hadoop::IOError::kEof: return "kEof";
    case hadoop::IOError::kSyntax: return "kSyntax";
    case hadoop::IOError::kOverflow: return "kOverflow";
    case hadoop::IOError::kEncoding: return "kEncoding";
    case hadoop::IOError::kLimit: return "kLimit";
    case hadoop::IOError::kUnsupported: return "kUnsupported";
    case hadoop::IOError::kSchema: return "kSchema";
  }
  return "?";
}

using Records = std::vector<std::unique_ptr<hadoop::Record>>;

/// Every record of `in`.
Records readAll(const RecordType& t, hadoop::InStream& in, hadoop::RecFormat f) {
  Records records;
  hadoop::RecordReader reader(in, f);
  for (;;) {
    std::unique_ptr<hadoop::Record> r = t.make();
    if (!reader.read(*r)) break;
    records.push_back(std::move(r));
  }
  return records;
}

void writeAll(const Records& records, hadoop::OutStream& out, hadoop::RecFormat f) {
  hadoop::RecordWriter writer(out, f);
  for (const auto& r : records) writer.write(*r);
  writer.flush();
}

std::string encode(const Records& records, hadoop::RecFormat f) {
  hadoop::MemoryOutStream out;
  writeAll(records, out, f);
  return out.take();
}

bool same(const RecordType& t, const Records& a, const Records& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!t.equal(*a[i], *b[i])) return false;
  }
  return true;
}

/// Copies the records of `source` to `sink` through the user streams `In` and `Out` made over
/// them; prints `ok N` or `error WHAT`.
template <class In, class Out, class Source, class Sink>
void copyThrough(const std::string& typeName, const std::string& fmt, Source& source,
                 Sink& sink) {
  try {
    In input(source);
    const Records records = readAll(recordType(typeName), input, format(fmt));
    Out output(sink);
    writeAll(records, output, format(fmt));
    std::cout << "ok " << records.size() << "\n";
  } catch (const hadoop::IOError& e) {
    std::cout << "error " << e.what() << "\n";
  }
}

void copyFd(const std::string& typeName, const std::string& fmt, const std::string& in,
            const std::string& out) {
  const int fin = ::open(in.c_str(), O_RDONLY);
  const int fout = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fin < 0 || fout < 0) {
    std::cout << "error cannot open " << in << " or " << out << "\n";
    return;
  }
  copyThrough<FdInStream, FdOutStream>(typeName, fmt, fin, fout);
  ::close(fin);
  ::close(fout);
}

void copyStd(const std::string& typeName, const std::string& fmt, const std::string& in,
             const std::string& out) {
  std::ifstream fin(in, std::ios::binary);
  std::ofstream fout(out, std::ios::binary);
  copyThrough<StdInStream, StdOutStream>(typeName, fmt, fin, fout);
}

/// `NAME ok` or `NAME error KIND WHAT`, for a scenario that should fail.
template <class F>
void expectError(const std::string& name, F&& f) {
  try {
    f();
    std::cout << name << " ok\n";
  } catch (const hadoop::IOError& e) {
    std::cout << name << " error " << kindName(e.kind()) << " " << e.what() << "\n";
  }
}

void faults(const std::string& typeName, const std::string& in) {
  const RecordType& t = recordType(typeName);
  std::ifstream file(in, std::ios::binary);
  std::stringstream slurp;
  slurp << file.rdbuf();
  const std::string binary = slurp.str();
  hadoop::MemoryInStream memory(binary);
  const Records records = readAll(t, memory, hadoop::kBinary);
  const char* names[] = {"binary", "csv", "xml"};
  const hadoop::RecFormat formats[] = {hadoop::kBinary, hadoop::kCSV, hadoop::kXML};

  for (int i = 0; i < 3; ++i) {
    const std::string bytes = encode(records, formats[i]);
    const std::string name = names[i];
    // Reads of one byte at a time (and EINTR every third call) read the same records.
    {
      Scripted dribble(bytes);
      dribble.piece = 1;
      dribble.eintrEvery = 3;
      const bool ok = same(t, readAll(t, dribble, formats[i]), records);
      std::cout << "dribble-" << name << " " << (ok ? "same" : "DIFFERENT") << "\n";
    }
    // Writes of at most 3 bytes each (and EINTR every fourth call) write the same bytes.
    {
      Collecting shortWrites;
      shortWrites.piece = 3;
      shortWrites.eintrEvery = 4;
      writeAll(records, shortWrites, formats[i]);
      std::cout << "short-writes-" << name << " "
                << (shortWrites.data == bytes ? "same" : "DIFFERENT") << "\n";
    }
    // Hadoop's archive names and its null tag for a top-level record, used directly (the
    // archive's destructor flushes).
    {
      hadoop::MemoryOutStream out;
      {
        std::unique_ptr<hadoop::OArchive> a;
        if (formats[i] == hadoop::kBinary) a.reset(new hadoop::OBinArchive(out));
        if (formats[i] == hadoop::kCSV) a.reset(new hadoop::OCsvArchive(out));
        if (formats[i] == hadoop::kXML) a.reset(new hadoop::OXmlArchive(out));
        for (const auto& r : records) r->serialize(*a, NULL);
      }
      hadoop::MemoryInStream in(out.data());
      std::unique_ptr<hadoop::IArchive> a;
      if (formats[i] == hadoop::kBinary) a.reset(new hadoop::IBinArchive(in));
      if (formats[i] == hadoop::kCSV) a.reset(new hadoop::ICsvArchive(in));
      if (formats[i] == hadoop::kXML) a.reset(new hadoop::IXmlArchive(in));
      Records back;
      for (std::size_t k = 0; k < records.size(); ++k) {
        back.push_back(t.make());
        back.back()->deserialize(*a, NULL);
      }
      const bool ok = out.data() == bytes && same(t, back, records);
      std::cout << "hadoop-names-" << name << " " << (ok ? "same" : "DIFFERENT") << "\n";
    }
    // -1 with EIO half way through the input.
    expectError("read-fails-" + name, [&] {
      Scripted failing(bytes);
      failing.failAt = bytes.size() / 2;
      failing.err = EIO;
      readAll(t, failing, formats[i]);
    });
  }
  expectError("read-fails-at-once", [&] {
    Scripted failing(binary);
    failing.failAt = 0;
    readAll(t, failing, hadoop::kBinary);
  });
  expectError("read-returns-too-much", [&] {
    Scripted liar(binary);
    liar.failAt = 0;
    liar.failWith = 1 << 20;
    readAll(t, liar, hadoop::kBinary);
  });
  expectError("read-throws", [&] {
    Scripted throwing(binary);
    throwing.failAt = 10;
    throwing.throwAtFail = true;
    readAll(t, throwing, hadoop::kBinary);
  });
  expectError("write-fails", [&] {
    Collecting full;
    full.failAt = 10;
    full.err = ENOSPC;
    writeAll(records, full, hadoop::kCSV);
  });
  expectError("write-returns-zero", [&] {
    Collecting stuck;
    stuck.failAt = 0;
    stuck.failWith = 0;
    writeAll(records, stuck, hadoop::kBinary);
  });
  expectError("write-returns-too-much", [&] {
    Collecting liar;
    liar.failAt = 0;
    liar.failWith = 1 << 20;
    writeAll(records, liar, hadoop::kBinary);
  });
  // After a failed flush the writer keeps what was not written: a second flush to a
  // stream that recovered writes the rest, and the output is whole.
  {
    Collecting flaky;
    flaky.failAt = 7;
    flaky.err = EAGAIN;
    hadoop::RecordWriter writer(flaky, hadoop::kCSV);
    for (const auto& r : records) writer.write(*r);
    try {
      writer.flush();
    } catch (const hadoop::IOError&) {
    }
    flaky.failAt = static_cast<std::size_t>(-1);
    writer.flush();
    std::cout << "flush-again " << (flaky.data == encode(records, hadoop::kCSV) ? "same" : "DIFFERENT")
              << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  return runJobFile(argc, argv, "user_streams", [](const std::vector<std::string>& w) {
    if (w.size() == 5 && w[0] == "copy") {
      copyFd(w[1], w[2], w[3], w[4]);
    } else if (w.size() == 5 && w[0] == "copystd") {
      copyStd(w[1], w[2], w[3], w[4]);
    } else if (w.size() == 3 && w[0] == "faults") {
      faults(w[1], w[2]);
    } else {
      return false;
    }
    return true;
  });
}
