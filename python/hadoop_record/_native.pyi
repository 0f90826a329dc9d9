"""Type stubs of the native module (hadoop_record._native), re-exported by hadoop_record."""

from __future__ import annotations

import os
from typing import Any, Iterator, Literal, Sequence, Union

import pyarrow

_Path = Union[str, os.PathLike[str]]
_Paths = Union[_Path, Sequence[_Path]]

__version__: str

class RecordError(ValueError):
    """A record or frame that could not be read or written.

    The message names what ``rcc`` names; the attributes hold the same facts.
    """

    file: str | None
    """The file (None for bytes in memory)."""
    record: int | None
    """The record's 0-based number, when known."""
    offset: int | None
    """The byte offset of the record, or of the frame or chunk holding it, when known."""
    path: str
    """The field path inside the record (``Hit.origin.city``); empty when not in a field."""

class Schema:
    """Record types declared in Hadoop record DDL (``.jr`` files)."""

    @staticmethod
    def load(path: _Path, include: Sequence[_Path] | None = None) -> Schema:
        """Loads a DDL file and the files it includes (looked for next to the including
        file, then in ``include``). Raises ValueError listing every problem at
        file:line:col."""
    @staticmethod
    def parse(text: str, name: str = "schema.jr") -> Schema:
        """Parses DDL text; ``name`` is the file name its messages use."""
    @property
    def types(self) -> list[str]:
        """The record types declared, ``module.Class``."""
    def arrow_schema(self, type: str, nullable: bool = False) -> pyarrow.Schema:
        """The Arrow schema of a record type: the columns ``read`` gives and ``write`` takes
        (byte int8, boolean bool, int int32, long int64, float float32, double float64,
        ustring string, buffer binary, vector list, map map, record struct)."""

class RecordReader:
    """Record batches read from record files.

    Iterate it for ``pyarrow.RecordBatch``es, call ``read_all()`` for a ``pyarrow.Table``,
    or hand it to anything that takes an Arrow stream (``__arrow_c_stream__``):
    ``pyarrow.table(r)``, ``polars.from_arrow(r)``, ``duckdb.from_arrow(r)``. It is
    consumed once. The GIL is released while records are decoded.
    """

    @property
    def schema(self) -> pyarrow.Schema: ...
    @property
    def skipped(self) -> list[str]:
        """What recovering readers (``recover=True``) skipped so far, one line each."""
    def __iter__(self) -> Iterator[pyarrow.RecordBatch]: ...
    def __next__(self) -> pyarrow.RecordBatch: ...
    def read_next_batch(self) -> pyarrow.RecordBatch | None:
        """The next batch, or None at the end."""
    def read_all(self) -> pyarrow.Table:
        """Every remaining batch as one table (no copy)."""
    def close(self) -> None:
        """Stops reading; the files are closed."""
    def __enter__(self) -> RecordReader: ...
    def __exit__(self, *args: Any) -> None: ...
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...
    def __arrow_c_schema__(self) -> object: ...

class Dataset:
    """Record files as one DataFusion table:
    ``datafusion.SessionContext().register_table("hits", ds)``."""

    @property
    def schema(self) -> pyarrow.Schema: ...
    def __datafusion_table_provider__(self, session: Any = None) -> object: ...

