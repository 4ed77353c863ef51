"""Whole-file snippets come back exactly; the windowed syntax check still catches broken merges."""

import pytest

from fastapply import ApplyError, apply
from fastapply.merge.syntax import changed_window


def _module(functions: int) -> str:
    return "".join(f"def f{n}(x):\n    y = x + {n}\n    return y * 2\n\n\n" for n in range(functions))


def test_whole_file_snippet_keeps_its_trailing_blank_line() -> None:
    original = "import a\n\n\ndef f():\n    return a.x\n"
    update = "import a\nimport b\n\n\ndef f():\n    return a.x + b.y\n\n"
    result = apply(original, update, filename="m.py")
    assert result.method == "whole_file" and result.merged_code == update


def test_whole_file_snippet_keeps_crlf_and_bom() -> None:
    original = "\ufeffimport a\r\n\r\n\r\ndef f():\r\n    return a.x\r\n"
    update = "import a\nimport b\n\n\ndef f():\n    return a.x + b.y\n\n"
    result = apply(original, update, filename="m.py")
    assert result.merged_code == "\ufeff" + update.replace("\n", "\r\n")


def test_long_whole_file_replacement_is_exact() -> None:
    original = _module(80)
    update = original.replace("y = x + 40\n", "y = x + 41\n") + "\n"
    result = apply(original, update, filename="m.py")
    assert result.method == "whole_file" and result.merged_code == update


def test_window_is_the_top_level_statements_around_the_change() -> None:
    original = _module(80)
    merged = original.replace("    y = x + 40\n", "    y = x + 40\n    y += 1\n")
    window = changed_window(original, merged)
    assert window is not None
    old, new = window
    assert old.startswith("def f40(x):") and "def f39" not in old and "def f42" not in old
    assert new == old.replace("    y = x + 40\n", "    y = x + 40\n    y += 1\n")
    assert changed_window(original, original) == ("", "")
    assert changed_window(_module(3), _module(3).replace("+ 1", "+ 5")) is None  # too short to bother


def test_broken_edit_in_a_long_file_is_still_refused() -> None:
    original = _module(80)
    update = "# ... existing code ...\ndef f40(x):\n    y = (x + 40\n    return y * 2\n# ... existing code ...\n"
    with pytest.raises(ApplyError) as caught:
        apply(original, update, filename="m.py")
    assert caught.value.code == "syntax_regressed"


def test_edit_in_a_long_file_with_an_existing_error_elsewhere_merges() -> None:
    original = _module(80).replace("def f5(x):", "def f5(x:")  # an error the original already has
    update = "# ... existing code ...\ndef f40(x):\n    y = x + 400\n    # ... existing code ...\n"
    merged = apply(original, update, filename="m.py").merged_code
    assert merged == original.replace("y = x + 40\n", "y = x + 400\n")


def test_a_whole_last_function_without_its_trailing_comment_keeps_the_comment() -> None:
    """colorsys.py (today's generator): the snippet gives the file's last function whole, with a new
    parameter, ending with its last statement; the original's function ends with `# Cannot get
    here`. That comment is no code the snippet replaces: it stays (it was dropped with the file's
    end)."""
    original = '''def rgb_to_hsv(r, g, b):
    return r, g, b


def hsv_to_rgb(h, s, v):
    if s == 0.0:
        return v, v, v
    i = int(h * 6.0)
    if i == 5:
        return v, h, s
    # Cannot get here
'''
    snippet = '''def hsv_to_rgb(h, s, v, strict=False):
    if strict and h is None:
        raise ValueError("h is required")
    if s == 0.0:
        return v, v, v
    i = int(h * 6.0)
    if i == 5:
        return v, h, s
'''
    merged = apply(original, snippet, filename="colorsys.py").merged_code
    assert merged == original.replace(
        "def hsv_to_rgb(h, s, v):\n",
        'def hsv_to_rgb(h, s, v, strict=False):\n    if strict and h is None:\n        raise ValueError("h is required")\n')
