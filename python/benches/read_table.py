"""`hr.read_table` of 5 M small records from a Paddle-framed binary file, against the same
read in Rust (`examples/read_paddle.rs`: PaddleReader + BatchDecoder) and, for scale,
`pyarrow.parquet.read_table` of the same records as Parquet. BENCHMARKS.md, "Python".

    pip install ./python pyarrow          # the release build
    cargo build --release -p hadoop-record-python --example read_paddle
    python python/benches/read_table.py [RECORDS] [RUNS]

Figures are thread CPU seconds of the reading thread (hr, Rust) and process CPU seconds
(Parquet, which decodes on several threads), best of RUNS, with the wall time beside them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import hadoop_record as hr

ROOT = Path(__file__).resolve().parents[2]
DDL = "module bench { class Small { int i; long l; boolean z; double d; ustring s; } }"


def records(n: int) -> pa.Table:
    rng = np.random.default_rng(7)
    i = rng.integers(-(2**31), 2**31, n, dtype=np.int32)
    return pa.table(
        {
            "i": pa.array(i),
            "l": pa.array(rng.integers(-(2**62), 2**62, n, dtype=np.int64)),
            "z": pa.array(rng.integers(0, 2, n).astype(bool)),
            "d": pa.array(rng.standard_normal(n)),
            "s": pa.array([f"user-{v % 100000}" for v in i.tolist()], pa.string()),
        }
    )


def best(runs: int, f):
    out = []
    for _ in range(runs):
        cpu, wall = time.thread_time(), time.perf_counter()
        rows = f()
        out.append((time.thread_time() - cpu, time.perf_counter() - wall, rows))
    return min(out)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5_000_000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    rust = os.environ.get("READ_PADDLE", target / "release" / "examples" / "read_paddle")
    with tempfile.TemporaryDirectory() as tmp:
        ddl = Path(tmp) / "bench.jr"
        ddl.write_text(DDL)
        schema = hr.Schema.load(ddl)
        table = records(n)
        paddle, parquet = Path(tmp) / "small.paddle", Path(tmp) / "small.parquet"
        hr.write(table, paddle, schema, "bench.Small", framing="paddle")
        pq.write_table(table, parquet)
        mb = paddle.stat().st_size / 1e6
        back = hr.read_table(paddle, schema, "bench.Small", framing="paddle")
        assert back.cast(table.schema).equals(table)

        hr_cpu, hr_wall, _ = best(
            runs, lambda: hr.read_table(paddle, schema, "bench.Small", framing="paddle").num_rows
        )
        rust_runs = []
        for _ in range(runs):
            out = subprocess.run([rust, ddl, "bench.Small", paddle], check=True, capture_output=True)
            rows, cpu, wall = out.stdout.split()
            assert int(rows) == n
            rust_runs.append((float(cpu), float(wall)))
        rust_cpu, rust_wall = min(rust_runs)
        pq_runs = []
        for _ in range(runs):
            cpu, wall = time.process_time(), time.perf_counter()
            pq.read_table(parquet)
            pq_runs.append((time.process_time() - cpu, time.perf_counter() - wall))
        pq_cpu, pq_wall = min(pq_runs)

    print(f"{n} records; load {os.getloadavg()[0]:.2f}")
    print(f"{'reader':<34} {'CPU s':>7} {'wall s':>7} {'M rec/s (CPU)':>14}")
    for name, cpu, wall in [
        ("hr.read_table (Paddle, binary)", hr_cpu, hr_wall),
        ("Rust PaddleReader + BatchDecoder", rust_cpu, rust_wall),
        ("pyarrow.parquet.read_table", pq_cpu, pq_wall),
    ]:
        print(f"{name:<34} {cpu:7.3f} {wall:7.3f} {n / cpu / 1e6:14.2f}")
    print(f"hr / Rust throughput (CPU): {rust_cpu / hr_cpu:.2f}x (target >= 0.9x); {mb:.0f} MB file")


if __name__ == "__main__":
    main()
