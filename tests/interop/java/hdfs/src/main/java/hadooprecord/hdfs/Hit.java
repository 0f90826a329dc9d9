package hadooprecord.hdfs;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;

/**
 * The record {@code module hadooprecord.hdfs { class Hit { ustring url; long n; } }} as a
 * Writable: Hadoop Record I/O's binary encoding of a ustring is Text's (a zero-compressed
 * length, then UTF-8) and of a long is WritableUtils' zero-compressed long, so this class
 * writes and reads the bytes {@code rcc} does, under the class name {@code rcc
 * --record-type hadooprecord.hdfs.Hit} gives the SequenceFiles it writes.
 */
public final class Hit implements Writable {
    public String url = "";
    public long n;

    public Hit() {}

    public Hit(String url, long n) {
        this.url = url;
        this.n = n;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        Text.writeString(out, url);
        WritableUtils.writeVLong(out, n);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        url = Text.readString(in);
        n = WritableUtils.readVLong(in);
    }
}
