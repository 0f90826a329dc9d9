"""Against `rcc`: `write` gives the bytes `rcc convert` gives for the same records and
options, in every encoding and framing; `read` gives the rows `rcc convert --to parquet`
gives, read back by pyarrow."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import hadoop_record as hr
from conftest import FIXTURES, JAVA, assert_same_table, web_rows

FRAMINGS = [
    None,
    "mesos",
    "paddle",
    "paddle-cpp",
    "plasma-text",
    "plasma-var",
    "v1",
    "seqfile",
]
ENCODINGS = ["binary", "csv", "xml", "jute", "json"]


def blank_sync(data: bytes) -> bytes:
    # The header ends with the marker; every sync entry repeats it after ff ff ff ff.
    entries = [i for i in range(len(data) - 20) if data[i : i + 4] == b"\xff\xff\xff\xff"]
    marker = data[entries[0] + 4 : entries[0] + 20] if entries else None
    if marker is None:
        return data
    return data.replace(marker, b"\x00" * 16)


@pytest.mark.parametrize("framing", FRAMINGS)
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_write_matches_rcc_convert(framing, encoding, web_table, web_ddl, tmp_path, rcc):
    extra: list[str] = []
    kwargs: dict = {}
    if framing == "v1":
        extra = ["--record-type", "Hit"]
        kwargs = {"record_type": "Hit"}
    if framing == "seqfile":
        # Enough records for sync entries between them.
        extra = ["--seqfile-compression", "record", "--seqfile-codec", "gzip"]
        kwargs = {"seqfile_compression": "record", "seqfile_codec": "gzip"}
    # rcc's own path: the same records as binary, converted.
    plain = tmp_path / "plain.bin"
    hr.write(web_table, plain, web_ddl, "web.Hit")
    theirs = tmp_path / "theirs"
    args = ["convert", "--schema", web_ddl, "--type", "web.Hit", "--from", "binary", "--to", encoding]
    if framing:
        args += ["--out-framing", framing, *extra]
    done = rcc(*args, plain, theirs, check=False)

    ours = tmp_path / "ours"
    if framing == "plasma-text" and encoding in ("binary", "jute", "xml"):
        # Records holding LF bytes do not fit a line: both refuse them, naming the record.
        with pytest.raises(hr.RecordError) as info:
            hr.write(web_table, ours, web_ddl, "web.Hit", encoding, framing, **kwargs)
        assert done.returncode == 1
        assert f"record {info.value.record}" in done.stderr.decode()
        return
    assert done.returncode == 0, done.stderr.decode()
    n = hr.write(web_table, ours, web_ddl, "web.Hit", encoding, framing, **kwargs)
    assert n == web_table.num_rows
    if framing == "seqfile":
        assert blank_sync(ours.read_bytes()) == blank_sync(theirs.read_bytes())
    else:
        assert ours.read_bytes() == theirs.read_bytes()

    # And back: the same table.
    if encoding == "json":
        back = hr.decode(ours.read_bytes(), web_ddl, "web.Hit", "json") if framing is None else None
        if back is not None:
            assert len(back) == web_table.num_rows
        return
    table = hr.read_table(ours, web_ddl, "web.Hit", encoding, framing)
    assert_same_table(table, web_table)


def test_plasma_fixed_and_options(web_schema, tmp_path, rcc, web_ddl):
    """plasma-fixed:N (records of exactly N bytes), paddle compression and chunking."""
    table = pa.table(
        {"v": pa.array([1, -2, 3, 2**31 - 1], pa.int32())},
    )
    ddl = tmp_path / "v.jr"
    ddl.write_text("module m { class V { int v; } }")
    plain = tmp_path / "plain.bin"
    hr.write(table, plain, ddl, "m.V", "jute")
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    hr.write(table, ours, ddl, "m.V", "jute", "plasma-fixed:4")
    rcc("convert", "--schema", ddl, "--type", "m.V", "--from", "jute", "--to", "jute",
        "--out-framing", "plasma-fixed:4", plain, theirs)
    assert ours.read_bytes() == theirs.read_bytes()
    assert_same_table(hr.read_table(ours, ddl, "m.V", "jute", "plasma-fixed:4"), table)

    hits = tmp_path / "hits.bin"
    for options, flags in [
        ({"compression": "gzip", "chunk_records": 7}, ["--compression", "gzip", "--chunk-records", "7"]),
        ({"compression": "snappy", "chunk_size": 1000}, ["--compression", "snappy", "--chunk-size", "1000"]),
    ]:
        data = hr.encode(web_rows(50), web_schema, "web.Hit")
        hits.write_bytes(data)
        source = hr.read_table(hits, web_ddl, "web.Hit")
        hr.write(source, ours, web_ddl, "web.Hit", framing="paddle", **options)
        rcc("convert", "--schema", web_ddl, "--type", "web.Hit", "--from", "binary", "--to",
            "binary", "--out-framing", "paddle", *flags, hits, theirs)
        assert ours.read_bytes() == theirs.read_bytes()


@pytest.mark.parametrize(
    "name", ["none.seq", "record-default.seq", "block-gzip.seq", "block-bzip2.seq", "record-snappy.seq", "block-lz4.seq"]
)
def test_read_seqfile_matches_rcc_parquet(name, tmp_path, rcc):
    """Hadoop's own SequenceFiles: read_table gives what rcc convert --to parquet gives, and
    the records of values.bin (the same 60 records back to back)."""
    schema = hr.Schema.load(JAVA / "composite.jr")
    path = FIXTURES / "seqfile" / name
    table = hr.read_table(path, schema, "oracle.composite.Outer", framing="seqfile")
    assert table.num_rows == 60
    parquet = tmp_path / "out.parquet"
    rcc("convert", "--schema", JAVA / "composite.jr", "--type", "oracle.composite.Outer",
        "--from", "binary", "--in-framing", "seqfile", "--to", "parquet", path, parquet)
    assert_same_table(pq.read_table(parquet), table)
    plain = hr.read_table(FIXTURES / "seqfile" / "values.bin", schema, "oracle.composite.Outer")
    assert_same_table(plain, table)

