"""The interop documentation runs: every Python example in docs/interop.md. (The usage
examples in the modules' docstrings run as doctests with the rest of src/.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "interop.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_interop_page_has_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
def test_every_python_example_in_the_interop_page_runs(index, capsys):
    source = EXAMPLES[index]
    for module in re.findall(r"^(?:from|import) (kastkopp\.interop\.\w+|pyspiel)", source,
                             re.MULTILINE):
        pytest.importorskip(module)
    exec(compile(source, f"{DOC.name} example {index + 1}", "exec"), {})
