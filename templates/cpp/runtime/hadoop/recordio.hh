// Hadoop Record I/O for C++: everything generated code and its users need.
//
// `rcc -l c++ -d DIR FILE...` writes these headers into DIR/hadoop/ and their one source
// file into DIR/hadoop_record.cc, next to the generated code; build with
// `g++ -std=c++17 -I DIR DIR/*.cc app.cc`. See docs/cpp.md. Do not edit: rcc rewrites
// these files when they differ.

#ifndef HADOOP_RECORDIO_RECORDIO_HH
#define HADOOP_RECORDIO_RECORDIO_HH

#include "hadoop/archive.hh"
#include "hadoop/binary.hh"
#include "hadoop/csv.hh"
#include "hadoop/ddl.hh"
#include "hadoop/error.hh"
#include "hadoop/record.hh"
#include "hadoop/stream.hh"
#include "hadoop/text.hh"
#include "hadoop/utf8.hh"
#include "hadoop/xml.hh"

#endif  // HADOOP_RECORDIO_RECORDIO_HH
