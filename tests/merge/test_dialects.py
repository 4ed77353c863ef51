"""Small end-to-end merges, one per snippet dialect and language family."""

import textwrap

import pytest

from fastapply import ApplyError, apply


def merge(original: str, update: str, filename: str) -> str:
    return apply(textwrap.dedent(original), textwrap.dedent(update), filename=filename).merged_code


JS_CLASS = """\
    class Cart {
      constructor() {
        this.items = [];
      }

      add(item) {
        this.items.push(item);
        return this;
      }

      total() {
        return this.items.reduce((sum, item) => sum + item.price, 0);
      }
    }
    """


def test_js_marker_inside_class_body_adds_a_method_at_the_end() -> None:
    update = """\
    class Cart {
      // ... existing code ...

      clear() {
        this.items = [];
        return this;
      }
    }
    """
    merged = merge(JS_CLASS, update, "cart.js")
    assert merged.endswith("  clear() {\n    this.items = [];\n    return this;\n  }\n}\n")
    assert "total() {" in merged and merged.count("constructor()") == 1


def test_js_changed_signature_replaces_the_old_method() -> None:
    update = """\
    // ... existing code ...
      add(item, quantity = 1) {
        for (let i = 0; i < quantity; i++) this.items.push(item);
        return this;
      }
    // ... existing code ...
    """
    merged = merge(JS_CLASS, update, "cart.js")
    assert "add(item) {" not in merged
    assert "  add(item, quantity = 1) {\n    for (let i" in merged
    assert merged.count("return this;") == 1 and "total() {" in merged


def test_python_body_marker_keeps_the_rest_of_the_function() -> None:
    original = """\
    import os


    def load(path):
        if not os.path.exists(path):
            return None
        with open(path) as handle:
            data = handle.read()
        return data.strip()


    def save(path, data):
        with open(path, "w") as handle:
            handle.write(data)
    """
    update = """\
    def load(path, default=None):
        if not os.path.exists(path):
            return default
        # ... existing code ...
    """
    merged = merge(original, update, "io_utils.py")
    assert "def load(path, default=None):\n    if not os.path.exists(path):\n        return default\n" in merged
    assert "        data = handle.read()\n    return data.strip()\n" in merged
    assert "def save(path, data):" in merged and "return None" not in merged


def test_python_wrong_comment_syntax_marker() -> None:
    original = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"
    update = "// ... existing code ...\ndef b():\n    return 3\n"
    assert merge(original, update, "m.py") == "def a():\n    return 1\n\n\ndef b():\n    return 3\n"


def test_no_marker_snippet_replaces_the_function_in_place() -> None:
    original = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n"
    update = "def b():\n    value = 2\n    return value * 10\n"
    merged = merge(original, update, "m.py")
    assert merged == ("def a():\n    return 1\n\n\ndef b():\n    value = 2\n    return value * 10\n\n\n"
                      "def c():\n    return 3\n")
    assert apply(original, update, filename="m.py").method == "node_replace"


def test_whole_file_snippet_replaces_the_file() -> None:
    original = "import a\n\n\ndef f():\n    return a.x\n"
    update = "import a\nimport b\n\n\ndef f():\n    return a.x + b.y\n"
    result = apply(original, update, filename="m.py")
    assert result.merged_code == update and result.method == "whole_file"


def test_jsx_comment_markers() -> None:
    original = """\
    export function List({ items }) {
      return (
        <ul className="list">
          <li className="head">Items</li>
          {items.map((item) => (
            <li key={item.id}>{item.name}</li>
          ))}
        </ul>
      );
    }
    """
    update = """\
    export function List({ items }) {
      return (
        <ul className="list">
          {/* ... existing code ... */}
          <li className="foot">{items.length} items</li>
        </ul>
      );
    }
    """
    merged = merge(original, update, "List.jsx")
    assert '      ))}\n      <li className="foot">{items.length} items</li>\n    </ul>' in merged
    assert '<li className="head">Items</li>' in merged and "/*" not in merged


def test_html_marker_and_embedded_script() -> None:
    original = """\
    <!DOCTYPE html>
    <html>
      <head>
        <title>Demo</title>
        <style>
          body { margin: 0; }
        </style>
      </head>
      <body>
        <h1 id="title">Hello</h1>
        <script>
          document.getElementById("title").textContent = "Hi";
        </script>
      </body>
    </html>
    """
    update = """\
    <!-- ... existing code ... -->
        <h1 id="title">Hello, world</h1>
        <p class="lead">Welcome.</p>
    <!-- ... existing code ... -->
    """
    merged = merge(original, update, "index.html")
    assert '    <h1 id="title">Hello, world</h1>\n    <p class="lead">Welcome.</p>\n    <script>' in merged
    assert "<h1 id=\"title\">Hello</h1>" not in merged and "<style>" in merged


