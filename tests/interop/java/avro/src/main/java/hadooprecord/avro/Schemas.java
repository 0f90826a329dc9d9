package hadooprecord.avro;

import java.io.File;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.avro.NameValidator;
import org.apache.avro.Schema;

/**
 * Parses the .avsc files {@code rcc -l avro} wrote with Apache Avro's own {@link
 * Schema.Parser} (strict names, one parser per file) and says what it read in DDL terms, for
 * {@code tests/interop/tests/rcc.rs} to compare with the DDL.
 *
 * <p>Usage: {@code Schemas REQUEST RESPONSE}. The request lists .avsc paths, one a line. The
 * response has, for each, either {@code error PATH\tMESSAGE} or {@code file PATH} followed
 * by every DDL record the schema holds (the top one, then those its fields use, each once):
 * {@code record FULL_NAME\tDOC} and a line {@code field NAME\tDDL_TYPE\tDOC} per field. The
 * DDL type is read back from the Avro type and its {@code hadoop.type} mark as
 * {@code docs/avro.md} says ({@code map<int, ustring>}, records by full name); a mark or a
 * property anywhere else, or a key/value record of another shape, is an error. Every field
 * must have a default, Hadoop's empty value of its type (0, false, "", an empty array or map,
 * a record of its fields' empty values), as Avro reads it: another default is an error, and so
 * is none, but for a field whose record holds (by value) a record that holds itself through
 * an array or map, which rcc leaves without one where that record is still being defined. Texts are escaped: backslash, tab, line feed and carriage return as
 * {@code \\ \t \n \r}.
 */
public final class Schemas {
  private static final String MARK = "hadoop.type";

  private Schemas() {}

  public static void main(String[] args) throws IOException {
    LineRequests.serve("Schemas", args, Schemas::answer);
  }

  /** Answers the line {@code PATH} of an .avsc file. */
  private static void answer(String path, StringBuilder out) {
    try {
      Schema schema = new Schema.Parser(NameValidator.STRICT_VALIDATOR).parse(new File(path));
      StringBuilder described = new StringBuilder();
      describe(schema, described);
      out.append("file ").append(path).append('\n').append(described);
    } catch (RuntimeException | IOException e) {
      out.append("error ").append(path).append('\t').append(escape(e.toString())).append('\n');
    }
  }

  /** Every DDL record of {@code top}, each once: its name, doc and fields. */
  private static void describe(Schema top, StringBuilder out) {
    if (top.getType() != Schema.Type.RECORD) {
      throw new IllegalArgumentException("not a record: " + top);
    }
    Deque<Schema> pending = new ArrayDeque<>();
    Set<String> seen = new HashSet<>();
    pending.add(top);
    while (!pending.isEmpty()) {
      Schema record = pending.removeFirst();
      if (!seen.add(record.getFullName())) {
        continue;
      }
      noProperties(record.getObjectProps().isEmpty(), record);
      out.append("record ")
          .append(record.getFullName())
          .append('\t')
          .append(escape(record.getDoc()))
          .append('\n');
      for (Schema.Field field : record.getFields()) {
        noProperties(field.getObjectProps().isEmpty(), field);
        emptyDefault(field);
        out.append("field ")
            .append(field.name())
            .append('\t')
            .append(ddl(field.schema(), pending))
            .append('\t')
            .append(escape(field.doc()))
            .append('\n');
      }
    }
  }

  /** The DDL type {@code schema} stands for; records met are queued in {@code pending}. */
  private static String ddl(Schema schema, Deque<Schema> pending) {
    String mark = schema.getProp(MARK);
    noProperties(schema.getObjectProps().size() == (mark == null ? 0 : 1), schema);
    switch (schema.getType()) {
      case BOOLEAN:
        return unmarked(mark, schema, "boolean");
      case INT:
        return "byte".equals(mark) ? "byte" : unmarked(mark, schema, "int");
      case LONG:
        return unmarked(mark, schema, "long");
      case FLOAT:
        return unmarked(mark, schema, "float");
      case DOUBLE:
        return unmarked(mark, schema, "double");
      case STRING:
        return unmarked(mark, schema, "ustring");
      case BYTES:
        return unmarked(mark, schema, "buffer");
      case MAP:
        return unmarked(mark, schema, "map<ustring, " + ddl(schema.getValueType(), pending) + ">");
      case ARRAY:
        if ("map".equals(mark)) {
          return "map<" + entry(schema.getElementType(), pending) + ">";
        }
        return unmarked(mark, schema, "vector<" + ddl(schema.getElementType(), pending) + ">");
      case RECORD:
        pending.add(schema);
        return unmarked(mark, schema, schema.getFullName());
      default:
        throw new IllegalArgumentException("not a type rcc -l avro writes: " + schema);
    }
  }

