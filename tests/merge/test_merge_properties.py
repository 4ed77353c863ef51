"""Property tests: random inputs never crash the engine, and a merge it returns keeps the original
code outside the edited region. Real files come from the Python standard library, read at test
time (never stored in the repository)."""

import ast
import sysconfig
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fastapply import ApplyError, ApplyResult, apply

# derandomize: the same examples every run, so CI is reproducible
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))

LINES = st.sampled_from([
    "", "}", "{", "  return x;", "def f(a):", "    pass", "class A:", "// ... existing code ...",
    "# ... existing code ...", "    # ... rest ...", "<div>", "</div>", "end", "x = 1", "    x = 2",
    "function g() {", "  if (a) {", "\tfoo();", "...", "/* ... */", "-- ...", "import os", "\r",
])


@SETTINGS
@given(original=st.lists(LINES, max_size=30), update=st.lists(LINES, max_size=15),
       language=st.sampled_from([None, "python", "javascript", "html", "lua", "yaml", "cobol"]))
def test_random_inputs_only_return_results_or_apply_errors(original, update, language) -> None:
    try:
        result = apply("\n".join(original), "\n".join(update), language=language)
    except ApplyError:
        return
    assert isinstance(result, ApplyResult)


@SETTINGS
@given(original=st.text(max_size=300), update=st.text(max_size=200))
def test_arbitrary_text_only_returns_results_or_apply_errors(original, update) -> None:
    try:
        apply(original, update, filename="x.py")
    except ApplyError:
        pass


