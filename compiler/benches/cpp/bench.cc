// The C++ side of compiler/benches/cpp_runtime.rs: writes and reads the records the Rust
// side generated, timing each, and checks that it writes exactly the Rust runtime's bytes.
//
//   bench DIR   reads `SHAPE FORMAT` lines on standard input; for each, with the records of
//               DIR/SHAPE.binary and the Rust runtime's bytes DIR/SHAPE.FORMAT, prints
//               `RECORDS BYTES write NS read NS read-new NS`: the thread CPU time to write all
//               records into memory, to read them all into one reused record, and into a new
//               record each. The Rust side alternates its own runs with these, so that both
//               see the same load.

#include <time.h>

#include <cstdint>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "bench.jr.hh"

namespace {

std::uint64_t cpuNanos() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "cannot read " << path << "\n";
    std::exit(2);
  }
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// An output stream into a buffer reused between runs (as the Rust side reuses its Vec).
class Buffer : public hadoop::OutStream {
 public:
  ssize_t write(const void* p, size_t n) override {
    data.append(static_cast<const char*>(p), n);
    return static_cast<ssize_t>(n);
  }
  std::string data;
};

template <class T>
struct Shape {
  std::vector<T> records;
  std::string expected;
  Buffer out;  // reused between runs, as the Rust side reuses its Vec
  bool loaded = false;
};

template <class T>
void run(Shape<T>& shape, const std::string& dir, const std::string& name,
         const std::string& format, hadoop::RecFormat f) {
  if (!shape.loaded) {
    const std::string binary = slurp(dir + "/" + name + ".binary");
    hadoop::MemoryInStream in(binary);
    hadoop::RecordReader reader(in, hadoop::kBinary);
    for (T r; reader.read(r);) shape.records.push_back(r);
    shape.loaded = true;
  }
  // The Rust runtime's bytes in this format.
  shape.expected = slurp(dir + "/" + name + "." + format);
  Buffer& out = shape.out;
  out.data.clear();
  std::uint64_t start = cpuNanos();
  {
    hadoop::RecordWriter writer(out, f);
    for (const T& r : shape.records) writer.write(r);
    writer.flush();
  }
  const std::uint64_t write = cpuNanos() - start;
  if (out.data != shape.expected) {
    std::cerr << name << "." << format << ": the C++ bytes differ from Rust's\n";
    std::exit(1);
  }
  std::size_t n = 0;
  start = cpuNanos();
  {
    hadoop::MemoryInStream in(shape.expected);
    hadoop::RecordReader reader(in, f);
    for (T r; reader.read(r);) ++n;
  }
  const std::uint64_t read = cpuNanos() - start;
  std::size_t m = 0;
  start = cpuNanos();
  {
    hadoop::MemoryInStream in(shape.expected);
    hadoop::RecordReader reader(in, f);
    for (;;) {
      T r;
      if (!reader.read(r)) break;
      ++m;
    }
  }
  const std::uint64_t readNew = cpuNanos() - start;
  if (n != shape.records.size() || m != n) std::exit(1);
  std::cout << n << " " << shape.expected.size() << " write " << write << " read " << read
            << " read-new " << readNew << std::endl;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: bench DIR < commands\n";
    return 2;
  }
  const std::string dir = argv[1];
  Shape<bench::Small> small;
  Shape<bench::Text> text;
  Shape<bench::Bulk> bulk;
  std::string name, format;
  try {
    while (std::cin >> name >> format) {
      hadoop::RecFormat f = hadoop::kBinary;
      if (format == "csv") f = hadoop::kCSV;
      if (format == "xml") f = hadoop::kXML;
      if (name == "small") run(small, dir, name, format, f);
      else if (name == "text") run(text, dir, name, format, f);
      else if (name == "bulk") run(bulk, dir, name, format, f);
      else return 2;
    }
  } catch (const hadoop::IOError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
