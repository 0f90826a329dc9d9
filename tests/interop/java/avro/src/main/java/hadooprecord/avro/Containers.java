package hadooprecord.avro;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads Avro container files with Apache Avro's {@link DataFileReader} and {@link
 * GenericDatumReader}, and writes what it read again with {@link DataFileWriter}, for {@code
 * avro/tests/avro.rs} to check the files {@code hadoop-record-avro} writes and reads.
 *
 * <p>Usage: {@code Containers SOURCE TARGET CODEC...}: reads SOURCE; writes its records, under
 * the schema SOURCE holds, to {@code TARGET.CODEC} for each CODEC (Avro's names: {@code null
 * deflate snappy zstandard bzip2 xz}); prints, one a line: {@code codec NAME} (SOURCE's),
 * {@code schema JSON} (the schema as Java parsed it, with its properties), then {@code record
 * JSON} for each record, in Avro's JSON form as {@link GenericData#toString} gives it except
 * that bytes are lowercase hex and map entries keep the order of the file.
 */
public final class Containers {
  private Containers() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: Containers SOURCE TARGET CODEC...");
      System.exit(2);
    }
    List<GenericRecord> records = new ArrayList<>();
    StringBuilder out = new StringBuilder();
    Schema schema;
    try (DataFileReader<GenericRecord> reader =
        new DataFileReader<>(new File(args[0]), new GenericDatumReader<>())) {
      schema = reader.getSchema();
      out.append("codec ").append(reader.getMetaString("avro.codec")).append('\n');
      out.append("schema ").append(schema.toString()).append('\n');
      for (GenericRecord record : reader) {
        records.add(record);
        StringBuilder json = new StringBuilder();
        write(record, json);
        out.append("record ").append(json).append('\n');
      }
    }
    for (int i = 2; i < args.length; i++) {
      try (DataFileWriter<GenericRecord> writer =
          new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(schema))) {
        writer.setCodec(CodecFactory.fromString(args[i]));
        writer.create(schema, new File(args[1] + "." + args[i]));
        for (GenericRecord record : records) {
          writer.append(record);
        }
      }
    }
    System.out.write(out.toString().getBytes(StandardCharsets.UTF_8));
    System.out.flush();
  }

  /** {@code value} as JSON: records as objects, bytes as hex, floats as Java prints them. */
  private static void write(Object value, StringBuilder out) {
    if (value instanceof GenericRecord record) {
      out.append('{');
      List<Schema.Field> fields = record.getSchema().getFields();
      for (int i = 0; i < fields.size(); i++) {
        if (i > 0) {
          out.append(", ");
        }
        string(fields.get(i).name(), out);
        out.append(": ");
        write(record.get(i), out);
      }
      out.append('}');
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!first) {
          out.append(", ");
        }
        first = false;
        string(e.getKey().toString(), out);
        out.append(": ");
        write(e.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(", ");
        }
        write(list.get(i), out);
      }
      out.append(']');
    } else if (value instanceof ByteBuffer bytes) {
      StringBuilder hex = new StringBuilder();
      ByteBuffer b = bytes.duplicate();
      while (b.hasRemaining()) {
        hex.append(String.format("%02x", b.get() & 0xff));
      }
      string(hex.toString(), out);
    } else if (value instanceof CharSequence text) {
      string(text.toString(), out);
    } else if (value instanceof Float || value instanceof Double) {
      double d = ((Number) value).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        string(value.toString(), out);
      } else {
        out.append(value);
      }
    } else {
      out.append(value);
    }
  }

  /** {@code text} as a JSON string, every character outside printable ASCII escaped. */
  private static void string(String text, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || c > 0x7e) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    out.append('"');
  }
}
