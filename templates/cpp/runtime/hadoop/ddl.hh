// Hadoop Record I/O for C++: the DDL types, each as a class that says how its C++ values
// are written, read, compared and checked. Generated code names a field's DDL type with
// them (`ddl::Map<ddl::UString, ddl::Vector<ddl::Int>>`) and calls their static functions.
//
// Part of the runtime that `rcc -l c++` writes next to the generated code (see
// docs/cpp.md). Do not edit: rcc rewrites it when it differs.

#ifndef HADOOP_RECORDIO_DDL_HH
#define HADOOP_RECORDIO_DDL_HH

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "hadoop/archive.hh"
#include "hadoop/error.hh"
#include "hadoop/utf8.hh"

namespace hadoop {

namespace ddl {
template <class K>
struct KeyOrder;
}  // namespace ddl

/// Orders map keys as Java's TreeMap does (the key type's `compareTo`, `Float.compare` for
/// floats, UTF-16 order for strings): the comparator of generated maps whose keys need one.
template <class K>
struct KeyLess {
  bool operator()(const typename K::type& a, const typename K::type& b) const {
    return K::keyCompare(a, b) < 0;
  }
};

namespace ddl {

/// Hadoop's generated `compareTo` for numbers: `(a == b) ? 0 : ((a < b) ? -1 : 1)`, so
/// -0.0 equals 0.0 and NaN compares greater than everything, itself included.
template <class T>
inline int compareNumbers(T a, T b) {
  return a == b ? 0 : (a < b ? -1 : 1);
}

/// Java's `Float.compare`/`Double.compare` (the order of boxed keys in a TreeMap): -0.0 is
/// below 0.0, NaN equals itself and is above infinity.
template <class T, class Bits>
inline int javaTotalCompare(T a, T b) {
  if (a < b) return -1;
  if (a > b) return 1;
  Bits x, y;
  std::memcpy(&x, &a, sizeof a);
  std::memcpy(&y, &b, sizeof b);
  using Signed = typename std::make_signed<Bits>::type;
  const Bits nan = sizeof(Bits) == 4 ? Bits(0x7fc00000u) : Bits(0x7ff8000000000000ULL);
  if (a != a) x = nan;
  if (b != b) y = nan;
  const Signed sx = static_cast<Signed>(x), sy = static_cast<Signed>(y);
  return sx == sy ? 0 : (sx < sy ? -1 : 1);
}

/// What the scalar types share. `equals` is Java's `==` on the field; `boxedEquals` is the
/// boxed type's `equals`, which Java's collections use.
template <class T>
struct Scalar {
  using type = T;
  static int compare(T a, T b) { return compareNumbers(a, b); }
  static int keyCompare(T a, T b) { return compareNumbers(a, b); }
  static bool equals(T a, T b) { return a == b; }
  static bool boxedEquals(T a, T b) { return a == b; }
  static bool valid(T) { return true; }
};

/// `byte`: std::int8_t.
struct Byte : Scalar<std::int8_t> {
  template <class A> static void write(A& a, std::int8_t v, const char* tag) { a.writeByte(v, tag); }
  template <class A> static void read(A& a, std::int8_t& v, const char* tag) { a.readByte(v, tag); }
};
/// `boolean`: bool (false before true).
struct Bool : Scalar<bool> {
  template <class A> static void write(A& a, bool v, const char* tag) { a.writeBool(v, tag); }
  template <class A> static void read(A& a, bool& v, const char* tag) { a.readBool(v, tag); }
};
/// `int`: std::int32_t.
struct Int : Scalar<std::int32_t> {
  template <class A> static void write(A& a, std::int32_t v, const char* tag) { a.writeInt(v, tag); }
  template <class A> static void read(A& a, std::int32_t& v, const char* tag) { a.readInt(v, tag); }
};
/// `long`: std::int64_t.
struct Long : Scalar<std::int64_t> {
  template <class A> static void write(A& a, std::int64_t v, const char* tag) { a.writeLong(v, tag); }
  template <class A> static void read(A& a, std::int64_t& v, const char* tag) { a.readLong(v, tag); }
};
/// `float`: keys in `Float.compare` order; inside containers NaN equals NaN and -0.0
/// differs from 0.0 (`Float.equals`).
struct Float : Scalar<float> {
  template <class A> static void write(A& a, float v, const char* tag) { a.writeFloat(v, tag); }
  template <class A> static void read(A& a, float& v, const char* tag) { a.readFloat(v, tag); }
  static int keyCompare(float a, float b) { return javaTotalCompare<float, std::uint32_t>(a, b); }
  static bool boxedEquals(float a, float b) { return keyCompare(a, b) == 0; }
};
/// `double`: as `float`.
struct Double : Scalar<double> {
  template <class A> static void write(A& a, double v, const char* tag) { a.writeDouble(v, tag); }
  template <class A> static void read(A& a, double& v, const char* tag) { a.readDouble(v, tag); }
  static int keyCompare(double a, double b) { return javaTotalCompare<double, std::uint64_t>(a, b); }
  static bool boxedEquals(double a, double b) { return keyCompare(a, b) == 0; }
};

/// `ustring`: UTF-8 text in a std::string, ordered as Java's `String.compareTo`.
struct UString {
  using type = std::string;
  template <class A> static void write(A& a, const std::string& v, const char* tag) { a.writeString(v, tag); }
  template <class A> static void read(A& a, std::string& v, const char* tag) { a.readString(v, tag); }
  static int compare(const std::string& a, const std::string& b) { return utf8::compareUtf16(a, b); }
  static int keyCompare(const std::string& a, const std::string& b) { return compare(a, b); }
  static bool equals(const std::string& a, const std::string& b) { return a == b; }
  static bool boxedEquals(const std::string& a, const std::string& b) { return a == b; }
  static bool valid(const std::string& v) {
    std::uint32_t c;
    return v.size() <= 0x7fffffffu && utf8::validPrefix(v.data(), v.size()) == v.size() &&
           utf8::findNonchar(v.data(), v.size(), &c) == v.size();
  }
};

/// `buffer`: any bytes in a std::string, ordered unsigned-lexicographically.
struct Buffer {
  using type = std::string;
  template <class A> static void write(A& a, const std::string& v, const char* tag) { a.writeBuffer(v, tag); }
  template <class A> static void read(A& a, std::string& v, const char* tag) { a.readBuffer(v, tag); }
  static int compare(const std::string& a, const std::string& b) {
    const int c = a.compare(b);
    return c == 0 ? 0 : (c < 0 ? -1 : 1);
  }
  static int keyCompare(const std::string& a, const std::string& b) { return compare(a, b); }
  static bool equals(const std::string& a, const std::string& b) { return a == b; }
  static bool boxedEquals(const std::string& a, const std::string& b) { return a == b; }
  static bool valid(const std::string& v) { return v.size() <= 0x7fffffffu; }
};

/// `vector<T>`: std::vector, compared element by element, then by length.
template <class T>
struct Vector {
  using type = std::vector<typename T::type>;

