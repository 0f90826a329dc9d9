package hadooprecord.client;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.TreeMap;

import oracle.common.types.Named;
import oracle.common.types.Point;
import oracle.composite.Containers;
import oracle.composite.Inner;
import oracle.composite.Outer;
import oracle.prims.AllPrims;

import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.record.BinaryRecordInput;
import org.apache.hadoop.record.BinaryRecordOutput;
import org.apache.hadoop.record.Buffer;
import org.apache.hadoop.record.CsvRecordOutput;
import org.apache.hadoop.record.Record;
import org.apache.hadoop.record.XmlRecordOutput;
import org.apache.hadoop.record.meta.RecordTypeInfo;

/**
 * Client code written against the classes Hadoop's own rcc generates for the fixture schemas,
 * using their whole public API. It must compile unchanged against the classes ours generates,
 * and print the same.
 */
@SuppressWarnings("deprecation") // Hadoop's record API is deprecated as a whole
public final class ApiClient {
    public static void main(String[] args) throws Exception {
        Point p = new Point(1, 2);
        p.setX(3);
        p.setY(p.getX() + p.getY());
        Inner inner = new Inner("tag", 5L);
        inner.setN(inner.getN() * 2);
        Named named = new Named();
        named.setName("name");
        named.setWhere(p);

        ArrayList<Integer> vi = new ArrayList<Integer>();
        vi.add(7);
        ArrayList<String> vs = new ArrayList<String>();
        vs.add("a,b}");
        ArrayList<ArrayList<Integer>> vvi = new ArrayList<ArrayList<Integer>>();
        vvi.add(vi);
        TreeMap<String, Integer> msi = new TreeMap<String, Integer>();
        msi.put("k", 1);
        TreeMap<Integer, String> mis = new TreeMap<Integer, String>();
        mis.put(2, "v");
        ArrayList<Inner> vrec = new ArrayList<Inner>();
        vrec.add(inner);
        TreeMap<String, Inner> mrec = new TreeMap<String, Inner>();
        mrec.put("i", inner);
        ArrayList<Buffer> vb = new ArrayList<Buffer>();
        vb.add(new Buffer(new byte[] {1, 2}));
        TreeMap<Long, ArrayList<Double>> mlvd = new TreeMap<Long, ArrayList<Double>>();
        mlvd.put(3L, new ArrayList<Double>());
        ArrayList<Boolean> vz = new ArrayList<Boolean>();
        vz.add(true);
        ArrayList<Float> vf = new ArrayList<Float>();
        vf.add(0.5f);
        Containers c = new Containers(vi, vs, vvi, msi, mis, vrec, mrec, p, inner, vb, mlvd, vz, vf);
        Outer outer = new Outer(inner, c, named, true);
        outer.setFlag(!outer.getFlag());
        System.out.println(outer.getC().getVs().get(0) + " " + outer.getA().getTag() + " " + outer.getN().getWhere().getY());

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        outer.serialize(new BinaryRecordOutput(bytes), "");
        byte[] binary = bytes.toByteArray();
        Outer back = new Outer();
        back.deserialize(new BinaryRecordInput(new ByteArrayInputStream(binary)), "");
        System.out.println(back.equals(outer) + " " + back.compareTo(outer) + " " + back.hashCode());

        ByteArrayOutputStream text = new ByteArrayOutputStream();
        outer.serialize(new CsvRecordOutput(text), "");
        outer.serialize(new XmlRecordOutput(text), "");
        System.out.print(text.toString("UTF-8"));
        System.out.print(outer.toString());

        ByteArrayOutputStream writable = new ByteArrayOutputStream();
        outer.write(new DataOutputStream(writable));
        Outer read = new Outer();
        read.readFields(new DataInputStream(new ByteArrayInputStream(writable.toByteArray())));
        Outer copy = (Outer) read.clone();
        copy.getA().setTag("changed");
        System.out.println(copy.compareTo(read) + " " + read.getA().getTag());

        System.out.println(Outer.signature() + " " + AllPrims.signature());
        RecordTypeInfo info = Outer.getTypeInfo();
        Outer.setTypeFilter(info);
        ByteArrayOutputStream infoBytes = new ByteArrayOutputStream();
        info.serialize(new CsvRecordOutput(infoBytes), "");
        System.out.print(infoBytes.toString("UTF-8"));

        Outer.Comparator raw = new Outer.Comparator();
        System.out.println(Integer.signum(raw.compare(binary, 0, binary.length, binary, 0, binary.length)));
        WritableComparator registered = WritableComparator.get(Outer.class);
        System.out.println(registered instanceof Outer.Comparator);
        Record record = back;
        System.out.println(record.compareTo(outer));
    }
}
