import subprocess

import pytest

from fastapply import ApplyError, apply_udiff
from fastapply.formats.udiff import parse_udiff

SRC = "".join(f"line {i}\n" for i in range(1, 41))


def _diff(start, ctx_before, minus, plus, ctx_after, header=None):
    body = [f" {x}" for x in ctx_before] + [f"-{x}" for x in minus] + [f"+{x}" for x in plus] + \
        [f" {x}" for x in ctx_after]
    old = len(ctx_before) + len(minus) + len(ctx_after)
    new = len(ctx_before) + len(plus) + len(ctx_after)
    head = header or f"@@ -{start},{old} +{start},{new} @@"
    return "--- a/f.txt\n+++ b/f.txt\n" + head + "\n" + "\n".join(body) + "\n"


def test_plain_hunk():
    d = _diff(9, ["line 9", "line 10"], ["line 11"], ["eleven"], ["line 12"])
    r = apply_udiff(SRC, d)
    assert "line 10\neleven\nline 12\n" in r.merged_code and r.method == "udiff" and not r.warnings


@pytest.mark.parametrize("header", ["@@ -30,4 +30,4 @@", "@@ ... @@", "@@", "@@ -9 +9 @@ def f():"])
def test_wrong_or_missing_numbers(header):
    d = _diff(9, ["line 9", "line 10"], ["line 11"], ["eleven"], ["line 12"], header=header)
    assert "line 10\neleven\nline 12\n" in apply_udiff(SRC, d).merged_code


def test_whitespace_drift_keeps_file_context():
    src = SRC.replace("line 10\n", "line 10   \n")
    d = _diff(9, ["line 9", "line 10"], ["line 11"], ["eleven"], ["line 12"])
    r = apply_udiff(src, d)
    assert "line 10   \neleven\n" in r.merged_code and r.warnings


def test_repeated_context_uses_header_then_refuses_without():
    src = "a\nb\nc\n" + "x\n" * 30 + "a\nb\nc\n"
    d = "@@ -34,3 +34,3 @@\n a\n-b\n+B\n c\n"
    assert apply_udiff(src, d).merged_code.endswith("a\nB\nc\n")
    with pytest.raises(ApplyError) as e:
        apply_udiff(src, "@@ ... @@\n a\n-b\n+B\n c\n")
    assert e.value.code == "ambiguous_match" and e.value.details["candidates"] == [1, 34]


def test_no_newline_at_end_of_file():
    src = "a\nb\nc"
    d = "--- a/f\n+++ b/f\n@@ -2,2 +2,2 @@\n b\n-c\n\\ No newline at end of file\n+d\n"
    assert apply_udiff(src, d).merged_code == "a\nb\nd\n"
    d2 = "--- a/f\n+++ b/f\n@@ -2,2 +2,2 @@\n b\n-c\n\\ No newline at end of file\n+d\n\\ No newline at end of file\n"
    assert apply_udiff(src, d2).merged_code == "a\nb\nd"


def test_crlf_file_lf_diff():
    src = SRC.replace("\n", "\r\n")
    d = _diff(9, ["line 9", "line 10"], ["line 11"], ["eleven"], ["line 12"])
    assert "line 10\r\neleven\r\nline 12\r\n" in apply_udiff(src, d).merged_code


def test_git_headers_new_deleted_renamed_mode_and_binary():
    text = ("diff --git a/new.py b/new.py\nnew file mode 100644\nindex 0000000..e69de29\n--- /dev/null\n"
            "+++ b/new.py\n@@ -0,0 +1,2 @@\n+x = 1\n+y = 2\n"
            "diff --git a/old.py b/old.py\ndeleted file mode 100644\n--- a/old.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-z\n"
            "diff --git a/a.py b/b.py\nsimilarity index 100%\nrename from a.py\nrename to b.py\n"
            "diff --git a/m.sh b/m.sh\nold mode 100644\nnew mode 100755\n")
    ops = parse_udiff(text)
    assert [(o.action, o.path, o.move_to) for o in ops] == [("create", "new.py", None), ("delete", "old.py", None),
                                                             ("modify", "a.py", "b.py")]
    assert ops[0].content == "x = 1\ny = 2\n"
    with pytest.raises(ApplyError) as e:
        parse_udiff("diff --git a/i.png b/i.png\nindex 1..2\nGIT binary patch\nliteral 5\n")
    assert e.value.code == "binary_patch" and e.value.details["line"] == 3
    with pytest.raises(ApplyError) as e:
        parse_udiff("diff --git a/i.png b/i.png\nBinary files a/i.png and b/i.png differ\n")
    assert e.value.code == "binary_patch"


