package hadooprecord.hdfs;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.compress.DefaultCodec;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * A MiniDFSCluster (one NameNode, two DataNodes, 1 MiB blocks, replication 2) on loopback
 * ports, driven over standard input one command a line; each answer is one line on standard
 * output ({@code ok ...} or {@code error ...}). Hadoop's own log goes to standard error.
 * Arguments: the cluster's directory, and optionally its default block size in bytes (the
 * {@code dfs.blocksize} of files whose writer does not choose one) instead of 1 MiB.
 *
 * <pre>
 * (start)                      ready hdfs://127.0.0.1:PORT
 * seqwrite PATH COUNT CODEC    writes COUNT Hits (url "u" + i % 97, n = i) with LongWritable
 *                              keys i through SequenceFile.Writer; CODEC none, record or
 *                              block (DefaultCodec); ok BYTES BLOCKS
 * seqread PATH                 reads a SequenceFile whose values are Hits with
 *                              SequenceFile.Reader: ok RECORDS SUM_N URL_COUNTS
 *                              (URL_COUNTS: url=count,... in url order)
 * put LOCAL PATH [BLOCKSIZE]   copies a local file in (in blocks of BLOCKSIZE bytes, a
 *                              multiple of 512; default the cluster's); ok BLOCKS
 * get PATH LOCAL               copies a file out; ok
 * list DIR                     ok NAME:SIZE ... (every file below DIR, hidden ones too)
 * stopdn I                     stops DataNode I (0 or 1); ok
 * restartdn                    restarts the DataNode stopped last and waits for it; ok
 * quit                         shuts the cluster down
 * </pre>
 */
public final class Driver {
    private static MiniDFSCluster.DataNodeProperties stopped;

    public static void main(String[] args) throws Exception {
        File base = new File(args[0]);
        Configuration conf = new Configuration();
        conf.setLong("dfs.blocksize", args.length > 1 ? Long.parseLong(args[1]) : 1 << 20);
        conf.setInt("dfs.replication", 2);
        conf.setInt("dfs.heartbeat.interval", 1);
        // Clients (ours) must be able to reach the DataNodes by the address they register.
        conf.set("dfs.datanode.hostname", "127.0.0.1");
        MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, base)
                .numDataNodes(2)
                .nameNodePort(0)
                .build();
        cluster.waitActive();
        FileSystem fs = cluster.getFileSystem();
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        out.println("ready hdfs://127.0.0.1:" + cluster.getNameNodePort());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split(" ");
            try {
                switch (words[0]) {
                    case "seqwrite" -> out.println("ok " + seqWrite(fs, conf, new Path(words[1]),
                            Long.parseLong(words[2]), words[3]));
                    case "seqread" -> out.println("ok " + seqRead(fs, conf, new Path(words[1])));
                    case "put" -> {
                        Path to = new Path(words[2]);
                        if (words.length > 3) {
                            put(fs, new File(words[1]), to, Long.parseLong(words[3]));
                        } else {
                            fs.copyFromLocalFile(new Path(new File(words[1]).toURI()), to);
                        }
                        out.println("ok " + blocks(fs, to));
                    }
                    case "get" -> {
                        // The raw local file system: no .crc files beside the copy.
                        fs.copyToLocalFile(false, new Path(words[1]), new Path(new File(words[2]).toURI()), true);
                        out.println("ok");
                    }
                    case "list" -> out.println("ok" + list(fs, new Path(words[1])));
                    case "stopdn" -> {
                        stopped = cluster.stopDataNode(Integer.parseInt(words[1]));
                        out.println("ok");
                    }
                    case "restartdn" -> {
                        cluster.restartDataNode(stopped, true);
                        cluster.waitActive();
                        out.println("ok");
                    }
                    case "quit" -> {
                        cluster.shutdown(true);
                        out.println("ok");
                        System.exit(0);
                    }
                    default -> out.println("error unknown command " + words[0]);
                }
            } catch (Exception e) {
                out.println("error " + e.toString().replace('\n', ' '));
            }
        }
        // Standard input closed: the test binary is gone. Delete the cluster's files too.
        cluster.shutdown(true);
        System.exit(0);
    }

    static String seqWrite(FileSystem fs, Configuration conf, Path path, long count, String codec)
            throws Exception {
        SequenceFile.CompressionType type = switch (codec) {
            case "none" -> SequenceFile.CompressionType.NONE;
            case "record" -> SequenceFile.CompressionType.RECORD;
            case "block" -> SequenceFile.CompressionType.BLOCK;
            default -> throw new IllegalArgumentException("codec " + codec);
        };
        try (SequenceFile.Writer writer = SequenceFile.createWriter(conf,
                SequenceFile.Writer.file(fs.makeQualified(path)),
                SequenceFile.Writer.keyClass(LongWritable.class),
                SequenceFile.Writer.valueClass(Hit.class),
                SequenceFile.Writer.compression(type, new DefaultCodec()))) {
            LongWritable key = new LongWritable();
            Hit hit = new Hit();
            for (long i = 0; i < count; i++) {
                key.set(i);
                hit.url = "u" + (i % 97);
                hit.n = i;
                writer.append(key, hit);
            }
        }
        return fs.getFileStatus(path).getLen() + " " + blocks(fs, path);
    }

    static String seqRead(FileSystem fs, Configuration conf, Path path) throws Exception {
        long records = 0;
        long sum = 0;
        Map<String, Long> counts = new TreeMap<>();
        try (SequenceFile.Reader reader = new SequenceFile.Reader(conf,
                SequenceFile.Reader.file(fs.makeQualified(path)))) {
            Writable key = (Writable) ReflectionUtils.newInstance(reader.getKeyClass(), conf);
            Hit hit = new Hit();
            while (reader.next(key, hit)) {
                records++;
                sum += hit.n;
                counts.merge(hit.url, 1L, Long::sum);
            }
        }
        StringBuilder text = new StringBuilder();
        counts.forEach((url, n) -> text.append(text.length() == 0 ? "" : ",").append(url).append('=').append(n));
        return records + " " + sum + " " + text;
    }

    /** Copies {@code from} to {@code to} with the file's own block size, as {@code hdfs dfs
     * -D dfs.blocksize=N -put} does. */
    static void put(FileSystem fs, File from, Path to, long blockSize) throws Exception {
        short replication = fs.getDefaultReplication(to);
        try (InputStream in = new FileInputStream(from);
             FSDataOutputStream out = fs.create(to, true, 1 << 16, replication, blockSize)) {
            IOUtils.copyBytes(in, out, 1 << 16);
        }
    }

    static int blocks(FileSystem fs, Path path) throws Exception {
        FileStatus status = fs.getFileStatus(path);
        return fs.getFileBlockLocations(status, 0, status.getLen()).length;
    }

    static String list(FileSystem fs, Path dir) throws Exception {
        StringBuilder text = new StringBuilder();
        var files = fs.listFiles(dir, true);
        while (files.hasNext()) {
            var file = files.next();
            text.append(' ').append(file.getPath().toUri().getPath()).append(':').append(file.getLen());
        }
        return text.toString();
    }
}
