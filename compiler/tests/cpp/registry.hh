// The record types a test driver knows, by DDL name. The tests generate registry.cc (one
// entry per record of the schemas they compile) next to the generated code.

#ifndef RCC_TEST_REGISTRY_HH
#define RCC_TEST_REGISTRY_HH

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "hadoop/recordio.hh"

struct RecordType {
  const char* name;  // `module.Class`
  std::unique_ptr<hadoop::Record> (*make)();
  int (*compare)(const hadoop::Record& a, const hadoop::Record& b);
  bool (*equal)(const hadoop::Record& a, const hadoop::Record& b);
};

extern const RecordType kRecordTypes[];
extern const std::size_t kRecordTypeCount;

/// The entry named `name`, or null.
inline const RecordType* findRecordType(const char* name) {
  for (std::size_t i = 0; i < kRecordTypeCount; ++i) {
    if (std::strcmp(kRecordTypes[i].name, name) == 0) return &kRecordTypes[i];
  }
  return nullptr;
}

/// The entry named `name`; exits with status 2 when there is none.
inline const RecordType& recordType(const std::string& name) {
  const RecordType* t = findRecordType(name.c_str());
  if (t == nullptr) {
    std::cerr << "unknown record type " << name << "\n";
    std::exit(2);
  }
  return *t;
}

/// The archive format `name` names ("binary", "csv" or "xml"); false for any other name.
inline bool parseFormat(const std::string& name, hadoop::RecFormat* f) {
  if (name == "binary") *f = hadoop::kBinary;
  else if (name == "csv") *f = hadoop::kCSV;
  else if (name == "xml") *f = hadoop::kXML;
  else return false;
  return true;
}

/// The tab-separated fields of a line of a job file.
inline std::vector<std::string> jobFields(const std::string& line) {
  std::istringstream words(line);
  std::vector<std::string> out;
  for (std::string s; std::getline(words, s, '\t');) out.push_back(s);
  return out;
}

/// `main` of a driver that takes a job file: `job` runs on the fields of each line and
/// returns false for a line it does not know, which ends the run with status 2.
template <class Job>
int runJobFile(int argc, char** argv, const char* program, Job job) {
  if (argc != 2) {
    std::cerr << "usage: " << program << " JOBFILE\n";
    return 2;
  }
  std::ifstream jobs(argv[1]);
  std::string line;
  while (std::getline(jobs, line)) {
    if (!job(jobFields(line))) {
      std::cerr << "bad job line: " << line << "\n";
      return 2;
    }
  }
  return 0;
}

template <class T>
std::unique_ptr<hadoop::Record> makeRecord() {
  return std::unique_ptr<hadoop::Record>(new T());
}
template <class T>
int compareRecords(const hadoop::Record& a, const hadoop::Record& b) {
  return static_cast<const T&>(a).compareTo(static_cast<const T&>(b));
}
template <class T>
bool equalRecords(const hadoop::Record& a, const hadoop::Record& b) {
  return static_cast<const T&>(a) == static_cast<const T&>(b);
}

#endif  // RCC_TEST_REGISTRY_HH
