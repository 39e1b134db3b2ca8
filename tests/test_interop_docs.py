"""The interop documentation runs: every Python example in docs/interop.md. (The usage
examples in the modules' docstrings run as doctests with the rest of src/.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "interop.md"
# the optional library each adapter needs (the "rl" and "openspiel" extras)
THIRD_PARTY = {"kastkopp.interop.openspiel": "pyspiel", "kastkopp.interop.pettingzoo": "pettingzoo"}
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_interop_page_has_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
def test_every_python_example_in_the_interop_page_runs(index, capsys):
    source = EXAMPLES[index]
    # an example skips only when the library it adapts to is not installed; a broken import
    # of kastkopp's own fails
    for module in re.findall(r"^(?:from|import) (kastkopp\.interop\.\w+|pyspiel)", source,
                             re.MULTILINE):
        if module in THIRD_PARTY or module == "pyspiel":
            pytest.importorskip(THIRD_PARTY.get(module, module))
    exec(compile(source, f"{DOC.name} example {index + 1}", "exec"), {})
