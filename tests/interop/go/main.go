// The Go test peer of tests/interop: real Go implementations answering a batch of framing
// checks in one process, `gopeer REQUEST RESPONSE`.
//
// - Mesos RecordIO: mesos-go's own reader and writer (api/v1/lib/recordio).
// - Paddle chunked RecordIO: PaddlePaddle/recordio's Go module is not served by the Go module
//   proxy, so its chunk layout is re-typed here from its source (header.go, chunk.go,
//   writer.go @1a278fc, as described in tests/fixtures/paddle/README.md); what it runs for real
//   is Go's hash/crc32, github.com/golang/snappy (framing format, NewBufferedWriter/NewReader)
//   and compress/gzip, which is where byte compatibility is at stake.
//
// Both files are big-endian. A request is "HRGO", then operations until end of file, each an
// op byte and its arguments; the response answers each in order. A blob is a u32 length and
// the bytes; records are a u32 count and that many blobs; an outcome is records, then a byte
// 0 (clean end) or 1 and an error blob.
//
//	1 MESOS_READ(blob file)                         -> outcome
//	2 MESOS_WRITE(records)                          -> blob file
//	3 PADDLE_READ(blob file)                        -> outcome
//	4 PADDLE_WRITE(i32 max_chunk_size, u8 compressor, records) -> blob file
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"github.com/golang/snappy"
	"github.com/mesos/mesos-go/api/v1/lib/recordio"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gopeer REQUEST RESPONSE")
		os.Exit(2)
	}
	req, err := os.ReadFile(os.Args[1])
	check(err)
	out, err := os.Create(os.Args[2])
	check(err)
	w := bufio.NewWriter(out)
	check(run(bytes.NewReader(req), w))
	check(w.Flush())
	check(out.Close())
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "gopeer:", err)
		os.Exit(1)
	}
}

func run(in *bytes.Reader, out *bufio.Writer) error {
	magic := make([]byte, 4)
	if _, err := io.ReadFull(in, magic); err != nil || string(magic) != "HRGO" {
		return errors.New("not a request")
	}
	out.WriteString("HRGO")
	for {
		op, err := in.ReadByte()
		if err == io.EOF {
			return nil
		}
		switch op {
		case 1, 3:
			file, err := readBlob(in)
			if err != nil {
				return err
			}
			read := mesosRead
			if op == 3 {
				read = paddleRead
			}
			writeOutcome(out, read(file))
		case 2:
			records, err := readRecords(in)
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			w := recordio.NewWriter(&buf)
			for _, r := range records {
				if err := w.WriteFrame(r); err != nil {
					return err
				}
			}
			writeBlob(out, buf.Bytes())
		case 4:
			var max int32
			if err := binary.Read(in, binary.BigEndian, &max); err != nil {
				return err
			}
			compressor, err := in.ReadByte()
			if err != nil {
				return err
			}
			records, err := readRecords(in)
			if err != nil {
				return err
			}
			file, err := paddleWrite(records, int(max), int(compressor))
			if err != nil {
				return err
			}
			writeBlob(out, file)
		default:
			return fmt.Errorf("unknown operation %d", op)
		}
	}
}

type outcome struct {
	records [][]byte
	err     error
}

func mesosRead(file []byte) outcome {
	r := recordio.NewReader(bytes.NewReader(file))
	var o outcome
	for {
		frame, err := r.ReadFrame()
		if err == io.EOF {
			return o
		}
		if err != nil {
			o.err = err
			return o
		}
		o.records = append(o.records, append([]byte(nil), frame...))
	}
}

