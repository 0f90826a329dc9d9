// Hostile input for the C++ readers, built with AddressSanitizer and
// UndefinedBehaviorSanitizer by compiler/tests/cpp_hostile.rs.
//
//   hostile cases JOBFILE    one line per `read TYPE FORMAT MAXDEPTH FILE`: `ok COUNT` or
//                            `error KIND MESSAGE` (never a crash)
//   hostile prefixes JOBFILE one line per `prefixes TYPE FORMAT FILE`: prefixes of FILE (all
//                            near its ends, a sample between) read:
//                            `ok READ errors FAILED cuts TRIED`
//   hostile fuzz SECONDS SEED FILE...  a coverage-guided fuzzer of its own over
//                            LLVMFuzzerTestOneInput (fuzz_readers.cc), seeded with FILEs
//                            (each: encoding byte, type byte, then the input), for SECONDS;
//                            an input that aborts is saved as `crash-input` (run it again
//                            with `hostile fuzz 0 1 crash-input`).
//
// The runtime and generated code are compiled with -fsanitize-coverage=trace-pc; coverage.cc
// counts the edges they report.

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "registry.hh"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

// coverage.cc
extern std::uint8_t g_edges[1 << 16];
extern std::uintptr_t g_previous;

namespace {
constexpr std::size_t kMapSize = sizeof g_edges;
}  // namespace

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

const char* kindName(hadoop::IOError::Kind k) {
  switch (k) {
    case hadoop::IOError::kIo: return "io";
    case hadoop::IOError::kEof: return "eof";
    case hadoop::IOError::kSyntax: return "syntax";
    case hadoop::IOError::kOverflow: return "overflow";
    case hadoop::IOError::kEncoding: return "encoding";
    case hadoop::IOError::kLimit: return "limit";
    case hadoop::IOError::kUnsupported: return "unsupported";
    case hadoop::IOError::kSchema: return "schema";
  }
  return "?";
}

/// Reads every record of `bytes`: the count, or throws IOError.
std::size_t readAll(const RecordType& type, const std::string& bytes, hadoop::RecFormat f,
                    std::size_t maxDepth) {
  hadoop::MemoryInStream in(bytes);
  hadoop::RecordReader reader(in, f);
  reader.archive().setMaxDepth(maxDepth);
  std::size_t n = 0;
  for (std::unique_ptr<hadoop::Record> r = type.make(); reader.read(*r); r = type.make()) ++n;
  return n;
}

int cases(const char* jobFile, bool prefixes) {
  std::ifstream jobs(jobFile);
  std::string line;
  while (std::getline(jobs, line)) {
    const std::vector<std::string> w = jobFields(line);
    hadoop::RecFormat f;
    const RecordType* type = w.size() >= 4 ? findRecordType(w[1].c_str()) : nullptr;
    if (type == nullptr || !parseFormat(w[2], &f)) {
      std::cerr << "bad job line: " << line << "\n";
      return 2;
    }
    if (prefixes) {
      const std::string bytes = slurp(w[3]);
      std::size_t ok = 0, failed = 0, cuts = 0;
      for (std::size_t end = 0; end <= bytes.size(); ++end) {
        // Every cut near the start and the end, about 200 evenly spaced in between.
        const std::size_t n = bytes.size();
        const bool edge = end < 256 || end + 64 > n;
        if (!edge && end % (n / 200 + 1) != 0) continue;
        ++cuts;
        try {
          readAll(*type, bytes.substr(0, end), f, hadoop::kMaxDepth);
          ++ok;
        } catch (const hadoop::IOError&) {
          ++failed;
        }
      }
      std::cout << "ok " << ok << " errors " << failed << " cuts " << cuts << "\n";
    } else {
      try {
        const std::size_t n = readAll(*type, slurp(w[4]), f, std::stoul(w[3]));
        std::cout << "ok " << n << "\n";
      } catch (const hadoop::IOError& e) {
        std::string message = e.what();
        for (char& c : message) {
          if (c == '\n' || c == '\r') c = ' ';
        }
        std::cout << "error " << kindName(e.kind()) << " " << message << "\n";
      }
    }
  }
  return 0;
}

/// AFL's bucketing of hit counts: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+.
std::uint8_t bucket(std::uint8_t n) {
  if (n == 0) return 0;
  if (n <= 3) return static_cast<std::uint8_t>(1u << (n - 1));
  if (n <= 7) return 8;
  if (n <= 15) return 16;
  if (n <= 31) return 32;
  if (n <= 127) return 64;
  return 128;
}

struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
};

