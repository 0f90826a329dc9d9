"""Shared fixtures: the repository's reference files, `rcc`, a small record type."""

from __future__ import annotations

import math
import os
import shutil
import struct
import subprocess
from pathlib import Path

import pyarrow as pa
import pytest

import hadoop_record as hr

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
JAVA = FIXTURES / "hadoop-java"

WEB_DDL = """
module web {
    class Place { ustring city; ustring country; }
    class Hit {
        long time;
        ustring url;
        int status;
        long bytes;
        vector<ustring> tags;
        Place origin;
        map<ustring, long> counts;
        buffer digest;
        boolean ok;
        double score;
        byte b;
        float f;
    }
}
"""


def rcc_path() -> Path | None:
    """`rcc` as the workspace built it (`RCC`, else the cargo target directory)."""
    if os.environ.get("RCC"):
        return Path(os.environ["RCC"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ("debug", "release"):
        candidate = target / profile / "rcc"
        if candidate.exists():
            return candidate
    found = shutil.which("rcc")
    return Path(found) if found else None


@pytest.fixture(scope="session")
def rcc():
    """Runs `rcc` with arguments; returns the completed process."""
    path = rcc_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("rcc is not built: cargo test --workspace builds it (or set RCC)")
        pytest.skip("rcc is not built (set RCC)")

    def run(*args: object, check: bool = True) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [str(path), *map(str, args)], capture_output=True, check=check, timeout=120
        )

    return run


@pytest.fixture(scope="session")
def web_schema(tmp_path_factory) -> hr.Schema:
    return hr.Schema.parse(WEB_DDL, name="web.jr")


@pytest.fixture(scope="session")
def web_ddl(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("ddl") / "web.jr"
    path.write_text(WEB_DDL)
    return path


def web_rows(n: int, start: int = 0) -> list[dict]:
    """`n` web.Hit records as dicts, every type exercised."""
    rows = []
    for i in range(start, start + n):
        rows.append(
            {
                "time": 1_700_000_000 + i,
                "url": f"/page/{i % 7}.html" + ("é" if i % 5 == 0 else ""),
                "status": 200 if i % 3 else 404,
                "bytes": i * 1000,
                "tags": [f"t{j}" for j in range(i % 3)],
                "origin": {"city": ["Paris", "Oslo", "Lima"][i % 3], "country": ["FR", "NO", "PE"][i % 3]},
                "counts": {f"k{j}": j * i for j in range(i % 4)},
                "digest": bytes([i % 256, (i * 7) % 256]),
                "ok": i % 2 == 0,
                "score": i / 8,
                "b": (i % 256) - 128,
                "f": float(i % 100) / 4,
            }
        )
    return rows


def web_arrow(schema: hr.Schema, n: int) -> pa.Table:
    """`n` web.Hit records as a pyarrow Table of the record's schema."""
    return pa.Table.from_pylist(
        [dict(r, counts=list(r["counts"].items())) for r in web_rows(n)],
        schema=schema.arrow_schema("web.Hit"),
    )


@pytest.fixture(scope="session")
def web_table(web_schema) -> pa.Table:
    return web_arrow(web_schema, 300)


def same(a, b) -> bool:
    """Deep equality with NaN equal to NaN and -0.0 told from 0.0."""
    if isinstance(a, float) and isinstance(b, float):
        return struct.pack(">d", a) == struct.pack(">d", b) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def assert_same_table(a: pa.Table, b: pa.Table) -> None:
    """The same columns, types and values (NaN equal to NaN; nullability and metadata aside)."""
    assert a.column_names == b.column_names
    assert [f.type for f in a.schema] == [f.type for f in b.schema] or a.cast(b.schema).schema == b.schema
    assert a.num_rows == b.num_rows
    assert same(a.to_pylist(), b.to_pylist())
