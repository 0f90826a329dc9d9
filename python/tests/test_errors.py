"""Bad input and wrong arguments: damaged or hostile records raise RecordError naming what
rcc names (file, record, offset, field path); wrong arguments name the choices; several
threads read at once; a failed write leaves the old file."""

from __future__ import annotations

import random
import stat
import threading

import pyarrow as pa
import pytest

import hadoop_record as hr
from conftest import FIXTURES, web_arrow, web_rows


@pytest.fixture
def hits(tmp_path, web_schema):
    path = tmp_path / "hits.bin"
    path.write_bytes(hr.encode(web_rows(10), web_schema, "web.Hit"))
    return path


def test_truncated_file_names_record_offset_and_field(hits, web_schema, web_ddl, rcc):
    data = hits.read_bytes()
    hits.write_bytes(data[:-3])
    with pytest.raises(hr.RecordError) as info:
        hr.read_table(hits, web_schema, "web.Hit")
    e = info.value
    assert isinstance(e, ValueError)
    assert e.file == str(hits)
    assert e.record == 9
    assert e.path.startswith("Hit.")
    assert e.offset is not None and 0 < e.offset <= len(data)
    # The words rcc sql prints for the same file.
    out = rcc("sql", "--schema", web_ddl, "--type", "web.Hit", "SELECT * FROM records", hits, check=False)
    assert out.returncode == 1
    assert str(e) in out.stderr.decode()


def test_damaged_paddle_chunk(tmp_path, web_schema, web_ddl, rcc):
    path = tmp_path / "hits.paddle"
    hr.write(web_arrow(web_schema, 40), path, web_schema, "web.Hit", framing="paddle", chunk_records=10)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(hr.RecordError) as info:
        hr.read_table(path, web_schema, "web.Hit", framing="paddle")
    e = info.value
    assert e.file == str(path)
    out = rcc("sql", "--schema", web_ddl, "--type", "web.Hit", "--in-framing", "paddle",
              "SELECT * FROM records", path, check=False)
    assert str(e) in out.stderr.decode()
    # Recovering: the damaged chunk is skipped and reported.
    reader = hr.read(path, web_schema, "web.Hit", framing="paddle", recover=True)
    rows = reader.read_all().num_rows
    assert rows == 30
    assert len(reader.skipped) == 1


def test_corrupt_checksum_fixture(web_schema):
    """PaddlePaddle's file with a corrupted chunk checksum."""
    path = FIXTURES / "paddle" / "corrupt_checksum.recordio"
    with pytest.raises(hr.RecordError) as info:
        hr.read_table(path, web_schema, "web.Place", framing="paddle")
    assert "checksum" in str(info.value)
    assert info.value.file == str(path)


FRAMINGS = [None, "mesos", "paddle", "paddle-cpp", "plasma-text", "plasma-var", "v1", "seqfile"]


@pytest.mark.parametrize("framing", FRAMINGS)
@pytest.mark.parametrize("encoding", ["binary", "csv", "xml", "jute"])
def test_hostile_bytes_raise_record_error(framing, encoding, tmp_path, web_schema):
    """Random and mutated bytes: a table or a RecordError, nothing else, never a crash."""
    rng = random.Random(f"{framing}{encoding}")
    good = tmp_path / "good"
    options = {"record_type": "Hit"} if framing == "v1" else {}
    try:
        hr.write(web_arrow(web_schema, 20), good, web_schema, "web.Hit", encoding, framing, **options)
        valid = good.read_bytes()
    except hr.RecordError:
        valid = b"\x00"  # binary records with LF bytes do not fit plasma-text

    path = tmp_path / "bad"
    for i in range(25):
        if i % 2:
            data = bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 300)))
        else:
            data = bytearray(valid)
            for _ in range(rng.randrange(1, 6)):
                data[rng.randrange(len(data))] = rng.getrandbits(8)
            data = bytes(data[: rng.randrange(1, len(data) + 1)])
        path.write_bytes(data)
        try:
            hr.read_table(path, web_schema, "web.Hit", encoding, framing)
        except hr.RecordError as e:
            assert e.file == str(path)
        if framing is None:
            try:
                hr.decode(data, web_schema, "web.Hit", encoding)
            except hr.RecordError as e:
                assert e.file is None


