"""The user guide's Python chapter (docs/guide/python.md), run as its reader runs it: its
`>>>` sessions (the ```pycon blocks, one session), with Python's doctest, in a copy of
examples/sql."""

import doctest
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHAPTER = ROOT / "docs" / "guide" / "python.md"


def test_the_python_chapter_prints_what_it_shows(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "examples" / "sql", tmp_path / "sql")
    monkeypatch.chdir(tmp_path / "sql")
    blocks = re.findall(r"^```pycon\n(.*?)^```", CHAPTER.read_text(), re.M | re.S)
    session = "\n".join(blocks)
    test = doctest.DocTestParser().get_doctest(session, {}, "python.md", str(CHAPTER), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    result = runner.run(test)
    assert result.attempted >= 10, result
    assert result.failed == 0, result
