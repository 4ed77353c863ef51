"""Line-level facts the aligner uses: triviality, definition headers, block closers, indentation."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import repeat
from operator import sub

# Lines too common to anchor anything on their own.
_TRIVIAL_WORDS = {
    "end", "else", "else:", "else {", "} else {", "pass", "break", "break;", "continue", "continue;",
    "return", "return;", "fi", "done", "esac", "then", "do", "default:", "try {", "try:", "finally:",
    "} finally {", "begin", "return this;", "return null;", "return None", "return nil", "return false;",
    "return true;", "return False", "return True", "return result;", "return result", "return 0;",
    "else if", "});", "})", ")}", "end)", "end,", "nil", "null", "None", "self", "this", "super",
}
_WORD = re.compile(r"\w")
# a name in C-like languages, JavaScript's `$` included (heads, renames, last_use, markers)
IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_NAME = re.compile(r"[A-Za-z_]\w+")

_KEYWORD_HEADER = re.compile(
    r"^(?:(?:export|default|pub(?:\([\w:]+\))?|public|private|protected|internal|static|async|abstract|"
    r"final|sealed|open|override|inline|unsafe|extern|virtual|const|local|data|case|partial|readonly|"
    r"suspend|operator|infix|tailrec|mutating|fileprivate|lazy|implicit|declare|synchronized|native|"
    r"@\w+(?:\([^)]*\))?)\s+)*"
    r"(?:def|class|function\*?|fn|func|fun|struct|enum|interface|trait|object|module|impl(?:<[^>]*>)?|"
    r"type|record|namespace|protocol|extension|union|macro_rules!|val|var|let|const|init|sub|proc|method)"
    r"\s+(?:\([^)]*\)\s*)?(?:self\.)?(?P<name>`[^`]+`|[A-Za-z_$][\w$]*(?:[.:][A-Za-z_$][\w$]*)*[?!=]?)")
# (a name in backticks: Kotlin's and Swift's test functions, `func \`dropping a promise ...\`()`)
_CALL_HEADER = re.compile(
    r"^(?:[\w$<>\[\],.*&:@?]+\s+)*?(?:[\w$<>]+::)*(?P<name>[A-Za-z_$~][\w$]*)\s*(?:<[^>]*>)?\s*\([^;]*$")
_ASSIGN_HEADER = re.compile(
    r"^(?:(?:export|const|let|var|local|static|public|private|readonly)\s+)*(?P<name>[A-Za-z_$][\w$.:]*)"
    r"\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|\w+\s*=>|lambda\b|"
    r"React\.|styled\.|class\b|\{\s*$|\[\s*$)")
_KEY_HEADER = re.compile(r"^(?:- )?(?P<name>[A-Za-z_][\w.-]*):$")
# a method written as an object literal's key (`union: function (other) {`, `onClick: async (event) => {`):
# the key names it
_KEY_FUNCTION = re.compile(r"^(?:async\s+)?[\"']?(?P<name>[A-Za-z_$][\w$]*)[\"']?\s*:\s*(?:async\s+)?"
                           r"(?:function\b|(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*(?::[^=]+)?=>)")
_IMPL_FOR = re.compile(r"^(?:unsafe\s+)?impl(?:<[^>]*>)?\s+([\w:]+)(?:<[^{]*>)?\s+for\s+([\w:]+)")
_CSS_HEADER = re.compile(r"^(?P<name>[^{};]+?)\s*\{\s*$")
_HTML_HEADER = re.compile(r"^<(?P<tag>[a-zA-Z][\w-]*)(?P<attrs>[^>]*?\bid=[\"'](?P<name>[^\"']+)[\"'][^>]*)>")
_NOT_NAMES = {"if", "for", "while", "switch", "catch", "return", "elif", "with", "foreach", "until", "unless",
              "match", "when", "else", "do", "try", "new", "await", "yield", "sizeof", "typeof", "assert",
              "print", "println", "super", "this", "and", "or", "not", "in", "lock", "using", "fixed", "raise",
              "throw", "delete", "echo", "puts", "go", "defer", "panic", "emit", "del", "except", "catch",
              "import"}  # (`from x import (`, Go's `import (`: no definition)
_LABELS = {"try", "finally", "default", "public", "private", "protected", "internal", "else", "then"}
_OPENERS = ("{", "(", "[", ":", "do", "then", "=>", "->", "=")
_CLOSER = re.compile(r"^(?:[}\])]+[;,)]*(?: &&| \|\|)?|end\b.*|fi|done|esac|</[\w.-]+>|\)\s*[:{].*|\]\s*[,;]?)$")
_CLOSER_STARTS = "})]efd<"


def name_count(norm: str) -> int:
    """How many names (two characters or more) a line has: a line with several tells where it is."""
    return len(_NAME.findall(norm))


def is_trivial(norm: str) -> bool:
    """True for lines like `}` or `return this;` that occur everywhere and identify nothing."""
    return not norm or norm in _TRIVIAL_WORDS or not _WORD.search(norm) or len(norm) <= 2


def header_key(norm: str) -> str | None:
    """The name a line defines, if it opens a definition (function, method, class, rule, element)."""
    if not norm or norm[0] in "})]#/*-;" and not norm.startswith("#["):
        return None
    match = _IMPL_FOR.match(norm) if "impl" in norm else None
    if match:  # `impl Display for Money` is about Money, not about Display
        return f"{match.group(1)} for {match.group(2)}"
    match = _KEYWORD_HEADER.match(norm)
    if match:
        name = match.group("name")
        return name if name[0] == "`" else name.rsplit(".", 1)[-1].rsplit(":", 1)[-1]
    # (the substring tests are what each regex needs to match at all: they skip most regex calls)
    match = _ASSIGN_HEADER.match(norm) if "=" in norm else None
    if match:
        return match.group("name").rsplit(".", 1)[-1].rsplit(":", 1)[-1]
    match = _KEY_FUNCTION.match(norm) if "function" in norm or "=>" in norm else None
    if match:
        return match.group("name")
    match = _CALL_HEADER.match(norm) if "(" in norm else None
    if match and norm.split(" ", 1)[0].split("(", 1)[0] in _NOT_NAMES:
        match = None
    if match and match.group("name") not in _NOT_NAMES and (
            norm.endswith(("{", ":", "(")) or "=>" in norm
            # (a signature's first line ends with a comma inside its parentheses; a call closed
            # before it, `Law1(spec.law),`, is an element of a list)
            or norm.endswith(",") and norm.count("(") > norm.count(")")
            or norm.endswith(")") and "=" not in norm and match.start("name") > 0):
        return match.group("name")
    match = _KEY_HEADER.match(norm) if norm.endswith(":") else None
    if match and match.group("name") not in _NOT_NAMES and match.group("name") not in _LABELS:
        return "key:" + match.group("name")
    match = _HTML_HEADER.match(norm) if norm.startswith("<") else None
    if match:
        return f"<{match.group('tag')}#{match.group('name')}"
    if norm.endswith("{"):
        match = _CSS_HEADER.match(norm)
        if match and "(" not in norm and "=" not in norm and norm.split(" ", 1)[0] not in _CONTROL:
            return "css:" + match.group("name").strip()
    return None


# Go and Rust write conditions without parentheses (`if ok {`, `match x {`): statements, not selectors
_CONTROL = _NOT_NAMES | {"else", "match", "select", "loop", "unsafe", "go", "defer", "do", "try", "case", "in"}

_TAG_OPEN = re.compile(r"^<[A-Za-z][\w.:-]*(\s[^<]*)?(?<!/)>$")


_DO_THEN = re.compile(r"\b(do|then)\s*(\|[^|]*\|)?$")
_KEYWORD_OPENER = re.compile(r"^(def|class|module|function|local function)\b")
_KEYWORD_STARTS = ("def", "class", "module", "function", "local function")


def opens_block(norm: str) -> bool:
    if norm.startswith("<"):
        return bool(_TAG_OPEN.match(norm)) or norm.endswith(_OPENERS)
    # the substring tests are what each regex needs to match at all: hot on large files, they skip
    # most regex calls
    return norm.endswith(_OPENERS) or ("do" in norm or "then" in norm) and bool(_DO_THEN.search(norm)) \
        or norm.startswith(_KEYWORD_STARTS) and bool(_KEYWORD_OPENER.match(norm))


_ACCESS_LABELS = ("public:", "private:", "protected:", "internal:", "signals:", "slots:")


def continues_block(norm: str) -> bool:
    """A line at a block header's indentation that does not end the block: an Allman `{`, the
    `) {` after a long parameter list, `} else {`, `public:`."""
    if norm == "{" or norm in _ACCESS_LABELS:
        return True  # C++ access labels sit at the class's own indentation
    if norm.startswith(_CLAUSE_WORDS) and _CLAUSE.match(norm):
        return True  # Ruby's `rescue => e` in a method, Lua's `elseif x then`, bash's `else`
    return is_closer(norm) and norm.endswith(("{", ":")) and not norm.startswith("end")


# a clause of the block above it, at the header's own indentation, in languages without braces
_CLAUSE_WORDS = ("else", "elsif", "elseif", "elif", "rescue", "ensure")
_CLAUSE = re.compile(r"^(?:%s)\b" % "|".join(_CLAUSE_WORDS))


# body lines an edit folds into the line above it (`def f(): ...`, `) -> T: ...`)
DROPPED_STUBS = frozenset(("...", "pass"))

# a whole-line comment in any of the languages (`#` only with a space after it: `#include` is code)
# what a comment line may start with in some language, loosely (`#include` too; is_comment is strict)
COMMENT_STARTS = ("#", "//", "/*", "*", "--", "<!--", ";")
# a compiled file's source map comment, `//# sourceMappingURL=index.js.map`: (which one)
SOURCE_MAP = re.compile(r"^(?://|/\*)[#@]\s*(sourceMappingURL|sourceURL)=")
_COMMENT = re.compile(r"^(?:\*|/\*|//|--|;|#(?:\s|$))")
# a JavaScript/TypeScript import or re-export with a source: (keyword, what it takes)
JS_FROM = re.compile(r"^(import|export)\s+(?:type\s+)?(.*?)\s*\bfrom\s*['\"`]")

_BOUND_NAME = re.compile(r"^[A-Za-z_$][\w$]*$")
_PY_FROM = re.compile(r"^from\s+[\w.]+\s+import\s+([^()]+)$")


def bound_names(line: str) -> list[str]:
    """The names an import or re-export line with `from` binds in the module: JavaScript and
    TypeScript, or Python's one-line `from a import b, c as d` ([] for others)."""
    found = JS_FROM.match(line)  # `import a, { b as c } from`, `import * as ns from`, `export { a as b } from`
    if not found:
        python = _PY_FROM.match(line)
        if not python:
            return []
        parts = (part.split(" as ")[-1].strip() for part in python.group(1).split("#")[0].split(","))
        return [name for name in parts if _BOUND_NAME.match(name)]
    kind, clause = found.groups()
    names: list[str] = []
    if "{" in clause:
        head, _, rest = clause.partition("{")
        parts = rest.split("}", 1)[0].split(",")
        if kind == "import" and head.strip().rstrip(","):
            parts.append(head.strip().rstrip(","))  # the default import before `{`
    elif kind == "import":
        parts = [clause.split(" as ")[-1]] if clause.startswith("*") else clause.split(",")
    else:
        return []  # `export * from`: no name of its own
    for part in parts:
        name = part.split(" as ")[-1].strip().removeprefix("type ").strip()
        if _BOUND_NAME.match(name) and name != "default":
            names.append(name)
    return names


