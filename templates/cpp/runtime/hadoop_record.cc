// Hadoop Record I/O for C++: the runtime's one source file. It holds the out-of-line parts
// of the runtime, kept in DIR/hadoop/impl/ and compiled here as one unit.
//
// Written by `rcc -l c++` next to the generated code (see docs/cpp.md). Do not edit: rcc
// rewrites it when it differs.

#include "hadoop/recordio.hh"

#include "hadoop/impl/error.inc"
#include "hadoop/impl/stream.inc"
#include "hadoop/impl/utf8.inc"
#include "hadoop/impl/text_format.inc"
#include "hadoop/impl/text_parse.inc"
#include "hadoop/impl/binary.inc"
#include "hadoop/impl/csv.inc"
#include "hadoop/impl/xml_output.inc"
#include "hadoop/impl/xml_lexer.inc"
#include "hadoop/impl/xml_input.inc"
#include "hadoop/impl/record.inc"