def test_matches_git_apply_on_a_real_git_diff(tmp_path):
    repo = tmp_path / "r"
    repo.mkdir()
    src = "".join(f"def f{i}():\n    return {i}\n\n" for i in range(30))
    (repo / "m.py").write_text(src)
    git = ["git", "-c", "user.email=a@b", "-c", "user.name=t"]
    subprocess.run(git + ["init", "-q"], cwd=repo, check=True)
    subprocess.run(git + ["add", "."], cwd=repo, check=True)
    subprocess.run(git + ["commit", "-qm", "i"], cwd=repo, check=True)
    edited = src.replace("return 3\n", "return 33\n").replace("def f20():\n", "def f20():\n    pass\n")
    (repo / "m.py").write_text(edited)
    diff = subprocess.run(["git", "diff"], cwd=repo, check=True, capture_output=True, text=True).stdout
    assert apply_udiff(src, diff).merged_code == edited


def test_applying_twice_skips_with_warning():
    d = _diff(9, ["line 9", "line 10"], ["line 11"], ["eleven"], ["line 12"])
    once = apply_udiff(SRC, d).merged_code
    twice = apply_udiff(once, d)
    assert twice.merged_code == once and "already applied" in twice.warnings[0]


def test_added_lines_next_to_an_unseen_file_line_are_refused():
    # The hunk dropped the context line "line 11": do the new lines go before or after it?
    d = "@@ -9,5 +9,6 @@\n line 9\n line 10\n+new\n line 12\n line 13\n"
    with pytest.raises(ApplyError) as e:
        apply_udiff(SRC, d)
    assert e.value.code == "ambiguous_match" and "unclear whether" in e.value.message
    # With a removed line next to the new ones the place is clear.
    d = "@@ -9,5 +9,5 @@\n line 9\n line 10\n line 11\n-line 12\n+twelve\n line 14\n"
    assert "line 11\ntwelve\nline 13\nline 14\n" in apply_udiff(SRC, d).merged_code


def test_laxer_match_nearer_the_header_conflicts():
    # Re-indented, the hunk equals the nested copy exactly; the header points at the other one.
    src = "a = 1\nif x:\n    b = 2\n" + "pad\n" * 30 + "if y:\n    if x:\n        b = 2\n"
    d = "@@ -2,2 +2,2 @@\n     if x:\n-        b = 2\n+        b = 3\n"
    with pytest.raises(ApplyError) as e:
        apply_udiff(src, d)
    assert e.value.code == "ambiguous_match" and set(e.value.details["candidates"]) == {2, 35}


def test_deletion_next_to_blank_lines_is_not_mistaken_for_applied():
    src = "x = 1\n\nclass W:\n    pass\n\nclass R:\n    pass\n"
    # Deletes W's body; the context line "class R:" was dropped by the agent.
    d = "@@ -1,7 +1,6 @@\n x = 1\n \n class W:\n-    pass\n \n     pass\n"
    out = apply_udiff(src, d)
    assert out.merged_code == "x = 1\n\nclass W:\n\nclass R:\n    pass\n"


def test_a_deletion_whose_context_lost_a_line_is_matched_not_taken_for_already_applied():
    # Only a hunk's context is left once its lines are deleted, and the context is in the file
    # anyway: that must not read as "already applied" when a fuzzy match finds the hunk
    # (diffbench context_dropped: the hunk lost the line between its context and its deletion).
    original = ("def build(self):\n    # builds an archive\n    self.compiler.create_static_lib(\n"
                "        objects, lib_name\n    )\n")
    diff = ("--- a/b.py\n+++ b/b.py\n@@ -2,3 +2,2 @@\n     # builds an archive\n"
            "     self.compiler.create_static_lib(\n-    )\n")
    result = apply_udiff(original, diff)
    assert result.merged_code == original.replace("    )\n", "")
