"""The Python mapping of records, both ways, and the schema API."""

from __future__ import annotations

import pyarrow as pa
import pytest

import hadoop_record as hr
from conftest import assert_same_table, web_rows


def test_schema_types_and_arrow(web_schema, web_ddl):
    assert web_schema.types == ["web.Place", "web.Hit"]
    loaded = hr.Schema.load(web_ddl)
    assert loaded.types == web_schema.types
    schema = web_schema.arrow_schema("web.Hit")
    assert isinstance(schema, pa.Schema)
    assert schema.field("status").type == pa.int32()
    assert schema.field("b").type == pa.int8()
    assert schema.field("f").type == pa.float32()
    assert schema.field("digest").type == pa.binary()
    assert schema.field("tags").type.value_type == pa.string()
    assert pa.types.is_map(schema.field("counts").type)
    assert schema.field("origin").type == pa.struct(
        [pa.field("city", pa.string(), nullable=False), pa.field("country", pa.string(), nullable=False)]
    )
    assert schema.field("status").metadata[b"hadoop.type"] == b"int"
    assert not schema.field("status").nullable
    # A class name declared once is found without its module.
    assert web_schema.arrow_schema("Place").names == ["city", "country"]


def test_decode_encode_round_trip(web_schema):
    rows = web_rows(20)
    for encoding in ["binary", "csv", "xml", "jute", "json"]:
        data = hr.encode(rows, web_schema, "web.Hit", encoding)
        back = hr.decode(data, web_schema, "web.Hit", encoding)
        assert back == rows, encoding
        assert hr.encode(back, web_schema, "web.Hit", encoding) == data
    one = hr.decode(hr.encode(rows[:1], web_schema, "web.Hit"), web_schema, "web.Hit")[0]
    assert type(one["digest"]) is bytes and type(one["ok"]) is bool
    assert type(one["counts"]) is dict and type(one["origin"]) is dict
    assert type(one["b"]) is int and type(one["f"]) is float


def test_encode_accepts_python_equivalents(web_schema):
    row = web_rows(1)[0]
    row["digest"] = bytearray(b"\x01\x02")
    row["score"] = 3  # an int where a double is
    row["tags"] = ("a", "b")
    back = hr.decode(hr.encode([row], web_schema, "web.Hit"), web_schema, "web.Hit")[0]
    assert back["digest"] == b"\x01\x02" and back["score"] == 3.0 and back["tags"] == ["a", "b"]
    # Maps are written in Hadoop's key order, whatever the dict's order.
    row["counts"] = {"b": 2, "a": 1}
    data = hr.encode([row], web_schema, "web.Hit", "csv")
    assert b"m{'a,1,'b,2}" in data


def test_jute_nulls(tmp_path):
    schema = hr.Schema.parse("module z { class N { ustring s; buffer b; vector<int> v; int i; } }")
    rows = [{"s": None, "b": None, "v": None, "i": 1}, {"s": "x", "b": b"", "v": [], "i": 2}]
    data = hr.encode(rows, schema, "z.N", "jute")
    assert hr.decode(data, schema, "z.N", "jute") == rows
    path = tmp_path / "n.jute"
    path.write_bytes(data)
    table = hr.read_table(path, schema, "z.N", "jute", nullable=True)
    assert table.column("s").to_pylist() == [None, "x"]
    assert table.schema.field("s").nullable
    # Binary has no nulls.
    with pytest.raises(hr.RecordError):
        hr.encode(rows, schema, "z.N", "binary")


def test_write_json_lines_and_pyarrow_batch(tmp_path, web_schema, web_table):
    path = tmp_path / "hits.json"
    assert hr.write(web_table.to_batches()[0], path, web_schema, "web.Hit", "json") == web_table.num_rows
    lines = path.read_bytes().splitlines()
    assert len(lines) == web_table.num_rows
    assert hr.decode(path.read_bytes(), web_schema, "web.Hit", "json")[0]["url"] == "/page/0.htmlé"
    # Files of JSON records read back as the table they were.
    assert_same_table(hr.read_table(path, web_schema, "web.Hit", "json"), web_table)
    part = hr.read_table([path, path], web_schema, "web.Hit", "json", columns=["score", "url"], n_rows=310)
    assert part.num_rows == 310 and part.column_names == ["score", "url"]
    assert part["url"].to_pylist()[300:] == web_table["url"].to_pylist()[:10]
    path.write_bytes(path.read_bytes()[:-20])
    with pytest.raises(hr.RecordError) as info:
        hr.read_table(path, web_schema, "web.Hit", "json")
    assert info.value.file == str(path) and info.value.record == web_table.num_rows - 1
