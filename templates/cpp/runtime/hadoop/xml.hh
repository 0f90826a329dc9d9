// Hadoop Record I/O for C++: the XML encoding (Hadoop's XmlRecordOutput/Input).
//
// Part of the runtime that `rcc -l c++` writes next to the generated code (see
// docs/cpp.md). Do not edit: rcc rewrites it when it differs.

#ifndef HADOOP_RECORDIO_XML_HH
#define HADOOP_RECORDIO_XML_HH

#include <cstdint>
#include <string>
#include <vector>

#include "hadoop/archive.hh"
#include "hadoop/buffer.hh"
#include "hadoop/text.hh"

namespace hadoop {

/// Writes records in Hadoop's XML encoding, byte for byte as Java's XmlRecordOutput:
/// each top-level record is one `<value><struct>` … `</struct></value>` element and a line
/// feed; struct members are indented two spaces per level, elements of vectors and maps
/// start at column 0. Strings are escaped per UTF-16 code unit (`<` → `&lt;`, `&` →
/// `&amp;`, `%` → `%0025`, controls, surrogates and U+FFFE/U+FFFF → `%XXXX`), buffers are
/// lowercase hex, floats use Java's `Float.toString`, doubles `Double.toString`. Output is
/// buffered: call flush() (RecordWriter does) when done.
class XmlOArchive final : public OArchive {
 public:
  explicit XmlOArchive(OutStream& out) : OArchive(detail::kXmlArchive), sink_(out) {}
  /// Flushes, ignoring errors (call flush() to see them).
  ~XmlOArchive() override;

  void writeByte(std::int8_t v, const char* tag) override { integer(v, tag, kI1); }
  void writeBool(bool v, const char* tag) override;
  void writeInt(std::int32_t v, const char* tag) override { integer(v, tag, kI4); }
  void writeLong(std::int64_t v, const char* tag) override { integer(v, tag, kI8); }
  void writeFloat(float v, const char* tag) override;
  void writeDouble(double v, const char* tag) override;
  void writeString(const std::string& v, const char* tag) override;
  void writeBuffer(const std::string& v, const char* tag) override;
  void startRecord(const char* tag) override { startCompound(tag, true); }
  void endRecord(const char*) override { endCompound(true); }
  void startVector(std::size_t, const char* tag) override { startCompound(tag, false); }
  void endVector(const char*) override { endCompound(false); }
  void startMap(std::size_t, const char* tag) override { startCompound(tag, false); }
  void endMap(const char*) override { endCompound(false); }

  void flush() { sink_.flush(); }
  detail::Sink& sink() { return sink_; }
  /// Forgets a record abandoned midway, so that the next one starts at the top level.
  void reset() {
    stack_.clear();
    indent_ = 0;
  }

 private:
  enum Tag { kI1, kI4, kI8 };
  /// The fixed text around a struct member at one indentation level.
  struct Envelope {
    std::string head;    // indent(L) <member> LF indent(L+1) <name>
    std::string mid;     // </name> LF indent(L+1) <value>
    std::string tail;    // </value> LF indent(L) </member> LF
    std::string indent;  // indent(L+1)
  };
  const Envelope& envelope(std::size_t level);
  void begin(const char* tag);
  void end();
  void integer(std::int64_t v, const char* tag, Tag kind);
  void startCompound(const char* tag, bool isStruct);
  void endCompound(bool isStruct);

  detail::Sink sink_;
  std::vector<bool> stack_;  // true: struct, false: array
  std::size_t indent_ = 0;
  std::vector<Envelope> envelopes_;
};

namespace detail {
/// The elements of Hadoop's XML encoding.
enum class Elem : unsigned char {
  kValue, kStruct, kMember, kName, kArray, kBoolean, kI1, kI4, kInt, kI8, kFloat, kDouble,
  kString, kNone
};

/// The content of an element: in the lexer's window or, when entities, CRs, CDATA sections
/// or comments had to be resolved, in its scratch buffer. Valid until the next call that
/// reads input.
struct XmlText {
  const char* data = "";
  std::size_t len = 0;
  std::uint64_t offset = 0;  // stream offset where the text starts
  bool resolved = false;
};

/// A pull lexer for the XML Hadoop writes, over a Source.
class XmlLexer {
 public:
  explicit XmlLexer(InStream& in) : src_(in) { src_.trackLines(); }
  Position here() const { return positionAt(0); }
  /// The position of the byte `ahead` bytes after the next unconsumed one.
  Position positionAt(std::size_t ahead) const { return positionOf(src_.offset() + ahead); }
  Position positionOf(std::uint64_t offset) const;
  [[noreturn]] void fail(std::size_t ahead, IOError::Kind kind, std::string message) const;
  [[noreturn]] void failText(const XmlText& text, std::size_t offset, IOError::Kind kind,
                             std::string message) const;
  /// Skips whitespace, comments and processing instructions (what may come between
  /// elements).
  void skipMisc();
  bool atEnd();
  /// Whether an end tag comes next; `what` names the construct, for the error at the end.
  bool atClose(const char* what);
  /// Consumes the start tag of `want` (or of `alt`); returns which, and sets `empty` when
  /// it was an empty-element tag (`<want/>`).
  Elem open(Elem want, Elem alt, bool* empty);
  void close(Elem want);
  /// Reads the content of `elem` up to and including its end tag.
  XmlText text(Elem elem);