def test_css_rule_change() -> None:
    original = ".a {\n  color: red;\n}\n\n.b {\n  color: blue;\n}\n\n.c {\n  color: green;\n}\n"
    update = "/* ... existing code ... */\n.b {\n  color: navy;\n  margin: 0;\n}\n/* ... existing code ... */\n"
    assert merge(original, update, "x.css") == (".a {\n  color: red;\n}\n\n.b {\n  color: navy;\n  margin: 0;\n}"
                                                "\n\n.c {\n  color: green;\n}\n")


def test_lua_double_dash_markers() -> None:
    original = """\
    local M = {}

    function M.add(a, b)
      return a + b
    end

    function M.sub(a, b)
      return a - b
    end

    return M
    """
    update = """\
    -- ... existing code ...
    function M.sub(a, b)
      assert(type(a) == "number")
      return a - b
    end
    -- ... existing code ...
    """
    merged = merge(original, update, "m.lua")
    assert 'function M.sub(a, b)\n  assert(type(a) == "number")\n  return a - b\nend\n\nreturn M\n' in merged
    assert "function M.add(a, b)" in merged


def test_rust_deletion_between_anchors() -> None:
    original = """\
    fn one() -> i32 {
        let base = 1;
        base
    }

    fn two() -> i32 {
        let base = 2;
        base
    }

    fn three() -> i32 {
        let base = 3;
        base
    }
    """
    update = """\
    // ... existing code ...
        let base = 1;
        base
    }

    fn three() -> i32 {
    // ... existing code ...
    """
    merged = merge(original, update, "lib.rs")
    assert "fn two" not in merged
    assert "    let base = 1;\n    base\n}\n\nfn three() -> i32 {\n    let base = 3;" in merged


def test_no_marker_snippet_with_two_functions_replaces_each_in_place() -> None:
    original = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n"
    update = "def a():\n    return 10\n\n\ndef c():\n    return 30\n"
    merged = merge(original, update, "m.py")
    assert merged == "def a():\n    return 10\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 30\n"


def test_explicit_deletion_note() -> None:
    original = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n"
    update = "# ... existing code ...\n# remove b()\n# ... existing code ...\n"
    merged = merge(original, update, "m.py")
    assert "def b" not in merged and "def a" in merged and "def c" in merged


def test_go_tabs_file_keeps_tabs_with_a_spaces_snippet() -> None:
    original = "package main\n\nfunc add(a, b int) int {\n\treturn a + b\n}\n\nfunc main() {\n\tprintln(add(1, 2))\n}\n"
    update = ("// ... existing code ...\nfunc add(a, b int) int {\n    if a < 0 {\n        return b\n    }\n"
              "    return a + b\n}\n// ... existing code ...\n")
    merged = merge(original, update, "main.go")
    assert "func add(a, b int) int {\n\tif a < 0 {\n\t\treturn b\n\t}\n\treturn a + b\n}" in merged


def test_go_functions_keep_tabs_below_a_raw_string_indented_by_spaces() -> None:
    """The file's first lines (a bash script in a raw string) use spaces; its functions use tabs,
    and the snippet (tabs) replaces one: the style where the snippet pairs decides."""
    script = "".join(f"    echo step{i}\n" for i in range(30))
    original = f"package cobra\n\nconst script = `\n{script}`\n\nfunc writeFlag(name string) {{\n" \
               "\tlog.Print(name)\n\tfmt.Println(name)\n}\n\nfunc other() {\n\treturn\n}\n"
    snippet = "func writeFlag(name string) {\n\tlog.Printf(\"%s is not supported\", name)\n\tpanic(name)\n}\n"
    merged = apply(original, snippet, filename="flags.go").merged_code
    assert merged == original.replace("\tlog.Print(name)\n\tfmt.Println(name)\n",
                                      "\tlog.Printf(\"%s is not supported\", name)\n\tpanic(name)\n")


def test_yaml_new_key_at_the_end() -> None:
    original = "name: ci\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n"
    update = "# ... existing code ...\n      - run: make test\n      - run: make lint\n"
    merged = merge(original, update, "ci.yml")
    assert merged.endswith("      - run: make test\n      - run: make lint\n")


