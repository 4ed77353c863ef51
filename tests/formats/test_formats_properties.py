"""Property tests: whatever an agent sends, only a result or an ApplyError comes out."""

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fastapply import ApplyError, ApplyResult, BatchResult, apply_batch, apply_replacements, apply_udiff, apply_v4a
from fastapply.formats.search_replace import apply_search_replace
from fastapply.text import unified_diff

SETTINGS = settings(max_examples=int(os.environ.get("FASTAPPLY_PROPERTY_EXAMPLES", "120")), deadline=None, suppress_health_check=list(HealthCheck))
LINE = st.sampled_from(["def f(x):", "    return x", "", "    pass", "class A:", "\tif x:", "x = 1  ", "}",
                        "@@ -1 +1 @@", "--- a/x", "+++ b/x", "*** End Patch", "=======", "<<<<<<< SEARCH",
                        ">>>>>>> REPLACE", "\\ No newline at end of file", "    # ... existing code ...", "é ✓"])
TEXT = st.lists(LINE, max_size=25).map("\n".join)
NOISE = st.text(alphabet="@-+ \n*<=>\\/abc\t\r", max_size=6)


def mangle(draw, text: str) -> str:
    chars = list(text)
    for _ in range(draw(st.integers(0, 6))):
        if not chars:
            break
        at = draw(st.integers(0, len(chars) - 1))
        action = draw(st.sampled_from(["drop", "insert", "swap"]))
        if action == "drop":
            del chars[at]
        elif action == "insert":
            chars[at:at] = draw(NOISE)
        else:
            chars[at] = draw(st.sampled_from("-+ @\n"))
    return "".join(chars)


@st.composite
def diff_case(draw):
    a = draw(TEXT) + "\n"
    b_lines = a.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, max(0, len(b_lines) - 1)))
        b_lines[at:at + draw(st.integers(0, 2))] = draw(st.lists(LINE, max_size=3))
    b = "\n".join(b_lines)
    diff = unified_diff(a, b, "f.py")
    return a, b, diff, mangle(draw, diff)


def _ok(call):
    try:
        out = call()
    except ApplyError:
        return None
    assert isinstance(out, (ApplyResult, BatchResult))
    return out


@SETTINGS
@given(st.data())
def test_replacements_never_crash(data):
    original = data.draw(TEXT)
    edits = data.draw(st.lists(st.one_of(
        st.tuples(TEXT, TEXT),
        st.fixed_dictionaries({"old": TEXT, "new": TEXT, "replace_all": st.booleans()}),
        st.fixed_dictionaries({"old_string": st.one_of(st.none(), TEXT, st.integers())}),
        st.integers(), st.none()), max_size=4))
    _ok(lambda: apply_replacements(original, edits, fuzzy_threshold=data.draw(st.floats(0, 1))))


@SETTINGS
@given(diff_case())
def test_udiff_never_crashes_and_clean_diffs_apply(case):
    a, b, diff, mangled = case
    if diff:
        out = _ok(lambda: apply_udiff(a, diff))
        # Undrifted diffs apply exactly, unless the change is too ambiguous to place (then refused).
        assert out is None or out.merged_code == b
    _ok(lambda: apply_udiff(a, mangled))
    _ok(lambda: apply_batch(mangled, {"f.py": a}))


@SETTINGS
@given(st.data())
def test_v4a_and_search_replace_never_crash(data):
    original = data.draw(TEXT)
    body = data.draw(st.lists(st.tuples(st.sampled_from([" ", "-", "+", "@@ ", ""]), LINE), max_size=12))
    patch = "*** Begin Patch\n*** Update File: f.py\n" + "\n".join(t + x for t, x in body) + "\n*** End Patch\n"
    patch = mangle(data.draw, patch)
    _ok(lambda: apply_v4a(original, patch))
    sr = "f.py\n<<<<<<< SEARCH\n" + data.draw(TEXT) + "\n=======\n" + data.draw(TEXT) + "\n>>>>>>> REPLACE\n"
    sr = mangle(data.draw, sr)
    _ok(lambda: apply_search_replace(original, sr))
    _ok(lambda: apply_batch(patch + sr, {"f.py": original}))


@SETTINGS
@given(st.text(max_size=300), st.dictionaries(st.text(max_size=8), st.text(max_size=40), max_size=3))
def test_batch_on_arbitrary_text(text, files):
    try:
        _ok(lambda: apply_batch(text, files))
    except ApplyError:
        pass
