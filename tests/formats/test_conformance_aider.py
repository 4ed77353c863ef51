"""Aider: each test is one rule of Aider-AI/aider's coders (editblock_coder.py: SEARCH/REPLACE blocks and
their file names; wholefile_coder.py: whole-file replies; udiff_coder.py: its diff headers), checked
against fastapply. Written from reading that code; no fixture of theirs is copied."""

import pytest

from fastapply import ApplyError, apply_batch, apply_search_replace, apply_udiff, apply_whole, detect_formats

SRC = "def f():\n    return 1\n\n\ndef g():\n    return 1\n"


def block(search: str, replace: str, name: str = "m.py") -> str:
    return f"{name}\n```python\n<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n```\n"


# --- SEARCH/REPLACE (editblock_coder.py) ---

def test_search_text_occurring_twice_replaces_the_first_with_ambiguity_first():
    text = block("    return 1\n", "    return 2\n")
    with pytest.raises(ApplyError) as e:
        apply_search_replace(SRC, text)  # our default: refuse, naming both places
    assert e.value.code == "ambiguous_match" and e.value.details["candidates"] == [2, 6]
    r = apply_search_replace(SRC, text, ambiguity="first")
    assert r.merged_code == SRC.replace("return 1", "return 2", 1)


def test_block_without_a_file_name_uses_the_previous_blocks_name():
    text = block("def f():\n", "def f0():\n") + "\nand then\n\n```python\n<<<<<<< SEARCH\ndef g():\n=======\ndef g0():\n>>>>>>> REPLACE\n```\n"
    r = apply_batch(text, {"m.py": SRC})
    assert r.ok and r.contents["m.py"] == SRC.replace("def f()", "def f0()").replace("def g()", "def g0()")


def test_file_name_in_its_own_fence_before_the_block_is_found():
    # DeepSeek writes the name in a small fence of its own, then the block's fence.
    text = "```python\nm.py\n```\n```python\n<<<<<<< SEARCH\ndef g():\n=======\ndef h():\n>>>>>>> REPLACE\n```\n"
    assert apply_batch(text, {"m.py": SRC}).contents["m.py"] == SRC.replace("def g()", "def h()")


def test_the_last_line_of_an_unrelated_code_block_is_not_a_file_name():
    text = (block("def f():\n", "def f0():\n") + "Example:\n```python\nrun()\n```\n"
            "```python\n<<<<<<< SEARCH\ndef g():\n=======\ndef g0():\n>>>>>>> REPLACE\n```\n")
    r = apply_batch(text, {"m.py": SRC})
    assert r.ok and list(r.contents) == ["m.py"] and "def g0()" in r.contents["m.py"]


@pytest.mark.parametrize("name", ["**m.py**", "# m.py", "`m.py`:", "m.py:"])
def test_file_name_decorations_are_stripped(name):
    r = apply_batch(block("def g():\n", "def h():\n", name), {"m.py": SRC})
    assert r.ok and list(r.contents) == ["m.py"]


def test_empty_search_appends_to_an_existing_file_and_creates_a_missing_one():
    r = apply_batch(block("", "x = 1\n") + block("", "y = 2\n", "new.py"), {"m.py": SRC})
    assert r.contents == {"m.py": SRC + "x = 1\n", "new.py": "y = 2\n"}


def test_uniformly_missing_leading_whitespace_is_added_back_to_the_replacement():
    # Aider outdents both sides by their common indentation, then adds the file's: so do we.
    src = "def f():\n    if x:\n        y = 1\n    return y\n"
    text = block("if x:\n    y = 1\n", "if x:\n    y = 2\n    z = 3\n")
    r = apply_search_replace(src, text)
    assert r.merged_code == "def f():\n    if x:\n        y = 2\n        z = 3\n    return y\n"


def test_a_spurious_leading_blank_line_in_search_is_ignored():
    text = block("\ndef g():\n    return 1\n", "\ndef g():\n    return 2\n")
    assert apply_search_replace(SRC, text).merged_code == SRC[: SRC.rindex("1")] + "2\n"


@pytest.mark.parametrize("head,tail", [("<<<<< SEARCH", ">>>>> REPLACE"), ("<<<<<<<<< SEARCH", ">>>>>>>>> REPLACE")])
def test_markers_of_five_to_nine_characters_are_accepted(head, tail):
    text = f"m.py\n{head}\ndef g():\n=======\ndef h():\n{tail}\n"
    assert apply_search_replace(SRC, text).merged_code == SRC.replace("def g()", "def h()")


def test_a_block_without_its_replace_marker_is_an_error():
    with pytest.raises(ApplyError) as e:
        apply_search_replace(SRC, "m.py\n<<<<<<< SEARCH\ndef g():\n=======\ndef h():\n")
    assert e.value.code == "malformed_edit"


