// Fuzz target for the C++ runtime's three readers, through generated classes.
//
// libFuzzer interface: with clang, `clang++ -std=c++17 -fsanitize=fuzzer,address,undefined
// -I GEN -I . GEN/*.cc fuzz_readers.cc` builds a libFuzzer binary (GEN holds `rcc -l c++`
// output and the tests' registry.cc). Without clang, hostile.cc drives it with a small
// coverage-guided fuzzer of its own (g++ -fsanitize-coverage=trace-pc); the test
// compiler/tests/cpp_hostile.rs runs that briefly under AddressSanitizer and
// UndefinedBehaviorSanitizer.
//
// Input: byte 0 picks the encoding, byte 1 the record type, the rest is read as records of
// that type. Reading may fail (with IOError, never otherwise); records that read must write
// in every encoding that accepts them, read back, and write again to the same bytes.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "registry.hh"

namespace {

const hadoop::RecFormat kFormats[] = {hadoop::kBinary, hadoop::kCSV, hadoop::kXML};

/// Reads up to 64 records of `type` from `bytes`; false when reading failed.
bool readAll(const RecordType& type, const std::string& bytes, hadoop::RecFormat format,
             std::vector<std::unique_ptr<hadoop::Record>>* out) {
  hadoop::MemoryInStream in(bytes);
  hadoop::RecordReader reader(in, format);
  try {
    for (int i = 0; i < 64; ++i) {
      std::unique_ptr<hadoop::Record> r = type.make();
      if (!reader.read(*r)) return true;
      out->push_back(std::move(r));
    }
    return true;
  } catch (const hadoop::IOError&) {
    return false;
  }
}

/// Writes `records`; false when the encoding refuses them (an IOError, e.g. U+FFFE in binary).
bool writeAll(const std::vector<std::unique_ptr<hadoop::Record>>& records,
              hadoop::RecFormat format, std::string* out) {
  hadoop::MemoryOutStream stream;
  try {
    hadoop::RecordWriter writer(stream, format);
    for (const auto& r : records) writer.write(*r);
    writer.flush();
  } catch (const hadoop::IOError&) {
    return false;
  }
  *out = stream.take();
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2 || kRecordTypeCount == 0) return 0;
  const hadoop::RecFormat format = kFormats[data[0] % 3];
  const RecordType& type = kRecordTypes[data[1] % kRecordTypeCount];
  const std::string input(reinterpret_cast<const char*>(data + 2), size - 2);
  std::vector<std::unique_ptr<hadoop::Record>> records;
  if (!readAll(type, input, format, &records)) return 0;
  for (hadoop::RecFormat f : kFormats) {
    std::string written;
    if (!writeAll(records, f, &written)) continue;
    std::vector<std::unique_ptr<hadoop::Record>> again;
    std::string rewritten;
    // What our writer writes, our reader reads, and writes again unchanged.
    if (!readAll(type, written, f, &again) || again.size() != records.size() ||
        !writeAll(again, f, &rewritten) || rewritten != written) {
      std::abort();
    }
  }
  return 0;
}