std::string mutate(const std::vector<std::string>& corpus, Rng& rng) {
  std::string s = corpus[rng.below(corpus.size())];
  static const char* const kTokens[] = {"<value>", "</value>", "<struct>", "</struct>",
                                        "<array>", "</array>", "v{", "m{", "s{", "}", ",",
                                        "%0A", "&amp;", "&#x10FFFF;", "<![CDATA[", "]]>",
                                        "\r\n", "NaN", "1e309", "0x1p-1075", "\xef\xbf\xbe",
                                        "\xed\xa0\x80", "\xc0\x80", "\x8c\x7f\xff\xff\xff"};
  const int rounds = 1 + static_cast<int>(rng.below(4));
  for (int r = 0; r < rounds; ++r) {
    const std::size_t at = rng.below(s.size() + 1);
    switch (rng.below(8)) {
      case 0:  // flip a bit
        if (at < s.size()) s[at] = static_cast<char>(s[at] ^ (1 << rng.below(8)));
        break;
      case 1:  // an interesting byte
        if (at < s.size()) {
          static const char kBytes[] = {0, 1, '\x7f', '\x80', '\xff', '\x8f', '\x88', '<', '&',
                                        '%', ',', '}', '{', '\n', '\r'};
          s[at] = kBytes[rng.below(sizeof kBytes)];
        }
        break;
      case 2:  // delete a range
        if (at < s.size()) s.erase(at, 1 + rng.below(16));
        break;
      case 3:  // duplicate a range
        if (at < s.size()) s.insert(at, s.substr(at, 1 + rng.below(64)));
        break;
      case 4:  // a token
        s.insert(at, kTokens[rng.below(sizeof kTokens / sizeof kTokens[0])]);
        break;
      case 5:  // splice with another input
        {
          const std::string& other = corpus[rng.below(corpus.size())];
          const std::size_t from = rng.below(other.size());
          s = s.substr(0, at) + other.substr(from);
        }
        break;
      case 6:  // truncate
        s.resize(at);
        break;
      default:  // a random byte
        if (at < s.size()) s[at] = static_cast<char>(rng.next());
        break;
    }
  }
  if (s.size() > 8192) s.resize(8192);
  if (s.size() >= 2 && rng.below(16) == 0) s[1] = static_cast<char>(rng.next());
  return s;
}

/// The input being run, written to `crash-input` if it aborts (a sanitizer report or a failed
/// check), so that it can be run again.
const std::string* g_current = nullptr;

extern "C" void saveCrash(int) {
  if (g_current != nullptr) {
    const int fd = open("crash-input", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd >= 0) {
      const ssize_t written = write(fd, g_current->data(), g_current->size());
      (void)written;
      close(fd);
    }
  }
  std::signal(SIGABRT, SIG_DFL);
  std::raise(SIGABRT);
}

int fuzz(double seconds, std::uint64_t seed, const std::vector<std::string>& seeds) {
  std::signal(SIGABRT, saveCrash);
  std::vector<std::string> corpus;
  static std::uint8_t seen[kMapSize];
  std::size_t runs = 0, edges = 0;
  auto execute = [&](const std::string& input) {
    g_current = &input;
    std::memset(g_edges, 0, sizeof g_edges);
    g_previous = 0;
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
    ++runs;
    bool fresh = false;
    for (std::size_t i = 0; i < kMapSize; ++i) {
      const std::uint8_t b = bucket(g_edges[i]);
      if ((b | seen[i]) != seen[i]) {
        if (seen[i] == 0) ++edges;
        seen[i] |= b;
        fresh = true;
      }
    }
    if (fresh) corpus.push_back(input);
  };
  for (const std::string& path : seeds) execute(slurp(path));
  if (corpus.empty()) corpus.push_back(std::string("\0\0", 2));
  Rng rng{seed | 1};
  const auto stop = std::chrono::steady_clock::now() +
                    std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
  while (std::chrono::steady_clock::now() < stop) {
    for (int i = 0; i < 64; ++i) execute(mutate(corpus, rng));
  }
  std::cout << "fuzz runs " << runs << " corpus " << corpus.size() << " edges " << edges << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if ((mode == "cases" || mode == "prefixes") && argc == 3) return cases(argv[2], mode == "prefixes");
  if (mode == "fuzz" && argc >= 4) {
    std::vector<std::string> seeds(argv + 4, argv + argc);
    return fuzz(std::atof(argv[2]), std::strtoull(argv[3], nullptr, 10), seeds);
  }
  std::cerr << "usage: hostile cases JOBFILE | prefixes JOBFILE | fuzz SECONDS SEED FILE...\n";
  return 2;
}