  /** {@code K, V} of a key/value record: fields {@code key} and {@code value} and no more. */
  private static String entry(Schema record, Deque<Schema> pending) {
    List<Schema.Field> fields = record.getType() == Schema.Type.RECORD ? record.getFields() : List.of();
    if (fields.size() != 2
        || !fields.get(0).name().equals("key")
        || !fields.get(1).name().equals("value")
        || record.getDoc() != null) {
      throw new IllegalArgumentException("not a key/value record: " + record);
    }
    noProperties(record.getObjectProps().isEmpty(), record);
    for (Schema.Field field : fields) {
      noProperties(field.getObjectProps().isEmpty() && field.doc() == null, field);
      emptyDefault(field);
    }
    return ddl(fields.get(0).schema(), pending) + ", " + ddl(fields.get(1).schema(), pending);
  }

  private static String unmarked(String mark, Schema schema, String ddl) {
    if (mark != null) {
      throw new IllegalArgumentException("a " + MARK + " mark where none belongs: " + schema);
    }
    return ddl;
  }

  /** Fails unless {@code field}'s default, as Avro reads it, is the empty value of its type. */
  private static void emptyDefault(Schema.Field field) {
    if (!field.hasDefaultValue()) {
      if (holdsRecursive(field.schema())) {
        return;
      }
      throw new IllegalArgumentException("a field without a default: " + field);
    }
    Object actual = field.defaultVal();
    if (!same(actual, empty(field.schema()))) {
      throw new IllegalArgumentException(
          "a default that is not the empty value of its type: " + field + " = " + actual);
    }
  }

  /**
   * The empty value of {@code schema} in the Java types {@link Schema.Field#defaultVal} gives:
   * boxed numbers and booleans, strings, byte arrays, lists, and maps (records too).
   */
  private static Object empty(Schema schema) {
    switch (schema.getType()) {
      case BOOLEAN:
        return false;
      case INT:
        return 0;
      case LONG:
        return 0L;
      case FLOAT:
        return 0f;
      case DOUBLE:
        return 0d;
      case STRING:
        return "";
      case BYTES:
        return new byte[0];
      case ARRAY:
        return List.of();
      case MAP:
        return Map.of();
      case RECORD:
        Map<String, Object> fields = new LinkedHashMap<>();
        for (Schema.Field field : schema.getFields()) {
          fields.put(field.name(), empty(field.schema()));
        }
        return fields;
      default:
        throw new IllegalArgumentException("not a type rcc -l avro writes: " + schema);
    }
  }

  /** Whether {@code schema} is a record holding by value (itself, or its fields' records…)
   * a record that holds itself. */
  private static boolean holdsRecursive(Schema schema) {
    if (schema.getType() != Schema.Type.RECORD) {
      return false;
    }
    if (reaches(schema, schema.getFullName(), new HashSet<>())) {
      return true;
    }
    for (Schema.Field field : schema.getFields()) {
      if (holdsRecursive(field.schema())) {
        return true;
      }
    }
    return false;
  }

  /** Whether a type inside {@code schema} (through fields, items, values) is record {@code name}. */
  private static boolean reaches(Schema schema, String name, Set<String> seen) {
    List<Schema> inside = new ArrayList<>();
    switch (schema.getType()) {
      case RECORD:
        for (Schema.Field field : schema.getFields()) {
          inside.add(field.schema());
        }
        break;
      case ARRAY:
        inside.add(schema.getElementType());
        break;
      case MAP:
        inside.add(schema.getValueType());
        break;
      default:
        break;
    }
    for (Schema type : inside) {
      boolean record = type.getType() == Schema.Type.RECORD;
      if (record && type.getFullName().equals(name)) {
        return true;
      }
      if ((!record || seen.add(type.getFullName())) && reaches(type, name, seen)) {
        return true;
      }
    }
    return false;
  }

  /** Whether two default values are equal: by content for byte arrays, lists and maps. */
  private static boolean same(Object a, Object b) {
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.equals(x, y);
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!same(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      if (!x.keySet().equals(y.keySet())) {
        return false;
      }
      for (Map.Entry<?, ?> entry : x.entrySet()) {
        if (!same(entry.getValue(), y.get(entry.getKey()))) {
          return false;
        }
      }
      return true;
    }
    return a != null && a.equals(b);
  }

  private static void noProperties(boolean none, Object where) {
    if (!none) {
      throw new IllegalArgumentException("a property rcc -l avro does not write: " + where);
    }
  }

  private static String escape(String text) {
    if (text == null) {
      return "";
    }
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
  }
}
