"""The edit catalogue: each function turns an original file into the expected one by a few `Edit`s.

An edit replaces original lines [start, end) with `new`; a `Change` is one logical edit made of
one or more of them (a move is a deletion plus an insertion) with the tags it stands for. Tags use
today's kinds where they coincide (modify_body, insert_function, add_method, delete_function,
add_import). Every function returns None when it does not apply here. Cost: O(lines of the file).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from .langs import LANGS, Lang
from .outline import Definition, Outline, indentation

TRIVIAL = {"", "}", "{", "};", "},", ")", "end", "break;", "break", "else:", "else", "*/", "]"}
SYNONYMS = ["entry", "record", "payload", "target", "current", "options", "source", "buffer", "limit",
            "handle", "element", "context", "settings", "candidate"]
RENAME_SUFFIXES = ["_checked", "_safe", "_impl", "_internal", "_v2", "_strict"]
BARE_COMMENTS = {"#", "//", "--", "*", "///", "//!", "##"}


@dataclass
class Edit:
    start: int
    end: int
    new: list[str]


@dataclass
class Change:
    edits: list[Edit]
    tags: list[str]
    unit: Definition | None = None  # the definition the change lives in (for unmarked snippets)
    extra: dict[str, object] = field(default_factory=dict)


def _styled(base: str, word: str) -> str:
    """`word` in the identifier style of `base` (snake_case, camelCase, PascalCase)."""
    if "_" not in base and any(c.isupper() for c in base[1:]) or base[:1].isupper():
        parts = word.strip("_").split("_")
        joined = parts[0] + "".join(p.title() for p in parts[1:])
        return joined[:1].upper() + joined[1:] if base[:1].isupper() else joined
    return word


def _fresh(outline: Outline, name: str) -> bool:
    return not any(name in line for line in outline.lines)


def _body_lines(d: Definition, outline: Outline) -> range:
    last = d.end - 1 if d.closing else d.end
    return range(d.first_statement, last)


def _word_swap(outline: Outline, row: int, rng: random.Random) -> str | None:
    """The line with one identifier replaced by another word (a one-word edit)."""
    line = outline.lines[row]
    tokens = [t for t in outline.identifiers.get(row, []) if len(t[2]) >= 3 and t[2] not in ("self", "this")]
    if not tokens:
        return None
    start, end, text = rng.choice(tokens)
    choices = [w for w in SYNONYMS if w not in line and _styled(text, w) != text]
    if not choices:
        return None
    return line[:start] + _styled(text, rng.choice(choices)) + line[end:]


def one_word(outline: Outline, d: Definition, rng: random.Random) -> Change | None:
    rows = [r for r in _body_lines(d, outline) if outline.identifiers.get(r)]
    if not rows:
        return None
    row = rng.choice(rows)
    new = _word_swap(outline, row, rng)
    if new is None:
        return None
    return Change([Edit(row, row + 1, [new])], ["one_word"], d)


def edit_run(outline: Outline, d: Definition, rng: random.Random) -> Change | None:
    rows = list(_body_lines(d, outline))
    length = rng.randint(2, 4)
    starts = [r for r in rows if all(outline.identifiers.get(r + k) for k in range(length))
              and r + length - 1 in rows]
    if not starts:
        return None
    first = rng.choice(starts)
    new = [_word_swap(outline, r, rng) for r in range(first, first + length)]
    if any(line is None for line in new):
        return None
    return Change([Edit(first, first + length, [str(x) for x in new])], ["edit_run"], d)


def annotation(outline: Outline, d: Definition, lang: Lang, rng: random.Random) -> Change | None:
    rows = range(d.header, max(d.header + 1, d.body_start))
    options = [(r, pat, rep) for r in rows for pat, rep in lang.annotations
               if re.search(pat, outline.lines[r])]
    if not options:
        return None
    row, pattern, replacement = rng.choice(options)
    new = re.sub(pattern, replacement, outline.lines[row], count=1)
    if new == outline.lines[row]:
        return None
    return Change([Edit(row, row + 1, [new])], ["annotation"], d)


def literal_constant(outline: Outline, d: Definition, lang: Lang, rng: random.Random) -> Change | None:
    if not lang.constant:
        return None
    rows = [r for r in _body_lines(d, outline)
            if any(t[2].isdigit() and t[2] not in ("0", "1") for t in outline.literals.get(r, []))]
    top = outline.top_span(d.start)
    if not rows or top is None or top[0] < 1:
        return None
    row = rng.choice(rows)
    start, end, value = next(t for t in outline.literals[row] if t[2].isdigit() and t[2] not in ("0", "1"))
    name = re.sub(r"[^A-Za-z0-9]+", "_", d.name).strip("_").upper() + "_" + rng.choice(
        ["LIMIT", "DEFAULT", "THRESHOLD", "SIZE", "MAX"])
    if not _fresh(outline, name) or not name[0].isalpha():
        return None
    line = outline.lines[row]
    at = top[0]
    definition = [lang.constant.format(name=name, value=value), ""]
    return Change([Edit(at, at, definition), Edit(row, row + 1, [line[:start] + name + line[end:]])],
                  ["literal_constant"], d)


def body_insert(outline: Outline, d: Definition, lang: Lang, rng: random.Random) -> Change | None:
    at = d.first_statement
    if at >= len(outline.lines) or not outline.lines[at].strip():
        return None
    line = lang.log.format(msg=f"{d.name}: start")
    return Change([Edit(at, at, [indentation(outline.lines[at]) + line])], ["modify_body"], d)


def rename(outline: Outline, d: Definition, rng: random.Random) -> Change | None:
    header = outline.lines[d.header]
    if header.count(d.name) != 1 or len(d.name) < 3:
        return None
    stem, mark = (d.name[:-1], d.name[-1]) if d.name[-1] in "?!" else (d.name, "")  # Ruby's `empty?`
    suffix = rng.choice(RENAME_SUFFIXES) if "_" in stem or stem.islower() else \
        rng.choice(["Checked", "Safe", "Impl", "V2"])
    new_name = stem + suffix + mark
    if not _fresh(outline, new_name):
        return None
    return Change([Edit(d.header, d.header + 1, [header.replace(d.name, new_name)])], ["rename"], d)


def rewrite(outline: Outline, d: Definition, lang: Lang, rng: random.Random) -> Change | None:
    body = _body_lines(d, outline)
    if len(body) < 2 or d.in_function:
        return None
    indent = indentation(outline.lines[body.start])
    if not indent:
        return None
    new = [indent + s.format(msg=f"{d.name} is not supported here") for s in lang.rewrite]
    return Change([Edit(d.body_start, body.stop, new)], ["rewrite"], d)


def _step(outline: Outline, d: Definition) -> str:
    """The file's indentation step, read from a definition's first body line."""
    if d.first_statement < len(outline.lines):
        inner = indentation(outline.lines[d.first_statement])
        if inner.startswith(d.indent) and len(inner) > len(d.indent):
            return inner[len(d.indent):]
    return "\t" if outline.language == "go" else "  " if outline.language in ("ruby", "lua") else "    "


def _reindent(lines: tuple[str, ...], indent: str, step: str, **values: str) -> list[str]:
    """Template lines (indented by any unit) re-indented to `indent` plus `step` per level."""
    texts = [line.format(**values) for line in lines]
    widths = [len(t) - len(t.lstrip(" \t")) for t in texts if t.strip()]
    unit = min([w for w in widths if w] or [1])
    return [indent + step * ((len(t) - len(t.lstrip(" \t"))) // unit) + t.lstrip(" \t") if t.strip() else ""
            for t in texts]


def _template(outline: Outline, lang: Lang, d: Definition, name: str) -> list[str] | None:
    if not d.nested and not lang.top_functions:
        return None
    lines = lang.method if d.nested and lang.method else lang.function
    return _reindent(lines, d.indent, _step(outline, d), name=name,
                     doc="Return value, or default when it is missing.")


def _new_name(outline: Outline, d: Definition, base: str) -> str | None:
    name = _styled(d.name if d.name[:1].islower() else "x", base)
    if d.name[:1].isupper() and outline.language in ("csharp", "go"):
        name = name[:1].upper() + name[1:]
    return name if _fresh(outline, name) else None


def add_function(outline: Outline, d: Definition, lang: Lang, rng: random.Random) -> Change | None:
    if d.in_function or not _clean_end(outline, d):
        return None
    name = _new_name(outline, d, rng.choice(["value_or_default", "coalesce_value", "fallback_value"]))
    template = _template(outline, lang, d, name) if name else None
    if not template:
        return None
    # Separate it as the file separates `d` from what follows (two blank lines in Python modules),
    # or, when `d` is the last one of its block or of the file (what follows is the block's end,
    # or nothing), as the file separates `d` from the sibling before it (one blank line between
    # methods in Python, two between top-level functions).
    gap = 0
    while d.end + gap < len(outline.lines) and not outline.lines[d.end + gap].strip():
        gap += 1
    following = outline.lines[d.end + gap] if d.end + gap < len(outline.lines) else ""
    if not following.strip() or d.nested and len(following) - len(following.lstrip(" \t")) < len(d.indent):
        # the widest blank run between `d` and the code before it: a section comment set off by
        # one blank line (`### encodings module API`) sits inside the file's usual two
        top, before, run = d.start, 0, 0
        while top > 0 and (not outline.lines[top - 1].strip()
                           or outline.lines[top - 1].strip().startswith(("#", "//", "/*", "*", "--", "@"))):
            run = run + 1 if not outline.lines[top - 1].strip() else 0
            before = max(before, run)
            top -= 1
        gap = before or gap
    # at least one blank line, unless the file writes none between any of `d`'s siblings (compiled
    # output: a blank line there is one that neither the file nor a snippet could show)
    blank = min(gap, 2) if _glued_siblings(outline, d) else max(1, min(gap, 2))
    return Change([Edit(d.end, d.end, [""] * blank + template)],
                  ["add_method" if d.nested else "insert_function"])


def _glued_siblings(outline: Outline, d: Definition) -> bool:
    """`d` has siblings, and no blank line stands between any two that follow each other."""
    siblings = sorted(_siblings(outline, d), key=lambda x: x.start)
    pairs = list(zip(siblings, siblings[1:]))
    return bool(pairs) and all(not any(not line.strip() for line in outline.lines[a.end:b.start])
                               for a, b in pairs)


def _clean_end(outline: Outline, d: Definition) -> bool:
    """The definition ends on its own closing line (not `} &&` or `});`): code can follow it."""
    return bool(d.closing) or not LANGS[outline.language].brace


def _siblings(outline: Outline, d: Definition) -> list[Definition]:
    return [x for x in outline.definitions if x.parent == d.parent and not x.in_function
            and x.indent == d.indent and _clean_end(outline, x)]


def _span_with_blanks(outline: Outline, d: Definition) -> tuple[int, int]:
    """The definition with the comment lines above it and the blank lines below it."""
    start = d.start
    while start > 0 and outline.lines[start - 1].strip().startswith(("#", "//", "/*", "*", "--", "@", "#[")):
        start -= 1
    end = d.end
    while end < len(outline.lines) and not outline.lines[end].strip():
        end += 1
    return start, end


def delete(outline: Outline, d: Definition, rng: random.Random) -> Change | None:
    if d.in_function or not _clean_end(outline, d) or len(_siblings(outline, d)) < 3:
        return None
    start, end = _span_with_blanks(outline, d)
    if end >= len(outline.lines) or start == 0:
        return None
    return Change([Edit(start, end, [])], ["delete_function"])


def move(outline: Outline, d: Definition, rng: random.Random) -> Change | None:
    siblings = _siblings(outline, d)
    if d.in_function or d not in siblings or len(siblings) < 4:
        return None
    index = siblings.index(d)
    targets = [s for k, s in enumerate(siblings) if abs(k - index) > 1]
    if not targets:
        return None
    target = rng.choice(targets)
    start, end = _span_with_blanks(outline, d)
    if end >= len(outline.lines) or start == 0:
        return None
    block = outline.lines[start:end]
    while block and not block[-1].strip():
        block.pop()
    gap = end - start - len(block)  # the blank lines that separated it (none in some files)
    lead = 0
    while lead < start and not outline.lines[start - 1 - lead].strip():
        lead += 1
    if d is siblings[-1] and lead and lead != gap:
        # the last sibling's blank lines below separate its parent's block from what follows (two
        # before the next top-level definition in Python): they stay, and the definition takes the
        # siblings' own spacing (the lines above it) to its new place, as a model moving it writes
        return Change([Edit(start - lead, start + len(block), []),
                       Edit(target.end, target.end, [""] * lead + block)], ["move"])
    insert = [""] * gap + block
    return Change([Edit(start, end, []), Edit(target.end, target.end, insert)], ["move"])


def reorder(outline: Outline, d: Definition, rng: random.Random) -> Change | None:
    siblings = _siblings(outline, d)
    if d.in_function or d not in siblings or len(siblings) < 3 or d is siblings[-1]:
        return None
    nxt = siblings[siblings.index(d) + 1]
    a_start, a_end = _span_with_blanks(outline, d)
    b_start, b_end = _span_with_blanks(outline, nxt)
    if a_end != b_start or b_end >= len(outline.lines) or a_start == 0:
        return None
    a, a_gap = _split_trailing_blanks(outline.lines[a_start:a_end])
    b, b_gap = _split_trailing_blanks(outline.lines[b_start:b_end])
    # the blank lines stay where they were: the last sibling of a block is followed by the
    # block's own spacing (two blank lines before the next top-level definition in Python)
    return Change([Edit(a_start, b_end, b + a_gap + a + b_gap)], ["reorder", "move"])


def _split_trailing_blanks(lines: list[str]) -> tuple[list[str], list[str]]:
    end = len(lines)
    while end > 0 and not lines[end - 1].strip():
        end -= 1
    return lines[:end], lines[end:]


def extract_helper(outline: Outline, d: Definition, lang: Lang, rng: random.Random) -> Change | None:
    at = d.first_statement
    if not lang.call or at >= len(outline.lines) or not outline.lines[at].strip():
        return None
    helper = _new_name(outline, d, f"log_{re.sub(r'[^a-z0-9]+', '_', d.name.lower()).strip('_')}_step")
    if helper is None or not helper.isidentifier():
        return None
    if lang.top_functions:  # a free function before the top-level node holding `d`
        top = outline.top_span(d.start)
        if top is None or top[0] < 1:
            return None
        where, indent = top[0], ""
    elif d.nested:  # Java, C#: a sibling method right before `d`
        where, indent = d.start, d.indent
    else:
        return None
    # The helper takes the logging statement out of the body: one parameter, the message.
    helper_lines = _helper_lines(lang, indent, helper, lang.log.format(msg="{msg}"), _step(outline, d))
    while where > 0 and outline.lines[where - 1].strip().startswith(("#", "//", "/*", "*", "--", "@")):
        where -= 1
    call = indentation(outline.lines[at]) + lang.call.format(name=helper, msg=d.name)
    return Change([Edit(where, where, helper_lines + [""]), Edit(at, at, [call])], ["extract_helper"], d)


def _helper_lines(lang: Lang, ind: str, name: str, body: str, step: str) -> list[str]:
    msg = body.replace('"{msg}"', "message").replace("'{msg}'", "message")
    heads = {
        "python": (f"def {name}(message):", msg, None),
        "javascript": (f"function {name}(message) {{", msg, "}"),
        "jsx": (f"function {name}(message) {{", msg, "}"),
        "typescript": (f"function {name}(message: string): void {{", msg, "}"),
        "tsx": (f"function {name}(message: string): void {{", msg, "}"),
        "rust": (f"fn {name}(message: &str) {{", 'log::debug!("{}", message);', "}"),
        "go": (f"func {name}(message string) {{", "log.Print(message)", "}"),
        "c": (f"static void {name}(const char *message) {{", 'fprintf(stderr, "%s\\n", message);', "}"),
        "cpp": (f"static void {name}(const char *message) {{", 'std::fprintf(stderr, "%s\\n", message);', "}"),
        "java": (f"private static void {name}(String message) {{", msg, "}"),
        "csharp": (f"private static void {name}(string message) {{", msg, "}"),
        "ruby": (f"def {name}(message)", "warn message", "end"),
        "lua": (f"local function {name}(message)", "print(message)", "end"),
        "php": (f"function {name}($message) {{", "error_log($message);", "}"),
        "kotlin": (f"private fun {name}(message: String) {{", "println(message)", "}"),
        "swift": (f"private func {name}(_ message: String) {{", "print(message)", "}"),
        "scala": (f"private def {name}(message: String): Unit = {{", "println(message)", "}"),
        "bash": (f"{name}() {{", 'echo "$1" >&2', "}"),
    }
    head, line, close = heads[lang.name]
    out = [ind + head, ind + step + line]
    return out + ([ind + close] if close else [])


def add_import(outline: Outline, lang: Lang, rng: random.Random) -> Change | None:
    if not lang.imports or not lang.import_re:
        return None
    rows = [r for r, line in enumerate(outline.lines[:200]) if re.match(lang.import_re, line)]
    fresh = [line for line in lang.imports if line not in outline.lines]
    if not rows or not fresh:
        return None
    return Change([Edit(rows[0], rows[0], [rng.choice(fresh)])], ["add_import"])


def bare_comment(outline: Outline, rng: random.Random) -> Change | None:
    rows = [r for r, line in enumerate(outline.lines) if line.strip() in BARE_COMMENTS and 3 < r
            and r + 3 < len(outline.lines)]
    if not rows:
        return None
    row = rng.choice(rows)
    line = outline.lines[row]
    prefix = line.strip()
    text = rng.choice(["Note: callers rely on this order.", "Keep this in sync with the docs.",
                       "See the changelog for the history of this rule."])
    return Change([Edit(row + 1, row + 1, [indentation(line) + prefix + " " + text])], ["bare_comment"])


def candidates(outline: Outline, rng: random.Random) -> list[Change]:
    """Every applicable change in this file (a few per definition), in a deterministic order."""
    lang = LANGS[outline.language]
    out: list[Change] = []
    for d in outline.definitions:
        for make in (one_word, edit_run, rename, delete, move, reorder):
            if (change := make(outline, d, rng)) is not None:
                out.append(change)
        for make_l in (annotation, literal_constant, body_insert, rewrite, add_function, extract_helper):
            if (change := make_l(outline, d, lang, rng)) is not None:
                out.append(change)
    for extra in (add_import(outline, lang, rng), *(bare_comment(outline, rng) for _ in range(3))):
        if extra is not None:
            out.append(extra)
    return out
