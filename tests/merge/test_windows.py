"""The syntax check's windows inside a Python block: a method of a class that spans the file is
checked alone (dedented), not by parsing the whole file, and never a stretch that does not stand
alone (inside brackets, under a decorator, inside a string)."""

import difflib

import pytest

from fastapply import ApplyError, apply
from fastapply.merge.windows import changed_windows


def _class(methods: int, decorated: bool = False) -> str:
    """One class holding the whole file: a top-level window would be all of it."""
    body = "".join(("    @property\n" if decorated else "") +
                   f"    def m{n}(self, x):\n        y = x + {n}\n        return y * 2\n\n" for n in range(methods))
    return "import os\n\n\nclass Big:\n    \"\"\"A long class.\"\"\"\n\n" + body


def _origin(old: list[str], new: list[str]) -> list[tuple[int, int]]:
    """A splice's origin: each merged row's original line where the two texts agree (difflib's
    matching blocks), -1 for new lines."""
    origin = [(-1, -1)] * len(new)
    for a, b, size in difflib.SequenceMatcher(None, old, new, autojunk=False).get_matching_blocks():
        for k in range(size):
            origin[b + k] = (-1, a + k)
    return origin


def _windows(old_text: str, new_text: str, indented: bool = True) -> list[tuple[str, str]] | None:
    old, new = old_text.split("\n"), new_text.split("\n")
    return changed_windows(old, new, _origin(old, new), indented=indented)


def test_a_method_of_a_long_class_is_its_own_window() -> None:
    original = _class(60)
    merged = original.replace("        y = x + 30\n", "        y = x + 30\n        y += 1\n") \
        .replace("        y = x + 50\n", "        y = x - 50\n")
    assert _windows(original, merged, indented=False) is None  # (the class is the whole file)
    windows = _windows(original, merged)
    # the statements around each edit at its own depth: the new line alone (between two whole
    # statements), the edited one alone
    assert windows == [("", "y += 1"), ("y = x + 50", "y = x - 50")]
    deeper = original.replace("        return y * 2\n\n    def m31", "        return y * 2\n    x = 1\n\n    def m31")
    # (a class-level line after a method: from the method, the statement at its depth above it)
    assert _windows(original, deeper) == [("def m30(self, x):\n    y = x + 30\n    return y * 2\n",
                                           "def m30(self, x):\n    y = x + 30\n    return y * 2\nx = 1\n")]
    nested = original.replace("        y = x + 30\n", "        y = x + 30\n        if y:\n            y -= 1\n")
    assert _windows(original, nested) == [("", "if y:\n    y -= 1")]


def test_a_broken_method_in_a_long_class_is_still_refused() -> None:
    original = _class(60)
    update = ("class Big:\n    # ... existing code ...\n    def m30(self, x):\n        y = (x + 30\n"
              "        return y * 2\n    # ... existing code ...\n")
    with pytest.raises(ApplyError) as caught:
        apply(original, update, filename="big.py")
    assert caught.value.code == "syntax_regressed"
    fixed = update.replace("y = (x + 30", "y = x + 31")
    assert apply(original, fixed, filename="big.py").merged_code == original.replace("y = x + 30\n", "y = x + 31\n")


def test_a_dedent_that_breaks_the_block_is_left_to_the_whole_file() -> None:
    original = _class(60)
    merged = original.replace("        y = x + 30\n", "        y = x + 30\n  y += 1\n")
    assert _windows(original, merged) is None  # (a line left of the window's depth: no window)


def test_a_window_does_not_start_under_a_decorator() -> None:
    original = _class(60, decorated=True)
    merged = original.replace("    @property\n    def m30(", "    @property\n    m = 1\n    def m30(")
    windows = _windows(original, merged)
    assert windows is not None and len(windows) == 1
    assert windows[0][0].startswith("@property\ndef m30(") and windows[0][1].startswith("@property\nm = 1\n")


def test_an_edit_inside_a_call_takes_the_whole_statement() -> None:
    original = _class(60).replace(
        "    def m30(self, x):\n",
        "    control = make(\n        \"ACQ?\",\n        \"ACQ %s\",\n        check=True,\n    )\n\n    def m30(self, x):\n")
    merged = original.replace("        check=True,\n", "        check=False,\n")
    windows = _windows(original, merged)
    assert windows == [('control = make(\n    "ACQ?",\n    "ACQ %s",\n    check=True,\n)\n',
                        'control = make(\n    "ACQ?",\n    "ACQ %s",\n    check=False,\n)\n')]


def test_an_edit_inside_a_docstring_takes_the_docstring() -> None:
    original = _class(60).replace("    def m30(self, x):\n",
                                  "    def m30(self, x):\n        \"\"\"Add thirty.\n\nLong text at column 0.\n"
                                  "        \"\"\"\n")
    merged = original.replace("Long text at column 0.", "Longer text at column 0.")
    windows = _windows(original, merged)
    assert windows == [('"""Add thirty.\n\nLong text at column 0.\n"""',
                        '"""Add thirty.\n\nLonger text at column 0.\n"""')]


def test_comments_and_blank_lines_alone_need_no_window() -> None:
    original = _class(60)
    merged = original.replace("        y = x + 30\n", "        # thirty\n\n        y = x + 30\n")
    assert _windows(original, merged) == [("", "")]
    assert _windows(original, merged, indented=False) is None  # (other languages: a comment may open one)


def test_a_dict_key_over_its_value_is_no_block_header() -> None:
    original = _class(60).replace("    def m30(self, x):\n",
                                  "    table = {\n        'a':\n            1,\n        'b': 2,\n    }\n\n"
                                  "    def m30(self, x):\n")
    merged = original.replace("            1,\n", "            x = 1,\n")
    windows = _windows(original, merged)
    assert windows is not None and len(windows) == 1
    assert windows[0][1].startswith("table = {\n    'a':\n        x = 1,")  # (the whole statement: it breaks)
