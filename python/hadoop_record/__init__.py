"""Hadoop Record I/O records as Apache Arrow.

Read, write and query the records of Hadoop's record I/O (binary, CSV, XML, ZooKeeper's
jute, JSON), plain or inside a framing (Hadoop SequenceFiles, Mesos RecordIO, PaddlePaddle
RecordIO, the Plasma formats, RecordIO v1), as Arrow data that pyarrow, pandas, Polars,
DuckDB and DataFusion take without a copy::

    import hadoop_record as hr
    s = hr.Schema.load("web.jr")
    table = hr.read_table("hits.paddle", schema=s, type="web.Hit", framing="paddle")
    df = table.to_pandas()
    hr.write(df, "hits.bin", schema=s, type="web.Hit")

The decoders and encoders are the Rust crates ``hadoop-record-arrow`` and
``hadoop-record-datafusion``, the ones behind ``rcc convert`` and ``rcc sql``: the same
column mapping, the same bytes, the same error messages.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Iterator, Sequence, Union

from ._native import (
    Dataset,
    RecordError,
    RecordReader,
    Schema,
    __version__,
    dataset,
    decode,
    encode,
    read,
)
from ._native import write as _write

if TYPE_CHECKING:
    import polars
    import pyarrow

__all__ = [
    "Dataset",
    "RecordError",
    "RecordReader",
    "Schema",
    "__version__",
    "dataset",
    "decode",
    "encode",
    "read",
    "read_table",
    "scan_polars",
    "write",
]

PathLike = Union[str, "os.PathLike[str]"]
Paths = Union[PathLike, Sequence[PathLike]]


def read_table(
    paths: Paths,
    schema: Schema | PathLike,
    type: str,
    encoding: str = "binary",
    framing: str | None = None,
    columns: Sequence[str] | None = None,
    batch_size: int = 8192,
    **options: Any,
) -> pyarrow.Table:
    """Reads record files into one ``pyarrow.Table``.

    The arguments are those of :func:`read` (``options``: its keyword-only ones, such as
    ``n_rows``, ``recover`` or ``include``). The GIL is released while records are decoded.
    """
    reader = read(
        paths,
        schema,
        type,
        encoding,
        framing,
        None if columns is None else list(columns),
        batch_size,
        **options,
    )
    return reader.read_all()


def scan_polars(
    paths: Paths,
    schema: Schema | PathLike,
    type: str,
    encoding: str = "binary",
    framing: str | None = None,
    batch_size: int = 8192,
    **options: Any,
) -> polars.LazyFrame:
    """Record files as a ``polars.LazyFrame`` (a Polars IO plugin).

    Polars pushes the columns a query uses, a row limit (``head``) and its batch size down
    to the reader: only those columns are decoded, and reading stops once enough rows were
    read. Filters run in Polars on each batch as it arrives. The arguments are those of
    :func:`read`.
    """
    import polars as pl
    from polars.io.plugins import register_io_source

    if "columns" in options or "n_rows" in options:
        raise TypeError("scan_polars takes no columns= or n_rows=: select and head the LazyFrame")
    # The arguments are checked now, not at the first collect; the schema is the reader's.
    probe = read(paths, schema, type, encoding, framing, None, batch_size, n_rows=0, **options)
    polars_schema = pl.from_arrow(probe.schema.empty_table()).schema
    probe.close()

    def source(
        with_columns: list[str] | None,
        predicate: polars.Expr | None,
        n_rows: int | None,
        size: int | None,
    ) -> Iterator[polars.DataFrame]:
        # A filter sees every row before the limit does: the limit is then applied here.
        limit = None if predicate is not None else n_rows
        reader = read(
            paths,
            schema,
            type,
            encoding,
            framing,
            with_columns,
            size or batch_size,
            n_rows=limit,
            **options,
        )
        left = n_rows
        with reader:
            for batch in reader:
                frame = pl.from_arrow(batch)
                assert isinstance(frame, pl.DataFrame)
                if predicate is not None:
                    frame = frame.filter(predicate)
                if left is not None:
                    frame = frame.head(left)
                    left -= frame.height
                yield frame
                if left is not None and left <= 0:
                    return

    return register_io_source(source, schema=polars_schema)


def write(
    data: Any,
    path: PathLike,
    schema: Schema | PathLike,
    type: str,
    encoding: str = "binary",
    framing: str | None = None,
    seqfile_compression: str = "none",
    seqfile_codec: str | None = None,
    **options: Any,
) -> int:
    """Writes Arrow data as a file of records; returns the number of records written.

    ``data`` is anything with ``__arrow_c_stream__`` or ``__arrow_c_array__`` (a pyarrow
    Table, RecordBatch or RecordBatchReader, a Polars DataFrame, a DuckDB result, a
    :class:`RecordReader`) or a pandas DataFrame, whose columns are converted to the record
    type's Arrow types (its index is not written). The bytes are those ``rcc convert``
    writes for the same records and options; ``options`` are the keyword-only arguments of
    the native ``write`` (``compression``, ``chunk_size``, ``chunk_records``,
    ``record_type``, ``seqfile_key``, ``include``, ``nullable``).
    """
    if _is_pandas(data):
        import pyarrow as pa

        ddl = schema if isinstance(schema, Schema) else Schema.load(schema, include=options.get("include"))
        target = ddl.arrow_schema(type, nullable=bool(options.get("nullable", False)))
        extra = [c for c in data.columns if c not in target.names]
        if extra:
            raise ValueError(
                f"unknown column(s) {', '.join(map(str, extra))} (the columns of {type} are "
                f"{', '.join(target.names)})"
            )
        data = pa.Table.from_pandas(data, schema=target, preserve_index=False)
    return _write(
        data, path, schema, type, encoding, framing, seqfile_compression, seqfile_codec, **options
    )


def _is_pandas(data: Any) -> bool:
    return type(data).__module__.split(".")[0] == "pandas" and hasattr(data, "columns")