def test_dotted_lines_elide_the_same_stretches_of_search_and_replace():
    text = block("def f():\n    return 1\n...\ndef g():\n    return 1\n",
                 "def f():\n    return 10\n...\ndef g():\n    return 20\n")
    assert apply_search_replace(SRC, text).merged_code == SRC.replace("1", "10", 1)[::-1].replace("1", "02", 1)[::-1]
    with pytest.raises(ApplyError) as e:
        apply_search_replace(SRC, block("def f():\n...\ndef g():\n", "def f():\ndef g():\n"))
    assert e.value.code == "malformed_edit"


def test_shell_command_blocks_are_not_edits():
    text = block("def g():\n", "def h():\n") + "Then run:\n```bash\npytest -q\n```\n"
    r = apply_batch(text, {"m.py": SRC})
    assert r.ok and [f.path for f in r.files] == ["m.py"]


# --- whole-file replies (wholefile_coder.py) ---

def test_whole_file_name_on_the_line_before_the_fence():
    r = apply_batch("Here it is:\n\nm.py\n```python\nx = 1\n```\n", {"m.py": SRC, "n.py": "n\n"}, format="whole")
    assert r.contents == {"m.py": "x = 1\n"}


def test_whole_file_name_as_a_heading_or_bold():
    r = apply_batch("### m.py\n```\nx = 1\n```\n\n**n.py**\n```\ny = 2\n```\n", {"m.py": SRC, "n.py": "n\n"},
                    format="whole")
    assert r.contents == {"m.py": "x = 1\n", "n.py": "y = 2\n"}


def test_whole_file_name_mentioned_in_the_prose():
    r = apply_batch("I changed `n.py`:\n\n```\ny = 2\n```\n", {"m.py": SRC, "n.py": "n\n"}, format="whole")
    assert r.contents == {"n.py": "y = 2\n"}


def test_whole_file_single_file_needs_no_name():
    assert apply_whole(SRC, "```python\nx = 1\n```\n", filename="m.py").merged_code == "x = 1\n"
    assert apply_whole(SRC, "```python\nx = 1\n```\n").merged_code == "x = 1\n"
    with pytest.raises(ApplyError) as e:
        apply_whole(SRC, "other.py\n```python\nx = 1\n```\n", filename="m.py")
    assert e.value.code == "invalid_argument"
    assert apply_batch("```\nx = 1\n```\n", {"m.py": SRC}, format="whole").contents == {"m.py": "x = 1\n"}


def test_whole_file_without_a_name_among_several_files_is_an_error():
    with pytest.raises(ApplyError) as e:
        apply_batch("```\nx = 1\n```\n", {"m.py": SRC, "n.py": "n\n"}, format="whole")
    assert e.value.code == "malformed_edit"


def test_whole_file_four_backtick_fence_holds_triple_backticks():
    doc = "# Title\n\n```python\nprint(1)\n```\n"
    r = apply_batch(f"README.md\n````markdown\n{doc}````\n", {"README.md": "old\n"}, format="whole")
    assert r.contents == {"README.md": doc}


def test_whole_file_made_up_folder_resolves_to_the_chat_file():
    r = apply_batch("path/to/m.py\n```\nx = 1\n```\n", {"m.py": SRC, "n.py": "n\n"}, format="whole")
    assert r.contents == {"m.py": "x = 1\n"}


def test_whole_file_creates_a_new_file_and_the_first_block_for_a_file_wins():
    r = apply_batch("new.py\n```\na = 1\n```\nnew.py\n```\na = 2\n```\n", {"m.py": SRC}, format="whole")
    assert r.contents == {"new.py": "a = 1\n"}


def test_whole_file_is_detected_in_auto_mode_when_named():
    text = "m.py\n```python\nx = 1\n```\n"
    assert detect_formats(text) == ["whole"]
    assert apply_batch(text, {"m.py": SRC}).contents == {"m.py": "x = 1\n"}


def test_whole_file_guessed_in_auto_mode_must_not_drop_most_of_the_file():
    big = "".join(f"line_{k} = {k}\n" for k in range(20))
    part = "a.py\n```python\nline_3 = 30\n```\n"
    r = apply_batch(part, {"a.py": big})
    assert not r.ok and r.files[0].error.code == "content_lost" and r.contents == {}
    assert apply_batch(part, {"a.py": big}, format="whole").contents == {"a.py": "line_3 = 30\n"}


def test_whole_file_that_elides_code_is_refused_not_written():
    # Aider would write the marker into the file; that loses the code it stands for.
    with pytest.raises(ApplyError) as e:
        apply_whole(SRC, "```python\n# ... existing code ...\ndef g():\n    return 2\n```\n", filename="m.py")
    assert e.value.code == "malformed_edit" and "lazy" in e.value.message


# --- unified diffs (udiff_coder.py) ---

def test_dev_null_header_with_removed_lines_edits_the_existing_file():
    diff = "--- /dev/null\n+++ m.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 5\n"
    assert apply_udiff(SRC, diff).merged_code == SRC.replace("return 1", "return 5", 1)
    r = apply_batch("```diff\n" + diff + "```\n", {"m.py": SRC})
    assert r.ok and r.files[0].status == "modified"
