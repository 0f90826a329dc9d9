"""The package with the tools a Python user holds records in: pyarrow, pandas, Polars,
DuckDB and DataFusion, with DuckDB and pyarrow as the oracles of the answers."""

from __future__ import annotations

import datafusion
import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pytest

import hadoop_record as hr
from conftest import web_arrow


@pytest.fixture(scope="module")
def files(tmp_path_factory, web_schema):
    """Three Paddle files of web.Hit (1,000 records each) in a directory."""
    folder = tmp_path_factory.mktemp("hits")
    table = web_arrow(web_schema, 3000)
    for i in range(3):
        hr.write(table.slice(i * 1000, 1000), folder / f"part-{i}.paddle", web_schema, "web.Hit",
                 framing="paddle", chunk_records=64)
    return folder, table


def test_paths_directory_glob_list(files, web_schema):
    folder, table = files
    by_dir = hr.read_table(folder, web_schema, "web.Hit", framing="paddle")
    by_glob = hr.read_table(str(folder / "part-*.paddle"), web_schema, "web.Hit", framing="paddle")
    by_list = hr.read_table([folder / f"part-{i}.paddle" for i in range(3)], web_schema, "web.Hit", framing="paddle")
    for t in (by_dir, by_glob, by_list):
        assert t.equals(table)


def test_reader_stream_and_batches(files, web_schema):
    folder, table = files
    reader = hr.read(folder, web_schema, "web.Hit", framing="paddle", columns=["url", "bytes"], batch_size=100)
    assert reader.schema.names == ["url", "bytes"]
    batches = list(reader)
    assert all(b.num_rows <= 100 for b in batches)
    assert pa.Table.from_batches(batches).equals(table.select(["url", "bytes"]))
    # Consumed once.
    with pytest.raises(ValueError, match="already read"):
        pa.table(reader)
    # Any Arrow stream consumer takes it, zero copy.
    first = hr.read(folder, web_schema, "web.Hit", framing="paddle", n_rows=5)
    assert pa.table(first).equals(table.slice(0, 5))


def test_pandas(files, web_schema):
    folder, table = files
    frame = hr.read_table(folder, web_schema, "web.Hit", framing="paddle").to_pandas()
    assert list(frame["bytes"]) == table["bytes"].to_pylist()
    assert frame["origin"][4] == {"city": "Oslo", "country": "NO"}
    # pandas back to records: the same bytes as the table it came from.
    out_a, out_b = folder.parent / "a.bin", folder.parent / "b.bin"
    hr.write(frame, out_a, web_schema, "web.Hit")
    hr.write(table, out_b, web_schema, "web.Hit")
    assert out_a.read_bytes() == out_b.read_bytes()
    # A filtered frame (its index is not a range) writes its rows, not its index.
    some = frame[frame.status == 404]
    assert hr.write(some, out_a, web_schema, "web.Hit") == len(some)
    assert hr.read_table(out_a, web_schema, "web.Hit")["time"].to_pylist() == list(some["time"])
    with pytest.raises(ValueError, match="unknown column"):
        hr.write(some.assign(extra=1), out_a, web_schema, "web.Hit")


def test_duckdb_as_oracle(files, web_schema):
    folder, hits = files
    reader = hr.read(folder, web_schema, "web.Hit", framing="paddle")
    con = duckdb.connect()
    got = con.sql(
        "SELECT origin.country AS c, count(*) AS n, sum(bytes) AS b FROM reader GROUP BY c ORDER BY c"
    ).fetchall()
    want = con.sql(
        "SELECT origin.country AS c, count(*) AS n, sum(bytes) AS b FROM hits GROUP BY c ORDER BY c"
    ).fetchall()
    assert got == want and len(got) == 3


