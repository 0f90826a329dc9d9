package hadooprecord.avro;

import java.io.File;
import java.io.IOException;
import java.util.TreeSet;

import org.apache.avro.NameValidator;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;

/**
 * Asks Apache Avro's {@link SchemaCompatibility} whether a reader's schema reads data written
 * with a writer's, for {@code tests/interop/tests/rcc.rs} to compare with {@code rcc}'s
 * {@code backend::avro::resolution}.
 *
 * <p>Usage: {@code Compatibility REQUEST RESPONSE}. The request has a line {@code
 * WRITER.avsc\tREADER.avsc} per pair. The response has a line per pair, in order: {@code
 * compatible}, {@code incompatible\tKIND,KIND…} (the kinds of the incompatibilities Avro
 * found, sorted, each once: {@code NAME_MISMATCH}, {@code TYPE_MISMATCH}, {@code
 * READER_FIELD_MISSING_DEFAULT_VALUE}, …), or {@code error\tMESSAGE} when a schema does not
 * parse.
 */
public final class Compatibility {
  private Compatibility() {}

  public static void main(String[] args) throws IOException {
    LineRequests.serve("Compatibility", args, Compatibility::answer);
  }

  /** Answers the line {@code WRITER.avsc\tREADER.avsc}. */
  private static void answer(String pair, StringBuilder out) {
    String[] paths = pair.split("\t", 2);
    try {
      Schema writer = parse(paths[0]);
      Schema reader = parse(paths[1]);
      SchemaPairCompatibility result =
          SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
      if (result.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
        out.append("compatible\n");
      } else {
        TreeSet<String> kinds = new TreeSet<>();
        for (Incompatibility i : result.getResult().getIncompatibilities()) {
          kinds.add(i.getType().name());
        }
        out.append("incompatible\t").append(String.join(",", kinds)).append('\n');
      }
    } catch (RuntimeException | IOException e) {
      out.append("error\t").append(e.toString().replace('\n', ' ')).append('\n');
    }
  }

  private static Schema parse(String path) throws IOException {
    return new Schema.Parser(NameValidator.STRICT_VALIDATOR).parse(new File(path));
  }
}
