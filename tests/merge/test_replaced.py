"""The words test of merge/replaced.py: do new lines name the original lines they replace?"""

from __future__ import annotations

import pytest

from fastapply.merge.replaced import named_words, names_what_it_replaces, prose


@pytest.mark.parametrize("line", [
    "- The order of the items in the namedtuple is not deterministic if",
    "`kwargs` are used. namedtuples, however, should always be accessed",
    "by attribute hence this behaviour should not be a serious problem.",
])
def test_docstring_prose_reads_as_prose(line: str) -> None:
    assert prose(line)


@pytest.mark.parametrize("line", [
    "x = foo(a, b)",
    "return self.value if x else None",
    'raise ValueError("bad")',
    "if x is not None and y:",
    "some_call arg one two",
    "print value",
])
def test_code_does_not(line: str) -> None:
    assert not prose(line)


def test_every_dropped_statement_must_be_named_in_a_short_block() -> None:
    words = named_words(["hidden_states = causal_conv1d_forward(cache, layer_idx)"])
    assert names_what_it_replaces(["if cache is not None:", "hidden_states = cache.update(hidden_states)"], words)
    assert not names_what_it_replaces(["if cache is not None:", "conv_state = None"], words)
    # comments, prose, imports and lines without names are not asked
    assert names_what_it_replaces(["# the state", "import os", "}", "else:"], words)


def test_one_unnamed_statement_in_eight_may_go_with_a_long_block() -> None:
    words = named_words(["hidden_states = causal_conv1d_forward(cache, layer_idx)"])
    named = [f"hidden_states = step_{k}(cache)" for k in range(8)]
    assert names_what_it_replaces(named + ["conv_state = None"], words)
    assert not names_what_it_replaces(named[:7] + ["conv_state = None"], words)
    assert not names_what_it_replaces(named + ["conv_state = None", "other = 1"], words)


def test_an_even_rewrite_may_leave_one_statement_in_two_unnamed() -> None:
    # as many new lines as dropped ones: a call rewritten line for line keeps its role, not its names
    words = named_words(["overwriteChild(", "`${code.substring(child.start, child.end)}`,", "parent"])
    dropped = ["magicString.overwrite(", "child.start, child.end,", "`${code.substring(child.start, child.end)}`"]
    assert not names_what_it_replaces(dropped, words)
    assert names_what_it_replaces(dropped, words, even=True)
    assert not names_what_it_replaces(["magicString.overwrite(", "other.call(x)", "child.start"], words, even=True)
