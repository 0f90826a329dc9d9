"""The example generator on real `rcc describe` output: the output is valid against
docs/describe.schema.json, and the generated dataclasses import and hold what the DDL says."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import typing
from pathlib import Path

import jsonschema
import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GENERATOR = HERE / "describe_to_dataclasses.py"
SCHEMA = ROOT / "docs" / "describe.schema.json"
PEOPLE = ROOT / "compiler" / "tests" / "ddl" / "describe" / "people.jr"
ZOOKEEPER = ROOT / "examples" / "zookeeper-client" / "schema" / "zookeeper.jute"


@pytest.fixture(scope="session")
def rcc() -> Path:
    """`rcc` as the workspace built it (`RCC`, else the cargo target directory)."""
    if os.environ.get("RCC"):
        return Path(os.environ["RCC"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for candidate in (target / "debug" / "rcc", target / "release" / "rcc"):
        if candidate.exists():
            return candidate
    found = shutil.which("rcc")
    if found:
        return Path(found)
    if os.environ.get("CI"):
        pytest.fail("rcc is not built: cargo test --workspace builds it (or set RCC)")
    pytest.skip("rcc is not built (set RCC)")


def describe(rcc: Path, *files: Path) -> dict:
    done = subprocess.run(
        [str(rcc), "describe", *map(str, files)], capture_output=True, check=True, timeout=60
    )
    return json.loads(done.stdout)


def generate(model: dict, tmp_path: Path, name: str):
    """Runs the generator as a user would (JSON on standard input) and imports the result."""
    done = subprocess.run(
        [sys.executable, str(GENERATOR), "-o", str(tmp_path / f"{name}.py")],
        input=json.dumps(model).encode(),
        capture_output=True,
        check=True,
        timeout=60,
    )
    assert done.stderr == b""
    spec = importlib.util.spec_from_file_location(name, tmp_path / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look the module up by name
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("ddl", [PEOPLE, ZOOKEEPER], ids=["people", "zookeeper"])
def test_describe_output_is_valid_against_its_schema(rcc, ddl):
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    model = describe(rcc, ddl)
    jsonschema.Draft202012Validator(schema).validate(model)
    assert model["format_version"] == schema["properties"]["format_version"]["const"]
    broken = dict(model, format_version=model["format_version"] + 1)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(broken)


def test_dataclasses_hold_what_the_ddl_says(rcc, tmp_path):
    people = generate(describe(rcc, PEOPLE), tmp_path, "people")
    assert people.__all__ == ["Point", "Person", "Crowd"]
    for cls in (people.Point, people.Person, people.Crowd):
        assert dataclasses.is_dataclass(cls)

    hints = typing.get_type_hints(people.Person)
    assert [f.name for f in dataclasses.fields(people.Person)] == ["name", "home", "friends", "keys"]
    assert hints["name"] is str
    assert hints["home"] is people.Point
    assert hints["friends"] == list[people.Person]
    assert hints["keys"] == dict[str, list[bytes]]
    assert typing.get_type_hints(people.Point) == {
        "DDL_NAME": typing.ClassVar[str],
        "SIGNATURE": typing.ClassVar[str],
        "x": float,
        "y": float,
    }

    # Empty values by default, and no sharing between instances.
    a, b = people.Person(), people.Person()
    assert a == people.Person(name="", home=people.Point(0.0, 0.0), friends=[], keys={})
    a.friends.append(b)
    assert b.friends == []
    crowd = people.Crowd(people=[people.Person(name="Ada", keys={"git": [b"k"]})])
    assert crowd.people[0].home == people.Point()

    # The DDL's names, signature and comments.
    assert people.Person.DDL_NAME == "describe.people.Person"
    assert people.Person.SIGNATURE.startswith("LPerson(")
    assert people.Point.__doc__.startswith("A place on a map.")
    assert "Someone." in people.Person.__doc__
    source = (tmp_path / "people.py").read_text()
    assert "    # Where they live.\n    home: Point" in source


def test_zookeepers_records_all_become_classes(rcc, tmp_path):
    model = describe(rcc, ZOOKEEPER)
    zk = generate(model, tmp_path, "zookeeper_records")
    assert len(zk.__all__) == len(model["records"]) > 50
    stat = zk.Stat(czxid=1)
    assert (stat.czxid, stat.version) == (1, 0)
    hints = typing.get_type_hints(zk.CreateRequest)
    assert hints["acl"] == list[zk.ACL]
    assert hints["data"] is bytes


def test_clashing_names_and_keywords(rcc, tmp_path):
    ddl = tmp_path / "clash.jr"
    ddl.write_text(
        "module a.b { class X { int from; boolean None; } }\n"
        "module c { class X { a.b.X inner; vector<X> more; } }\n"
    )
    clash = generate(describe(rcc, ddl), tmp_path, "clash")
    assert clash.__all__ == ["ABX", "CX"]
    assert [f.name for f in dataclasses.fields(clash.ABX)] == ["from_", "None_"]
    hints = typing.get_type_hints(clash.CX)
    assert hints["inner"] is clash.ABX
    assert hints["more"] == list[clash.CX]


def test_an_unknown_format_version_is_refused(tmp_path):
    done = subprocess.run(
        [sys.executable, str(GENERATOR)],
        input=b'{"format_version": 99, "files": [], "modules": [], "records": []}',
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert b"format_version 99" in done.stderr
    assert done.stdout == b""