// paddleRead reads chunks as PaddlePaddle/recordio's Scanner does: a 20-byte header of five
// little-endian u32 (magic, checksum, compressor, compressed size, record count), the
// payload, its CRC-32 (IEEE) checked, decompressed, then u32 LE length-prefixed records.
func paddleRead(file []byte) outcome {
	var o outcome
	for len(file) > 0 {
		if len(file) < 20 {
			o.err = fmt.Errorf("%d bytes of a chunk header", len(file))
			return o
		}
		le := binary.LittleEndian
		magic, sum, compressor := le.Uint32(file), le.Uint32(file[4:]), le.Uint32(file[8:])
		size, count := le.Uint32(file[12:]), le.Uint32(file[16:])
		if magic != 0x01020304 {
			o.err = fmt.Errorf("bad magic %#x", magic)
			return o
		}
		if uint64(size) > uint64(len(file)-20) {
			o.err = errors.New("Failed to read chunk data: EOF")
			return o
		}
		payload := file[20 : 20+size]
		file = file[20+size:]
		if crc32.ChecksumIEEE(payload) != sum {
			o.err = errors.New("checksum mismatch")
			return o
		}
		var rd io.Reader
		switch compressor {
		case 0:
			rd = bytes.NewReader(payload)
		case 1:
			rd = snappy.NewReader(bytes.NewReader(payload))
		case 2:
			g, err := gzip.NewReader(bytes.NewReader(payload))
			if err != nil {
				o.err = err
				return o
			}
			rd = g
		default:
			o.err = fmt.Errorf("unknown compressor %d", compressor)
			return o
		}
		plain, err := io.ReadAll(rd)
		if err != nil {
			o.err = err
			return o
		}
		for i := uint32(0); i < count; i++ {
			if len(plain) < 4 {
				o.err = errors.New("a record's length is cut")
				return o
			}
			n := le.Uint32(plain)
			if uint64(n) > uint64(len(plain)-4) {
				o.err = errors.New("a record is cut")
				return o
			}
			o.records = append(o.records, append([]byte(nil), plain[4:4+n]...))
			plain = plain[4+n:]
		}
	}
	return o
}

// paddleWrite writes as PaddlePaddle/recordio's Writer does: maxChunkSize < 0 means 32 MiB;
// a chunk is written before a record that would take its record bytes past maxChunkSize; the
// payload goes through snappy.NewBufferedWriter or gzip.NewWriter; no empty chunk.
func paddleWrite(records [][]byte, maxChunkSize, compressor int) ([]byte, error) {
	if maxChunkSize < 0 {
		maxChunkSize = 32 * 1024 * 1024
	}
	var out bytes.Buffer
	var pending [][]byte
	numBytes := 0
	dump := func() error {
		if len(pending) == 0 {
			return nil
		}
		var plain bytes.Buffer
		for _, r := range pending {
			var l [4]byte
			binary.LittleEndian.PutUint32(l[:], uint32(len(r)))
			plain.Write(l[:])
			plain.Write(r)
		}
		var payload bytes.Buffer
		var w io.WriteCloser
		switch compressor {
		case 0:
			w = nopCloser{&payload}
		case 1:
			w = snappy.NewBufferedWriter(&payload)
		case 2:
			w = gzip.NewWriter(&payload)
		default:
			return fmt.Errorf("unknown compressor %d", compressor)
		}
		if _, err := io.Copy(w, &plain); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		var h [20]byte
		le := binary.LittleEndian
		le.PutUint32(h[0:], 0x01020304)
		le.PutUint32(h[4:], crc32.ChecksumIEEE(payload.Bytes()))
		le.PutUint32(h[8:], uint32(compressor))
		le.PutUint32(h[12:], uint32(payload.Len()))
		le.PutUint32(h[16:], uint32(len(pending)))
		out.Write(h[:])
		out.Write(payload.Bytes())
		pending, numBytes = nil, 0
		return nil
	}
	for _, r := range records {
		if numBytes+len(r) > maxChunkSize {
			if err := dump(); err != nil {
				return nil, err
			}
		}
		pending = append(pending, r)
		numBytes += len(r)
	}
	if err := dump(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

func readBlob(in *bytes.Reader) ([]byte, error) {
	var n uint32
	if err := binary.Read(in, binary.BigEndian, &n); err != nil {
		return nil, err
	}
	if int64(n) > int64(in.Len()) {
		return nil, errors.New("a blob is cut")
	}
	b := make([]byte, n)
	_, err := io.ReadFull(in, b)
	return b, err
}

func readRecords(in *bytes.Reader) ([][]byte, error) {
	var n uint32
	if err := binary.Read(in, binary.BigEndian, &n); err != nil {
		return nil, err
	}
	records := make([][]byte, 0)
	for i := uint32(0); i < n; i++ {
		r, err := readBlob(in)
		if err != nil {
			return nil, err
		}
		records = append(records, r)
	}
	return records, nil
}

func writeBlob(out *bufio.Writer, b []byte) {
	binary.Write(out, binary.BigEndian, uint32(len(b)))
	out.Write(b)
}

func writeOutcome(out *bufio.Writer, o outcome) {
	binary.Write(out, binary.BigEndian, uint32(len(o.records)))
	for _, r := range o.records {
		writeBlob(out, r)
	}
	if o.err == nil {
		out.WriteByte(0)
	} else {
		out.WriteByte(1)
		writeBlob(out, []byte(o.err.Error()))
	}
}