def read(
    paths: _Paths,
    schema: Schema | _Path,
    type: str,
    encoding: str = "binary",
    framing: str | None = None,
    columns: Sequence[str] | None = None,
    batch_size: int = 8192,
    *,
    n_rows: int | None = None,
    include: Sequence[_Path] | None = None,
    recover: bool = False,
    lenient: bool = False,
    max_record_size: int | None = None,
    nullable: bool = False,
    memory_map: bool = True,
    key_type: str | None = None,
    key_schema: Schema | _Path | None = None,
    s3_endpoint: str | None = None,
) -> RecordReader:
    """Reads record files as a stream of Arrow record batches, in file order.

    Args:
        paths: a file, a directory (the files in it, hidden ones and ``_SUCCESS`` markers
            aside), a glob (``"logs/*.paddle"``), or a list of them, as ``rcc sql`` takes
            them; all of one type, encoding and framing. Local, or URLs:
            ``hdfs://NAMENODE:PORT/path`` (name services from ``HADOOP_CONF_DIR``) and
            ``s3://BUCKET/key`` (credentials, region and endpoint from ``AWS_*``).
        schema: a :class:`Schema`, or the path of a ``.jr`` file (``include``: directories
            searched for the files it includes).
        type: the record type, ``module.Class`` (or a class name declared once).
        encoding: ``binary``, ``csv``, ``xml``, ``jute`` or ``json`` (``rcc``'s ``--from``;
            JSON as ``rcc convert --to json`` writes it, unframed).
        framing: None or ``auto`` (found from the first file's first bytes: ``seqfile``,
            ``paddle``, ``paddle-cpp``, ``plasma-var`` or ``v1``, else records back to
            back), ``none`` (records back to back), ``seqfile``, ``mesos``, ``paddle``,
            ``paddle-cpp``, ``plasma-text``, ``plasma-fixed:N``, ``plasma-var`` or ``v1``
            (``rcc``'s ``--in-framing``). A SequenceFile's values are the records; one whose
            value class is not ``type`` gives a ``UserWarning``. Every file must be in the
            framing (a ``ValueError`` says what a file is instead).
        columns: the fields to decode (the others are skipped, not decoded); None: all.
        batch_size: rows per batch.
        n_rows: stop after this many rows.
        recover: paddle, plasma-var and seqfile: skip damaged chunks and carry on (see
            ``RecordReader.skipped``).
        lenient: mesos: accept whitespace around lengths, as mesos-go does.
        max_record_size: the largest record (paddle: chunk) accepted, in bytes.
        nullable: jute's nullable ustring, buffer and vector are nullable columns.
        memory_map: map local files into memory (faster for Paddle); a file truncated by
            another process while it is read then stops the process (SIGBUS).
        key_type: seqfile: the keys' record type; they are read into a struct column
            ``key`` ahead of the values' columns.
        key_schema: the schema of ``key_type`` when it is not ``schema``'s.
        s3_endpoint: the S3 endpoint of ``s3://`` URLs (an S3-compatible store), over
            ``AWS_ENDPOINT_URL``.

    Raises:
        RecordError: a damaged or hostile record or frame (file, record, offset, field path).
        ValueError: an unknown type, encoding or framing, or a bad option (naming the choices).
        KeyError: an unknown column (naming the columns).
        FileNotFoundError: a path that does not exist.
    """