def is_comment(norm: str) -> bool:
    return bool(_COMMENT.match(norm))


def call_inside_call(norm: str, parent: str | None) -> bool:
    """A line that opens a `(` or `[` inside an open `(` or `[` of the line it is nested in
    (`highlighter(` as an argument of `explanation.extend(`): a call, never a definition's header."""
    return parent is not None and norm.endswith(("(", "[")) and parent.endswith(("(", "["))


def is_closer(norm: str) -> bool:
    # every alternative of _CLOSER starts with one of these characters (the cheap test first)
    return norm[:1] in _CLOSER_STARTS and bool(_CLOSER.match(norm))


def blank_indices(norms: list[str]) -> list[int]:
    """The indices of the blank lines, given the lines normalised (segments.normalize: a blank
    line's is ""), in order. list.index finds each in C: one interpreter step per blank line,
    O(n) in all."""
    found: list[int] = []
    at = -1
    try:
        while True:
            at = norms.index("", at + 1)
            found.append(at)
    except ValueError:
        return found


def indent_width(text: str, tab: int = 4) -> int:
    if "\t" not in text:  # the common case, and hot (called per line by many stages)
        return len(text) - len(text.lstrip(" "))
    body = text.lstrip(" \t")
    prefix_len = len(text) - len(body)
    if "\t" not in text[:prefix_len]:
        return prefix_len
    width = 0
    for char in text[:prefix_len]:
        width = width + tab - width % tab if char == "\t" else width + 1
    return width


