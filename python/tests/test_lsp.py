"""`rcc lsp` end to end through pytest-lsp's client over stdio: diagnostics where `rcc check`
puts them (each kind of error, errors in an included file, a file edited into a broken
state and back), hover, definition across an include, references, completion, rename
across two files, symbols, formatting.

Needs only `rcc` (`RCC`), not the Python package: it imports nothing from conftest."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import FeatureAlreadyRegisteredError
from pytest_lsp import ClientServerConfig, LanguageClient

RCC = os.environ.get("RCC")
if not RCC:
    if os.environ.get("CI"):
        raise RuntimeError("RCC is not set: .ci/python sets it to the rcc that cargo built")
    pytest.skip("set RCC to the rcc binary to test rcc lsp", allow_module_level=True)

# Every test gets a fresh server; the workspace is a fresh temporary folder.
pytestmark = pytest.mark.asyncio


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[RCC, "lsp"]))
async def client(lsp_client: LanguageClient, tmp_path):
    # VS Code's capabilities let the server register watchers: `rcc lsp` asks to watch
    # `**/*.jr`. Answered here unless pytest-lsp answers it itself.
    try:
        lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)(lambda params: None)
    except FeatureAlreadyRegisteredError:
        pass
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
            workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="ws")],
            initialization_options={"includeDirs": ["common"]},
        )
    )
    yield
    await lsp_client.shutdown_session()


COMMON = """\
module common {
    class Point { int x; int y; }
}
"""

SHAPES = """\
include "common.jr"
module shapes {
    class Polygon {
        vector<common.Point> corners;
        ustring name;
    }
}
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def check(path: Path, *args: str) -> str:
    """What `rcc check` prints for `path`, run in its folder."""
    out = subprocess.run(
        [RCC, "check", "--color", "never", *args, path.name],
        capture_output=True,
        cwd=path.parent,
        timeout=60,
    )
    return out.stderr.decode()


async def opened(client: LanguageClient, folder: Path, name: str, text: str) -> str:
    """Writes `text` to `folder/name`, opens it, waits for its diagnostics; its URI."""
    return await open_and_wait(client, write(folder, name, text))


async def open_and_wait(client: LanguageClient, path: Path, text: str | None = None):
    """Opens `path` (with `text`, or its contents) and waits for its diagnostics."""
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="jr", version=1,
                text=path.read_text() if text is None else text,
            )
        )
    )
    await diagnostics_for(client, uri)
    return uri


async def diagnostics_for(client: LanguageClient, uri: str, timeout: float = 20):
    """The diagnostics published for `uri`, once they are (the caller pops `uri` from
    `client.diagnostics` before the change it waits for). Polled: pygls resolves a wait for
    a notification with the first of several that arrive together, so waiting for the
    next one could miss the one wanted."""
    deadline = asyncio.get_running_loop().time() + timeout
    while uri not in client.diagnostics:
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"no diagnostics for {uri} in {timeout} s")
        await asyncio.sleep(0.01)
    return client.diagnostics[uri]


def change(client: LanguageClient, uri: str, version: int, *changes):
    """Sends `changes` to `uri`, first forgetting its diagnostics (see diagnostics_for)."""
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=list(changes),
        )
    )


def insert(at: types.Position, text: str):
    return types.TextDocumentContentChangePartial(range=types.Range(start=at, end=at), text=text)


def at(text: str, needle: str, n: int = 0, plus: int = 0) -> types.Position:
    """The position of the `n`th `needle` in `text` (ASCII), plus `plus` characters."""
    index = -1
    for _ in range(n + 1):
        index = text.index(needle, index + 1)
    index += plus
    line = text.count("\n", 0, index)
    return types.Position(line=line, character=index - (text.rfind("\n", 0, index) + 1))


def edits_by_uri(edit: types.WorkspaceEdit) -> dict:
    """The version and the edits of each file `edit` changes, by URI: VS Code takes
    versioned edits (`documentChanges`), one `TextDocumentEdit` per file."""
    assert edit.changes is None
    return {c.text_document.uri: (c.text_document.version, list(c.edits))
            for c in edit.document_changes}


