package hadooprecord.avro;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

/**
 * Java Avro's side of {@code avro/benches/vs_java.rs}: times {@link DataFileWriter} and {@link
 * DataFileReader} with {@link GenericRecord}s, in one JVM over several rounds (the first ones
 * warm the JIT; the bench keeps the fastest).
 *
 * <p>Usage: {@code Bench SOURCE DIR ROUNDS SYNC_INTERVAL CODEC...}. SOURCE's records are read
 * once, untimed, into memory as {@link GenericRecord}s (strings as Avro's {@code Utf8}, as
 * {@link GenericDatumReader} makes them). Each round, for each CODEC (Avro's names): writes
 * them all under SOURCE's schema to {@code DIR/java.CODEC.avro} (blocks of SYNC_INTERVAL
 * bytes), then reads that file back with one reused record, counting the records. A
 * collection runs before each timed step, so that garbage of the step before is not counted.
 * Prints one line per step: {@code write CODEC ROUND WALL_NS THREAD_NS PROCESS_NS RECORDS
 * BYTES} and {@code read CODEC ROUND WALL_NS THREAD_NS PROCESS_NS RECORDS BYTES}: wall time,
 * this thread's CPU time, and the process's CPU time (every thread's: the JIT compilers' and
 * the collector's too).
 */
public final class Bench {
  private Bench() {}

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  /** Wall, thread CPU and process CPU nanoseconds at one instant. */
  private record Clocks(long wall, long thread, long process) {
    static Clocks now() {
      return new Clocks(System.nanoTime(), THREADS.getCurrentThreadCpuTime(), OS.getProcessCpuTime());
    }

    String since(Clocks start) {
      return (wall - start.wall) + " " + (thread - start.thread) + " " + (process - start.process);
    }
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 5) {
      System.err.println("usage: Bench SOURCE DIR ROUNDS SYNC_INTERVAL CODEC...");
      System.exit(2);
    }
    File source = new File(args[0]);
    File dir = new File(args[1]);
    int rounds = Integer.parseInt(args[2]);
    int syncInterval = Integer.parseInt(args[3]);
    List<GenericRecord> records = new ArrayList<>();
    Schema schema;
    try (DataFileReader<GenericRecord> reader =
        new DataFileReader<>(source, new GenericDatumReader<>())) {
      schema = reader.getSchema();
      for (GenericRecord record : reader) {
        records.add(record);
      }
    }
    for (int round = 0; round < rounds; round++) {
      for (int i = 4; i < args.length; i++) {
        String codec = args[i];
        File file = new File(dir, "java." + codec + ".avro");

        System.gc();
        Clocks start = Clocks.now();
        try (DataFileWriter<GenericRecord> writer =
            new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(schema))) {
          writer.setCodec(CodecFactory.fromString(codec));
          writer.setSyncInterval(syncInterval);
          writer.create(schema, file);
          for (GenericRecord record : records) {
            writer.append(record);
          }
        }
        String took = Clocks.now().since(start);
        System.out.println(
            "write " + codec + " " + round + " " + took + " " + records.size() + " " + file.length());

        System.gc();
        start = Clocks.now();
        long count = 0;
        try (DataFileReader<GenericRecord> reader =
            new DataFileReader<>(file, new GenericDatumReader<>(schema))) {
          GenericRecord reuse = null;
          while (reader.hasNext()) {
            reuse = reader.next(reuse);
            count++;
          }
        }
        took = Clocks.now().since(start);
        System.out.println("read " + codec + " " + round + " " + took + " " + count + " " + file.length());
        System.out.flush();
      }
    }
  }
}