def widths_of(lines: list[str]) -> list[int]:
    """indent_width of every line in one pass: O(n). The aligner keeps these arrays for the whole
    call, so the many stages that ask for a line's indentation index a list instead of measuring."""
    # (len(text) - len(text.lstrip(" ")) of every line, the loop in C)
    out = list(map(sub, map(len, lines), map(len, map(str.lstrip, lines, repeat(" ")))))
    if not any("\t" in text for text in _chunks(lines)):
        return out  # (the usual file: no tab anywhere, so the pass below would change nothing)
    # (rare) a tab in the indentation: measured in full
    return [indent_width(text) if text[width:width + 1] == "\t" else width for text, width in zip(lines, out)]


def _chunks(lines: list[str], size: int = 4096) -> Iterator[str]:
    """The lines joined a few thousand at a time: a substring test over them runs in C, and stops
    at the first chunk that has it."""
    for start in range(0, len(lines), size):
        yield "".join(lines[start:start + size])


class LazyWidths(dict[int, int]):
    """indent_width by line index, measured on first use and kept: for the original file, of which
    a merge usually asks about a few lines only (a dict whose missing keys are computed, so that
    `widths[i]` is a C-speed look-up once known)."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def __missing__(self, index: int) -> int:
        width = self[index] = indent_width(self.lines[index])
        return width


Widths = list[int] | LazyWidths


def width_lookup(lines: list[str], widths: Widths | None) -> Callable[[int], int]:
    """index -> indentation: a look-up in `widths` when the caller has the array, else measured."""
    if widths is not None:
        return widths.__getitem__
    return lambda index: indent_width(lines[index])


def block_end(lines: list[str], norms: list[str], start: int, stop: int, skip: set[int] | None = None,
              widths: Widths | None = None) -> int | None:
    """The closing line of the block opened at `start` (same indentation, a closer), or None.

    Uses indentation, which every language we see here keeps consistent; `skip` holds line indices
    (markers) that never end a block. O(length of the block).
    """
    width_of = width_lookup(lines, widths)
    base = width_of(start)
    for index in range(start + 1, stop):
        norm = norms[index]
        if not norm or (skip and index in skip):
            continue
        width = width_of(index)
        if width > base:
            continue  # (a deeper line is passed over whatever it is: its width is the cheap test)
        closer = is_closer(norm)  # (asked once: continues_block's own test, and the answer below)
        if norm == "{" or norm in _ACCESS_LABELS or closer and norm.endswith(("{", ":")) \
                and not norm.startswith("end") or is_directive(norm) \
                or norm.startswith(_CLAUSE_WORDS) and _CLAUSE.match(norm):
            continue  # (continues_block, inline: Ruby's `rescue` in a method goes on to its `end`)
        if width < base:
            return None
        return index if closer else None
    return None


# A C preprocessor conditional: written at column 0 anywhere, also inside a class or function body,
# it neither ends nor opens a block (`#ifdef NCCL_HAS_SYMMEM` among a class's members).
_DIRECTIVE = re.compile(r"^#\s*(?:if|ifdef|ifndef|elif|else|endif)\b")


def is_directive(norm: str) -> bool:
    return norm[:1] == "#" and bool(_DIRECTIVE.match(norm))


def block_extent(lines: list[str], norms: list[str], start: int,
                 widths: Widths | None = None) -> tuple[int, int]:
    """[first, stop) of the definition whose header is at `start`: leading comments and decorators,
    the header, the body (deeper indentation) and a closing line at the header's indentation."""
    width_of = width_lookup(lines, widths)
    base = width_of(start)
    first = start
    while first > 0 and norms[first - 1] and width_of(first - 1) == base and \
            norms[first - 1].startswith(("@", "#[", "//", "# ", "/*", "*", "--")):
        first -= 1
    return first, block_stop(lines, norms, start, widths) + 1


