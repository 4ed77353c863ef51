"""Whole-file snippets come back exactly; the windowed syntax check still catches broken merges."""

import pytest

from fastapply import ApplyError, apply
from fastapply.merge.windows import changed_window, changed_windows


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


def _kept(old: list[str], new: list[str]) -> list[tuple[int, int]]:
    """A splice's origin for a merge that only inserts lines: each merged row's original line."""
    origin, o = [], 0
    for line in new:
        if o < len(old) and line == old[o]:
            origin.append((-1, o))
            o += 1
        else:
            origin.append((-1, -1))
    return origin


def test_windows_are_one_per_changed_place() -> None:
    # an edit near the top and one near the bottom: one window spanning both would be the whole
    # file (no window: a whole parse, ~13 ms on 2,000 lines); one per place is two short ones
    original = _module(80)
    merged = original.replace("    y = x + 3\n", "    y = x + 3\n    y += 1\n") \
        .replace("    y = x + 77\n", "    y = x + 77\n    y -= 1\n")
    old, new = original.split("\n"), merged.split("\n")
    assert changed_window(original, merged, (old, new)) is None
    windows = changed_windows(old, new, _kept(old, new))
    assert windows is not None and len(windows) == 2
    assert windows[0][0].startswith("def f3(x):") and "def f4" not in windows[0][0]
    assert windows[0][1] == windows[0][0].replace("    y = x + 3\n", "    y = x + 3\n    y += 1\n")
    assert windows[1][0].startswith("def f77(x):") and "def f78" not in windows[1][0]
    assert changed_windows(old, old, _kept(old, old)) == [("", "")]
    swapped = list(old)
    swapped[10], swapped[20] = old[20], old[10]
    moved = [(-1, o) for o in range(len(old))]
    moved[10], moved[20] = (-1, 20), (-1, 10)
    assert changed_windows(old, swapped, moved) is None  # (kept lines out of order: a move)


def test_a_broken_second_edit_far_from_the_first_is_still_refused() -> None:
    original = _module(80)
    update = ("# ... existing code ...\ndef f3(x):\n    y = x + 30\n    # ... existing code ...\n"
              "def f77(x):\n    y = (x + 77\n    return y * 2\n# ... existing code ...\n")
    with pytest.raises(ApplyError) as caught:
        apply(original, update, filename="m.py")
    assert caught.value.code == "syntax_regressed"
    fixed = update.replace("y = (x + 77", "y = x + 770")
    merged = apply(original, fixed, filename="m.py").merged_code
    assert merged == original.replace("y = x + 3\n", "y = x + 30\n").replace("y = x + 77\n", "y = x + 770\n")


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