def write(
    data: Any,
    path: _Path,
    schema: Schema | _Path,
    type: str,
    encoding: str = "binary",
    framing: str | None = None,
    seqfile_compression: str = "none",
    seqfile_codec: str | None = None,
    *,
    include: Sequence[_Path] | None = None,
    compression: str | None = None,
    chunk_size: int | None = None,
    chunk_records: int | None = None,
    record_type: str | None = None,
    seqfile_key: str | None = None,
    key_type: str | None = None,
    key_schema: Schema | _Path | None = None,
    nullable: bool = False,
    s3_endpoint: str | None = None,
    float_text: Literal["legacy", "shortest"] | None = None,
) -> int:
    """Writes Arrow data as a file of records; returns the number of records written.

    The bytes are those ``rcc convert --to ENCODING --out-framing FRAMING`` writes for the
    same records and options.

    Args:
        data: anything with ``__arrow_c_stream__`` or ``__arrow_c_array__``: a pyarrow
            Table, RecordBatch or RecordBatchReader, a Polars or pandas DataFrame, a DuckDB
            result, a :class:`RecordReader`. Its columns are the record's fields, by name
            (equivalent types are accepted: large or view strings, dictionaries, wider
            integers, nullable columns without nulls).
        path: the file to write (replaced): a local path, or an ``hdfs://`` or ``s3://``
            URL, where the file appears whole once every record is written, and not at
            all if writing fails.
        encoding: ``binary``, ``csv``, ``xml``, ``jute`` or ``json`` (``rcc``'s ``--to``).
        framing: None, ``seqfile``, ``mesos``, ``paddle``, ``paddle-cpp``, ``plasma-text``,
            ``plasma-fixed:N``, ``plasma-var`` or ``v1`` (``--out-framing``).
        seqfile_compression: ``none``, ``record`` or ``block``.
        seqfile_codec: ``deflate`` (the default when compressed), ``gzip``, ``bzip2``,
            ``snappy`` or ``lz4``.
        compression: paddle: ``none``, ``snappy`` or ``gzip``; plasma-var: ``none`` or
            ``snappy``.
        chunk_size: paddle and plasma-var: bytes per chunk.
        chunk_records: paddle: records per chunk at most.
        record_type: v1: the type every record is written as (required); seqfile: the value
            class (default: ``type``).
        seqfile_key: ``null`` (NullWritable, the default) or ``long`` (the record number).
        key_type: seqfile: the keys' record type, written from the struct column ``key``.
        key_schema: the schema of ``key_type`` when it is not ``schema``'s.
        nullable: jute's nullable ustring, buffer and vector: nulls are written as jute's.
        s3_endpoint: the S3 endpoint of an ``s3://`` path, over ``AWS_ENDPOINT_URL``.
        float_text: csv and xml: floats and doubles as Java's ``Double.toString`` prints
            them on JDK 8 to 18, which Hadoop clusters run (``legacy``, the default, None),
            or on JDK 19 and later (``shortest``); about 5% of values differ (``1.0E-323``
            and ``9.9E-324``). ``rcc``'s ``--float-text``. JSON keeps its own text.

    Raises:
        RecordError: a value the record type cannot hold (the records before it are written
            to a local file; a file in HDFS or S3 is not created).
        OSError: the file cannot be created or completed (naming it).
        ValueError: columns that are not the record's, an unknown encoding, framing or
            float text, an option that does not apply (``float_text`` with an encoding
            other than csv and xml).
    """

def dataset(
    paths: _Paths,
    schema: Schema | _Path,
    type: str,
    encoding: str = "binary",
    framing: str | None = None,
    *,
    include: Sequence[_Path] | None = None,
    recover: bool = False,
    lenient: bool = False,
    max_record_size: int | None = None,
    nullable: bool = False,
    memory_map: bool = True,
    batch_size: int = 8192,
    s3_endpoint: str | None = None,
) -> Dataset:
    """Record files as a DataFusion table (``__datafusion_table_provider__``): register it
    with a ``datafusion.SessionContext``. Queries decode only the columns they use and read
    large files in a splittable framing as several byte ranges at once. The arguments are
    those of :func:`read`."""

def decode(
    data: bytes,
    schema: Schema | _Path,
    type: str,
    encoding: str = "binary",
    *,
    include: Sequence[_Path] | None = None,
) -> list[dict[str, Any]]:
    """Decodes records back to back in ``data`` (``binary``, ``csv``, ``xml``, ``jute`` or
    ``json``) as dicts: ustring str, buffer bytes, byte/int/long int, float/double float,
    boolean bool, vector list, map dict, record dict, jute's null None."""

def encode(
    records: Sequence[dict[str, Any]],
    schema: Schema | _Path,
    type: str,
    encoding: str = "binary",
    *,
    include: Sequence[_Path] | None = None,
    float_text: Literal["legacy", "shortest"] | None = None,
) -> bytes:
    """Encodes dicts (the mapping of :func:`decode`) as records back to back. Raises
    RecordError naming the record and the field path of a value that does not fit.

    ``float_text`` (csv and xml only, else a ValueError): floats and doubles as Java prints
    them on JDK 8 to 18 (``legacy``, the default, None; what Hadoop clusters write) or on
    JDK 19 and later (``shortest``), as :func:`write` takes it."""