  template <class A>
  static void write(A& a, const type& v, const char* tag) {
    a.startVector(v.size(), tag);
    for (std::size_t i = 0; i < v.size(); ++i) {
      try {
        T::write(a, v[i], tag);
      } catch (IOError& e) {
        e.inIndex(i);
        throw;
      }
    }
    a.endVector(tag);
  }

  template <class A>
  static void read(A& a, type& v, const char* tag) {
    Index index = a.startVector(tag);
    v.clear();
    v.reserve(index.sizeHint());
    std::uint64_t i = 0;
    while (a.nextElement(index)) {
      try {
        if constexpr (std::is_same<typename T::type, bool>::value) {
          bool b = false;
          T::read(a, b, tag);
          v.push_back(b);
        } else {
          v.emplace_back();
          T::read(a, v.back(), tag);
        }
      } catch (IOError& e) {
        e.inIndex(i);
        throw;
      }
      ++i;
    }
    a.endVector(tag);
  }

  static int compare(const type& a, const type& b) { return lexicographic(a, b, false); }
  static int keyCompare(const type& a, const type& b) { return lexicographic(a, b, true); }
  static bool equals(const type& a, const type& b) { return boxedEquals(a, b); }
  /// Java's `ArrayList.equals`: the elements' `equals`.
  static bool boxedEquals(const type& a, const type& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!T::boxedEquals(a[i], b[i])) return false;
    }
    return true;
  }
  static bool valid(const type& v) {
    if (v.size() > 0x7fffffffu) return false;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!T::valid(v[i])) return false;
    }
    return true;
  }

 private:
  static int lexicographic(const type& a, const type& b, bool key) {
    const std::size_t n = a.size() < b.size() ? a.size() : b.size();
    for (std::size_t i = 0; i < n; ++i) {
      const int c = key ? T::keyCompare(a[i], b[i]) : T::compare(a[i], b[i]);
      if (c != 0) return c;
    }
    return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
  }
};

