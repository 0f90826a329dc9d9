"""Every record of the Hadoop Java fixtures (tests/fixtures/hadoop-java), in binary, CSV and
XML: decoded to the values Java wrote, encoded back to Java's bytes, read as Arrow."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pyarrow as pa
import pytest

import hadoop_record as hr
from conftest import JAVA, same

MANIFEST = json.loads((JAVA / "manifest.json").read_text())
CASES = MANIFEST["cases"]
ENCODING = {"binary": "binary", "csv": "csv", "xml": "xml"}


@pytest.fixture(scope="module")
def schemas():
    return {name: hr.Schema.load(JAVA / name) for name in MANIFEST["schemas"]}


def expected(value, ty: pa.DataType):
    """The manifest's JSON form of a value (floats by their bits, buffers in hex, maps as
    pairs) as the Python value `decode` gives."""
    if pa.types.is_struct(ty):
        return {f.name: expected(value[f.name], f.type) for f in ty}
    if pa.types.is_map(ty):
        return {expected(k, ty.key_type): expected(v, ty.item_type) for k, v in value}
    if pa.types.is_list(ty):
        return [expected(v, ty.value_type) for v in value]
    if pa.types.is_binary(ty):
        return bytes.fromhex(value)
    if pa.types.is_integer(ty):
        return int(value)  # longs beyond 2^53 are strings in the manifest
    if pa.types.is_float32(ty):
        return struct.unpack(">f", int(value["bits"], 16).to_bytes(4, "big"))[0]
    if pa.types.is_float64(ty):
        return struct.unpack(">d", int(value["bits"], 16).to_bytes(8, "big"))[0]
    return value


def row_value(value, ty: pa.DataType):
    """A value as pyarrow's to_pylist gives it, in decode's form (maps as dicts)."""
    if pa.types.is_struct(ty):
        return {f.name: row_value(value[f.name], f.type) for f in ty}
    if pa.types.is_map(ty):
        return {row_value(k, ty.key_type): row_value(v, ty.item_type) for k, v in value}
    if pa.types.is_list(ty):
        return [row_value(v, ty.value_type) for v in value]
    return value


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_java_fixture(case, schemas, tmp_path):
    schema = schemas[case["schema"]]
    ty = case["record_type"]
    data = (JAVA / case["file"]).read_bytes()
    struct_type = pa.struct(list(schema.arrow_schema(ty)))
    want = [expected(v, struct_type) for v in case["values"]]

    got = hr.decode(data, schema, ty, case["encoding"])
    assert same(got, want)
    # Java re-encoded its own records to these bytes: so must we (floats in text as a modern
    # JDK writes them, data-jdk-modern/, where they differ from JDK 17's).
    modern = JAVA / "data-jdk-modern" / Path(case["file"]).name
    data = modern.read_bytes() if modern.exists() else data
    assert hr.encode(got, schema, ty, case["encoding"]) == data

    # The columnar path: the same values, and back to the same bytes.
    table = hr.read_table(JAVA / case["file"], schema, ty, case["encoding"])
    rows = [row_value(r, struct_type) for r in table.to_pylist()]
    assert same(rows, want)
    out = tmp_path / "out"
    assert hr.write(table, out, schema, ty, case["encoding"]) == len(want)
    assert out.read_bytes() == data