def doc(uri: str, position: types.Position) -> dict:
    return dict(text_document=types.TextDocumentIdentifier(uri=uri), position=position)


# ---------------------------------------------------------------------------------------
# Diagnostics: one case per kind of `rcc check` error, at the range rcc check names.

CASES = {
    "syntax error": ("module m { class C { int x } }", "expected `;`, found `}`", "}", 0),
    "unknown type": ("module m { class C { Pont p; } class Point { int x; } }",
                     "unknown type `Pont`", "Pont", 0),
    "duplicate class": ("module m { class C { int x; } class C { int y; } }",
                        "class `C` is declared twice in module `m`", "C", 1),
    "duplicate field": ("module m { class C { int x; long x; } }",
                        "field `x` is declared twice in class `C`", "x", 1),
    "contains itself": ("module m { class A { B b; } class B { A a; } }",
                        "record `m.A` contains itself, so it would be infinitely large", "B", 0),
    "keyword as a name": ("module m { class C { int map; } }",
                          "`map` is a keyword and cannot name a field", "map", 0),
    "include not found": ('include "nowhere.jr"\nmodule m { class C { int x; } }',
                          "cannot find included file `nowhere.jr`", '"nowhere.jr"', 0),
    "empty class": ("module m { class C { } }", "class `C` has no fields", "C", 0),
}


@pytest.mark.parametrize("case", sorted(CASES))
async def test_diagnostics_match_rcc_check(client: LanguageClient, tmp_path, case):
    text, message, needle, n = CASES[case]
    path = write(tmp_path, "case.jr", text)
    diagnostics = await wait_open(client, path)
    assert [d.message.split("\n")[0] for d in diagnostics] == [message]
    d = diagnostics[0]
    assert d.severity == types.DiagnosticSeverity.Error
    assert d.source == "rcc"
    start = at(text, needle, n)
    end = at(text, needle, n, len(needle))
    assert (d.range.start, d.range.end) == (start, end)
    # rcc check says the same, at the same line and column (1-based).
    printed = check(path)
    assert f"error: {message}" in printed
    assert f"case.jr:{start.line + 1}:{start.character + 1}" in printed


async def wait_open(client, path):
    await open_and_wait(client, path)
    return client.diagnostics[path.as_uri()]


async def test_compatibility_warnings_are_warnings(client: LanguageClient, tmp_path):
    text = "module m { class C { int x; }; }\n"
    path = write(tmp_path, "w.jr", text)
    diagnostics = await wait_open(client, path)
    assert len(diagnostics) == 1
    assert diagnostics[0].severity == types.DiagnosticSeverity.Warning
    assert diagnostics[0].message.startswith("`;` after the `}` of class `C`")
    assert diagnostics[0].range.start == at(text, ";", 1)


async def test_errors_in_an_included_file_are_published_on_it(client: LanguageClient, tmp_path):
    write(tmp_path, "common/common.jr", "module common { class Point { int x; Nope y; } }\n")
    main = write(tmp_path, "main.jr", 'include "common.jr"\nmodule m { class C { common.Point p; } }\n')
    await open_and_wait(client, main)
    included = (tmp_path / "common" / "common.jr").as_uri()
    # Published for the included file too (found through includeDirs), at the bad type.
    (d,) = await diagnostics_for(client, included)
    assert d.message.startswith("unknown type `Nope`")
    assert d.range.start == types.Position(line=0, character=37)
    assert len(client.diagnostics[main.as_uri()]) == 0


