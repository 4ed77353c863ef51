from fastapply import detect_formats
from fastapply.formats.detect import parse_agent_output

V4A = "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    x\n+    y\n*** End Patch\n"
SR = "a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n"
UD = "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n"


def test_each_format_alone():
    assert detect_formats(V4A) == ["v4a"]
    assert detect_formats(SR) == ["search-replace"]
    assert detect_formats(UD) == ["udiff"]
    assert detect_formats('[{"path": "a.py", "old": "x", "new": "y"}]') == ["json"]
    assert detect_formats("just some prose\nwith --- dashes") == []


def test_mixed_output_in_order():
    text = "Intro\n\n" + SR + "\nthen\n" + UD + "\nand\n" + V4A
    assert detect_formats(text) == ["v4a", "search-replace", "udiff"]
    ops = parse_agent_output(text)
    assert [op.format for op in ops] == ["search_replace", "udiff", "v4a"]


def test_forced_format_and_lazy_fences():
    assert [op.format for op in parse_agent_output(SR + UD, "udiff")] == ["udiff"]
    ops = parse_agent_output("app/x.py\n```python\n# ... existing code ...\ny = 2\n```\n", "lazy")
    assert ops[0].path == "app/x.py" and ops[0].format == "lazy" and "y = 2" in ops[0].content
