// Test driver: runs the commands of a job file against the generated classes and prints one
// result line per command, so that one process serves a whole test.
//
//   roundtrip TYPE FORMAT IN OUT   read every record of IN, write them to OUT.binary,
//                                  OUT.csv and OUT.xml; `ok COUNT` (then, tab-separated,
//                                  `FORMAT refused: MESSAGE` for each format that could not
//                                  be written) or `error MESSAGE`
//   compare TYPE IN                IN holds two binary records a and b:
//                                  `cmp SIGN(a.compareTo(b)) SIGN(b.compareTo(a)) a==b b==a`
//   signature TYPE                 `sig SIGNATURE TYPE-NAME VALID`
//   floattext IN OUT               for every `kind bits ...` line of IN, the float text
//                                  (Float/Double.toString, and Double.toString of the widened
//                                  float) and the bits the text parses back to
//   parse IN OUT                   for every `kind text` line of IN: the bits of
//                                  parseFloat/parseDouble, or `error`

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "registry.hh"

namespace {

std::string oneLine(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

void roundtrip(const std::string& typeName, const std::string& fmt, const std::string& in,
               const std::string& out) {
  const RecordType& t = recordType(typeName);
  hadoop::RecFormat f;
  if (!parseFormat(fmt, &f)) {
    std::cout << "error unknown format " << fmt << "\n";
    return;
  }
  std::vector<std::unique_ptr<hadoop::Record>> records;
  try {
    hadoop::FileInStream input(in);
    hadoop::RecordReader reader(input, f);
    for (;;) {
      std::unique_ptr<hadoop::Record> r = t.make();
      if (!reader.read(*r)) break;
      records.push_back(std::move(r));
    }
  } catch (const hadoop::IOError& e) {
    std::cout << "error " << oneLine(e.what()) << "\n";
    return;
  }
  std::cout << "ok " << records.size();
  const char* names[] = {"binary", "csv", "xml"};
  const hadoop::RecFormat formats[] = {hadoop::kBinary, hadoop::kCSV, hadoop::kXML};
  for (int i = 0; i < 3; ++i) {
    try {
      hadoop::FileOutStream output(out + "." + names[i]);
      hadoop::RecordWriter writer(output, formats[i]);
      for (const auto& r : records) writer.write(*r);
      writer.flush();
    } catch (const hadoop::IOError& e) {
      std::cout << "\t" << names[i] << " refused: " << oneLine(e.what());
    }
  }
  std::cout << "\n";
}

int sign(int c) { return c < 0 ? -1 : (c > 0 ? 1 : 0); }

void compare(const std::string& typeName, const std::string& in) {
  const RecordType& t = recordType(typeName);
  try {
    hadoop::FileInStream input(in);
    hadoop::RecordReader reader(input, hadoop::kBinary);
    std::unique_ptr<hadoop::Record> a = t.make(), b = t.make();
    if (!reader.read(*a) || !reader.read(*b)) {
      std::cout << "error fewer than two records\n";
      return;
    }
    std::cout << "cmp " << sign(t.compare(*a, *b)) << " " << sign(t.compare(*b, *a)) << " "
              << t.equal(*a, *b) << " " << t.equal(*b, *a) << "\n";
  } catch (const hadoop::IOError& e) {
    std::cout << "error " << oneLine(e.what()) << "\n";
  }
}

void signature(const std::string& typeName) {
  std::unique_ptr<hadoop::Record> r = recordType(typeName).make();
  std::cout << "sig " << r->signature() << " " << r->type() << " " << r->validate() << "\n";
}

std::uint64_t parseHex(const std::string& s) {
  return std::strtoull(s.c_str() + 2, nullptr, 16);
}

void floattext(const std::string& in, const std::string& out) {
  std::ifstream input(in);
  std::ofstream output(out);
  std::string line;
  std::getline(input, line);  // header
  std::size_t n = 0;
  while (std::getline(input, line)) {
    std::istringstream fields(line);
    std::string kind, bits;
    std::getline(fields, kind, '\t');
    std::getline(fields, bits, '\t');
    const std::uint64_t b = parseHex(bits);
    if (kind == "f32") {
      float v;
      const std::uint32_t b32 = static_cast<std::uint32_t>(b);
      std::memcpy(&v, &b32, 4);
      output << hadoop::text::floatToString(v) << '\t'
             << hadoop::text::doubleToString(static_cast<double>(v)) << '\n';
    } else {
      double v;
      std::memcpy(&v, &b, 8);
      output << hadoop::text::doubleToString(v) << "\t-\n";
    }
    ++n;
  }
  std::cout << "ok " << n << "\n";
}

void parse(const std::string& in, const std::string& out) {
  std::ifstream input(in);
  std::ofstream output(out);
  std::string line;
  std::size_t n = 0;
  while (std::getline(input, line)) {
    const std::size_t tab = line.find('\t');
    const std::string kind = line.substr(0, tab);
    const std::string text = line.substr(tab + 1);
    char buf[32];
    if (kind == "f32") {
      float v;
      if (hadoop::text::parseFloat(text.data(), text.size(), v)) {
        std::uint32_t b;
        std::memcpy(&b, &v, 4);
        std::snprintf(buf, sizeof buf, "0x%08x", b);
        output << buf << '\n';
      } else {
        output << "error\n";
      }
    } else {
      double v;
      if (hadoop::text::parseDouble(text.data(), text.size(), v)) {
        std::uint64_t b;
        std::memcpy(&b, &v, 8);
        std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(b));
        output << buf << '\n';
      } else {
        output << "error\n";
      }
    }
    ++n;
  }
  std::cout << "ok " << n << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  return runJobFile(argc, argv, "driver", [](const std::vector<std::string>& w) {
    if (w.empty()) return true;
    if (w[0] == "roundtrip" && w.size() == 5) {
      roundtrip(w[1], w[2], w[3], w[4]);
    } else if (w[0] == "compare" && w.size() == 3) {
      compare(w[1], w[2]);
    } else if (w[0] == "signature" && w.size() == 2) {
      signature(w[1]);
    } else if (w[0] == "floattext" && w.size() == 3) {
      floattext(w[1], w[2]);
    } else if (w[0] == "parse" && w.size() == 3) {
      parse(w[1], w[2]);
    } else {
      return false;
    }
    return true;
  });
}
