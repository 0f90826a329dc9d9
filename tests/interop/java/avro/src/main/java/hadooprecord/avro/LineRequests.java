package hadooprecord.avro;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The protocol of the line drivers ({@link Schemas}, {@link Compatibility}): {@code NAME
 * REQUEST RESPONSE}, where the request has a line per question (empty lines are skipped) and
 * the response the answers, in order.
 */
final class LineRequests {
  private LineRequests() {}

  /** Answers one request line, appending to the response. */
  interface Answerer {
    void answer(String line, StringBuilder out) throws IOException;
  }

  /** Answers each line of the request {@code args[0]} into the response {@code args[1]}. */
  static void serve(String name, String[] args, Answerer answerer) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: " + name + " REQUEST RESPONSE");
      System.exit(2);
    }
    StringBuilder out = new StringBuilder();
    for (String line : Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8)) {
      if (!line.isEmpty()) {
        answerer.answer(line, out);
      }
    }
    Files.writeString(Path.of(args[1]), out, StandardCharsets.UTF_8);
  }
}