def test_wrong_arguments_name_the_choices(hits, web_schema):
    with pytest.raises(ValueError, match=r"web\.Hit"):
        hr.read(hits, web_schema, "web.Nope")
    with pytest.raises(ValueError, match="binary, csv, xml, jute"):
        hr.read(hits, web_schema, "web.Hit", "protobuf")
    with pytest.raises(ValueError, match="plasma-fixed:N"):
        hr.read(hits, web_schema, "web.Hit", framing="parquet")
    with pytest.raises(KeyError, match="time, url, status"):
        hr.read(hits, web_schema, "web.Hit", columns=["nope"])
    with pytest.raises(FileNotFoundError):
        hr.read(hits.parent / "missing.bin", web_schema, "web.Hit")
    with pytest.raises(ValueError, match="recovery applies to paddle"):
        hr.read(hits, web_schema, "web.Hit", framing="v1", recover=True)
    with pytest.raises(ValueError, match="record_type"):
        hr.write(hr.read_table(hits, web_schema, "web.Hit"), hits.parent / "x", web_schema, "web.Hit", framing="v1")
    with pytest.raises(ValueError, match="seqfile_codec needs"):
        hr.write(hr.read_table(hits, web_schema, "web.Hit"), hits.parent / "x", web_schema, "web.Hit",
                 framing="seqfile", seqfile_codec="gzip")
    with pytest.raises(ValueError, match="compression= applies to paddle"):
        hr.write(hr.read_table(hits, web_schema, "web.Hit"), hits.parent / "x", web_schema, "web.Hit",
                 framing="mesos", compression="gzip")
    with pytest.raises(ValueError, match="columns are not those of web.Hit"):
        import pyarrow as pa

        hr.write(pa.table({"x": [1]}), hits.parent / "x", web_schema, "web.Hit")
    with pytest.raises(ValueError, match=r"schema\.jr:1:26"):
        hr.Schema.parse("module m { class A { int } }")


def test_encode_names_the_field(web_schema):
    rows = web_rows(3)
    rows[2]["origin"]["city"] = 7
    with pytest.raises(hr.RecordError) as info:
        hr.encode(rows, web_schema, "web.Hit")
    assert info.value.record == 2
    assert info.value.path == "Hit.origin.city"
    assert "expected str, got int" in str(info.value)
    rows = web_rows(1)
    rows[0]["status"] = 2**40
    with pytest.raises(hr.RecordError, match="does not fit in a int"):
        hr.encode(rows, web_schema, "web.Hit")
    rows = web_rows(1)
    del rows[0]["url"]
    with pytest.raises(hr.RecordError, match="missing field"):
        hr.encode(rows, web_schema, "web.Hit")


def test_threads_read_at_once(tmp_path, web_schema):
    path = tmp_path / "hits.paddle"
    hr.write(web_arrow(web_schema, 2000), path, web_schema, "web.Hit", framing="paddle")
    want = hr.read_table(path, web_schema, "web.Hit", framing="paddle")
    results: list = []
    errors: list = []

    def work():
        try:
            for _ in range(3):
                results.append(hr.read_table(path, web_schema, "web.Hit", framing="paddle", batch_size=100))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(results) == 12
    assert all(r.equals(want) for r in results)


def test_a_failed_local_write_leaves_the_old_file(tmp_path, web_schema):
    path = tmp_path / "hits.paddle"
    path.write_bytes(b"the old file")
    path.chmod(0o640)
    table = web_arrow(web_schema, 500)

    def batches():
        yield from table.to_batches(max_chunksize=100)
        raise RuntimeError("the source failed half way")

    stream = pa.RecordBatchReader.from_batches(table.schema, batches())
    with pytest.raises(ValueError, match="could not be read"):
        hr.write(stream, path, web_schema, "web.Hit", framing="paddle")
    assert path.read_bytes() == b"the old file"
    assert [p.name for p in tmp_path.iterdir()] == ["hits.paddle"]
    # Written whole, it replaces the old file and keeps its mode.
    hr.write(table, path, web_schema, "web.Hit", framing="paddle")
    assert hr.read_table(path, web_schema, "web.Hit", framing="paddle").equals(table)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["hits.paddle"]


def test_framings_are_found_from_the_first_bytes(tmp_path, web_schema):
    """framing=None (auto): a file in a framing with a header reads as with that framing
    named, plain records as records back to back; a framing named that a file's first bytes
    contradict says what the file is; a SequenceFile of another value class warns."""
    table = web_arrow(web_schema, 30)
    written = {}
    for framing, options in [
        ("paddle", {}),
        ("paddle-cpp", {}),
        ("plasma-var", {}),
        ("seqfile", {}),
        ("v1", {"record_type": "Hit"}),
        (None, {}),
    ]:
        path = tmp_path / f"hits.{framing or 'bin'}"
        hr.write(table, path, web_schema, "web.Hit", "binary", framing, **options)
        written[framing] = path
        assert hr.read_table(path, web_schema, "web.Hit").equals(table), framing
        assert hr.read_table(path, web_schema, "web.Hit", framing="auto").equals(table), framing
        named = hr.read_table(path, web_schema, "web.Hit", framing=framing or "none")
        assert named.equals(table), framing
    with pytest.raises(
        ValueError,
        match=r"hits\.seqfile: this is a SequenceFile \(SEQ, version 6\), not paddle: give "
        r"--in-framing seqfile \(or leave --in-framing out\)",
    ):
        hr.read_table(written["seqfile"], web_schema, "web.Hit", framing="paddle")
    with pytest.raises(ValueError, match=r"leniency applies to mesos input"):
        hr.read_table(written[None], web_schema, "web.Hit", lenient=True)

    other = tmp_path / "other.seq"
    hr.write(table, other, web_schema, "web.Hit", framing="seqfile", record_type="web.Other")
    with pytest.warns(UserWarning, match=r"other\.seq is a SequenceFile of web\.Other values, "
                      r"read as web\.Hit"):
        assert hr.read_table(other, web_schema, "web.Hit").equals(table)