async def test_a_change_to_an_included_file_rechecks_its_includers(client: LanguageClient, tmp_path):
    common = write(tmp_path, "common.jr", COMMON)
    shapes = write(tmp_path, "shapes.jr", SHAPES)
    await open_and_wait(client, shapes)
    await open_and_wait(client, common)
    assert len(client.diagnostics[shapes.as_uri()]) == 0
    # Rename Point to Pt in the included file only: shapes.jr now names an unknown type.
    client.diagnostics.pop(shapes.as_uri())
    change(client, common.as_uri(), 2, types.TextDocumentContentChangePartial(
        range=types.Range(start=at(COMMON, "Point"), end=at(COMMON, "Point", 0, 5)), text="Pt"))
    diagnostics = await diagnostics_for(client, shapes.as_uri())
    assert [d.message.split("\n")[0] for d in diagnostics] == ["unknown type `common.Point`"]
    assert diagnostics[0].range.start == at(SHAPES, "common.Point")


async def test_a_file_edited_into_a_broken_state_and_back(client: LanguageClient, tmp_path):
    write(tmp_path, "common.jr", COMMON)
    shapes = write(tmp_path, "shapes.jr", SHAPES)
    uri = await open_and_wait(client, shapes)
    assert len(client.diagnostics[uri]) == 0
    end = at(SHAPES, "ustring name;", 0, len("ustring name;"))
    # Type a half field, character by character, as an editor sends it.
    version = 1
    for ch in "\n        vector<comm":
        version += 1
        change(client, uri, version, insert(end, ch))
        end = types.Position(line=end.line + 1, character=0) if ch == "\n" else \
            types.Position(line=end.line, character=end.character + 1)
    diagnostics = await diagnostics_for(client, uri)
    while not diagnostics:  # an early publish, for the text before the type began
        client.diagnostics.pop(uri)
        diagnostics = await diagnostics_for(client, uri)
    assert diagnostics[0].message.startswith("expected")
    # Completion works on the broken file, from the last analysis that parsed.
    items = await client.text_document_completion_async(
        types.CompletionParams(**doc(uri, end)))
    labels = [i.label for i in (items.items if hasattr(items, "items") else items)]
    assert "common.Point" in labels
    # Back to the original text, in one full-text change.
    change(client, uri, version + 1, types.TextDocumentContentChangeWholeDocument(text=SHAPES))
    assert len(await diagnostics_for(client, uri)) == 0


# ---------------------------------------------------------------------------------------
# Hover, navigation, rename, completion, symbols.

async def test_hover_shows_the_ddl_rust_java_and_cpp_types(client: LanguageClient, tmp_path):
    write(tmp_path, "common.jr", COMMON)
    shapes = write(tmp_path, "shapes.jr", SHAPES)
    uri = await open_and_wait(client, shapes)
    hover = await client.text_document_hover_async(
        types.HoverParams(**doc(uri, at(SHAPES, "corners", 0, 2))))
    text = hover.contents.value
    assert "vector<common.Point> corners" in text
    assert "Rust: `Vec<super::common::Point>` (`corners`)" in text
    assert "Java: `java.util.ArrayList<common.Point>` (`corners`, `getCorners`, `setCorners`)" in text
    assert "C++: `::std::vector<::common::Point>` (`corners`, `getCorners`)" in text
    assert hover.range.start == at(SHAPES, "corners")
    # On a record reference: the record, declared in the included file.
    hover = await client.text_document_hover_async(
        types.HoverParams(**doc(uri, at(SHAPES, "Point", 0, 1))))
    assert "class common.Point" in hover.contents.value
    assert "common.jr:2:11" in hover.contents.value
    assert "- Rust: `common::Point`" in hover.contents.value


async def test_hover_shows_the_record_comment(client: LanguageClient, tmp_path):
    text = "module m {\n    /** A point on the plane. */\n    class P { int x; }\n}\n"
    uri = await opened(client, tmp_path, "doc.jr", text)
    hover = await client.text_document_hover_async(
        types.HoverParams(**doc(uri, at(text, "P {"))))
    assert "A point on the plane." in hover.contents.value