/// The comparator of a map with keys of type K: std::less where its order is Java's
/// (byte, boolean, int, long, buffer, records), KeyLess<K> otherwise.
template <class K>
struct KeyOrder {
  using type = std::less<typename K::type>;
};
template <>
struct KeyOrder<UString> {
  using type = KeyLess<UString>;
};
template <>
struct KeyOrder<Float> {
  using type = KeyLess<Float>;
};
template <>
struct KeyOrder<Double> {
  using type = KeyLess<Double>;
};
template <class T>
struct KeyOrder<Vector<T>> {
  using type = KeyLess<Vector<T>>;
};
template <class K, class V>
struct Map;
template <class K, class V>
struct KeyOrder<Map<K, V>> {
  using type = KeyLess<Map<K, V>>;
};

namespace detail {
/// Sorts `items` stably by `less` without ever misbehaving, whatever `less` answers (Java's
/// compareTo is no total order once NaN is involved): a plain merge sort.
template <class T, class Less>
void mergeSort(std::vector<T>& items, Less less) {
  std::vector<T> scratch(items.size());
  for (std::size_t width = 1; width < items.size(); width *= 2) {
    for (std::size_t lo = 0; lo < items.size(); lo += 2 * width) {
      const std::size_t mid = lo + width < items.size() ? lo + width : items.size();
      const std::size_t hi = lo + 2 * width < items.size() ? lo + 2 * width : items.size();
      std::size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) scratch[k++] = less(items[j], items[i]) ? items[j++] : items[i++];
      while (i < mid) scratch[k++] = items[i++];
      while (j < hi) scratch[k++] = items[j++];
    }
    items.swap(scratch);
  }
}
}  // namespace detail

/// `map<K, V>`: std::map, written in Java's TreeMap order; compared by keys only (both in
/// ascending order), then by size, as Hadoop's generated `compareTo` does.
template <class K, class V>
struct Map {
  using type = std::map<typename K::type, typename V::type, typename KeyOrder<K>::type>;
  using Entry = typename type::value_type;

  template <class A>
  static void write(A& a, const type& m, const char* tag) {
    a.startMap(m.size(), tag);
    std::uint64_t i = 0;
    if (inJavaOrder(m)) {
      for (const Entry& e : m) entry(a, e, tag, i++);
    } else {
      for (const Entry* e : javaOrdered(m)) entry(a, *e, tag, i++);
    }
    a.endMap(tag);
  }

  template <class A>
  static void read(A& a, type& m, const char* tag) {
    Index index = a.startMap(tag);
    m.clear();
    std::uint64_t i = 0;
    while (a.nextElement(index)) {
      try {
        typename K::type k{};
        typename V::type v{};
        K::read(a, k, tag);
        V::read(a, v, tag);
        // Java's TreeMap.put: a repeated key replaces the earlier value.
        m.insert_or_assign(std::move(k), std::move(v));
      } catch (IOError& e) {
        e.inIndex(i);
        throw;
      }
      ++i;
    }
    a.endMap(tag);
  }