def block_stop(lines: list[str], norms: list[str], start: int, widths: Widths | None = None) -> int:
    """The last original line that belongs to the block opened at `start` (its closer included)."""
    width_of = width_lookup(lines, widths)
    base = width_of(start)
    last = start
    for index in range(start + 1, len(lines)):
        if not norms[index] or continues_block(norms[index]) or is_directive(norms[index]):
            continue
        width = width_of(index)
        if width > base:
            last = index
            continue
        if width == base and continues_block(norms[index]):
            last = index
            continue
        if width == base and is_closer(norms[index]):
            last = index
        break
    return last


def next_code(norms: list[str], start: int) -> int:
    """Index of the first non-blank line after `start` (an Allman brace's place)."""
    index = start + 1
    while index < len(norms) and not norms[index]:
        index += 1
    return index


_LINE_COMMENT = re.compile(r"\s+(?:#|//).*$")


def code_part(norm: str) -> str:
    """The line without a comment that ends it (`):  # pragma: no cover` -> `):`)."""
    return _LINE_COMMENT.sub("", norm)


def in_triple_quotes(lines: list[str]) -> list[bool]:
    """Per line, whether it starts inside a triple-quoted string (a docstring's text, an example in
    it). O(total length). Quotes in a line that starts as a comment open nothing, nor does one
    written as a literal between two other quotes (a Go raw string holding three double quotes had
    put the rest of go-cmp's report_reflect.go inside a string); other quotes in comments and
    escaped quotes are not told apart (a docstring-shaped heuristic, not a tokenizer)."""
    return triple_quote_states(lines, 0, len(lines), "")[0]


