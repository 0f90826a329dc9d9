#!/usr/bin/env python3
"""Python dataclasses from Hadoop Record I/O DDL, through `rcc describe`.

    rcc describe links.jr | python3 describe_to_dataclasses.py > links.py
    python3 describe_to_dataclasses.py links.json -o links.py

One dataclass per record of the model (included files too, so that references resolve),
every field with its type as a Python annotation and an empty default, the DDL comments as
docstrings and comments. Standard library only; Python 3.9 or later.

Types: byte, int, long -> int; boolean -> bool; float, double -> float; ustring -> str;
buffer -> bytes; vector<T> -> list[T]; map<K, V> -> dict[K, V]; a record -> its class.
A record's class is named as the record, or after its module too (`LinksLink` for
`links.Link`) when records of several modules share the name. A field named like a Python
keyword gets a `_` (`from_`).
"""

from __future__ import annotations

import argparse
import json
import keyword
import sys
from typing import Any

#: The `format_version` of `rcc describe` output this generator reads.
FORMAT_VERSION = 1

PRIMITIVES = {
    "byte": ("int", "0"),
    "boolean": ("bool", "False"),
    "int": ("int", "0"),
    "long": ("int", "0"),
    "float": ("float", "0.0"),
    "double": ("float", "0.0"),
    "ustring": ("str", '""'),
    "buffer": ("bytes", 'b""'),
}


def class_names(records: list[dict[str, Any]]) -> dict[str, str]:
    """The Python class name of each record, by qualified name."""
    count: dict[str, int] = {}
    for record in records:
        count[record["name"]] = count.get(record["name"], 0) + 1
    names = {}
    for record in records:
        name = record["name"]
        if count[name] > 1:
            name = "".join(s[:1].upper() + s[1:] for s in record["module"].split(".")) + name
        names[record["qualified_name"]] = name
    return names


def annotation(ty: dict[str, Any], names: dict[str, str]) -> str:
    """The Python type of a DDL type (a `type` of `rcc describe`)."""
    kind = ty["kind"]
    if kind == "primitive":
        return PRIMITIVES[ty["name"]][0]
    if kind == "vector":
        return f"list[{annotation(ty['element'], names)}]"
    if kind == "map":
        return f"dict[{annotation(ty['key'], names)}, {annotation(ty['value'], names)}]"
    if kind == "record":
        return names[ty["name"]]
    raise ValueError(f"unknown type kind {kind!r}")


def default(ty: dict[str, Any], names: dict[str, str]) -> str:
    """The field's default: the type's empty value, as Hadoop's generated classes start."""
    kind = ty["kind"]
    if kind == "primitive":
        return PRIMITIVES[ty["name"]][1]
    if kind == "vector":
        return "field(default_factory=list)"
    if kind == "map":
        return "field(default_factory=dict)"
    # A lambda: the record's class may be defined further down.
    return f"field(default_factory=lambda: {names[ty['name']]}())"


def python_name(name: str) -> str:
    return f"{name}_" if keyword.iskeyword(name) else name


def comment_lines(doc: str, indent: str) -> list[str]:
    return [f"{indent}# {line}".rstrip() for line in doc.splitlines()]


def docstring(record: dict[str, Any]) -> list[str]:
    """The class's docstring: the record's comments, then where it is declared."""
    where = record["location"]
    lines = record["doc"].splitlines()
    lines += [""] if lines else []
    lines.append(f"The DDL record `{record['qualified_name']}` ({where['file']}:{where['line']}).")
    lines = [line.replace("\\", "\\\\").replace('"""', '\\"\\"\\"') for line in lines]
    if len(lines) == 1:
        return [f'    """{lines[0]}"""']
    return [f'    """{lines[0]}'] + [f"    {line}".rstrip() for line in lines[1:]] + ['    """']


def generate(model: dict[str, Any]) -> str:
    """The Python module for the model `rcc describe` printed."""
    version = model.get("format_version")
    if version != FORMAT_VERSION:
        raise ValueError(
            f"rcc describe output of format_version {version!r}; this generator reads {FORMAT_VERSION}"
        )
    records = model["records"]
    names = class_names(records)
    roots = ", ".join(f["path"] for f in model["files"] if f["root"])
    out = [
        f"# Generated from `rcc describe {roots}` by describe_to_dataclasses.py. Do not edit.",
        "",
        "from __future__ import annotations",
        "",
        "from dataclasses import dataclass, field",
        "from typing import ClassVar",
        "",
        f"__all__ = {[names[r['qualified_name']] for r in records]!r}",
    ]
    for record in records:
        out += ["", "", "@dataclass", f"class {names[record['qualified_name']]}:"]
        out += docstring(record)
        out += [
            "",
            f"    DDL_NAME: ClassVar[str] = {record['qualified_name']!r}",
            f"    SIGNATURE: ClassVar[str] = {record['signature']!r}",
            "",
        ]
        for f in record["fields"]:
            out += comment_lines(f["doc"], "    ")
            ty = annotation(f["type"], names)
            out.append(f"    {python_name(f['name'])}: {ty} = {default(f['type'], names)}")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Python dataclasses from the JSON `rcc describe` prints."
    )
    parser.add_argument("input", nargs="?", help="rcc describe output (default: standard input)")
    parser.add_argument("-o", "--output", help="the Python file to write (default: standard output)")
    args = parser.parse_args(argv)
    try:
        if args.input:
            with open(args.input, encoding="utf-8") as f:
                model = json.load(f)
        else:
            model = json.load(sys.stdin)
        code = generate(model)
    except (OSError, ValueError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(code)
    else:
        sys.stdout.write(code)
    return 0


if __name__ == "__main__":
    sys.exit(main())
