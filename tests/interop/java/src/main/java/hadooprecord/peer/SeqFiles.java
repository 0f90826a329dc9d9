package hadooprecord.peer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.SplittableRandom;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * SequenceFiles written and read by Hadoop's own {@code SequenceFile.Writer} and
 * {@code SequenceFile.Reader}, in memory (an {@code FSDataOutputStream} over a byte array, an
 * {@code FSDataInputStream} over a seekable byte array), for the driver's operations 9 and 10
 * (see {@link Driver}), and the generator of {@code tests/fixtures/seqfile}.
 *
 * <ul>
 *   <li>9 SEQ_WRITE(key class, value class, byte compression 0 none / 1 record / 2 block, codec
 *       class or "", int sync interval (-1: Hadoop's default; only Hadoop 3 can set it), int
 *       block size (-1: the default), int metadata pairs and that many (blob key, blob value),
 *       int count, blob keys, blob values): {@code count} keys and values, each read with its
 *       class's {@code readFields} from the concatenated bytes, appended; the file as a
 *       result.
 *   <li>10 SEQ_READ(blob file, long start, long end): with start -1 the whole file with
 *       {@code next(key, value)}; otherwise the records of the split [start, end) as
 *       {@code SequenceFileRecordReader} reads them (sync(start) if past the header; stop at a
 *       record read from at or past end right after a sync entry). Answer byte 0, key class,
 *       value class, codec class ("" uncompressed), bool compressed, bool block, int metadata
 *       pairs (blob, blob), int count, then per record blob key and blob value (their
 *       {@code write} bytes); or byte 1 and the error.
 * </ul>
 */
final class SeqFiles {
    private SeqFiles() {}

    static Configuration conf(int blockSize) {
        Configuration conf = new Configuration(false);
        // Writables only: the default list names Avro's serializations, whose jars the peer lacks.
        conf.set("io.serializations", "org.apache.hadoop.io.serializer.WritableSerialization");
        if (blockSize > 0) {
            conf.setInt("io.seqfile.compress.blocksize", blockSize);
        }
        return conf;
    }

    static void write(DataInputStream in, DataOutputStream out) throws Exception {
        String keyClass = Driver.readString(in);
        String valueClass = Driver.readString(in);
        int compression = in.readByte();
        String codec = Driver.readString(in);
        int syncInterval = in.readInt();
        int blockSize = in.readInt();
        SequenceFile.Metadata metadata = new SequenceFile.Metadata();
        int pairs = in.readInt();
        for (int i = 0; i < pairs; i++) {
            Text k = new Text(Driver.readBlob(in));
            Text v = new Text(Driver.readBlob(in));
            metadata.set(k, v);
        }
        int count = in.readInt();
        byte[] keys = Driver.readBlob(in);
        byte[] values = Driver.readBlob(in);
        byte[] file;
        try {
            file = write(conf(blockSize), Class.forName(keyClass), Class.forName(valueClass),
                    compression, codec, syncInterval, metadata, count,
                    new DataInputStream(new ByteArrayInputStream(keys)),
                    new DataInputStream(new ByteArrayInputStream(values)));
        } catch (Throwable e) {
            out.writeByte(1);
            Driver.writeString(out, e.toString());
            return;
        }
        out.writeByte(0);
        Driver.writeBlob(out, file);
    }

    static byte[] write(Configuration conf, Class<?> keyClass, Class<?> valueClass, int compression,
            String codecClass, int syncInterval, SequenceFile.Metadata metadata, int count,
            DataInputStream keys, DataInputStream values) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FSDataOutputStream stream = new FSDataOutputStream(bytes, null);
        SequenceFile.CompressionType type = SequenceFile.CompressionType.values()[compression];
        CompressionCodec codec = codecClass.isEmpty()
                ? new org.apache.hadoop.io.compress.DefaultCodec()
                : (CompressionCodec) ReflectionUtils.newInstance(Class.forName(codecClass), conf);
        java.util.List<SequenceFile.Writer.Option> options = new java.util.ArrayList<>();
        options.add(SequenceFile.Writer.stream(stream));
        options.add(SequenceFile.Writer.keyClass(keyClass));
        options.add(SequenceFile.Writer.valueClass(valueClass));
        options.add(SequenceFile.Writer.compression(type, codec));
        options.add(SequenceFile.Writer.metadata(metadata));
        if (syncInterval >= 0) {
            // Hadoop 3 only: Writer.syncInterval(int), looked up so that this compiles on 2.10.2.
            Method m = SequenceFile.Writer.class.getMethod("syncInterval", int.class);
            options.add((SequenceFile.Writer.Option) m.invoke(null, syncInterval));
        }
        try (SequenceFile.Writer writer = SequenceFile.createWriter(conf,
                options.toArray(new SequenceFile.Writer.Option[0]))) {
            for (int i = 0; i < count; i++) {
                writer.append(readOne(keyClass, keys), readOne(valueClass, values));
            }
        }
        stream.flush();
        return bytes.toByteArray();
    }

    private static Object readOne(Class<?> type, DataInputStream in) throws Exception {
        if (type == NullWritable.class) {
            return NullWritable.get();
        }
        Writable w = (Writable) type.getDeclaredConstructor().newInstance();
        w.readFields(in);
        return w;
    }

    static void read(DataInputStream in, DataOutputStream out) throws Exception {
        byte[] file = Driver.readBlob(in);
        long start = in.readLong();
        long end = in.readLong();
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        try {
            read(file, start, end, new DataOutputStream(answer));
        } catch (Throwable e) {
            out.writeByte(1);
            Driver.writeString(out, e.toString());
            return;
        }
        out.writeByte(0);
        out.write(answer.toByteArray());
    }

    private static void read(byte[] file, long start, long end, DataOutputStream out) throws Exception {
        Configuration conf = conf(-1);
        try (SequenceFile.Reader reader = new SequenceFile.Reader(conf,
                SequenceFile.Reader.stream(new FSDataInputStream(new Memory(file))),
                SequenceFile.Reader.length(file.length))) {
            Driver.writeString(out, reader.getKeyClassName());
            Driver.writeString(out, reader.getValueClassName());
            CompressionCodec codec = reader.getCompressionCodec();
            Driver.writeString(out, codec == null ? "" : codec.getClass().getName());
            out.writeBoolean(reader.isCompressed());
            out.writeBoolean(reader.isBlockCompressed());
            java.util.TreeMap<Text, Text> meta = reader.getMetadata().getMetadata();
            out.writeInt(meta.size());
            for (Map.Entry<Text, Text> e : meta.entrySet()) {
                Driver.writeBlob(out, e.getKey().copyBytes());
                Driver.writeBlob(out, e.getValue().copyBytes());
            }
            Writable key = (Writable) ReflectionUtils.newInstance(reader.getKeyClass(), conf);
            Writable value = (Writable) ReflectionUtils.newInstance(reader.getValueClass(), conf);
            ByteArrayOutputStream records = new ByteArrayOutputStream();
            DataOutputStream rec = new DataOutputStream(records);
            int count = 0;
            boolean more = true;
            if (start >= 0) {
                // SequenceFileRecordReader's loop (mapred and mapreduce alike).
                if (start > reader.getPosition()) {
                    reader.sync(start);
                }
                more = reader.getPosition() < end;
            }
            while (more) {
                long pos = reader.getPosition();
                boolean remaining = reader.next(key, value);
                if (!remaining || (start >= 0 && pos >= end && reader.syncSeen())) {
                    break;
                }
                Driver.writeBlob(rec, bytes(key));
                Driver.writeBlob(rec, bytes(value));
                count++;
            }
            out.writeInt(count);
            out.write(records.toByteArray());
        }
    }

    private static byte[] bytes(Writable w) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        w.write(new DataOutputStream(b));
        return b.toByteArray();
    }

    /** A seekable input stream over bytes, as {@code FSDataInputStream} requires. */
    static final class Memory extends ByteArrayInputStream implements Seekable, PositionedReadable {
        Memory(byte[] bytes) {
            super(bytes);
        }

        @Override
        public void seek(long position) throws IOException {
            if (position < 0 || position > count) {
                throw new IOException("seek to " + position + " outside 0.." + count);
            }
            pos = (int) position;
        }

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public boolean seekToNewSource(long target) {
            return false;
        }

        @Override
        public int read(long position, byte[] b, int off, int len) {
            if (position >= count) {
                return -1;
            }
            int n = (int) Math.min(len, count - position);
            System.arraycopy(buf, (int) position, b, off, n);
            return n;
        }

        @Override
        public void readFully(long position, byte[] b, int off, int len) throws IOException {
            if (read(position, b, off, len) < len) {
                throw new java.io.EOFException("end of the bytes");
            }
        }

        @Override
        public void readFully(long position, byte[] b) throws IOException {
            readFully(position, b, 0, b.length);
        }
    }

    /**
     * {@code SeqFiles OUTDIR CLASS SEED COUNT}: the fixtures of {@code tests/fixtures/seqfile}.
     * {@code COUNT} random records of the record class {@code CLASS} (Driver's generator seeded
     * with {@code SEED}) with LongWritable keys 0, 1, …, written by this Hadoop in every
     * compression type with every codec it writes in pure Java, as
     * {@code OUTDIR/<compression>-<codec>.seq}; the records' binary bytes as
     * {@code OUTDIR/values.bin}.
     */
    @SuppressWarnings("deprecation")
    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        Class<?> type = Class.forName(args[1]);
        long seed = Long.parseLong(args[2]);
        int count = Integer.parseInt(args[3]);
        RandomRecords random = new RandomRecords(new SplittableRandom(seed));
        ByteArrayOutputStream values = new ByteArrayOutputStream();
        ByteArrayOutputStream keys = new ByteArrayOutputStream();
        DataOutputStream v = new DataOutputStream(values);
        DataOutputStream k = new DataOutputStream(keys);
        for (int i = 0; i < count; i++) {
            // Records Hadoop's writer refuses (a string with U+FFFE, say) are drawn again.
            ByteArrayOutputStream one = new ByteArrayOutputStream();
            try {
                random.record(type.asSubclass(org.apache.hadoop.record.Record.class))
                        .write(new DataOutputStream(one));
            } catch (IOException e) {
                i--;
                continue;
            }
            v.write(one.toByteArray());
            new LongWritable(i).write(k);
        }
        dir.mkdirs();
        try (FileOutputStream f = new FileOutputStream(new File(dir, "values.bin"))) {
            f.write(values.toByteArray());
        }
        boolean hadoop3 = hasMethod(SequenceFile.Writer.class, "syncInterval");
        String[] codecs = hadoop3
                ? new String[] {"GzipCodec", "SnappyCodec", "Lz4Codec"}
                : new String[] {"DefaultCodec", "BZip2Codec"};
        String[] types = {"none", "record", "block"};
        for (int t = 0; t < 3; t++) {
            for (String codec : codecs) {
                if (t == 0 && !codec.equals("DefaultCodec")) {
                    continue;
                }
                String name = t == 0 ? "none" : types[t] + "-" + codec.replace("Codec", "").toLowerCase();
                SequenceFile.Metadata meta = new SequenceFile.Metadata();
                meta.set(new Text("made-by"), new Text("hadooprecord.peer.SeqFiles"));
                byte[] file = write(conf(t == 2 ? 4096 : -1), LongWritable.class, type, t,
                        "org.apache.hadoop.io.compress." + codec, -1, meta, count,
                        new DataInputStream(new ByteArrayInputStream(keys.toByteArray())),
                        new DataInputStream(new ByteArrayInputStream(values.toByteArray())));
                try (FileOutputStream f = new FileOutputStream(new File(dir, name + ".seq"))) {
                    f.write(file);
                }
            }
        }
    }

    private static boolean hasMethod(Class<?> c, String name) {
        for (Method m : c.getMethods()) {
            if (m.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }
}