def triple_quote_states(lines: list[str], start: int, stop: int, quote: str) -> tuple[list[bool], str]:
    """in_triple_quotes of lines[start:stop] where line `start` starts inside `quote` ("" for none),
    and the quote still open after them: a file read in parts gives the answer of one reading (the
    state carried from line to line is that quote alone). O(their total length)."""
    inside: list[bool] = []
    part = lines[start:stop]
    # (a line without a triple quote carries the state on: only the lines with one are read in the
    # loop, the answers of those between filled in as runs)
    quoted = [at for at, line in enumerate(part) if '"""' in line or "'''" in line]
    for at in quoted:
        inside.extend([bool(quote)] * (at + 1 - len(inside)))  # up to this line, this one included
        line = part[at]
        if not quote and line.lstrip().startswith(("*", "//", "/*", "#")):
            continue  # (quotes in a comment line open nothing: `* "'" and """ (HTML)` in PHP)
        at_char = 0
        while True:
            if quote:
                end = line.find(quote, at_char)
                if end < 0:
                    break
                quote, at_char = "", end + 3
            else:
                # the first of the two quotes (they cannot start at one place)
                double, single = line.find('"""', at_char), line.find("'''", at_char)
                if double < 0 and single < 0:
                    break
                start, quote = (double, '"""') if single < 0 or 0 <= double < single else (single, "'''")
                at_char = start + 3
                if 0 < start and line[start - 1] in "'`\"" and line[start - 1] != quote[0] \
                        and line[start + 3:start + 4] == line[start - 1]:
                    quote = ""  # quoted as a literal (`'"""'`, Go's `` `"""` ``): opens nothing
    inside.extend([bool(quote)] * (len(part) - len(inside)))
    return inside, quote


_QUOTED = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`""")


def bracket_balance(line: str) -> int:
    """Brackets the line opens minus those it closes, quoted text aside (a heuristic: a quote
    left open spoils it). O(len(line))."""
    text = _QUOTED.sub("", line) if any(q in line for q in "'\"`") else line
    return sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")
