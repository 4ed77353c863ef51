import pytest

from fastapply import ApplyError, apply_search_replace
from fastapply.formats.search_replace import parse_search_replace

SRC = "def greet(name):\n    print('hi', name)\n\n\ndef bye():\n    print('bye')\n"

AIDER = """I'll change both functions.

app/greet.py
```python
<<<<<<< SEARCH
def greet(name):
    print('hi', name)
=======
def greet(name):
    print('hello', name)
>>>>>>> REPLACE
```

Some prose in between, and another fence:

```bash
python -m app
```

```python
<<<<<<< SEARCH
    print('bye')
=======
    print('goodbye')
>>>>>>> REPLACE
```
"""


def test_aider_blocks_with_fences_and_prose():
    ops = parse_search_replace(AIDER)
    assert [op.path for op in ops] == ["app/greet.py"] and len(ops[0].edits) == 2
    r = apply_search_replace(SRC, AIDER, filename="app/greet.py")
    assert "print('hello', name)" in r.merged_code and "print('goodbye')" in r.merged_code
    assert r.method == "search_replace"


def test_cline_variant_and_path_outside_fence():
    text = "<path>src/x.py</path>\n------- SEARCH\ndef bye():\n=======\ndef farewell():\n+++++++ REPLACE\n"
    ops = parse_search_replace(text)
    assert ops[0].path == "src/x.py"
    assert "def farewell():" in apply_search_replace(SRC, text).merged_code


def test_paths_from_several_styles():
    text = ("**a.py**\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n\n"
            "File: b.py\n```\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n")
    assert [op.path for op in parse_search_replace(text)] == ["a.py", "b.py"]


def test_search_drifted_indentation():
    text = "<<<<<<< SEARCH\nprint('bye')\n=======\nprint('see you')\nreturn None\n>>>>>>> REPLACE\n"
    r = apply_search_replace(SRC, text)
    assert r.merged_code.endswith("    print('see you')\n    return None\n")


@pytest.mark.parametrize("text,line", [
    ("intro\n<<<<<<< SEARCH\nx\n>>>>>>> REPLACE\n", 2),
    ("<<<<<<< SEARCH\nx\n=======\ny\n", 1),
    ("<<<<<<< SEARCH\nx\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE\n", 1),
])
def test_malformed_names_line(text, line):
    with pytest.raises(ApplyError) as e:
        apply_search_replace(SRC, text)
    assert e.value.code == "malformed_edit" and e.value.details["line"] == line
    assert f"line {line}" in e.value.message


def test_no_blocks_is_empty_update():
    with pytest.raises(ApplyError) as e:
        apply_search_replace(SRC, "just prose")
    assert e.value.code == "empty_update"


def test_rst_underline_in_code_is_not_the_divider():
    src = 'DOC = """\nTitle\n=========\nbody\n"""\n'
    text = '<<<<<<< SEARCH\nTitle\n=========\nbody\n=======\nTitle\n=========\nnew body\n>>>>>>> REPLACE\n'
    assert apply_search_replace(src, text).merged_code == 'DOC = """\nTitle\n=========\nnew body\n"""\n'
    with pytest.raises(ApplyError) as e:
        apply_search_replace(src, "<<<<<<< SEARCH\na\n=======\nb\n=======\nc\n>>>>>>> REPLACE\n")
    assert e.value.code == "malformed_edit" and "several" in e.value.message