def test_ambiguous_anchor_is_refused() -> None:
    original = "def a():\n    x = compute()\n    return x\n\n\ndef b():\n    x = compute()\n    return x\n"
    update = "# ... existing code ...\n    x = compute()\n    log(x)\n# ... existing code ...\n"
    with pytest.raises(ApplyError) as info:
        apply(original, update, filename="m.py")
    assert info.value.code == "ambiguous_anchor"
    assert "line 2" in info.value.message and "context" in info.value.message


def test_unplaceable_snippet_is_refused() -> None:
    original = "def a():\n    return 1\n"
    update = "# ... existing code ...\ndef z():\n    return 26\n# ... existing code ...\ndef y():\n    pass\n# ... existing code ...\n"
    with pytest.raises(ApplyError) as info:
        apply(original, update, filename="m.py")
    assert info.value.code in ("anchor_not_found", "ambiguous_anchor")


def test_crlf_bom_and_missing_final_newline_survive() -> None:
    original = "\ufeffdef a():\r\n    return 1\r\n\r\n\r\ndef b():\r\n    return 2"
    update = "# ... existing code ...\ndef b():\n    return 3\n"
    merged = apply(original, update, filename="m.py").merged_code
    assert merged == "\ufeffdef a():\r\n    return 1\r\n\r\n\r\ndef b():\r\n    return 3"


@pytest.mark.parametrize("original, update, code", [
    ("x = 1\n", "", "empty_update"),
    ("x = 1\n", "   \n", "empty_update"),
    (b"\xff\xfe\x00bad", "x = 2\n", "not_text"),
    ("x = 1\n", b"\x00\x01binary", "not_text"),
])
def test_bad_input_codes(original, update, code) -> None:
    with pytest.raises(ApplyError) as info:
        apply(original, update, filename="m.py")
    assert info.value.code == code


def test_input_too_large() -> None:
    from fastapply import Limits

    with pytest.raises(ApplyError) as info:
        apply("x = 1\n" * 100, "x = 2\n", filename="m.py", limits=Limits(max_file_bytes=100))
    assert info.value.code == "input_too_large"


def test_language_without_grammar_uses_the_line_merge() -> None:
    original = "SECTION A\n  MOVE 1 TO X\n  DISPLAY X\nSECTION B\n  MOVE 2 TO Y\n  DISPLAY Y\n"
    update = "// ... existing code ...\nSECTION B\n  MOVE 3 TO Y\n  DISPLAY Y\n"
    result = apply(original, update, language="cobol")
    assert result.method == "fallback_lines"
    assert result.merged_code == "SECTION A\n  MOVE 1 TO X\n  DISPLAY X\nSECTION B\n  MOVE 3 TO Y\n  DISPLAY Y\n"
    # a marker in a comment syntax the engine does not know is caught, not merged as code
    with pytest.raises(ApplyError) as info:
        apply(original, update.replace("//", "*"), language="cobol")
    assert info.value.code == "marker_left"


def test_broken_javascript_inside_html_script_is_refused() -> None:
    original = "<html>\n<body>\n<script>\nfunction a() {\n  return 1;\n}\n</script>\n</body>\n</html>\n"
    update = "<!-- ... existing code ... -->\nfunction a() {\n  return (1;\n}\n<!-- ... existing code ... -->\n"
    with pytest.raises(ApplyError) as info:
        apply(original, update, filename="index.html")
    assert info.value.code == "syntax_regressed"


def test_dedented_or_tab_indented_snippet_follows_the_files_indentation() -> None:
    original = ("class R:\n    def __init__(self, w, h):\n        self.w = w\n        self.h = h\n\n"
                "    def area(self):\n        return self.w * self.h\n\n    def name(self):\n        return 'r'\n")
    dedented = "# ... existing code ...\ndef area(self):\n    # cached\n    return self.w * self.h\n# ... existing code ...\n"
    assert "    def area(self):\n        # cached\n        return self.w * self.h\n\n    def name" in \
        apply(original, dedented, filename="r.py").merged_code
    tabbed = "# ... existing code ...\n\tdef area(self):\n\t\treturn self.w * self.h * 1\n# ... existing code ...\n"
    assert "    def area(self):\n        return self.w * self.h * 1\n" in apply(original, tabbed, filename="r.py").merged_code


def test_changed_signature_is_reported_in_warnings() -> None:
    original = "def f(a):\n    return a\n\n\ndef g():\n    pass\n"
    result = apply(original, "def f(a, b=1):\n    return a + b\n# ... existing code ...\n", filename="m.py")
    assert result.merged_code == "def f(a, b=1):\n    return a + b\n\n\ndef g():\n    pass\n"
    assert any("line(s) 1" in warning for warning in result.warnings)
