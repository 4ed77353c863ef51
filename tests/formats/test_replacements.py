import pytest

import fastapply
from fastapply import ApplyError, apply_replacements

SRC = "import os\n\n\ndef load(path):\n    with open(path) as f:\n        return f.read()\n\n\ndef save(path, data):\n    with open(path, 'w') as f:\n        f.write(data)\n"


def test_exact_pairs_in_order():
    r = apply_replacements(SRC, [("return f.read()", "return f.read().strip()"),
                                 ("f.read().strip()", "f.read().upper()")], filename="io.py")
    assert "return f.read().upper()" in r.merged_code
    assert r.method == "replace_exact" and r.stats.segments == 2
    assert r.diff.startswith("--- a/io.py")


@pytest.mark.parametrize("old_key,new_key", [("old", "new"), ("old_string", "new_string"),
                                             ("old_str", "new_str"), ("search", "replace")])
def test_mapping_aliases(old_key, new_key):
    r = apply_replacements(SRC, [{old_key: "import os", new_key: "import os\nimport sys"}])
    assert r.merged_code.startswith("import os\nimport sys\n")


def test_ambiguous_names_lines_and_replace_all():
    with pytest.raises(ApplyError) as e:
        apply_replacements(SRC, [("with open(path", "with open(str(path)")])
    assert e.value.code == "ambiguous_match" and e.value.details["candidates"] == [5, 10]
    r = apply_replacements(SRC, [{"old": "with open(path", "new": "with open(str(path)", "replace_all": True}])
    assert r.merged_code.count("open(str(path)") == 2


def test_shifted_indentation_shifts_new_text():
    r = apply_replacements(SRC, [("with open(path) as f:\n    return f.read()\n",
                                  "with open(path) as f:\n    text = f.read()\n    return text\n")])
    assert "        text = f.read()\n        return text\n" in r.merged_code
    assert r.method == "replace_fuzzy" and r.warnings


def test_trailing_whitespace_and_extra_blank_edges():
    src = SRC.replace("return f.read()", "return f.read()   ")
    r = apply_replacements(src, [("\n    with open(path) as f:\n        return f.read()\n\n",
                                  "\n    with open(path) as f:\n        return f.read(10)\n\n")])
    assert "return f.read(10)" in r.merged_code and "def save" in r.merged_code


def test_crlf_bom_and_missing_final_newline_kept():
    src = "\ufeff" + SRC.replace("\n", "\r\n").rstrip("\r\n")
    r = apply_replacements(src, [("f.write(data)", "f.write(data)\n        f.flush()")])
    assert r.merged_code.startswith("\ufeff")
    assert r.merged_code.endswith("f.flush()")
    assert "\r\n        f.flush()" in r.merged_code and "\n" not in r.merged_code.replace("\r\n", "")


def test_no_match_names_closest_region():
    with pytest.raises(ApplyError) as e:
        apply_replacements(SRC, [("def load(path):\n    with open(path, 'rb') as fh:\n        return fh.read()\n", "x")],
                           fuzzy_threshold=0.95)
    assert e.value.code == "no_match" and "closest region is lines 4-6" in e.value.message
    assert e.value.details["edit"] == 1


def test_fuzzy_threshold_lets_a_drifted_block_through():
    old = "def load(path):\n    with open(path) as fh:\n        return f.read()\n"
    r = apply_replacements(SRC, [(old, "def load(path):\n    return open(path).read()\n")], fuzzy_threshold=0.8)
    assert "return open(path).read()" in r.merged_code and "with open(path) as f:\n        return" not in r.merged_code


@pytest.mark.parametrize("edits", [[("", "x")], [{"old": "a"}], [42], "not a list", [("a", "b", "c")]])
def test_malformed_edits(edits):
    with pytest.raises(ApplyError) as e:
        apply_replacements(SRC, edits)
    assert e.value.code in ("malformed_edit", "no_match")


def test_empty_original_takes_new_text_and_noop_warns():
    assert apply_replacements("", [("", "hello\n")]).merged_code == "hello\n"
    r = apply_replacements(SRC, [("import os", "import os")])
    assert r.merged_code == SRC and "changes nothing" in r.warnings[0]


def test_exported_lazily():
    assert fastapply.apply_replacements is apply_replacements
