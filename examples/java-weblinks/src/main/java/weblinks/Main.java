package weblinks;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.record.BinaryRecordInput;
import org.apache.hadoop.record.BinaryRecordOutput;

import links.Link;
import outlinks.OutLinks;

/**
 * Reads the OutLinks records the Rust weblinks example writes, adds a page, writes all pages
 * back in Hadoop's binary encoding (for the Rust example to read), and round-trips them through
 * a Hadoop SequenceFile (Text keys, OutLinks values) written and read by Hadoop itself.
 *
 * <p>Usage: {@code Main IN.bin OUT.bin OUT.seq}
 */
@SuppressWarnings("deprecation") // Hadoop deprecated its record API as a whole
public final class Main {
  private Main() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      System.err.println("usage: Main IN.bin OUT.bin OUT.seq");
      System.exit(2);
    }
    List<OutLinks> pages = read(new File(args[0]));
    for (OutLinks page : pages) {
      System.out.println("read " + describe(page));
    }

    ArrayList<Link> links = new ArrayList<>();
    links.add(new Link("https://hadoop.apache.org/", false, "Hadoop"));
    links.add(new Link("/docs/record.html", true, "Record I/O"));
    TreeMap<String, Long> fetched = new TreeMap<>();
    fetched.put("hadoop.apache.org", 1700000000000L);
    OutLinks added = new OutLinks("https://example.org/from-java", links, fetched);
    pages.add(added);
    System.out.println("added " + describe(added));

    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(new FileOutputStream(args[1])))) {
      BinaryRecordOutput archive = new BinaryRecordOutput((java.io.DataOutput) out);
      for (OutLinks page : pages) {
        page.serialize(archive, "");
      }
    }
    System.out.println("wrote " + pages.size() + " pages to " + args[1]);

    // Generated records are Writables: a SequenceFile holds them as Hadoop jobs do.
    Configuration conf = new Configuration();
    Path seq = new Path(new File(args[2]).getAbsoluteFile().toURI());
    try (SequenceFile.Writer writer =
        SequenceFile.createWriter(
            conf,
            SequenceFile.Writer.file(seq),
            SequenceFile.Writer.keyClass(Text.class),
            SequenceFile.Writer.valueClass(OutLinks.class))) {
      for (OutLinks page : pages) {
        writer.append(new Text(page.getBaseURL()), page);
      }
    }
    int same = 0;
    try (SequenceFile.Reader reader =
        new SequenceFile.Reader(conf, SequenceFile.Reader.file(seq))) {
      Text key = new Text();
      OutLinks value = new OutLinks();
      while (reader.next(key, value)) {
        OutLinks expected = pages.get(same);
        if (!key.toString().equals(expected.getBaseURL()) || !value.equals(expected)) {
          throw new IOException("SequenceFile record " + same + " differs: " + describe(value));
        }
        same++;
      }
    }
    if (same != pages.size()) {
      throw new IOException("SequenceFile holds " + same + " of " + pages.size() + " pages");
    }
    System.out.println("SequenceFile " + args[2] + ": " + same + " pages read back equal");
  }

  /** Every OutLinks record of a file in Hadoop's binary encoding, back to back. */
  private static List<OutLinks> read(File file) throws IOException {
    List<OutLinks> pages = new ArrayList<>();
    try (DataInputStream in =
        new DataInputStream(new BufferedInputStream(new FileInputStream(file)))) {
      BinaryRecordInput archive = new BinaryRecordInput((java.io.DataInput) in);
      while (in.available() > 0) {
        OutLinks page = new OutLinks();
        page.deserialize(archive, "");
        pages.add(page);
      }
    }
    return pages;
  }

  private static String describe(OutLinks page) {
    return page.getBaseURL()
        + " (" + page.getOutLinks().size() + " links, "
        + page.getLastFetched().size() + " hosts fetched)";
  }
}
