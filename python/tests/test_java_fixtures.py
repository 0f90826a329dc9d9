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


def nested(value, ty: pa.DataType, leaf):
    """`value` of type `ty` in decode's form (maps as dicts), `leaf` converting the values
    that are not structs, maps or lists."""
    if pa.types.is_struct(ty):
        return {f.name: nested(value[f.name], f.type, leaf) for f in ty}
    if pa.types.is_map(ty):
        return {
            nested(k, ty.key_type, leaf): nested(v, ty.item_type, leaf) for k, v in value
        }
    if pa.types.is_list(ty):
        return [nested(v, ty.value_type, leaf) for v in value]
    return leaf(value, ty)


def manifest_leaf(value, ty: pa.DataType):
    """A scalar in the manifest's JSON form (floats by their bits, buffers in hex)."""
    if pa.types.is_binary(ty):
        return bytes.fromhex(value)
    if pa.types.is_integer(ty):
        return int(value)  # longs beyond 2^53 are strings in the manifest
    if pa.types.is_float32(ty):
        return struct.unpack(">f", int(value["bits"], 16).to_bytes(4, "big"))[0]
    if pa.types.is_float64(ty):
        return struct.unpack(">d", int(value["bits"], 16).to_bytes(8, "big"))[0]
    return value


def expected(value, ty: pa.DataType):
    """The manifest's JSON form of a value (maps as pairs) as the Python value `decode`
    gives."""
    return nested(value, ty, manifest_leaf)


def row_value(value, ty: pa.DataType):
    """A value as pyarrow's to_pylist gives it, in decode's form (maps as dicts)."""
    return nested(value, ty, lambda leaf, _ty: leaf)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_java_fixture(case, schemas, tmp_path):
    schema = schemas[case["schema"]]
    ty = case["record_type"]
    data = (JAVA / case["file"]).read_bytes()
    struct_type = pa.struct(list(schema.arrow_schema(ty)))
    want = [expected(v, struct_type) for v in case["values"]]

    got = hr.decode(data, schema, ty, case["encoding"])
    assert same(got, want)
    # Java 17 re-encoded its own records to these bytes: so must we by default; with
    # float_text="shortest", to a modern JDK's (data-jdk-modern/, where its float text
    # differs from JDK 17's).
    modern = JAVA / "data-jdk-modern" / Path(case["file"]).name
    modern = modern.read_bytes() if modern.exists() else data
    text = case["encoding"] in ("csv", "xml")
    assert hr.encode(got, schema, ty, case["encoding"]) == data
    if text:
        for float_text, want_bytes in (("legacy", data), ("shortest", modern)):
            encoded = hr.encode(got, schema, ty, case["encoding"], float_text=float_text)
            assert encoded == want_bytes, float_text

    # The columnar path: the same values, and back to the same bytes.
    table = hr.read_table(JAVA / case["file"], schema, ty, case["encoding"])
    rows = [row_value(r, struct_type) for r in table.to_pylist()]
    assert same(rows, want)
    out = tmp_path / "out"
    assert hr.write(table, out, schema, ty, case["encoding"]) == len(want)
    assert out.read_bytes() == data
    if text:
        n = hr.write(table, out, schema, ty, case["encoding"], float_text="shortest")
        assert n == len(want)
        assert out.read_bytes() == modern


def test_float_text_is_legacy_or_shortest_for_csv_and_xml(schemas, tmp_path):
    """float_text= takes legacy or shortest (any other value is an error naming both),
    and applies to CSV and XML only."""
    schema = schemas["prims.jr"]
    record = {"v": 2 * 5e-324}
    ty = "oracle.prims.DoubleRec"
    assert hr.encode([record], schema, ty, "csv") == b"1.0E-323\n"
    assert hr.encode([record], schema, ty, "csv", float_text="shortest") == b"9.9E-324\n"
    with pytest.raises(ValueError, match=r"unknown float text `modern` \(expected legacy, "
                       r"JDK 8 to 18's, or shortest, JDK 19 and later's\)"):
        hr.encode([record], schema, ty, "csv", float_text="modern")
    table = pa.table({"v": pa.array([2 * 5e-324])})
    for encoding in ("binary", "jute", "json"):
        message = f"float_text= applies to csv and xml output, not {encoding}"
        with pytest.raises(ValueError, match=message):
            hr.encode([record], schema, ty, encoding, float_text="legacy")
        with pytest.raises(ValueError, match=message):
            hr.write(table, tmp_path / "out", schema, ty, encoding, float_text="shortest")
    assert not (tmp_path / "out").exists()
    hr.write(table, tmp_path / "out", schema, ty, "xml", float_text="shortest")
    assert b"<double>9.9E-324</double>" in (tmp_path / "out").read_bytes()
