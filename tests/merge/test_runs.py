"""A part that no single line places: a run of short lines the original holds once (merge/runs.py)."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

QUOTE = """'use strict';

var OPS = [
\t'||',
\t'&&',
\t';;',
\t'|&',
\t'<(',
\t'>>',
\t'&',
\t';',
\t'(',
\t')'
];

module.exports = function quote(xs) {
\treturn xs.join(' ');
};
"""


def test_a_table_of_short_lines_is_placed_by_the_run_it_matches() -> None:
    # shell-quote's release added operators between the old ones; every line is trivial alone
    edit = """\t// ... unchanged ...
\t'||',
\t'&&',
\t';;&',
\t';;',
\t';&',
\t'|&',
\t'<(',
\t'>(',
\t'>>',
\t// ... unchanged ...
"""
    expected = QUOTE.replace("\t'&&',\n\t';;',\n", "\t'&&',\n\t';;&',\n\t';;',\n\t';&',\n").replace(
        "\t'<(',\n", "\t'<(',\n\t'>(',\n")
    assert apply(QUOTE, edit, filename="quote.js").merged_code == expected


def test_a_run_the_original_holds_twice_places_nothing() -> None:
    original = QUOTE.replace("];\n", "];\nvar MORE = [\n\t'||',\n\t'&&',\n\t';;',\n];\n")
    edit = """\t// ... unchanged ...
\t'||',
\t'&&',
\t';;&',
\t';;',
\t// ... unchanged ...
"""
    with pytest.raises(ApplyError):
        apply(original, edit, filename="quote.js")


def test_two_lines_are_no_run() -> None:
    edit = "\t// ... unchanged ...\n\t'|&',\n\t'|||',\n\t'<(',\n\t// ... unchanged ...\n"
    with pytest.raises(ApplyError):
        apply(QUOTE, edit, filename="quote.js")
