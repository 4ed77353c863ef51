"""Issue 8, sixth round: which definitions of a reordered part stay and which move, the blank line
a file's moved last definition leaves behind, and lines paired into code that moved away.

Each case is written in the shape the failing cases had (go-chi's handlers, regex's dfa.rs start
states), with names of our own.
"""

from __future__ import annotations

import pytest

from fastapply import apply
from fastapply.merge.anchor import Aligner
from fastapply.merge.refine import extend_fuzzy
from fastapply.merge.segments import classify, normalize_all

USERS_HEAD = """\
package main

import "net/http"

type usersResource struct{}

"""

ROUTES_LONG = """\
func (rs usersResource) Routes() chi.Router {
	r := chi.NewRouter()
	return r
}
"""

ROUTES_SHORT = 'func (rs usersResource) Routes() string { return "users" }\n'

_BODIES = {"List": "users list", "Create": "users create", "Get": "user get", "Update": "user update",
           "Delete": "user delete"}


def _handler(name: str) -> str:
    return f'func (rs usersResource) {name}(w http.ResponseWriter, r *http.Request) {{\n' \
           f'\tw.Write([]byte("{_BODIES[name]}"))\n}}\n'


def _users(routes: str, names: tuple[str, ...]) -> str:
    return routes + "\n" + "\n".join(_handler(name) for name in names)


@pytest.mark.parametrize("routes", [ROUTES_LONG, ROUTES_SHORT], ids=["long", "one-line"])
@pytest.mark.parametrize("order", [("Create", "Update", "Get", "Delete"), ("Create", "Delete", "Get", "Update")],
                         ids=["swap", "last-moved-up"])
def test_the_first_definition_of_a_reordered_part_stays_and_what_it_leaves_out_goes(
        routes: str, order: tuple[str, ...]) -> None:
    """A leading marker, Routes, then the handlers with List left out and two of them reordered.
    Routes keeps its place and List, left out between Routes and Create, goes. Before, leaving
    Routes out of the chain of definitions that stay cost nothing (only lines dropped between
    kept ones counted), so Routes was taken as moved below List, and List stayed: above Routes,
    or after the last handler when the part's last definition was moved up."""
    original = USERS_HEAD + _users(routes, ("List", "Create", "Get", "Update", "Delete"))
    snippet = "// ... existing code ...\n" + _users(routes, order)
    merged = apply(original, snippet, filename="users.go").merged_code
    assert merged == USERS_HEAD + _users(routes, order)


def test_the_files_last_definition_moved_up_takes_the_blank_line_above_it() -> None:
    """Delete, the file's last function, moves up: the blank line that separated it from Update
    goes with it, so the file does not end in a blank line."""
    original = USERS_HEAD + _users(ROUTES_SHORT, ("Create", "Get", "Update", "Delete"))
    snippet = "// ... existing code ...\n" + _users(ROUTES_SHORT, ("Create", "Delete", "Get", "Update"))
    merged = apply(original, snippet, filename="users.go").merged_code
    assert merged.endswith("}\n") and not merged.endswith("\n\n")
    assert merged == USERS_HEAD + _users(ROUTES_SHORT, ("Create", "Delete", "Get", "Update"))


START_FLAGS_RS = """\
    fn start_state(&mut self) -> u8 {
        a + b
    }

    /// Computes the flags.
    fn start_flags(&self) -> u8 {
        flags
    }

    /// Computes the flags.
    fn start_flags_reverse(&self) -> u8 {
        flags
    }"""


def test_a_line_after_an_anchor_passes_over_code_that_moved_away() -> None:
    """start_flags moved above start_state; the snippet ends with start_state's `}` and the first
    line of the doc comment that now follows it, start_flags_reverse's. The edge walk pairs it
    with that copy, not with the moved copy's (which the merge drops, so the line would have
    been refused as shown twice)."""
    orig = START_FLAGS_RS.split("\n")
    items = classify("    }\n\n    /// Computes the flags.\n    // ... existing code ...\n", set(normalize_all(orig)))
    al = Aligner(items, orig, normalize_all(orig))
    al.rebase(items, {0: 2})
    al.set_moved(set(range(4, 9)))  # start_flags and the blank line below it
    extend_fuzzy(al)
    assert al.pairs[2] == 9