 private:
  struct Tag {
    int kind;  // 0 open, 1 close, 2 empty
    Elem elem;
    std::size_t len;
  };
  Tag tagAt(std::size_t off);
  void skipPast(std::size_t open, const char* terminator, const char* what);
  std::size_t findFrom(std::size_t from, const char* terminator, const char* what,
                       std::size_t start);
  std::size_t entity(std::size_t at, std::uint32_t* c);
  bool ensure(std::size_t n) { return src_.request(n); }
  [[noreturn]] void eofError(const std::string& what) const;

  Source src_;
  std::string scratch_;
};
}  // namespace detail

/// Reads records in Hadoop's XML encoding. Structure is checked strictly (every value in
/// its `<value>`, struct fields in `<member><name>…</name><value>…</value></member>`, the
/// right type element for each field); every mismatch, unknown element or entity and
/// premature end is an error at line:col. It reads more than Java's XmlRecordInput: a
/// stream of several top-level records, and text containing `]]>`; also, as an XML parser
/// would, the predefined entities and character references, CDATA sections, comments and
/// processing instructions, a byte order mark, whitespace between elements, `<int>` for
/// `<i4>` and empty-element tags. Not accepted: attributes and document type declarations.
class XmlIArchive final : public IArchive {
 public:
  explicit XmlIArchive(InStream& in) : IArchive(detail::kXmlArchive), lex_(in) {}

  void readByte(std::int8_t& v, const char*) override;
  void readBool(bool& v, const char*) override;
  void readInt(std::int32_t& v, const char*) override;
  void readLong(std::int64_t& v, const char*) override;
  void readFloat(float& v, const char*) override;
  void readDouble(double& v, const char*) override;
  void readString(std::string& v, const char*) override;
  void readBuffer(std::string& v, const char*) override;
  void startRecord(const char*) override { openCompound(detail::Elem::kStruct, true); }
  void endRecord(const char*) override { closeCompound(detail::Elem::kStruct, true); }
  Index startVector(const char*) override {
    openCompound(detail::Elem::kArray, false);
    return Index::delimited();
  }
  void endVector(const char*) override { closeCompound(detail::Elem::kArray, false); }
  Index startMap(const char*) override {
    openCompound(detail::Elem::kArray, false);
    return Index::delimited();
  }
  void endMap(const char*) override { closeCompound(detail::Elem::kArray, false); }
  bool nextElement(Index& index) override;
  bool atEnd() override { return lex_.atEnd(); }
  Position position() const override { return lex_.here(); }

 private:
  struct Frame {
    bool isStruct;
    bool empty;  // written as an empty-element tag
  };
  void openValue();
  void closeValue();
  /// Opens a primitive's envelope and element and returns its text (empty for `<x/>`).
  detail::XmlText primitive(detail::Elem elem, detail::Elem alt, bool* empty);
  void integer(detail::Elem elem, detail::Elem alt, std::int64_t min, std::int64_t max,
               const char* what, std::int64_t& out);
  void openCompound(detail::Elem elem, bool isStruct);
  void closeCompound(detail::Elem elem, bool isStruct);

  detail::XmlLexer lex_;
  std::vector<Frame> stack_;
};

/// Hadoop's names for these archives (`IXmlArchive`/`OXmlArchive`), so that code written
/// against Hadoop's headers finds them.
using IXmlArchive = XmlIArchive;
using OXmlArchive = XmlOArchive;

}  // namespace hadoop

#endif  // HADOOP_RECORDIO_XML_HH