def test_polars_scan(files, web_schema):
    folder, table = files
    lf = hr.scan_polars(folder, web_schema, "web.Hit", framing="paddle")
    assert lf.collect_schema().names() == table.column_names
    got = lf.filter(pl.col("status") == 404).select("url", "bytes").collect()
    mask = pc.equal(table["status"], 404)
    want = pl.from_arrow(table.filter(mask).select(["url", "bytes"]))
    assert got.equals(want)
    head = lf.select("time").head(7).collect()
    assert head["time"].to_list() == table["time"].to_pylist()[:7]
    # A limit after a filter counts filtered rows.
    filtered = lf.filter(pl.col("ok")).select("time").head(5).collect()
    assert filtered["time"].to_list() == table.filter(table["ok"])["time"].to_pylist()[:5]
    # Polars DataFrames are Arrow streams: back to records.
    out = folder.parent / "polars.paddle"
    hr.write(lf.collect(), out, web_schema, "web.Hit", framing="paddle")
    assert hr.read_table(out, web_schema, "web.Hit", framing="paddle").equals(table)


def test_polars_pushdown_reaches_the_reader(files, web_schema, monkeypatch):
    folder, _ = files
    calls = []
    real = hr.read

    def spy(*args, **kwargs):
        calls.append((args[5] if len(args) > 5 else kwargs.get("columns"), kwargs.get("n_rows"), args[6] if len(args) > 6 else None))
        return real(*args, **kwargs)

    monkeypatch.setattr(hr, "read", spy)
    lf = hr.scan_polars(folder, web_schema, "web.Hit", framing="paddle")
    lf.select("url").head(3).collect()
    columns, n_rows, _ = calls[-1]
    assert columns == ["url"]
    assert n_rows == 3


def test_datafusion_table_provider(files, web_schema):
    folder, hits = files
    ctx = datafusion.SessionContext(
        datafusion.SessionConfig()
        .with_target_partitions(4)
        .set("datafusion.optimizer.repartition_file_min_size", "1")
    )
    ds = hr.dataset(folder, web_schema, "web.Hit", framing="paddle")
    ctx.register_table("hits", ds)
    got = ctx.sql(
        "SELECT status, count(*) AS n, sum(bytes) AS b FROM hits GROUP BY status ORDER BY status"
    ).to_arrow_table()
    want = pa.table(duckdb.sql(
        "SELECT status, count(*) AS n, sum(bytes) AS b FROM hits GROUP BY status ORDER BY status"
    ).arrow())
    assert got.to_pylist() == want.to_pylist()
    # Projection: only the columns used reach the scan.
    plan = ctx.sql("EXPLAIN SELECT url FROM hits").to_arrow_table()["plan"].to_pylist()
    assert "projection=[url]" in plan[0]
    assert ctx.sql("SELECT count(*) FROM hits WHERE origin['city'] = 'Oslo'").to_arrow_table()[0][0].as_py() == 1000


@pytest.mark.parametrize("min_size, partitions", [("1", 4), ("100000000", 1)])
def test_datafusion_splits_a_file(files, web_schema, min_size, partitions):
    """One file read as byte ranges by several partitions (when DataFusion's
    repartition_file_min_size allows), every record exactly once."""
    folder, hits = files
    ctx = datafusion.SessionContext(
        datafusion.SessionConfig()
        .with_target_partitions(4)
        .set("datafusion.optimizer.repartition_file_min_size", min_size)
    )
    ctx.register_table("hits", hr.dataset(folder / "part-1.paddle", web_schema, "web.Hit", framing="paddle"))
    frame = ctx.sql("SELECT * FROM hits ORDER BY time")
    assert frame.execution_plan().children()[0].partition_count == partitions
    got = frame.to_arrow_table()
    assert got.to_pylist() == hits.slice(1000, 1000).to_pylist()


def test_datafusion_reports_bad_records(tmp_path, web_schema):
    path = tmp_path / "bad.bin"
    hr.write(web_arrow(web_schema, 10), path, web_schema, "web.Hit")
    path.write_bytes(path.read_bytes()[:-2])
    ctx = datafusion.SessionContext()
    ctx.register_table("hits", hr.dataset(path, web_schema, "web.Hit"))
    with pytest.raises(Exception, match=r"record 9.*in Hit\."):
        ctx.sql("SELECT * FROM hits").collect()
