package hadooprecord.zookeeper;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.jute.BinaryInputArchive;
import org.apache.jute.BinaryOutputArchive;
import org.apache.jute.Record;

/**
 * Runs a batch of checks against ZooKeeper's jute runtime (BinaryInputArchive and
 * BinaryOutputArchive) and its generated record classes, in one JVM:
 * {@code JuteDriver REQUEST RESPONSE}.
 *
 * <p>Both files are big-endian (DataInput/DataOutput). A request starts with "ZKJT" and a
 * version int, then operations until end of file, each an op byte and its arguments; the
 * response starts the same way and answers each in order. Blobs are an int length and the
 * bytes; strings are blobs of UTF-8. A "result" is byte 0 and a blob, or byte 1 and an error.
 *
 * <ul>
 *   <li>1 ROUNDTRIP(class, blob): read one record of the class from the blob with
 *       BinaryInputArchive and write it with BinaryOutputArchive. Answer: byte 0, an int count
 *       of unread bytes and the blob written; or byte 1 and the error.
 *   <li>2 SIGNATURE(class): the string {@code signature()} returns.
 *   <li>3 GENERATE(class, long seed, int count): count random records (nulls, empty and
 *       non-ASCII strings, characters beyond the BMP and lone surrogates included), each
 *       answered as the blob BinaryOutputArchive writes.
 *   <li>4 STRING(blob): {@code new String(blob, UTF_8)} as readString returns it, written back
 *       by writeString: a result.
 * </ul>
 */
public final class JuteDriver {
    static final byte[] MAGIC = "ZKJT".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: JuteDriver REQUEST RESPONSE");
            System.exit(2);
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(args[0])));
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(args[1])))) {
            byte[] magic = new byte[4];
            in.readFully(magic);
            if (!Arrays.equals(magic, MAGIC) || in.readInt() != VERSION) {
                throw new IOException("not a version " + VERSION + " request");
            }
            out.write(MAGIC);
            out.writeInt(VERSION);
            for (;;) {
                int op = in.read();
                switch (op) {
                    case -1:
                        return;
                    case 1:
                        roundTrip(in, out);
                        break;
                    case 2:
                        writeBlob(out, ((String) type(readString(in)).getMethod("signature").invoke(null))
                            .getBytes(StandardCharsets.UTF_8));
                        break;
                    case 3:
                        generate(in, out);
                        break;
                    case 4:
                        string(in, out);
                        break;
                    default:
                        throw new IOException("unknown operation " + op);
                }
            }
        }
    }

    private static Class<? extends Record> type(String name) throws ClassNotFoundException {
        return Class.forName(name).asSubclass(Record.class);
    }

    private static void roundTrip(DataInputStream in, DataOutputStream out) throws Exception {
        Class<? extends Record> type = type(readString(in));
        byte[] bytes = readBlob(in);
        ByteArrayInputStream stream = new ByteArrayInputStream(bytes);
        Record record = type.getDeclaredConstructor().newInstance();
        try {
            record.deserialize(BinaryInputArchive.getArchive(stream), "");
        } catch (Throwable e) { // a reader's failure is an answer, whatever it throws
            out.writeByte(1);
            writeBlob(out, e.toString().getBytes(StandardCharsets.UTF_8));
            return;
        }
        out.writeByte(0);
        out.writeInt(stream.available());
        writeBlob(out, write(record));
    }

    private static void string(DataInputStream in, DataOutputStream out) throws Exception {
        byte[] bytes = readBlob(in);
        ByteArrayOutputStream framed = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(framed);
        d.writeInt(bytes.length);
        d.write(bytes);
        String s = BinaryInputArchive.getArchive(new ByteArrayInputStream(framed.toByteArray())).readString("s");
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        BinaryOutputArchive.getArchive(written).writeString(s, "s");
        out.writeByte(0);
        writeBlob(out, written.toByteArray());
    }

    private static byte[] write(Record record) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        record.serialize(BinaryOutputArchive.getArchive(bytes), "");
        return bytes.toByteArray();
    }

    private static void generate(DataInputStream in, DataOutputStream out) throws Exception {
        Class<? extends Record> type = type(readString(in));
        SplittableRandom random = new SplittableRandom(in.readLong());
        int count = in.readInt();
        for (int i = 0; i < count; i++) {
            writeBlob(out, write((Record) random(type, random, 0)));
        }
    }

    /** A random value of the field type {@code t}. */
    private static Object random(Type t, SplittableRandom r, int depth) throws Exception {
        if (t == int.class) {
            return r.nextInt(4) == 0 ? r.nextInt(-3, 4) : r.nextInt();
        } else if (t == long.class) {
            return r.nextInt(4) == 0 ? (long) r.nextInt(-3, 4) : r.nextLong();
        } else if (t == boolean.class) {
            return r.nextBoolean();
        } else if (t == byte.class) {
            return (byte) r.nextInt(256);
        } else if (t == float.class) {
            return Float.intBitsToFloat(r.nextInt());
        } else if (t == double.class) {
            return Double.longBitsToDouble(r.nextLong());
        } else if (t == String.class) {
            return r.nextInt(6) == 0 ? null : text(r);
        } else if (t == byte[].class) {
            if (r.nextInt(6) == 0) {
                return null;
            }
            byte[] b = new byte[r.nextInt(12)];
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) r.nextInt(256);
            }
            return b;
        } else if (t instanceof ParameterizedType) {
            if (r.nextInt(6) == 0) {
                return null;
            }
            Type element = ((ParameterizedType) t).getActualTypeArguments()[0];
            int n = depth > 3 ? 0 : r.nextInt(4);
            List<Object> list = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                list.add(random(element, r, depth + 1));
            }
            return list;
        } else if (t instanceof Class && Record.class.isAssignableFrom((Class<?>) t)) {
            Class<?> c = (Class<?>) t;
            Object record = c.getDeclaredConstructor().newInstance();
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                f.setAccessible(true);
                f.set(record, random(f.getGenericType(), r, depth + 1));
            }
            return record;
        }
        throw new IOException("no generator for " + t);
    }

    private static final String[] PIECES = {
        "a", ",", "}", "%", "\u0000", "\n", "\u00e9", "\u07ff", "\u0800", "\uffff", "\ufffe",
        "\ud83d\ude00", "\ud800", "\udc00", "\uffff\ud800",
    };

    /** Short text: ASCII, non-ASCII, pairs beyond the BMP and lone surrogates. */
    private static String text(SplittableRandom r) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(8);
        for (int i = 0; i < n; i++) {
            if (r.nextBoolean()) {
                sb.append(PIECES[r.nextInt(PIECES.length)]);
            } else {
                sb.append((char) r.nextInt(0x10000));
            }
        }
        return sb.toString();
    }

    private static byte[] readBlob(DataInputStream in) throws IOException {
        int n = in.readInt();
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    private static String readString(DataInputStream in) throws IOException {
        return new String(readBlob(in), StandardCharsets.UTF_8);
    }

    private static void writeBlob(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }
}
