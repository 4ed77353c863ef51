"""Worst-case inputs for each stage of the merge engine and the edit formats, at a given size.

Each case builds `(function, args)` for a file of about `size` bytes; the function is one of the
public entry points (`fastapply.apply`, `apply_udiff`, ...), so the cases run unchanged against any
engine behind them. The shapes are the ones that make naive matchers quadratic: lines that occur
thousands of times (candidate anchors), blocks that repeat whole (chain search, ambiguity checks),
many near-equal blocks (fuzzy matching), long runs of markers and edits (per-segment searches),
deep nesting (block-end scans) and one enormous line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Build = Callable[[int], tuple[str, tuple[Any, ...], dict[str, Any]]]
# The update snippet / edit is capped by the default Limits.max_update_bytes (1 MB).
_MAX_UPDATE = 900_000


def _repeat(unit: str, size: int) -> str:
    return unit * max(1, size // len(unit))


def _functions(size: int, body: str = "  return 1;\n") -> str:
    unit_len = len(f"function f0000000() {{\n{body}}}\n\n")
    count = max(1, size // unit_len)
    return "".join(f"function f{i:07d}() {{\n{body}}}\n\n" for i in range(count))


# -- lazy-snippet merge (fastapply.apply) ---------------------------------------------------------

def merge_repeated_lines(size: int):
    """The issue's case: repeated small functions, a snippet of their repeated lines between markers."""
    original = _functions(size)
    snippet = "// ... existing code ...\n" + _repeat("  return 1;\n}\n\n", min(size // 8, _MAX_UPDATE)) + \
        "// ... existing code ...\n"
    return "apply", (original, snippet), {"filename": "a.js"}


def merge_identical_blocks(size: int):
    """Every function identical (no unique line at all); the snippet edits one of them."""
    unit = "function same() {\n  const a = 1;\n  return a + 1;\n}\n\n"
    original = _repeat(unit, size)
    snippet = "// ... existing code ...\nfunction same() {\n  const a = 2;\n  return a + 1;\n}\n" \
              "// ... existing code ...\n"
    return "apply", (original, snippet), {"filename": "a.js"}


def merge_many_segments(size: int):
    """Thousands of segments, each one edited line between markers (a straggler search per segment)."""
    original = _functions(size, body="  const value = compute(1, 2, 3);\n  return value;\n")
    count = min(size // 200, _MAX_UPDATE // 60)
    snippet = "".join("// ... existing code ...\n  const value = compute(1, 2, 4);\n" for _ in range(count)) + \
        "// ... existing code ...\n"
    return "apply", (original, snippet), {"filename": "a.js"}


def _head_lines(text: str, limit: int) -> list[str]:
    """The first lines of `text` that fit in `limit` bytes (a snippet as large as the limit allows)."""
    return text[:limit].rsplit("\n", 1)[0].split("\n") if len(text) > limit else text.split("\n")


def merge_many_anchors(size: int):
    """A large snippet of unique lines with edits every few lines: many candidate anchors to chain."""
    original = _functions(size, body="  return 1;\n")
    keep = _head_lines(original, _MAX_UPDATE)
    out = ["// ... existing code ..."]
    for i, line in enumerate(keep):
        out.append(line.replace("return 1", "return 2") if i % 7 == 0 else line)
    out.append("// ... existing code ...")
    return "apply", (original, "\n".join(out) + "\n"), {"filename": "a.js"}


def merge_no_markers(size: int):
    """A snippet without markers made of many copies of one definition (assumed markers between)."""
    original = _functions(size)
    snippet = _repeat("function f0000001() {\n  return 2;\n}\n\n", min(size // 4, _MAX_UPDATE))
    return "apply", (original, snippet), {"filename": "a.js"}


def merge_deep_nesting(size: int):
    """Deeply indented code (block-end and parent scans walk far) with a snippet of closers."""
    depth = 200
    head = "".join("  " * d + f"if (c{d}) {{\n" for d in range(depth))
    tail = "".join("  " * d + "}\n" for d in reversed(range(depth)))
    body_unit = "  " * depth + "x = x + 1;\n"
    body = _repeat(body_unit, max(0, size - len(head) - len(tail)))
    original = head + body + tail
    snippet = "// ... existing code ...\n" + "  " * depth + "x = x + 2;\n" + tail[: min(len(tail), 4000)] + \
        "// ... existing code ...\n"
    return "apply", (original, snippet), {"filename": "a.js"}


def merge_long_line(size: int):
    """One enormous line (minified code) and a snippet touching it."""
    original = "var a = [" + ",".join("1" for _ in range(size // 2 - 20)) + "];\nvar b = 2;\n"
    snippet = "// ... existing code ...\nvar b = 3;\n"
    return "apply", (original, snippet), {"filename": "a.js"}


def _long_line_file(size: int) -> tuple[str, str]:
    """Functions, then one long line (at most what a snippet may carry), then `var b = 2;`: about
    `size` bytes. Returns (original, the long line's array body)."""
    body = ",".join("1" for _ in range(min(size, _MAX_UPDATE) // 2 - 20))
    tail = "var a = [" + body + "];\nvar b = 2;\n"
    return _functions(max(0, size - len(tail))) + tail, body


def merge_long_line_edit(size: int):
    """The long line itself edited between two markers: a lone edited line placed by similarity
    (which must not compare two long lines character by character)."""
    original, body = _long_line_file(size)
    snippet = "// ... existing code ...\nvar a = [2," + body + "];\n// ... existing code ...\n"
    return "apply", (original, snippet), {"filename": "a.js"}


def merge_long_line_broken(size: int):
    """A snippet that breaks the syntax next to a long line: the window check fails, so the whole
    file is parsed (once; the original is reparsed incrementally from the merged file's tree)."""
    original, _ = _long_line_file(size)
    snippet = "// ... existing code ...\nvar b = (3;\n"
    return "apply", (original, snippet), {"filename": "a.js"}


def merge_edited_headers(size: int):
    """Like many-anchors, but every function header is edited (a parameter added): each edited
    header is paired next to its anchors, and its closing line with an order check."""
    original = _functions(size, body="  return 1;\n")
    keep = _head_lines(original, _MAX_UPDATE)
    out = ["// ... existing code ..."]
    out += [line.replace("() {", "(a) {") for line in keep]
    out.append("// ... existing code ...")
    return "apply", (original, "\n".join(out) + "\n"), {"filename": "a.js"}


# -- edit formats ---------------------------------------------------------------------------------

def sr_repeated_blocks(size: int):
    """SEARCH/REPLACE whose SEARCH text occurs at every function (ambiguous, many candidates)."""
    original = _functions(size)
    block = "<<<<<<< SEARCH\n  return 1;\n}\n=======\n  return 2;\n}\n>>>>>>> REPLACE\n"
    return "apply_search_replace", (original, "a.js\n" + block), {}


def sr_many_fuzzy(size: int):
    """Many SEARCH blocks that match nothing exactly but resemble every function (fuzzy search each)."""
    original = _functions(size, body="  const value = compute(1, 2, 3);\n  return value;\n")
    block = ("<<<<<<< SEARCH\nfunction fXXXXXXX() {\n  const value = compute(1, 2, 9);\n  return value;\n}\n"
             "=======\nfunction g() {}\n>>>>>>> REPLACE\n")
    from fastapply.text import DEFAULT_LIMITS

    count = min(size // 2000 + 1, _MAX_UPDATE // len(block), DEFAULT_LIMITS.max_edits)
    return "apply_search_replace", (original, "a.js\n" + block * count), {}


def udiff_common_context(size: int):
    """A unified diff whose hunks have only common lines as context and no usable line numbers."""
    original = _functions(size)
    hunk = "@@ -1,3 +1,3 @@\n   return 1;\n-}\n+};\n \n"
    count = min(size // 400 + 1, _MAX_UPDATE // len(hunk))
    return "apply_udiff", (original, "--- a/a.js\n+++ b/a.js\n" + hunk * count), {}


def udiff_long_hunk(size: int):
    """One hunk whose context is half the file of repeated lines, one line changed at the end."""
    original = _functions(size)
    lines = original.split("\n")[: min(len(original.split("\n")) // 2, _MAX_UPDATE // 20)]
    body = "".join(f" {line}\n" for line in lines[:-1]) + f"-{lines[-1]}\n+changed\n"
    return "apply_udiff", (original, f"--- a/a.js\n+++ b/a.js\n@@ -1,{len(lines)} +1,{len(lines)} @@\n{body}"), {}


def v4a_repeated_context(size: int):
    """A V4A patch whose context lines occur at every function."""
    original = _functions(size)
    chunk = "@@\n   return 1;\n-}\n+};\n"
    count = min(size // 400 + 1, _MAX_UPDATE // len(chunk))
    return "apply_v4a", (original, "*** Begin Patch\n*** Update File: a.js\n" + chunk * count + "*** End Patch\n"), {}


def replacements_repeated(size: int):
    """str_replace edits whose `old` text is a line occurring thousands of times, plus fuzzy ones."""
    original = _functions(size)
    edits = [{"old": "  return 1;\n}\n\nfunction", "new": "x"}, {"old": "}\n\n", "new": "};\n\n"}]
    edits += [{"old": "function fZZZZZZZ() {\n  return 9;\n}\n", "new": "y"} for _ in range(20)]
    return "apply_replacements", (original, edits), {}


def detect_big(size: int):
    """`detect_formats` over an agent output of many almost-markers (the edits limit is 8 MB)."""
    text = _repeat("<<<<<<< SEARCH\n--- a\n+++ b\n*** Update File: x\n@@ \n=======\n", size)
    return "detect_formats", (text,), {}


CASES: dict[str, tuple[str, Build]] = {
    "merge/repeated-lines": ("anchors", merge_repeated_lines),
    "merge/identical-blocks": ("chain", merge_identical_blocks),
    "merge/many-segments": ("stragglers", merge_many_segments),
    "merge/many-anchors": ("chain", merge_many_anchors),
    "merge/no-markers": ("assumed markers", merge_no_markers),
    "merge/deep-nesting": ("block scans", merge_deep_nesting),
    "merge/long-line": ("validate", merge_long_line),
    "merge/long-line-edit": ("stragglers", merge_long_line_edit),
    "merge/long-line-broken": ("validate", merge_long_line_broken),
    "merge/edited-headers": ("fuzzy pairs", merge_edited_headers),
    "search-replace/repeated": ("exact tiers", sr_repeated_blocks),
    "search-replace/fuzzy": ("fuzzy", sr_many_fuzzy),
    "udiff/common-context": ("hunk placement", udiff_common_context),
    "udiff/long-hunk": ("hunk placement", udiff_long_hunk),
    "v4a/repeated-context": ("hunk placement", v4a_repeated_context),
    "replacements/repeated": ("exact + fuzzy", replacements_repeated),
    "detect/big": ("detect", detect_big),
}


def replacements_many_fuzzy(size: int):
    """Hundreds of str_replace edits, each one changed a little from the file (a fuzzy search each)."""
    original = _functions(size, body="  const value = compute(1, 2, 3);\n  return value;\n")
    edits = [{"old": f"function f{i:07d}() {{\n  const value = compute(1, 2, 9);\n  return value;\n}}\n",
              "new": f"function g{i}() {{}}\n"} for i in range(0, 256)]  # (Limits.max_edits)
    return "apply_replacements", (original, edits), {}


CASES["replacements/many-fuzzy"] = ("fuzzy, sequential", replacements_many_fuzzy)


def replacements_many_edits(size: int):
    """As many exact, unique str_replace edits as one call may carry (Limits.max_edits): each one is a
    pass over the file, so this is the most work an edit list can ask for."""
    from fastapply.text import DEFAULT_LIMITS

    original = _functions(size)
    count = min(DEFAULT_LIMITS.max_edits, original.count("function "))
    edits = [{"old": f"function f{i:07d}() {{", "new": f"function g{i}() {{"} for i in range(count)]
    return "apply_replacements", (original, edits), {}


def replacements_too_many(size: int):
    """Ten thousand small edits (an edits x file-size attack): refused at once with too_many_edits."""
    original = _functions(size)
    edits = [{"old": f"function f{i:07d}() {{", "new": "x"} for i in range(10_000)]
    return "apply_replacements", (original, edits), {}


def sr_many_blocks(size: int):
    """As many exact, unique SEARCH/REPLACE blocks as one call may carry (Limits.max_edits)."""
    from fastapply.text import DEFAULT_LIMITS

    original = _functions(size)
    count = min(DEFAULT_LIMITS.max_edits, original.count("function "))
    blocks = "".join(f"<<<<<<< SEARCH\nfunction f{i:07d}() {{\n=======\nfunction g{i}() {{\n>>>>>>> REPLACE\n"
                     for i in range(count))
    return "apply_search_replace", (original, "a.js\n" + blocks), {}


CASES["replacements/many-edits"] = ("exact, sequential", replacements_many_edits)
CASES["replacements/too-many"] = ("edit count cap", replacements_too_many)
CASES["search-replace/many-blocks"] = ("exact, sequential", sr_many_blocks)
