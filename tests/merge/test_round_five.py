"""Issue 8, fifth round: a `try:` left without its `except`, a part placed in the copy its
lines fit worse, a new line that the original has after whole definitions, and the spacing of
functions written after overload declarations.

Each case is written in the shape the failing cases had (jsonpatch's imports, backoff's two
retry loops, functools' rulers, redux's overloads), with names of our own.
"""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

IMPORTS_PY = """\
import json
import sys

try:
    from types import MappingProxyType
except ImportError:
    # Python < 3.3
    MappingProxyType = dict

from pointer import Pointer


def resolve(doc):
    return Pointer(doc)
"""


def test_a_try_left_without_its_except_is_refused() -> None:
    """The new try block reads as an edit of the old one (its `except` line replaced), and the
    old `try:` written after it as new: the merge would leave a `try:` with neither `except` nor
    `finally`, which tree-sitter-python accepts and Python rejects."""
    snippet = """\
# ... existing code ...
import sys

try:
    from collections.abc import Sequence
except ImportError:  # Python 2
    from collections import Sequence

try:
# ... existing code ...
"""
    with pytest.raises(ApplyError) as caught:
        apply(IMPORTS_PY, snippet, filename="patch.py")
    assert caught.value.code == "syntax_regressed"
    assert caught.value.line == 9


def test_a_try_with_its_except_still_merges() -> None:
    """The same insertion with the old block's lines as context merges."""
    snippet = """\
# ... existing code ...
import sys

try:
    from collections.abc import Sequence
except ImportError:  # Python 2
    from collections import Sequence

try:
    from types import MappingProxyType
# ... existing code ...
"""
    merged = apply(IMPORTS_PY, snippet, filename="patch.py").merged_code
    assert merged.count("except ImportError") == 2
    assert "    from types import MappingProxyType\nexcept ImportError:\n" in merged


RETRY_PY = """\
async def retry_predicate(target, wait, details):
    while True:
        ret = await target()
        if ret:
            try:
                seconds = next(wait)
            except StopIteration:
                await call_handlers(on_giveup, details, value=ret)
                break

            await call_handlers(on_backoff, details, value=ret, wait=seconds)

            # Note: there is no convenient way to pass an explicit event loop
            await asyncio.sleep(seconds)
            continue
        return ret


async def retry_exception(target, wait, details):
    while True:
        try:
            ret = await target()
        except Exception as e:
            give_up = giveup(e)
            if give_up:
                await call_handlers(on_giveup, details)
                raise
            try:
                seconds = next(wait)
            except StopIteration:
                await call_handlers(on_giveup, details)
                raise e

            await call_handlers(on_backoff, details, wait=seconds)

            # Note: there is no convenient way to pass an explicit event loop
            await asyncio.sleep(seconds)
        else:
            return ret
"""


def test_a_part_with_too_few_lines_of_its_own_goes_to_the_copy_it_fits_best() -> None:
    """The first part shows the exception handler of retry_exception (`raise e` stands there
    only; its other lines are in both loops), and the part after it, written second, edits a
    line above it. In file order the first part would rewrite retry_predicate's handler; the
    copy that holds most of its lines unchanged, `raise e` among them, places it."""
    snippet = """\
            # ... existing code ...
            except StopIteration:
                await call_handlers(on_giveup, details, exception=e)
                raise e

            await call_handlers(on_backoff, details, wait=seconds, exception=e)

            # Note: there is no convenient way to pass an explicit event loop
            # ... existing code ...
            give_up = giveup(e)
            if give_up:
                await call_handlers(on_giveup, details, exception=e)
                raise
            # ... existing code ...
"""
    merged = apply(RETRY_PY, snippet, filename="retry.py").merged_code
    expected = RETRY_PY.replace(
        "            if give_up:\n                await call_handlers(on_giveup, details)\n",
        "            if give_up:\n                await call_handlers(on_giveup, details, exception=e)\n")
    expected = expected.replace(
        "await call_handlers(on_giveup, details)\n                raise e",
        "await call_handlers(on_giveup, details, exception=e)\n                raise e")
    expected = expected.replace("await call_handlers(on_backoff, details, wait=seconds)\n",
                                "await call_handlers(on_backoff, details, wait=seconds, exception=e)\n")
    assert merged == expected