  static int compare(const type& a, const type& b) {
    const bool inOrder = inJavaOrder(a) && inJavaOrder(b);
    if (inOrder) {
      auto x = a.begin();
      auto y = b.begin();
      for (; x != a.end() && y != b.end(); ++x, ++y) {
        const int c = K::compare(x->first, y->first);
        if (c != 0) return c;
      }
    } else {
      const std::vector<const Entry*> x = javaOrdered(a), y = javaOrdered(b);
      for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
        const int c = K::compare(x[i]->first, y[i]->first);
        if (c != 0) return c;
      }
    }
    return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
  }
  static int keyCompare(const type& a, const type& b) { return compare(a, b); }
  static bool equals(const type& a, const type& b) { return boxedEquals(a, b); }
  /// Java's `AbstractMap.equals`: the same keys (by the key order) with `equals` values.
  static bool boxedEquals(const type& a, const type& b) {
    if (a.size() != b.size()) return false;
    auto y = b.begin();
    for (auto x = a.begin(); x != a.end(); ++x, ++y) {
      if (K::keyCompare(x->first, y->first) != 0 || !V::boxedEquals(x->second, y->second)) {
        return false;
      }
    }
    return true;
  }
  static bool valid(const type& m) {
    if (m.size() > 0x7fffffffu) return false;
    for (const Entry& e : m) {
      if (!K::valid(e.first) || !V::valid(e.second)) return false;
    }
    return true;
  }

 private:
  template <class A>
  static void entry(A& a, const Entry& e, const char* tag, std::uint64_t i) {
    try {
      K::write(a, e.first, tag);
      V::write(a, e.second, tag);
    } catch (IOError& err) {
      err.inIndex(i);
      throw;
    }
  }
  /// Whether iteration order is Java's key order (always, unless a record key holds NaN).
  static bool inJavaOrder(const type& m) {
    const typename K::type* previous = nullptr;
    for (const Entry& e : m) {
      if (previous != nullptr && K::keyCompare(*previous, e.first) >= 0) return false;
      previous = &e.first;
    }
    return true;
  }
  static std::vector<const Entry*> javaOrdered(const type& m) {
    std::vector<const Entry*> entries;
    entries.reserve(m.size());
    for (const Entry& e : m) entries.push_back(&e);
    detail::mergeSort(entries, [](const Entry* x, const Entry* y) {
      return K::keyCompare(x->first, y->first) < 0;
    });
    return entries;
  }
};

/// A record type R (a class generated by rcc): its own serialization and `compareTo`.
template <class R>
struct Rec {
  using type = R;
  template <class A> static void write(A& a, const R& v, const char* tag) { v.hadoopSerialize(a, tag); }
  template <class A> static void read(A& a, R& v, const char* tag) { v.hadoopDeserialize(a, tag); }
  static int compare(const R& a, const R& b) { return a.compareTo(b); }
  static int keyCompare(const R& a, const R& b) { return a.compareTo(b); }
  static bool equals(const R& a, const R& b) { return a == b; }
  static bool boxedEquals(const R& a, const R& b) { return a == b; }
  static bool valid(const R& v) { return v.validate(); }
};

/// Writes field `tag` of DDL type D; an error gets the field name in its path.
template <class D, class A, class T>
inline void writeField(A& a, const T& v, const char* tag) {
  try {
    D::write(a, v, tag);
  } catch (IOError& e) {
    e.inField(tag);
    throw;
  }
}

/// Reads field `tag` of DDL type D; an error gets the field name in its path.
template <class D, class A, class T>
inline void readField(A& a, T& v, const char* tag) {
  try {
    D::read(a, v, tag);
  } catch (IOError& e) {
    e.inField(tag);
    throw;
  }
}

}  // namespace ddl
}  // namespace hadoop

#endif  // HADOOP_RECORDIO_DDL_HH
