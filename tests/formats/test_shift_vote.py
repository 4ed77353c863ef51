"""An edit block copied one level too deep can be byte-identical to a nested copy of its real target.
Without line numbers, the edit's other blocks vote: the indentation offset they were all found at
decides between the exact match and the re-indented one (diffbench case 0186, seed 0)."""

from __future__ import annotations

import pytest

from fastapply import apply_replacements, apply_search_replace, apply_v4a

FILE = """def outer(kw):
    if kw:
        raise ValueError(kw)

    def inner(kw):
        if kw:
            raise ValueError(kw)

        return 1

    return inner


def helper():
    value = compute()
    return value
"""
# The first block's lines, one level deeper, equal the nested copy in inner().
BLOCK = ["if kw:", "    raise ValueError(kw)", ""]
HELPER_OLD = ["value = compute()", "return value"]
HELPER_NEW = ["value = compute()", "return value + 1"]


def indented(lines: list[str], depth: int) -> str:
    return "\n".join(" " * depth + line if line else line for line in lines) + "\n"


def expected(target: str) -> str:
    if target == "outer":
        return FILE.replace("    if kw:\n        raise ValueError(kw)\n\n    def",
                            "    if kw:\n        raise TypeError(kw)\n\n    def").replace(
            "    return value\n", "    return value + 1\n")
    raise AssertionError(target)


def sr(depth: int) -> str:
    new_block = ["if kw:", "    raise TypeError(kw)", ""]
    return ("m.py\n<<<<<<< SEARCH\n" + indented(BLOCK, depth) + "=======\n" + indented(new_block, depth)
            + ">>>>>>> REPLACE\n\nm.py\n<<<<<<< SEARCH\n" + indented(HELPER_OLD, depth) + "=======\n"
            + indented(HELPER_NEW, depth) + ">>>>>>> REPLACE\n")


def v4a(depth: int) -> str:
    pad = " " * depth
    return ("*** Begin Patch\n*** Update File: m.py\n@@\n"
            f" {pad}if kw:\n-{pad}    raise ValueError(kw)\n+{pad}    raise TypeError(kw)\n \n"
            f"@@\n {pad}value = compute()\n-{pad}return value\n+{pad}return value + 1\n*** End Patch\n")


@pytest.mark.parametrize("depth", [4, 8])  # 4: as written in the file; 8: copied one level too deep
def test_search_replace_blocks_vote_for_their_indentation(depth):
    assert apply_search_replace(FILE, sr(depth)).merged_code == expected("outer")


@pytest.mark.parametrize("depth", [4, 8])
def test_v4a_chunks_vote_for_their_indentation(depth):
    assert apply_v4a(FILE, v4a(depth)).merged_code == expected("outer")


@pytest.mark.parametrize("depth", [4, 8])
def test_replacement_lists_vote_for_their_indentation(depth):
    edits = [{"old": indented(BLOCK[:2], depth), "new": indented(["if kw:", "    raise TypeError(kw)"], depth)},
             {"old": indented(HELPER_OLD, depth), "new": indented(HELPER_NEW, depth)}]
    assert apply_replacements(FILE, edits).merged_code == expected("outer")


def test_a_single_block_keeps_its_exact_match():
    # No other block to vote: the exact match (the nested copy) is what the edit says.
    block = indented(BLOCK[:2], 8)
    new = indented(["if kw:", "    raise TypeError(kw)"], 8)
    merged = apply_search_replace(FILE, f"m.py\n<<<<<<< SEARCH\n{block}=======\n{new}>>>>>>> REPLACE\n")
    assert merged.merged_code == FILE.replace("        if kw:\n            raise ValueError",
                                              "        if kw:\n            raise TypeError")


# A stale diff shifts every hunk alike: the first hunk, whose lines occur twice, is placed by the
# offset its unique sibling was found at, not by its own stale line number (diffbench seed 0, with
# httptools and uvloop installed: case 0042).
DOCS = '''def glob(pattern):
    """Match a pattern.

    Files starting with a dot
    are special.
    """
    return list(iglob(pattern))


def iglob(pattern):
    """Match a pattern.

    Files starting with a dot
    are special.
    """
    if not pattern:
        return []
    return walk(pattern)
'''


def test_a_stale_first_hunk_follows_the_offset_of_its_unique_sibling():
    from fastapply import apply_udiff

    # Written against a version of the file without glob(): every line number is 9 lines too small.
    diff = ("--- a/g.py\n+++ b/g.py\n@@ -2,5 +2,4 @@\n     \"\"\"Match a pattern.\n \n     Files starting with a dot\n"
            "-    are special.\n     \"\"\"\n@@ -7,3 +6,3 @@\n     if not pattern:\n-        return []\n+        return ()\n"
            "     return walk(pattern)\n")
    merged = apply_udiff(DOCS, diff).merged_code
    head, tail = DOCS.split("def iglob")
    assert merged == head + "def iglob" + tail.replace("    are special.\n", "", 1).replace("return []", "return ()")


def test_a_copy_merely_nearest_to_a_corrected_line_number_is_refused():
    from fastapply import ApplyError, apply_udiff

    body = ["def a():", "    x = 1", "    return x", ""]
    filler = [f"v{i} = {i}" for i in range(12)]
    original = "\n".join(["import os", "", *filler, "", *body, *filler, "", *body]) + "\n"
    # Hunk 1 is unique and says the numbers are off by -2; hunk 2's corrected line lands near the first
    # of the two identical copies of a(), but on neither: only a guess could choose.
    diff = ("--- a/m.py\n+++ b/m.py\n@@ -3,2 +3,3 @@\n import os\n+import sys\n \n"
            "@@ -20,3 +21,3 @@\n def a():\n-    x = 1\n+    x = 2\n     return x\n")
    original_lines = original.split("\n")
    assert original_lines.count("def a():") == 2
    with pytest.raises(ApplyError) as err:
        apply_udiff(original, diff)
    assert err.value.code == "ambiguous_match"