def test_a_part_paired_in_the_copy_it_fits_worse_is_refused() -> None:
    """The check behind the placement above, on an alignment that put the part in the first
    loop (where only `except StopIteration:` and the comment stand unchanged): another copy
    holds more of its lines, so the merge would edit the wrong loop."""
    from fastapply.merge.ambiguity import better_copy
    from fastapply.merge.anchor import Aligner
    from fastapply.merge.segments import classify, normalize_all

    orig = RETRY_PY.split("\n")
    snippet = """\
            # ... existing code ...
            except StopIteration:
                await call_handlers(on_giveup, details, exception=e)
                raise e
            # Note: there is no convenient way to pass an explicit event loop
            # ... existing code ...
"""
    items = classify(snippet, set(normalize_all(orig)))
    al = Aligner(items, orig, normalize_all(orig))
    first = orig.index("            except StopIteration:")
    al.pairs = {1: first, 4: orig.index("            # Note: there is no convenient way to pass an explicit event loop")}
    assert better_copy(al) == 1
    second = orig.index("            except StopIteration:", first + 1)
    al.pairs = {1: second, 3: second + 2, 4: second + 6}
    assert better_copy(al) is None


def test_the_same_part_in_file_order_with_its_signature_merges() -> None:
    snippet = """\
# ... existing code ...
async def retry_exception(target, wait, details):
    # ... existing code ...
            except StopIteration:
                await call_handlers(on_giveup, details, exception=e)
                raise e
            # ... existing code ...
"""
    merged = apply(RETRY_PY, snippet, filename="retry.py").merged_code
    assert merged == RETRY_PY.replace(
        "await call_handlers(on_giveup, details)\n                raise e",
        "await call_handlers(on_giveup, details, exception=e)\n                raise e")


TOOLS_PY = """\
import sys


# Helper functions

def _unwrap(func):
    while hasattr(func, "func"):
        func = func.func
    return func

################################################################################
### Cache
################################################################################

def cache(func):
    return func

################################################################################
### Dispatch
################################################################################

def dispatch(func):
    return func
"""


def test_a_new_line_that_the_file_has_after_whole_functions_is_refused() -> None:
    """After `# Helper functions` the snippet writes the ruler that follows `_unwrap` and then a
    marker: it may delete `_unwrap` (context: the ruler) or add a ruler (new line). Refused; the
    message says what settles it."""
    snippet = """\
# ... existing code ...
# Helper functions

################################################################################
# ... existing code ...
"""
    with pytest.raises(ApplyError) as caught:
        apply(TOOLS_PY, snippet, filename="tools.py")
    assert caught.value.code == "ambiguous_anchor"
    assert caught.value.line == 4
    assert "follows" in caught.value.message


def test_the_deletion_with_the_line_after_the_ruler_merges() -> None:
    snippet = """\
# ... existing code ...
# Helper functions

################################################################################
### Cache
# ... existing code ...
"""
    merged = apply(TOOLS_PY, snippet, filename="tools.py").merged_code
    assert "_unwrap" not in merged and merged.count("### ") == 2


OVERLOADS_TS = """\
import compose from './compose'

/**
 * Applies middleware.
 */
export default function applyMiddleware(): Enhancer
export default function applyMiddleware<A>(
  first: Middleware<A>
): Enhancer<{ dispatch: A }>
export default function applyMiddleware<A, B>(
  first: Middleware<A>,
  second: Middleware<B>
): Enhancer<{ dispatch: A & B }>
export default function applyMiddleware<A, B, C>(
  first: Middleware<A>,
  second: Middleware<B>,
  third: Middleware<C>
): Enhancer<{ dispatch: A & B & C }>
export default function applyMiddleware<A, B, C, D>(
  first: Middleware<A>,
  second: Middleware<B>,
  third: Middleware<C>,
  fourth: Middleware<D>
): Enhancer<{ dispatch: A & B & C & D }>
export default function applyMiddleware<A, B, C, D, E>(
  ...rest: Middleware[]
): Enhancer<any>
export default function applyMiddleware(
  ...middlewares: Middleware[]
): Enhancer<any> {
  return store => {
    const chain = middlewares.map(m => m(store))
    return compose(...chain)(store.dispatch)
  }
}
"""


def test_a_function_appended_after_overloads_keeps_the_snippets_blank_line() -> None:
    """Overload declarations are glued to each other; that says nothing of how functions with
    bodies are spaced: the blank line the snippet writes above the new function stays."""
    snippet = """\
// ... existing code ...
    return compose(...chain)(store.dispatch)
  }
}

function fallback<T>(value: T | undefined, other: T): T {
  return value ?? other
}
"""
    merged = apply(OVERLOADS_TS, snippet, filename="apply.ts").merged_code
    assert merged == OVERLOADS_TS + "\nfunction fallback<T>(value: T | undefined, other: T): T {\n" \
        "  return value ?? other\n}\n"


def test_a_function_glued_to_an_overload_before_a_generic_header_stays_glued() -> None:
    """Written right under an overload's `): Enhancer<any>` line, above a header whose type
    parameters open on the next lines (`export function make<`), the new function stays glued
    as the snippet writes it: the file glues its declarations there too."""
    original = OVERLOADS_TS.replace("export default function applyMiddleware(\n",
                                    "export function make<\n  S\n>(\n", 1)
    snippet = """\
// ... existing code ...
  ...rest: Middleware[]
): Enhancer<any>
function logStep(message: string): void {
  console.debug(message)
}

export function make<
  S
// ... existing code ...
"""
    merged = apply(original, snippet, filename="apply.ts").merged_code
    assert "): Enhancer<any>\nfunction logStep(message: string): void {\n" in merged
    assert "}\n\nexport function make<\n" in merged