async def test_definition_across_an_include(client: LanguageClient, tmp_path):
    common = write(tmp_path, "common.jr", COMMON)
    shapes = write(tmp_path, "shapes.jr", SHAPES)
    uri = await open_and_wait(client, shapes)
    found = await client.text_document_definition_async(
        types.DefinitionParams(**doc(uri, at(SHAPES, "common.Point", 0, 8))))
    found = found[0] if isinstance(found, list) else found
    assert found.uri == common.as_uri()
    assert found.range == types.Range(start=at(COMMON, "Point"), end=at(COMMON, "Point", 0, 5))
    # The include's path leads to the file.
    found = await client.text_document_definition_async(
        types.DefinitionParams(**doc(uri, at(SHAPES, "common.jr", 0, 2))))
    found = found[0] if isinstance(found, list) else found
    assert found.uri == common.as_uri()


async def test_references_in_every_file(client: LanguageClient, tmp_path):
    common = write(tmp_path, "common.jr", COMMON)
    shapes = write(tmp_path, "shapes.jr", SHAPES + "module more { class M { common.Point p; } }\n")
    # Only common.jr is open: shapes.jr is found in the workspace folder.
    uri = await open_and_wait(client, common)
    refs = await client.text_document_references_async(
        types.ReferenceParams(**doc(uri, at(COMMON, "Point", 0, 2)),
                              context=types.ReferenceContext(include_declaration=True)))
    found = sorted((r.uri, r.range.start.line) for r in refs)
    assert found == [(common.as_uri(), 1), (shapes.as_uri(), 3), (shapes.as_uri(), 7)]


async def test_rename_across_two_files(client: LanguageClient, tmp_path):
    common = write(tmp_path, "common.jr", COMMON)
    shapes = write(tmp_path, "shapes.jr", SHAPES)
    uri = await open_and_wait(client, shapes)
    position = at(SHAPES, "common.Point", 0, 9)
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(**doc(uri, position)))
    assert prepared.start == at(SHAPES, "Point")
    edit = await client.text_document_rename_async(
        types.RenameParams(**doc(uri, position), new_name="Vertex"))
    files = edits_by_uri(edit)
    # The open file's version; `None` for the file that is not open.
    assert {uri: version for uri, (version, _) in files.items()} == {
        common.as_uri(): None, shapes.as_uri(): 1}
    changes = {uri: edits for uri, (_, edits) in files.items()}
    assert [e.range.start for e in changes[common.as_uri()]] == [at(COMMON, "Point")]
    assert [e.new_text for e in changes[shapes.as_uri()]] == ["Vertex"]
    # Applied, both files check.
    def apply(path: Path, text: str, edits):
        lines = text.split("\n")
        for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
            line = lines[e.range.start.line]
            lines[e.range.start.line] = line[:e.range.start.character] + e.new_text + line[e.range.end.character:]
        path.write_text("\n".join(lines))
    apply(common, COMMON, changes[common.as_uri()])
    apply(shapes, SHAPES, changes[shapes.as_uri()])
    assert "ok: " in subprocess.run([RCC, "check", shapes.name], cwd=tmp_path,
                                    capture_output=True, timeout=60).stdout.decode()
    assert "vector<common.Vertex>" in shapes.read_text()


async def test_rename_is_refused_with_a_reason(client: LanguageClient, tmp_path):
    text = "module m { class A { int x; } class B { A a; int y; } }\n"
    uri = await opened(client, tmp_path, "r.jr", text)
    from pygls.exceptions import JsonRpcException
    for new, reason in [("B", "module `m` already has a record `B`"),
                        ("class", "is a keyword of the DDL"),
                        ("9lives", "is not a DDL name")]:
        with pytest.raises(JsonRpcException, match=reason):
            await client.text_document_rename_async(
                types.RenameParams(**doc(uri, at(text, "A {")), new_name=new))
    with pytest.raises(JsonRpcException, match="record `m.B` already has a field `a`"):
        await client.text_document_rename_async(
            types.RenameParams(**doc(uri, at(text, "y;")), new_name="a"))
    # A target-language keyword is escaped by every back end: accepted.
    edit = await client.text_document_rename_async(
        types.RenameParams(**doc(uri, at(text, "x;")), new_name="delete"))
    assert [e.new_text for e in edits_by_uri(edit)[uri][1]] == ["delete"]


