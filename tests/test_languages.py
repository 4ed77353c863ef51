"""The language registry (grammars/*.toml) and language detection."""

import pytest

from fastapply.errors import ApplyError
from fastapply.languages import detect_language, find_language, get_language, language_names

REQUIRED = ["python", "javascript", "jsx", "typescript", "tsx", "rust", "go", "java", "c", "cpp", "csharp",
            "ruby", "php", "kotlin", "swift", "scala", "lua", "bash", "html", "css", "json", "yaml"]


def test_every_required_language_is_registered_with_a_working_parser() -> None:
    assert set(REQUIRED) <= set(language_names())
    for name in REQUIRED:
        spec = get_language(name)
        assert spec.extensions and spec.definitions
        parser = spec.parser()
        assert parser is not None, name
        assert parser is spec.parser()  # cached
        tree = parser.parse(b"x")
        assert tree.root_node is not None


@pytest.mark.parametrize("filename, language", [
    ("app.py", "python"), ("index.JS", "javascript"), ("App.jsx", "jsx"), ("a.ts", "typescript"),
    ("Page.tsx", "tsx"), ("lib.rs", "rust"), ("main.go", "go"), ("A.java", "java"), ("x.h", "c"),
    ("x.hpp", "cpp"), ("P.cs", "csharp"), ("Gemfile", "ruby"), ("i.php", "php"), ("a.kts", "kotlin"),
    ("v.swift", "swift"), ("m.scala", "scala"), ("init.lua", "lua"), ("run.sh", "bash"),
    ("index.html", "html"), ("s.scss", "css"), ("package.json", "json"), ("ci.yml", "yaml"),
    ("notes.txt", None),
])
def test_detection_from_the_filename(filename, language) -> None:
    assert detect_language(filename, None, None) == language


def test_the_language_argument_wins_and_aliases_resolve() -> None:
    assert detect_language("a.py", "x", "TS") == "typescript"
    assert detect_language(None, None, "c++") == "cpp"
    assert detect_language(None, None, "golang") == "go"
    assert detect_language(None, None, "cobol") == "cobol"  # unknown: the engine falls back to lines


def test_detection_from_the_content() -> None:
    assert detect_language(None, "#!/usr/bin/env python3\nprint(1)\n") == "python"
    assert detect_language(None, "#!/bin/bash\necho hi\n") == "bash"
    assert detect_language(None, "<?php\necho 1;\n") == "php"
    assert detect_language(None, "package main\n\nfunc main() {\n}\n") == "go"
    assert detect_language(None, "def f(x):\n    return x\n\nimport os\n") == "python"
    assert detect_language(None, "hello world\n") is None


def test_unknown_names() -> None:
    assert find_language("cobol") is None
    with pytest.raises(ApplyError) as info:
        get_language("cobol")
    assert info.value.code == "unknown_language"


def test_import_does_not_load_tree_sitter() -> None:
    import subprocess
    import sys

    code = "import sys, fastapply.languages; fastapply.languages.detect_language('a.py'); " \
           "print('tree_sitter' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