GENERATOR_RB = """\
module Generator
  def escape(string)
    string.gsub(/["\\\\]/) { |c| MAP[c] }
  end

  def to_ascii(string, slash = false) # :nodoc:
    string = string.dup
    string.force_encoding(::Encoding::ASCII_8BIT)
    map = slash ? SLASH_MAP : MAP
    string.gsub!(/[\\/"\\\\\\x0-\\x1f]/n) { map[$&] || $& }
    string
  rescue => e
    raise GeneratorError.wrap(e)
  end

  def valid?(string)
    string.valid_encoding?
  end
end
"""


def test_a_rewritten_ruby_method_takes_its_rescue_clause_with_it() -> None:
    """A method-level `rescue` sits at the `def`'s own indentation and belongs to the method: a
    snippet that rewrites the whole method replaces it too (json's generator.rb); before, the
    block ended at `rescue`, which stayed behind with its own `end`."""
    snippet = """\
  def to_ascii(string, slash = false) # :nodoc:
    warn "to_ascii is not supported here"
    nil
  end
"""
    merged = apply(GENERATOR_RB, snippet, filename="generator.rb").merged_code
    start = GENERATOR_RB.index("    string = string.dup")
    stop = GENERATOR_RB.index("  end\n\n  def valid?")
    assert merged == GENERATOR_RB[:start] + '    warn "to_ascii is not supported here"\n    nil\n' \
        + GENERATOR_RB[stop:]


HEADER_RB = """\
# -*- coding: utf-8 -*-
#
#--
# Copyright (C) 2009 Someone
#++
#

require 'parser/blank_line'
require 'parser/eob'

module Parser
  def parse
    nil
  end
end
"""


def test_a_comment_line_added_to_the_header_keeps_the_blank_line_below_the_header() -> None:
    """The new comment line continues the header comment (written right under its last line);
    the snippet drops the blank line that set the header apart from the code: the file's blank
    line stays (kramdown's paragraph.rb)."""
    snippet = """\
# -*- coding: utf-8 -*-
#
#--
# Copyright (C) 2009 Someone
#++
#
# See the changelog for the history of this rule.
require 'parser/blank_line'
# ... existing code ...
"""
    merged = apply(HEADER_RB, snippet, filename="paragraph.rb").merged_code
    assert merged == HEADER_RB.replace("#++\n#\n", "#++\n#\n# See the changelog for the history of this rule.\n")


def test_a_comment_on_the_code_below_stays_glued_to_it() -> None:
    """Written with a blank line above it and none below, a new comment is the code's own: it
    stays glued to the line it describes."""
    snippet = """\
# ... existing code ...
#

# The parser for blank lines.
require 'parser/blank_line'
# ... existing code ...
"""
    merged = apply(HEADER_RB, snippet, filename="paragraph.rb").merged_code
    assert merged == HEADER_RB.replace("#\n\nrequire 'parser/blank_line'",
                                       "#\n\n# The parser for blank lines.\nrequire 'parser/blank_line'")


USERS_GO = """\
package main

import "net/http"

type usersResource struct{}

func (rs usersResource) Routes() chi.Router {
	r := chi.NewRouter()
	r.Route("/{id}", func(r chi.Router) {
		r.Get("/", rs.Get)
		r.Delete("/", rs.Delete)
	})

	return r
}

func (rs usersResource) List(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("users list"))
}

func (rs usersResource) Create(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("users create"))
}

func (rs usersResource) Get(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("user get"))
}

func (rs usersResource) Update(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("user update"))
}

func (rs usersResource) Delete(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("user delete"))
}
"""


def test_a_snippet_that_ends_as_the_file_ends_deletes_what_it_leaves_out_there() -> None:
    """No marker after the last function, the file's own last one: the snippet reaches the
    file's end. It swaps Get and Update and leaves List out between two anchors, so List goes
    (before, the moved functions were no anchors, an implied marker stood at the end, and List
    stayed after Delete)."""
    snippet = """\
		// ... existing code ...
		r.Delete("/", rs.Delete)
	})

	return r
}

func (rs usersResource) Create(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("users create"))
}

func (rs usersResource) Update(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("user update"))
}

func (rs usersResource) Get(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("user get"))
}

func (rs usersResource) Delete(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("user delete"))
}
"""
    merged = apply(USERS_GO, snippet, filename="users.go").merged_code
    assert merged == USERS_GO[:USERS_GO.index("\t\tr.Delete(")] + snippet.split("\n", 1)[1]