async def test_completion_offers_types_and_records_in_scope(client: LanguageClient, tmp_path):
    write(tmp_path, "common.jr", COMMON)
    shapes = write(tmp_path, "shapes.jr", SHAPES)
    uri = await open_and_wait(client, shapes)
    items = await client.text_document_completion_async(
        types.CompletionParams(**doc(uri, at(SHAPES, "ustring name"))))
    items = items.items if hasattr(items, "items") else items
    labels = {i.label: i for i in items}
    for want in ["byte", "boolean", "int", "long", "float", "double", "ustring", "buffer",
                 "vector", "map", "Polygon", "common.Point"]:
        assert want in labels, want
    assert labels["common.Point"].kind == types.CompletionItemKind.Class
    # At the top level: keywords.
    items = await client.text_document_completion_async(
        types.CompletionParams(**doc(uri, types.Position(line=0, character=0))))
    items = items.items if hasattr(items, "items") else items
    assert sorted(i.label for i in items) == ["include", "module"]


async def test_document_and_workspace_symbols(client: LanguageClient, tmp_path):
    write(tmp_path, "common.jr", COMMON)
    shapes = write(tmp_path, "shapes.jr", SHAPES)
    uri = await open_and_wait(client, shapes)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    (module,) = symbols
    assert (module.name, module.kind) == ("shapes", types.SymbolKind.Module)
    (polygon,) = module.children
    assert [f.name for f in polygon.children] == ["corners", "name"]
    assert polygon.children[0].detail == "vector<common.Point>"
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="point"))
    names = sorted(s.name for s in found)
    assert names == ["common.Point"]


async def test_formatting_is_rcc_fmts_output(client: LanguageClient, tmp_path):
    text = "module m {class C {int x;   vector< int >y;}}\n"
    uri = await opened(client, tmp_path, "f.jr", text)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True)))
    expected = subprocess.run([RCC, "fmt", "-"], input=text.encode(), capture_output=True,
                              check=True, timeout=60).stdout.decode()
    (edit,) = edits
    assert edit.range.start == types.Position(line=0, character=0)
    assert edit.new_text == expected


# ---------------------------------------------------------------------------------------
# Neovim's built-in client (headless), through python/tests/lsp/neovim.lua.

NEOVIM_SCRIPT = Path(__file__).parent / "lsp" / "neovim.lua"


async def test_neovim_shows_diagnostics_and_hover(tmp_path):
    nvim = shutil.which("nvim")
    if nvim is None:
        message = "Neovim is not installed: .ci/python installs it (apt-get install neovim)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    write(tmp_path, "common.jr", COMMON)
    # `common.Pointt`: an unknown type, with the hover's field on the line above it.
    broken = SHAPES.replace("ustring name;", "common.Pointt name;")
    write(tmp_path, "shapes.jr", broken)
    out = tmp_path / "out.json"
    env = dict(os.environ, RCC=RCC, DDL_DIR=str(tmp_path), OUT=str(out))
    run = subprocess.run(
        [nvim, "--headless", "--clean", "-c", f"luafile {NEOVIM_SCRIPT}"],
        env=env, capture_output=True, timeout=120, stdin=subprocess.DEVNULL,
    )
    assert out.exists(), run.stderr.decode()
    result = json.loads(out.read_text())
    assert "error" not in result, result
    (d,) = result["diagnostics"]
    start, end = at(broken, "common.Pointt"), at(broken, "common.Pointt", 0, len("common.Pointt"))
    assert (d["line"], d["col"], d["end_line"], d["end_col"]) == \
        (start.line, start.character, end.line, end.character)
    assert d["message"].startswith("unknown type `common.Pointt`\nhelp: did you mean `common.Point`?")
    assert d["severity"] == 1  # vim.diagnostic.severity.ERROR
    assert "vector<common.Point> corners" in result["hover"]
    assert "Rust: `Vec<super::common::Point>`" in result["hover"]
