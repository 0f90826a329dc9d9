"""SequenceFiles whose keys are records: `key_type=` reads them into a `key` column and
writes that column back as the keys; rcc reads the same keys (`--key-type`, JSON)."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

import hadoop_record as hr

DDL = """
module kv {
    class Key { ustring user; int day; }
    class Visit { ustring url; long ms; vector<ustring> tags; }
}
"""


@pytest.fixture(scope="module")
def schema():
    return hr.Schema.parse(DDL, name="kv.jr")


def visits(schema, n):
    key = pa.array(
        [{"user": f"u{i % 5}", "day": i // 5} for i in range(n)],
        pa.struct(list(schema.arrow_schema("kv.Key"))),
    )
    values = pa.Table.from_pylist(
        [{"url": f"/p{i}", "ms": i * 3, "tags": ["a"] * (i % 3)} for i in range(n)],
        schema=schema.arrow_schema("kv.Visit"),
    )
    return values.add_column(0, pa.field("key", key.type, nullable=False), key)


@pytest.mark.parametrize("compression", ["none", "record", "block"])
def test_keys_round_trip_and_rcc_reads_them(schema, tmp_path, rcc, compression):
    table = visits(schema, 250)
    path = tmp_path / "visits.seq"
    options = {} if compression == "none" else {"seqfile_codec": "deflate"}
    hr.write(table, path, schema, "kv.Visit", framing="seqfile", key_type="kv.Key",
             seqfile_compression=compression, **options)
    back = hr.read_table(path, schema, "kv.Visit", framing="seqfile", key_type="kv.Key")
    assert back.equals(table)
    # Without key_type the values alone, as ever.
    assert hr.read_table(path, schema, "kv.Visit", framing="seqfile").equals(table.drop_columns(["key"]))
    # Columns in any order, the key among them, and a limit.
    part = hr.read_table(path, schema, "kv.Visit", framing="seqfile", key_type="kv.Key",
                         columns=["ms", "key"], n_rows=7)
    assert part.equals(table.select(["ms", "key"]).slice(0, 7))

    ddl = tmp_path / "kv.jr"
    ddl.write_text(DDL)
    out = rcc("convert", "--schema", ddl, "--type", "kv.Visit", "--key-type", "kv.Key",
              "--from", "binary", "--in-framing", "seqfile", "--to", "json", path)
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [line["key"] for line in lines] == table["key"].to_pylist()
    assert [line["value"]["url"] for line in lines] == table["url"].to_pylist()


def test_bad_key_names_the_key_field(schema, tmp_path):
    other = hr.Schema.parse("module kv { class Key { long user; } }", name="other.jr")
    table = visits(schema, 3)
    path = tmp_path / "visits.seq"
    hr.write(table, path, schema, "kv.Visit", framing="seqfile", key_type="kv.Key")
    with pytest.raises(hr.RecordError) as info:
        hr.read_table(path, schema, "kv.Visit", framing="seqfile", key_type="kv.Key", key_schema=other)
    assert info.value.record == 0
    assert info.value.path.startswith("key")
    with pytest.raises(ValueError, match="seqfile"):
        hr.read(path, schema, "kv.Visit", framing="paddle", key_type="kv.Key")


def test_keys_in_polars(schema, tmp_path):
    import polars as pl

    table = visits(schema, 40)
    path = tmp_path / "visits.seq"
    hr.write(table, path, schema, "kv.Visit", framing="seqfile", key_type="kv.Key")
    lf = hr.scan_polars(path, schema, "kv.Visit", framing="seqfile", key_type="kv.Key")
    got = lf.filter(pl.col("key").struct.field("day") == 3).select("key", "url").collect()
    assert got["url"].to_list() == [f"/p{i}" for i in range(15, 20)]
