"""Records where the data lives: `s3://` URLs wherever a path is taken (read, read_table,
scan_polars, dataset, write), against moto's S3 server on loopback. HDFS URLs take the same
road (the storage layer `rcc` uses, tested against a MiniDFSCluster by the Rust tests)."""

from __future__ import annotations

import datafusion
import polars as pl
import pyarrow as pa
import pytest

import hadoop_record as hr
from conftest import web_arrow

boto3 = pytest.importorskip("boto3")
moto_server = pytest.importorskip("moto.server")

BUCKET = "records"


@pytest.fixture(scope="module")
def s3(monkeypatch_module):
    """moto's S3 server on a free loopback port, with a bucket; its endpoint."""
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    for name, value in {
        "AWS_ACCESS_KEY_ID": "key",
        "AWS_SECRET_ACCESS_KEY": "secret",
        "AWS_REGION": "us-east-1",
    }.items():
        monkeypatch_module.setenv(name, value)
    client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")
    client.create_bucket(Bucket=BUCKET)
    yield endpoint, client
    server.stop()


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.fixture(scope="module")
def table(web_schema):
    return web_arrow(web_schema, 2000)


@pytest.fixture(scope="module")
def uploaded(s3, web_schema, table, tmp_path_factory):
    """The table as two Paddle files under s3://records/hits/, written by hr.write; a
    hidden file and a file in a subfolder beside them, which a folder does not include."""
    endpoint, client = s3
    for i in range(2):
        hr.write(table.slice(i * 1000, 1000), f"s3://{BUCKET}/hits/part-{i}.paddle", web_schema,
                 "web.Hit", framing="paddle", chunk_records=50, s3_endpoint=endpoint)
    client.put_object(Bucket=BUCKET, Key="hits/.part-0.paddle.crc", Body=b"not records")
    client.put_object(Bucket=BUCKET, Key="hits/old/part-9.paddle", Body=b"not records")
    return endpoint


def test_a_written_object_has_the_bytes_of_a_local_write(s3, uploaded, web_schema, table, tmp_path):
    _, client = s3
    local = tmp_path / "part-0.paddle"
    hr.write(table.slice(0, 1000), local, web_schema, "web.Hit", framing="paddle", chunk_records=50)
    remote = client.get_object(Bucket=BUCKET, Key="hits/part-0.paddle")["Body"].read()
    assert remote == local.read_bytes()


@pytest.mark.parametrize("path", [
    f"s3://{BUCKET}/hits/",
    f"s3://{BUCKET}/hits",
    f"s3://{BUCKET}/hits/part-*.paddle",
    [f"s3://{BUCKET}/hits/part-0.paddle", f"s3://{BUCKET}/hits/part-1.paddle"],
])
def test_read_table_takes_folders_globs_and_lists_of_urls(uploaded, web_schema, table, path):
    got = hr.read_table(path, web_schema, "web.Hit", framing="paddle", s3_endpoint=uploaded)
    assert got.equals(table)


def test_the_endpoint_comes_from_the_environment_too(uploaded, web_schema, table, monkeypatch):
    monkeypatch.setenv("AWS_ENDPOINT_URL", uploaded)
    got = hr.read_table(f"s3://{BUCKET}/hits/part-1.paddle", web_schema, "web.Hit",
                        framing="paddle", columns=["url", "bytes"], n_rows=10)
    assert got.equals(table.slice(1000, 10).select(["url", "bytes"]))


def test_polars_and_datafusion_read_urls(uploaded, web_schema, table):
    frame = hr.scan_polars(f"s3://{BUCKET}/hits/", web_schema, "web.Hit", framing="paddle",
                           s3_endpoint=uploaded)
    got = frame.group_by("status").agg(pl.col("bytes").sum()).sort("status").collect()
    want = table.group_by("status").aggregate([("bytes", "sum")]).sort_by("status")
    assert got["bytes"].to_list() == want["bytes_sum"].to_pylist()

    ctx = datafusion.SessionContext(
        datafusion.SessionConfig()
        .with_target_partitions(4)
        .set("datafusion.optimizer.repartition_file_min_size", "1")
    )
    ctx.register_table("hits", hr.dataset(f"s3://{BUCKET}/hits/", web_schema, "web.Hit",
                                          framing="paddle", s3_endpoint=uploaded))
    frame = ctx.sql("SELECT count(*) AS n, sum(bytes) AS b, min(url) AS u FROM hits")
    # Files split into byte ranges: ranges of objects in S3 read by several partitions.
    scan = frame.execution_plan()
    while scan.children():
        scan = scan.children()[0]
    assert scan.partition_count == 4
    got = frame.to_arrow_table().to_pylist()
    assert got == [{"n": 2000, "b": sum(table["bytes"].to_pylist()), "u": min(table["url"].to_pylist())}]


def test_keyed_and_json_reads_open_urls(s3, web_schema, table, tmp_path):
    endpoint, _ = s3
    origin = table.slice(0, 50)["origin"]
    keyed = table.slice(0, 50).add_column(0, pa.field("key", origin.type, nullable=False), origin)
    schema = hr.Schema.parse(
        "module web { class Place { ustring city; ustring country; } }", name="place.jr")
    url = f"s3://{BUCKET}/keyed/visits.seq"
    hr.write(keyed, url, web_schema, "web.Hit", framing="seqfile", key_type="web.Place",
             key_schema=schema, s3_endpoint=endpoint)
    back = hr.read_table(url, web_schema, "web.Hit", framing="seqfile", key_type="web.Place",
                         key_schema=schema, s3_endpoint=endpoint)
    assert back.equals(keyed)

    url = f"s3://{BUCKET}/json/hits.json"
    hr.write(table.slice(0, 20), url, web_schema, "web.Hit", encoding="json", s3_endpoint=endpoint)
    back = hr.read_table(url, web_schema, "web.Hit", encoding="json", s3_endpoint=endpoint)
    assert back.equals(table.slice(0, 20))


def test_a_failed_write_leaves_no_object(s3, web_schema, table):
    endpoint, client = s3

    def batches():
        yield from table.slice(0, 500).to_batches(max_chunksize=100)
        raise RuntimeError("the source failed half way")

    stream = pa.RecordBatchReader.from_batches(table.schema, batches())
    with pytest.raises(ValueError, match="could not be read"):
        hr.write(stream, f"s3://{BUCKET}/failed/hits.paddle", web_schema, "web.Hit",
                 framing="paddle", s3_endpoint=endpoint)
    listed = client.list_objects_v2(Bucket=BUCKET, Prefix="failed/")
    assert listed.get("KeyCount", 0) == 0


def test_missing_objects_and_buckets_name_the_url(uploaded, web_schema, table):
    with pytest.raises(Exception, match=rf"s3://{BUCKET}/nothing/here\.paddle"):
        hr.read_table(f"s3://{BUCKET}/nothing/here.paddle", web_schema, "web.Hit",
                      framing="paddle", s3_endpoint=uploaded)
    with pytest.raises(OSError, match="s3://no-such-bucket/a.paddle"):
        hr.write(table.slice(0, 5), "s3://no-such-bucket/a.paddle", web_schema, "web.Hit",
                 s3_endpoint=uploaded)