@cache
def stdlib_files() -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(p for p in root.glob("*.py") if 200 < p.stat().st_size < 60_000)
    return files[:: max(1, len(files) // 60)]


@st.composite
def edited_stdlib_file(draw):
    path = draw(st.sampled_from(stdlib_files()))
    lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    n = len(lines)
    start = draw(st.integers(min_value=3, max_value=max(3, n - 8)))
    stop = draw(st.integers(min_value=start + 1, max_value=min(n - 3, start + 12)))
    region = lines[start:stop]
    edited = []
    for index, line in enumerate(region):
        action = draw(st.sampled_from(["keep", "keep", "change", "insert", "drop"]))
        if action == "drop" and index in (0, len(region) - 1):
            action = "keep"  # a deletion right next to the context reads as a different edit
        indent = line[: len(line) - len(line.lstrip())]
        if action == "change" and line.strip():
            edited.append(line + "  # edited")
        elif action == "insert":
            edited.extend([line, f"{indent}_probe_{draw(st.integers(0, 999))} = None"])
        elif action != "drop":
            edited.append(line)
    # Like a model: context lines around the edit include at least one distinctive line, edits stay
    # out of docstrings, and each marker is indented as the code it stands for.
    head = draw(st.integers(min_value=1, max_value=3))
    while head < 8 and start - head > 0 and not _distinctive(lines[start - head:start]):
        head += 1
    tail = draw(st.integers(min_value=1, max_value=3))
    while tail < 8 and stop + tail < n and not _distinctive(lines[stop:stop + tail]):
        tail += 1
    assume(not any('"""' in line or "'''" in line for line in lines[start - head:stop + tail]))
    assume(sum(line.count('"""') + line.count("'''") for line in lines[:start]) % 2 == 0)
    before = next((line for line in reversed(lines[: start - head]) if line.strip()), "")
    after = next((line for line in lines[stop + tail:] if line.strip()), "")
    marker = "# ... existing code ..."
    snippet = [_indent(before) + marker, *lines[start - head:start], *edited,
               *lines[stop:stop + tail], _indent(after) + marker]
    # an edit Python itself rejects (a probe between a block's header and its body: an unexpected
    # indent under it) is refused by the syntax check, rightly, and checks nothing here
    assume(_compiles("\n".join(lines[:start] + edited + lines[stop:])))
    return lines, start, stop, edited, "\n".join(snippet)


def _compiles(text: str) -> bool:
    try:
        compile(text, "module.py", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def _distinctive(block: list[str]) -> bool:
    return any(len(line.strip()) > 12 and not line.strip().startswith("#") for line in block)


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


# outcomes of the last run of the stdlib property: a property that holds because most merges are
# refused would check little, so the test below runs it and looks at the counts too
OUTCOMES: dict[str, int] = {}


@settings(SETTINGS, max_examples=200)
@given(case=edited_stdlib_file())
def test_real_files_keep_everything_outside_the_edit(case) -> None:
    lines, start, stop, edited, snippet = case
    original = "\n".join(lines)
    try:
        result = apply(original, snippet, filename="module.py")
    except ApplyError:
        OUTCOMES["refused"] = OUTCOMES.get("refused", 0) + 1
        return
    merged = result.merged_code.split("\n")
    # every original line before and after the edited region survives, in order, where it was
    assert merged[:start] == lines[:start]
    tail = lines[stop:]
    assert merged[len(merged) - len(tail):] == tail
    intended = [line.rstrip() for line in lines[:start] + edited + lines[stop:]]
    exact = [line.rstrip() for line in merged] == intended
    OUTCOMES["exact" if exact else "other"] = OUTCOMES.get("exact" if exact else "other", 0) + 1


def test_real_files_property_checks_mostly_merges() -> None:
    """The same examples: most are merged (not refused) and nearly all merges are the intended edit
    (the rest are odd edits, such as a block header without its body, read another valid way)."""
    OUTCOMES.clear()
    test_real_files_keep_everything_outside_the_edit()
    merged = OUTCOMES.get("exact", 0) + OUTCOMES.get("other", 0)
    assert merged >= 0.75 * (merged + OUTCOMES.get("refused", 0)), OUTCOMES
    assert OUTCOMES.get("exact", 0) >= 0.95 * merged, OUTCOMES


CORPUS = Path(__file__).resolve().parents[2] / "evals" / "corpus" / "bases"


@cache
def corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*/*") if p.suffix != ".py")


def _marker_for(path: Path) -> str:
    from fastapply.languages import detect_language, get_language

    spec = get_language(detect_language(path.name) or "javascript")
    if spec.line_comments:
        return f"{spec.line_comments[0]} ... existing code ..."
    opener, closer = spec.block_comments[0]
    return f"{opener} ... existing code ... {closer}"


@st.composite
def edited_corpus_file(draw):
    path = draw(st.sampled_from(corpus_files()))
    lines = path.read_text(encoding="utf-8").replace("\r\n", "\n").lstrip("\ufeff").split("\n")
    n = len(lines)
    start = draw(st.integers(min_value=3, max_value=max(3, n - 8)))
    stop = draw(st.integers(min_value=start + 1, max_value=min(n - 3, start + 10)))
    edited = []
    for index, line in enumerate(lines[start:stop]):
        action = draw(st.sampled_from(["keep", "keep", "change", "drop"]))
        if action == "drop" and 0 < index < stop - start - 1:
            continue
        edited.append(line)
        if action == "change" and line.strip() and not path.suffix == ".json":
            # a new comment line after this one, in the file's comment syntax
            edited.append(_indent(line) + _marker_for(path).replace("... existing code ...", f"probe {index}"))
    head = 2
    while head < 8 and start - head > 0 and not _distinctive(lines[start - head:start]):
        head += 1
    tail = 2
    while tail < 8 and stop + tail < n and not _distinctive(lines[stop:stop + tail]):
        tail += 1
    marker = _marker_for(path)
    before = next((line for line in reversed(lines[: start - head]) if line.strip()), "")
    after = next((line for line in lines[stop + tail:] if line.strip()), "")
    snippet = [_indent(before) + marker, *lines[start - head:start], *edited, *lines[stop:stop + tail],
               _indent(after) + marker]
    return path, lines, start, stop, edited, "\n".join(snippet)


@settings(SETTINGS, max_examples=80)
@given(case=edited_corpus_file())
def test_corpus_files_in_every_language_keep_everything_outside_the_edit(case) -> None:
    path, lines, start, stop, _, snippet = case
    try:
        result = apply("\n".join(lines), snippet, filename=path.name)
    except ApplyError:
        return
    merged = result.merged_code.split("\n")
    assert merged[:start] == lines[:start]
    tail = lines[stop:]
    assert merged[len(merged) - len(tail):] == tail
