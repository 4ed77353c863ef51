import pytest

from fastapply import ApplyError, apply_v4a
from fastapply.formats.v4a import parse_v4a

SRC = """class A:
    def run(self):
        return 1


class B:
    def run(self):
        return 1
"""


def test_anchor_picks_the_right_method():
    patch = "*** Begin Patch\n*** Update File: m.py\n@@ class B:\n     def run(self):\n-        return 1\n+        return 2\n*** End Patch\n"
    r = apply_v4a(SRC, patch)
    assert r.merged_code.endswith("class B:\n    def run(self):\n        return 2\n")
    assert r.merged_code.startswith("class A:\n    def run(self):\n        return 1\n")
    assert r.method == "v4a"


def test_without_anchor_the_first_place_is_too_close_to_call():
    patch = "*** Begin Patch\n*** Update File: m.py\n@@\n     def run(self):\n-        return 1\n+        return 2\n*** End Patch\n"
    with pytest.raises(ApplyError) as e:
        apply_v4a(SRC, patch)
    assert e.value.code == "ambiguous_match"


def test_sections_add_delete_move_and_eof():
    text = ("*** Begin Patch\n*** Add File: n.py\n+x = 1\n+y = 2\n*** Delete File: old.py\n"
            "*** Update File: a.py\n*** Move to: b.py\n@@\n-        return 1\n+        return 3\n*** End of File\n*** End Patch")
    ops = parse_v4a(text)
    assert [(o.action, o.path, o.move_to) for o in ops] == [("create", "n.py", None), ("delete", "old.py", None),
                                                             ("modify", "a.py", "b.py")]
    assert ops[0].content == "x = 1\ny = 2\n" and ops[2].hunks[0].at_eof


def test_sequential_chunks_and_drifted_indent():
    patch = "*** Begin Patch\n*** Update File: m.py\n@@ class A:\n def run(self):\n-    return 1\n+    return 10\n@@ class B:\n def run(self):\n-    return 1\n+    return 20\n*** End Patch\n"
    out = apply_v4a(SRC, patch).merged_code
    assert "        return 10\n" in out and out.endswith("        return 20\n")


@pytest.mark.parametrize("text,line", [
    ("*** Begin Patch\n*** Update File: a.py\n@@\n x\n?bad\n*** End Patch\n", 5),
    ("*** Begin Patch\n*** Add File: a.py\nno plus\n*** End Patch\n", 3),
    ("*** Begin Patch\n*** Update File:\n*** End Patch\n", 2),
    ("*** Begin Patch\n*** Update File: a.py\n*** End Patch\n", 2),
])
def test_malformed_names_line(text, line):
    with pytest.raises(ApplyError) as e:
        parse_v4a(text)
    assert e.value.code == "malformed_edit" and e.value.details["line"] == line


def test_blank_context_in_an_empty_file_is_refused_not_a_crash():
    # Found by hypothesis: a chunk whose only old line is blank, against an empty file, used to
    # index past the end of the file (IndexError) instead of refusing.
    patch = "*** Begin Patch\n*** Update File: f.py\n \n+def f(x):\n*** End Patch\n"
    with pytest.raises(ApplyError) as caught:
        apply_v4a("", patch)
    assert caught.value.code in ("malformed_edit", "no_match")


TAIL = "import os\n\n### Encoding table\nencoding_table = build()\n"


def test_added_lines_without_context_after_them_near_the_end_are_refused():
    # "### Encoding table" then "+x": a diff would have shown the line that follows it, so a context
    # line was probably lost and the new line may belong after it (diffbench context_dropped).
    patch = "*** Begin Patch\n*** Update File: t.py\n@@\n \n ### Encoding table\n+x = 1\n*** End Patch\n"
    with pytest.raises(ApplyError) as caught:
        apply_v4a(TAIL, patch)
    assert caught.value.code == "ambiguous_match" and "1 more line" in caught.value.message


def test_added_lines_at_the_real_end_or_far_from_it_apply():
    at_end = "*** Begin Patch\n*** Update File: t.py\n@@\n ### Encoding table\n encoding_table = build()\n+x = 1\n*** End Patch\n"
    assert apply_v4a(TAIL, at_end).merged_code == TAIL + "x = 1\n"
    long = TAIL + "".join(f"line{i} = {i}\n" for i in range(5))
    far = "*** Begin Patch\n*** Update File: t.py\n@@\n import os\n+import sys\n*** End Patch\n"
    assert apply_v4a(long, far).merged_code == long.replace("import os\n", "import os\nimport sys\n")
