package hadooprecord.peer;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import org.apache.hadoop.record.Buffer;
import org.apache.hadoop.record.Record;

/**
 * Random values of any class Hadoop's rcc generates, found by reflection on its setters: every
 * vint length, float and double bit patterns (NaN, -0.0, subnormals), strings with every CSV
 * and XML escape class, {@code ]]>}, non-ASCII and supplementary characters, empty and
 * occasionally large vectors, maps and buffers, nested records.
 */
@SuppressWarnings("deprecation") // Hadoop's record API is deprecated as a whole
final class RandomRecords {
    private static final int MAX_DEPTH = 6;
    private static final String SPECIAL = ",}{%'#\0\n\r\t<>&\"\\";
    private static final int[] CODE_POINTS = {0xE9, 0x7FF, 0x800, 0xFF5E, 0xFFFD, 0x1F600, 0x10000, 0x10FFFF, 0xD7FF, 0xE000};

    private final SplittableRandom random;
    private final Map<Class<?>, List<Method>> setters = new HashMap<>();

    RandomRecords(SplittableRandom random) {
        this.random = random;
    }

    Record record(Class<? extends Record> type) throws Exception {
        return record(type, 0);
    }

    private Record record(Class<?> type, int depth) throws Exception {
        Record record = (Record) type.getDeclaredConstructor().newInstance();
        for (Method setter : setters(type)) {
            setter.invoke(record, value(setter.getGenericParameterTypes()[0], depth + 1));
        }
        return record;
    }

    /** The generated setters: public, not static, one parameter, named set*. */
    private List<Method> setters(Class<?> type) {
        return setters.computeIfAbsent(type, t -> {
            List<Method> found = new ArrayList<>();
            for (Method m : t.getDeclaredMethods()) {
                int mod = m.getModifiers();
                if (Modifier.isPublic(mod) && !Modifier.isStatic(mod) && m.getName().startsWith("set")
                        && m.getParameterCount() == 1) {
                    found.add(m);
                }
            }
            found.sort((a, b) -> a.getName().compareTo(b.getName()));
            return found;
        });
    }

    private Object value(Type type, int depth) throws Exception {
        if (type instanceof ParameterizedType) {
            ParameterizedType p = (ParameterizedType) type;
            Type[] args = p.getActualTypeArguments();
            int n = count(depth);
            if (p.getRawType() == ArrayList.class) {
                ArrayList<Object> list = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    list.add(value(args[0], depth + 1));
                }
                return list;
            }
            TreeMap<Object, Object> map = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                map.put(value(args[0], depth + 1), value(args[1], depth + 1));
            }
            return map;
        }
        Class<?> c = (Class<?>) type;
        if (c == byte.class || c == Byte.class) {
            return (byte) random.nextInt();
        } else if (c == boolean.class || c == Boolean.class) {
            return random.nextBoolean();
        } else if (c == int.class || c == Integer.class) {
            return (int) vlong(4);
        } else if (c == long.class || c == Long.class) {
            return vlong(8);
        } else if (c == float.class || c == Float.class) {
            return randomFloat();
        } else if (c == double.class || c == Double.class) {
            return randomDouble();
        } else if (c == String.class) {
            return text();
        } else if (c == Buffer.class) {
            byte[] b = new byte[random.nextInt(50) == 0 ? random.nextInt(4096) : random.nextInt(9)];
            random.nextBytes(b);
            return new Buffer(b);
        } else if (Record.class.isAssignableFrom(c)) {
            return record(c, depth);
        }
        throw new IllegalArgumentException("no random values for " + type);
    }

    /** Mostly 0..3 elements, sometimes none below the depth limit, rarely a hundred or more. */
    private int count(int depth) {
        if (depth >= MAX_DEPTH) {
            return 0;
        }
        if (depth <= 2 && random.nextInt(40) == 0) {
            return 100 + random.nextInt(200);
        }
        return random.nextInt(4);
    }

    /** A value with a random number of significant bytes (so every vint length), random sign. */
    private long vlong(int maxBytes) {
        int pick = random.nextInt(10);
        if (pick == 0) {
            long[] edges = {0, -1, 127, 128, -112, -113, 255, 256, -256, -257, Integer.MAX_VALUE, Integer.MIN_VALUE,
                Long.MAX_VALUE, Long.MIN_VALUE};
            long e = edges[random.nextInt(edges.length)];
            return maxBytes == 4 ? (int) e : e;
        }
        int bytes = random.nextInt(maxBytes + 1);
        long v = bytes == 0 ? 0 : random.nextLong() >>> (64 - 8 * bytes);
        if (random.nextBoolean()) {
            v = ~v;
        }
        return maxBytes == 4 ? (int) v : v;
    }

    private static final float[] FLOAT_SPECIALS = {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY, Float.MIN_VALUE, Float.MAX_VALUE, Float.MIN_NORMAL, 1e7f, 9999999f, 1e-3f,
        9.999e-4f, 0.1f};

    private static final double[] DOUBLE_SPECIALS = {0d, -0d, Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE, Double.MIN_NORMAL, 1e7, 9999999.999999998,
        1e-3, 9.999999999999998e-4, 0.1, 2e23};

    /** n / 2^s for n in [-1000, 1000] and s below {@code shifts}: few digits in any notation. */
    private double fraction(int shifts) {
        return (double) (random.nextInt(2001) - 1000) / (1 << random.nextInt(shifts));
    }

    private float randomFloat() {
        switch (random.nextInt(4)) {
            case 0:
                return FLOAT_SPECIALS[random.nextInt(FLOAT_SPECIALS.length)];
            case 1:
                return (float) fraction(12);
            default:
                return Float.intBitsToFloat(random.nextInt());
        }
    }

    private double randomDouble() {
        switch (random.nextInt(4)) {
            case 0:
                return DOUBLE_SPECIALS[random.nextInt(DOUBLE_SPECIALS.length)];
            case 1:
                return fraction(20);
            default:
                return Double.longBitsToDouble(random.nextLong());
        }
    }

    /**
     * Code points from pools: ASCII, the characters CSV and XML escape, "]]>", non-ASCII and
     * supplementary characters, any valid code point; rarely U+FFFE/U+FFFF, which Hadoop's
     * binary writer refuses. Never an unpaired surrogate.
     */
    private String text() {
        int n = random.nextInt(60) == 0 ? 200 + random.nextInt(2000) : random.nextInt(12);
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) {
            switch (random.nextInt(8)) {
                case 0:
                case 1:
                    s.append((char) (0x20 + random.nextInt(0x5f)));
                    break;
                case 2:
                    s.append(SPECIAL.charAt(random.nextInt(SPECIAL.length())));
                    break;
                case 3:
                    s.append(random.nextInt(4) == 0 ? "]]>" : String.valueOf((char) random.nextInt(0x20)));
                    break;
                case 4:
                    s.appendCodePoint(CODE_POINTS[random.nextInt(CODE_POINTS.length)]);
                    break;
                case 5:
                    if (random.nextInt(50) == 0) {
                        s.append(random.nextBoolean() ? '\uFFFE' : '\uFFFF');
                    } else {
                        s.appendCodePoint(anyCodePoint());
                    }
                    break;
                default:
                    s.appendCodePoint(anyCodePoint());
                    break;
            }
        }
        return s.toString();
    }

    /** Any code point but a surrogate or U+FFFE/U+FFFF. */
    private int anyCodePoint() {
        int cp;
        do {
            cp = random.nextInt(0x110000);
        } while ((cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF);
        return cp;
    }
}
