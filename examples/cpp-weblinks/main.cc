// weblinks-cpp IN OUT [binary|csv|xml]: reads the OutLinks records in IN (as the Rust
// weblinks example writes them: `cargo run -p weblinks -- write IN`), prints them, adds one
// page, and writes every record to OUT in the same encoding, for the Rust side to read
// (`cargo run -p weblinks -- read OUT`).

#include <iostream>
#include <string>
#include <vector>

#include "outlinks.jr.hh"

namespace {

void print(const outlinks::OutLinks& page) {
  std::cout << page.getBaseURL() << " (" << page.getOutLinks().size() << " links)\n";
  for (const links::Link& link : page.getOutLinks()) {
    std::cout << "  " << link.getURL() << (link.getIsRelative() ? " (relative)" : "") << ": "
              << link.getAnchorText() << "\n";
  }
  for (const auto& [host, when] : page.getLastFetched()) {
    std::cout << "  " << host << " last fetched at " << when << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::cerr << "usage: weblinks-cpp IN OUT [binary|csv|xml]\n";
    return 2;
  }
  const std::string encoding = argc == 4 ? argv[3] : "binary";
  hadoop::RecFormat format = hadoop::kBinary;
  if (encoding == "csv") {
    format = hadoop::kCSV;
  } else if (encoding == "xml") {
    format = hadoop::kXML;
  } else if (encoding != "binary") {
    std::cerr << "unknown encoding " << encoding << "\n";
    return 2;
  }
  try {
    std::vector<outlinks::OutLinks> pages;
    hadoop::FileInStream in(argv[1]);
    hadoop::RecordReader reader(in, format);
    for (outlinks::OutLinks page; reader.read(page);) pages.push_back(page);
    std::cout << "read " << pages.size() << " records of " << outlinks::OutLinks().signature()
              << " from " << argv[1] << "\n";
    for (const outlinks::OutLinks& page : pages) print(page);

    outlinks::OutLinks added;
    added.getBaseURL() = "https://hadoop.apache.org/docs/r1.2.1/";
    links::Link link;
    link.getURL() = "api/org/apache/hadoop/record/package-summary.html";
    link.setIsRelative(true);
    link.getAnchorText() = "Hadoop Record I/O";
    added.getOutLinks().push_back(link);
    added.getLastFetched()["hadoop.apache.org"] = 1385856000000;
    added.getLastFetched()["\xf0\x9f\x98\x80.example"] = -1;
    pages.push_back(added);

    hadoop::FileOutStream out(argv[2]);
    hadoop::RecordWriter writer(out, format);
    for (const outlinks::OutLinks& page : pages) writer.write(page);
    writer.flush();
    std::cout << "wrote " << pages.size() << " records to " << argv[2] << "\n";
  } catch (const hadoop::IOError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
