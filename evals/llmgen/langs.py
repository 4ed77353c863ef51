"""Per-language knowledge the generator needs: comment syntax, marker wordings, code templates.

The templates only have to parse (tree-sitter checks every expected file); they read like the small
edits agents make: a log line, a guard, a new helper, a named constant, a changed type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Marker wordings seen in frontier-model snippets; `{c}` is the comment opener.
MARKER_WORDS = [
    "... existing code ...", "... existing code ...", "... existing code ...",
    "... rest of the code ...", "... rest of the file unchanged ...", "...", "... unchanged ...",
    "... (keep existing methods)", "... other methods unchanged ...", "... existing imports ...",
    "... remaining implementation unchanged ...", "… existing code …", "[...]",
]


@dataclass(frozen=True)
class Lang:
    name: str
    comment: str  # line comment opener, or "" when only block comments exist
    block: tuple[str, str] = ("", "")  # block comment opener and closer, if the language has them
    brace: bool = True  # bodies close with a line of their own ("}" / "end")
    log: str = ""  # a statement; {msg} is the text
    function: tuple[str, ...] = ()  # a new function, {name}, indented from column 0
    method: tuple[str, ...] = ()  # the same inside a class (default: `function`)
    constant: str = ""  # a top-level constant, {name} {value}
    call: str = ""  # a statement calling a helper {name} with a string
    imports: tuple[str, ...] = ()  # new import lines, one of them is used
    import_re: str = ""  # lines that are imports (the new import goes before the first)
    annotations: tuple[tuple[str, str], ...] = ()
    rewrite: tuple[str, ...] = ()  # a replacement body (statements), {msg}
    top_functions: bool = True  # free functions allowed at file level
    words: tuple[str, ...] = field(default=("value", "item", "result", "count", "entry", "node"))


def _fn(*lines: str) -> tuple[str, ...]:
    return tuple(lines)


LANGS: dict[str, Lang] = {}


def _add(lang: Lang) -> None:
    LANGS[lang.name] = lang


_add(Lang("python", "#", brace=False, log='logger.debug("{msg}")',
          function=_fn("def {name}(value, default=None):", '    """{doc}"""',
                       "    if value is None:", "        return default", "    return value"),
          method=_fn("def {name}(self, value, default=None):", '    """{doc}"""',
                     "    if value is None:", "        return default", "    return value"),
          constant="{name} = {value}", call='{name}("{msg}")',
          imports=("import logging", "import functools", "import itertools", "from typing import Any"),
          import_re=r"^(import |from \S+ import )",
          annotations=((r"\bdict\[", "Dict["), (r"\blist\[", "List["), (r"\bOptional\[(\w+)\]", r"\1 | None"),
                       (r": str\b", ": str | None"), (r"-> bool\b", "-> Optional[bool]"),
                       (r": int\b", ": float"), (r"-> str\b", "-> Optional[str]")),
          rewrite=('logger.debug("{msg}")', "return None")))
_JS_FN = _fn("function {name}(value, fallback) {{", "  if (value === undefined || value === null) {{",
             "    return fallback;", "  }}", "  return value;", "}}")
_JS_METHOD = _fn("{name}(value, fallback) {{", "  if (value === undefined || value === null) {{",
                 "    return fallback;", "  }}", "  return value;", "}}")
_TS_FN = _fn("function {name}<T>(value: T | undefined, fallback: T): T {{",
             "  if (value === undefined || value === null) {{", "    return fallback;", "  }}",
             "  return value;", "}}")
_TS_METHOD = _fn("private {name}<T>(value: T | undefined, fallback: T): T {{",
                 "  if (value === undefined || value === null) {{", "    return fallback;", "  }}",
                 "  return value;", "}}")
for _name, _f, _m, _ann in (
        ("javascript", _JS_FN, _JS_METHOD, ()), ("jsx", _JS_FN, _JS_METHOD, ()),
        ("typescript", _TS_FN, _TS_METHOD,
         ((r": string\b", ": String"), (r": number\b", ": bigint"), (r"\bstring\[\]", "Array<string>"),
          (r"\bArray<(\w+)>", r"\1[]"), (r": boolean\b", ": boolean | undefined"),
          (r"\bPromise<void>", "Promise<unknown>"))),
        ("tsx", _TS_FN, _TS_METHOD,
         ((r": string\b", ": String"), (r": number\b", ": bigint"), (r"\bstring\[\]", "Array<string>"),
          (r": boolean\b", ": boolean | undefined")))):
    _add(Lang(_name, "//", block=("/*", "*/"), log="console.debug('{msg}');", function=_f, method=_m,
              constant="const {name} = {value};", call="{name}('{msg}');",
              imports=("import { strict as assert } from 'assert';", "import path from 'path';"),
              import_re=r"^import\s", annotations=_ann, rewrite=("console.debug('{msg}');",
                                                                  "return undefined;")))
_add(Lang("rust", "//", block=("/*", "*/"), log='log::debug!("{msg}");',
          function=_fn("fn {name}(value: Option<i64>, fallback: i64) -> i64 {{",
                       "    match value {{", "        Some(v) => v,", "        None => fallback,",
                       "    }}", "}}"),
          constant="const {name}: i64 = {value};", call='{name}("{msg}");',
          imports=("use std::collections::HashMap;", "use std::fmt::Write as _;"), import_re=r"^use ",
          annotations=((r"&str\b", "&String"), (r"\busize\b", "u64"), (r"\bi32\b", "i64"),
                       (r"\bu8\b", "u16"), (r"\bVec<", "Box<Vec<"), (r"\bf32\b", "f64")),
          rewrite=('log::debug!("{msg}");', "todo!()")))
_add(Lang("go", "//", block=("/*", "*/"), log='log.Printf("{msg}")',
          function=_fn("func {name}(value *int, fallback int) int {{", "\tif value == nil {{",
                       "\t\treturn fallback", "\t}}", "\treturn *value", "}}"),
          constant="const {name} = {value}", call='{name}("{msg}")',
          annotations=((r"\bint\b", "int64"), (r"\bstring\b", "[]byte"), (r"\buint8\b", "byte"),
                       (r"\bfloat32\b", "float64"), (r"\berror\b", "*Error")),
          rewrite=('log.Printf("{msg}")', 'panic("{msg}")')))
_C_FN = _fn("static int {name}(int value, int low, int high) {{",
            "    if (value < low) {{", "        return low;", "    }}",
            "    return value > high ? high : value;", "}}")
_add(Lang("c", "//", block=("/*", "*/"), log='fprintf(stderr, "{msg}\\n");', function=_C_FN,
          constant="#define {name} {value}", call='{name}("{msg}");',
          imports=("#include <stdio.h>", "#include <string.h>", "#include <errno.h>"),
          import_re=r"^#include ",
          annotations=((r"\bint\b", "long"), (r"\bchar \*", "const char *"), (r"\bunsigned\b", "size_t"),
                       (r"\bfloat\b", "double")),
          rewrite=('fprintf(stderr, "{msg}\\n");', "abort();")))
_add(Lang("cpp", "//", block=("/*", "*/"), log='std::fprintf(stderr, "{msg}\\n");', function=_C_FN,
          constant="constexpr int {name} = {value};", call='{name}("{msg}");',
          imports=("#include <cstdio>", "#include <string>", "#include <vector>"), import_re=r"^#include ",
          annotations=((r"\bint\b", "long"), (r"\bstd::string\b", "std::string_view"),
                       (r"\bsize_t\b", "std::size_t"), (r"\bfloat\b", "double")),
          rewrite=('std::fprintf(stderr, "{msg}\\n");', "std::abort();")))
_add(Lang("java", "//", block=("/*", "*/"), log='System.err.println("{msg}");', top_functions=False,
          function=_fn("private static int {name}(int value, int low, int high) {{",
                       "    if (value < low) {{", "        return low;", "    }}",
                       "    return Math.min(value, high);", "}}"),
          call='{name}("{msg}");', imports=("import java.util.Objects;", "import java.util.Optional;"),
          import_re=r"^import ",
          annotations=((r"\bint\b", "long"), (r"\bList<", "Collection<"), (r"\bString\b", "CharSequence"),
                       (r"\bfloat\b", "double")),
          rewrite=('System.err.println("{msg}");', 'throw new UnsupportedOperationException("{msg}");')))
_add(Lang("csharp", "//", block=("/*", "*/"), log='Console.Error.WriteLine("{msg}");', top_functions=False,
          function=_fn("private static int {name}(int value, int low, int high)", "{{",
                       "    return Math.Clamp(value, low, high);", "}}"),
          call='{name}("{msg}");', imports=("using System.Linq;", "using System.Text;"),
          import_re=r"^using [\w.]+;",
          annotations=((r"\bint\b", "long"), (r"\bList<", "IList<"), (r"\bstring\b", "string?")),
          rewrite=('Console.Error.WriteLine("{msg}");', 'throw new NotImplementedException("{msg}");')))
_add(Lang("ruby", "#", brace=True, block=("=begin", "=end"), log='warn "{msg}"',
          function=_fn("def {name}(value, fallback = nil)", "  return fallback if value.nil?", "",
                       "  value", "end"),
          constant="{name} = {value}", call='{name}("{msg}")',
          imports=("require 'json'", "require 'set'"), import_re=r"^require(_relative)? ",
          rewrite=('warn "{msg}"', "nil")))
_add(Lang("lua", "--", block=("--[[", "]]"), log='print("{msg}")',
          function=_fn("local function {name}(value, fallback)", "  if value == nil then",
                       "    return fallback", "  end", "  return value", "end"),
          constant="local {name} = {value}", call='{name}("{msg}")',
          rewrite=('print("{msg}")', "return nil")))
_add(Lang("php", "//", block=("/*", "*/"), log="error_log('{msg}');",
          function=_fn("function {name}($value, $fallback = null)", "{{",
                       "    return $value ?? $fallback;", "}}"),
          method=_fn("private function {name}($value, $fallback = null)", "{{",
                     "    return $value ?? $fallback;", "}}"),
          call="{name}('{msg}');", rewrite=("error_log('{msg}');", "return null;"),
          annotations=((r"\bint\b", "float"), (r"\bstring\b", "?string"), (r"\barray\b", "iterable"))))
_add(Lang("kotlin", "//", block=("/*", "*/"), log='println("{msg}")',
          function=_fn("private fun {name}(value: Int?, fallback: Int): Int {{", "    return value ?: fallback",
                       "}}"),
          constant="private const val {name} = {value}", call='{name}("{msg}")',
          imports=("import kotlin.math.max", "import java.util.Objects"), import_re=r"^import ",
          annotations=((r"\bInt\b", "Long"), (r"\bString\b", "String?"), (r"\bList<", "MutableList<")),
          rewrite=('println("{msg}")', 'TODO("{msg}")')))
_add(Lang("swift", "//", block=("/*", "*/"), log='print("{msg}")',
          function=_fn("private func {name}(_ value: Int?, fallback: Int) -> Int {{",
                       "    return value ?? fallback", "}}"),
          constant="let {name} = {value}", call='{name}("{msg}")',
          imports=("import Foundation", "import os"), import_re=r"^import ",
          annotations=((r"\bInt\b", "Int64"), (r"\bString\b", "Substring"), (r"\bDouble\b", "Float")),
          rewrite=('print("{msg}")', 'fatalError("{msg}")')))
_add(Lang("scala", "//", block=("/*", "*/"), log='println("{msg}")',
          function=_fn("private def {name}(value: Option[Int], fallback: Int): Int = {{",
                       "  value.getOrElse(fallback)", "}}"),
          call='{name}("{msg}")', imports=("import scala.util.Try", "import scala.collection.mutable"),
          import_re=r"^import ",
          annotations=((r"\bInt\b", "Long"), (r"\bList\[", "Seq["), (r"\bString\b", "CharSequence")),
          rewrite=('println("{msg}")', "???")))
_add(Lang("bash", "#", log='echo "{msg}" >&2',
          function=_fn("{name}() {{", '  local value="${{1:-}}"', '  echo "${{value:-default}}"', "}}"),
          constant="{name}={value}", call='{name} "{msg}"', rewrite=('echo "{msg}" >&2', "return 1")))

# Languages whose definitions close with `end` rather than a brace.
END_LANGS = {"ruby", "lua"}
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


def comment_syntaxes(language: str) -> list[tuple[str, str]]:
    """(opener, closer) pairs a marker can be written in; the first is the language's own."""
    lang = LANGS.get(language)
    own = {"css": [("/*", " */")], "html": [("<!--", " -->")], "yaml": [("#", "")], "toml": [("#", "")],
           "json": [("//", "")]}.get(language)
    if own is None and lang is not None:
        own = [(lang.comment, "")]
        if lang.block[0] == "/*":
            own.append(("/*", " */"))
    return own or [("//", "")]


def foreign_syntax(language: str) -> tuple[str, str]:
    """A comment syntax of another language (a habit: `//` markers in Python, `#` in JavaScript)."""
    own = comment_syntaxes(language)[0][0]
    return ("#", "") if own in ("//", "/*", "--", "<!--") else ("//", "")


def render_marker(opener: str, closer: str, words: str) -> str:
    return f"{opener} {words}{closer}"
