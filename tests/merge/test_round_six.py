"""Issue 8, sixth round: which definitions of a reordered part stay and which move, the blank line
a file's moved last definition leaves behind, and lines paired into code that moved away.

Each case is written in the shape the failing cases had (go-chi's handlers, regex's dfa.rs start
states), with names of our own.
"""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply
from fastapply.merge.ambiguity import ambiguous_block
from fastapply.merge.anchor import Aligner
from fastapply.merge.fuzzy_pairs import extend_fuzzy
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


QUERY_TS = """\
import { act } from './act'

export function mockOnline(value: boolean) {
  return vi.spyOn(onlineManager, 'isOnline').mockReturnValue(value)
}

let queryKeyCount = 0
export function queryKey(): Array<string> {
  queryKeyCount++
  return [`query_${queryKeyCount}`]
}

export function sleep(timeout: number): Promise<void> {
  return new Promise((resolve, _reject) => {
    setTimeout(resolve, timeout)
  })
}

export function setActTimeout(fn: () => void, ms?: number) {
  return setTimeout(() => {
    act(() => {
      fn()
    })
  }, ms)
}

// Pretend to be in a server environment.
export function setIsServer(isServer: boolean) {
  const original = utils.isServer
  return () => {
    utils.isServer = original
  }
}
"""


def test_a_part_keeps_its_first_definition_in_place_when_a_later_one_moves() -> None:
    """queryKey, shown first after the marker, stays; sleep moves below setActTimeout. Before,
    the chain of definitions that stay started at setActTimeout (a chain could start anywhere for
    free), so queryKey counted as moved and was re-spaced away from the line glued above it."""
    snippet = """\
// ... existing code ...
export function queryKey(): Array<string> {
  queryKeyCount++
  return [`query_${queryKeyCount}`]
}

export function setActTimeout(fn: () => void, ms?: number) {
  return setTimeout(() => {
    act(() => {
      fn()
    })
  }, ms)
}

export function sleep(timeout: number): Promise<void> {
  return new Promise((resolve, _reject) => {
    setTimeout(resolve, timeout)
  })
}

// Pretend to be in a server environment.
export function setIsServer(isServer: boolean) {
// ... existing code ...
"""
    merged = apply(QUERY_TS, snippet, filename="utils.tsx").merged_code
    assert "let queryKeyCount = 0\nexport function queryKey()" in merged
    assert merged.index("function setActTimeout") < merged.index("function sleep") < merged.index("// Pretend")
    assert merged.count("function sleep") == 1


RNG_RS = """\
impl RngCore for StdRng {
    #[inline(always)]
    fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    #[inline(always)]
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    #[inline(always)]
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.0.fill_bytes(dest);
    }

    #[inline(always)]
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Error> {
        self.0.try_fill_bytes(dest)
    }
}
"""


def test_two_swapped_neighbours_are_a_move_and_the_moved_one_is_spaced_as_its_siblings() -> None:
    """fill_bytes swapped with next_u64, written with a doubled blank line above it. A swap of
    neighbours is a move like any other now (before, it was left to the line alignment, which
    kept the snippet's two blank lines as they were)."""
    snippet = """\
// ... existing code ...
        self.0.next_u32()
    }


    #[inline(always)]
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.0.fill_bytes(dest);
    }

    #[inline(always)]
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    #[inline(always)]
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Error> {
// ... existing code ...
"""
    merged = apply(RNG_RS, snippet, filename="std.rs").merged_code
    assert merged == RNG_RS.replace(
        "    fn next_u64(&mut self) -> u64 {\n        self.0.next_u64()\n    }\n\n    #[inline(always)]\n"
        "    fn fill_bytes(&mut self, dest: &mut [u8]) {\n        self.0.fill_bytes(dest);\n    }",
        "    fn fill_bytes(&mut self, dest: &mut [u8]) {\n        self.0.fill_bytes(dest);\n    }\n\n"
        "    #[inline(always)]\n    fn next_u64(&mut self) -> u64 {\n        self.0.next_u64()\n    }")


COMPUTED_JS = """\
function watch(callback) {
  const cleanup = () => {};
  revalidate();
  return cleanup;
}

const DEVTOOLS = Symbol();
function devtools(proxyObject, options) {
  if (typeof options === "string") {
    options = { name: options };
  }
  return connect(proxyObject, options);
}

function proxyWithComputed(initialObject, computedFns) {
  const proxyObject = proxy(initialObject);
  addComputed(proxyObject, computedFns);
  return proxyObject;
}

function addComputed(proxyObject, computedFns) {
  const derivedFns = {};
  Object.keys(computedFns).forEach((key) => {
    derivedFns[key] = (get) => computedFns[key](get(proxyObject));
  });
  return derive(derivedFns);
}

function subscribeKey(proxyObject, key, callback) {
  return subscribe(proxyObject, callback);
}
"""


def test_a_moved_function_glued_to_a_line_the_file_glues_stays_glued() -> None:
    """addComputed moves up, right under `const DEVTOOLS = Symbol();`, which the file glues to the
    function after it; the snippet glues it too. The moved function is spaced as the snippet
    shows it, not with the blank line it had from its old siblings."""
    snippet = """\
// ... existing code ...
  return cleanup;
}

const DEVTOOLS = Symbol();
function addComputed(proxyObject, computedFns) {
  const derivedFns = {};
  Object.keys(computedFns).forEach((key) => {
    derivedFns[key] = (get) => computedFns[key](get(proxyObject));
  });
  return derive(derivedFns);
}

function devtools(proxyObject, options) {
  if (typeof options === "string") {
    options = { name: options };
  }
  return connect(proxyObject, options);
}

function proxyWithComputed(initialObject, computedFns) {
  const proxyObject = proxy(initialObject);
  addComputed(proxyObject, computedFns);
  return proxyObject;
}

function subscribeKey(proxyObject, key, callback) {
// ... existing code ...
"""
    merged = apply(COMPUTED_JS, snippet, filename="utils.js").merged_code
    assert "const DEVTOOLS = Symbol();\nfunction addComputed(" in merged
    assert merged.count("function addComputed(") == 1
    assert "  return proxyObject;\n}\n\nfunction subscribeKey(" in merged



FLAGS_RS = """\
impl X {
    fn head(&self) -> u8 {
        match self.v {
            0 => 1,
            nsi => nsi,
        }
    }

    fn start_state(&mut self) -> u8 {
        let a = 1;
        let b = 2;
        a + b
    }

    /// Computes the flags.
    ///
    /// Forward only.
    fn start_flags(&self) -> u8 {
        let mut flags = Flags::default();
        flags.start = at == 0;
        flags.end = text.is_empty();
        flags.word = is_word(text, at);
        flags
    }

    /// Computes the flags.
    ///
    /// Reverse only.
    fn start_flags_reverse(&self) -> u8 {
        let d = 4;
        d * 2
    }
}

impl Y {
    fn new(n: usize) -> Y {
        Y { n }
    }
}
"""


def test_a_renamed_definition_moved_elsewhere_while_a_marker_keeps_the_old_one_is_refused() -> None:
    """start_flags shown as compute_flags (same doc comment, same body) above start_state, the
    reordering that makes the merge read the definitions. Nothing shows start_flags' old place,
    so a marker keeps it: a rename would leave it behind, a copy would be right, and the snippet
    does not say which. Before, both stayed (a silent duplicate when it was a rename)."""
    snippet = """\
        // ... existing code ...
            nsi => nsi,
        }
    }

    /// Computes the flags.
    ///
    /// Forward only.
    fn compute_flags(&self) -> u8 {
        let mut flags = Flags::default();
        flags.start = at == 0;
        flags.end = text.is_empty();
        flags.word = is_word(text, at);
        flags
    }

    fn start_state(&mut self) -> u8 {
        let a = 1;
        let b = 2;
        a + b
    }

    /// Computes the flags.
/* ... rest of the code ... */
impl Y {
    fn new(n: usize) -> Y {
        Y { n }
    }
}
"""
    with pytest.raises(ApplyError) as caught:
        apply(FLAGS_RS, snippet, filename="dfa.rs")
    assert caught.value.code == "ambiguous_anchor"
    assert "'compute_flags'" in str(caught.value) and "'start_flags'" in str(caught.value)


VARIANT_RS = """\
impl<'de> VariantAccess<'de> for VariantReader {
    type Error = Error;

    fn tuple_variant<V>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Some(Value::Array(v)) => visit_array(v, visitor),
            None => Err(Error::invalid_type(
                Unexpected::UnitVariant,
                &"tuple variant",
            )),
        }
    }

    fn struct_variant<V>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Some(Value::Object(v)) => visit_object(v, visitor),
            None => Err(Error::invalid_type(
                Unexpected::UnitVariant,
                &"struct variant",
            )),
        }
    }
}

struct SeqReader {
    iter: vec::IntoIter<Value>,
}

impl<'de> VariantAccess<'de> for VariantRefReader<'de> {
    type Error = Error;

    fn tuple_variant<V>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Some(&Value::Array(ref v)) => visit_array_ref(v, visitor),
            None => Err(Error::invalid_type(
                Unexpected::UnitVariant,
                &"tuple variant",
            )),
        }
    }
}
"""


def test_context_that_ends_two_methods_alike_before_the_blocks_end_is_ambiguous() -> None:
    """The snippet shows tuple_variant's last lines, the impl's `}` and the struct after it; the
    alignment read them at struct_variant, `&"tuple variant"` an edit of its one differing line
    (serde's de.rs, where these lines occur in more places than here). Read at tuple_variant,
    the snippet deletes struct_variant instead, and nothing tells which: ambiguous_block says so
    (before, only a copy holding every context line counted, and the impl's `}` is no line of
    tuple_variant)."""
    snippet = """\
            /* ... existing code ... */
            None => Err(Error::invalid_type(
                Unexpected::UnitVariant,
                &"tuple variant",
            )),
        }
    }

}

struct SeqReader {
    /* ... existing code ... */
"""
    orig = VARIANT_RS.rstrip("\n").split("\n")
    items = classify(snippet, set(normalize_all(orig)))
    al = Aligner(items, orig, normalize_all(orig))
    at = orig.index("            None => Err(Error::invalid_type(", 12)  # struct_variant's
    al.rebase(items, {1: at, 2: at + 1, 4: at + 3, 5: at + 4, 6: at + 5, 8: at + 6, 10: at + 8})
    assert ambiguous_block(al) == 1
    al.rebase(items, {1: 6, 2: 7, 3: 8, 4: 9, 5: 10, 6: 11, 8: at + 6, 10: at + 8})  # at tuple_variant
    assert ambiguous_block(al) is None  # (nothing further up holds the lines)


INLINE_INIT = """\
__all__ = (
    "State",
    "text",
    "collapse",
    "escape",
)
from .balance import pairs
from .escape import escape
from .state import State
from .text import text
from .collapse import collapse
"""


def test_a_snippet_ending_one_import_short_of_the_files_end_removes_that_import() -> None:
    # markdown-it-py's rules_inline/__init__.py between two releases: the last import goes with
    # its name in __all__; the snippet shows the import run up to its new end, no last marker
    snippet = """\
    # ... existing code ...
    "text",
    "escape",
# ... existing code ...
from .balance import pairs
from .escape import escape
from .state import State
from .text import text
"""
    merged = apply(INLINE_INIT, snippet, filename="__init__.py").merged_code
    assert merged == INLINE_INIT.replace('    "collapse",\n', "").replace("from .collapse import collapse\n", "")


def test_a_snippet_ending_above_lines_of_another_kind_keeps_them() -> None:
    # the snippet stops inside the import run, with an edit, but the file goes on with other code:
    # a left-out last marker, as models write them (a last part of unchanged lines alone would end
    # the file: test_round_fourteen)
    original = INLINE_INIT + '__version__ = "1.0"\n'
    snippet = """\
# ... existing code ...
from .escape import escape
from .state import State
from .text import text, scan
"""
    expected = original.replace("from .text import text\n", "from .text import text, scan\n")
    assert apply(original, snippet, filename="__init__.py").merged_code == expected


WRAPPER_RB = """\
module Shop
  class Wrapper
    def close
      return if @closed
      @closed = true
    end

    # Whether the wrapper is closed.
    def closed?
      @closed
    end

    # Send other calls to the wrapped object.
    def method_missing(name, *args, &block)
      @inner.__send__(name, *args, &block)
    end
    ruby2_keywords(:method_missing)
  end
end
"""


def test_two_methods_the_snippet_glues_where_a_moved_one_left_keep_the_files_blank_line() -> None:
    # rack's body_proxy.rb: method_missing moved above closed?, written right under close's `end`
    # with no blank line; the file sets every method off with one
    snippet = """\
    # ... existing code ...
      @closed = true
    end
    # Send other calls to the wrapped object.
    def method_missing(name, *args, &block)
      @inner.__send__(name, *args, &block)
    end

    # Whether the wrapper is closed.
    def closed?
      @closed
    end
    ruby2_keywords(:method_missing)
  end
end
"""
    closed = "    # Whether the wrapper is closed.\n    def closed?\n      @closed\n    end\n"
    moved = "    # Send other calls to the wrapped object.\n    def method_missing(name, *args, &block)\n" \
        "      @inner.__send__(name, *args, &block)\n    end\n"
    expected = WRAPPER_RB.replace(closed + "\n" + moved, moved + "\n" + closed)
    assert expected != WRAPPER_RB
    assert apply(WRAPPER_RB, snippet, filename="wrapper.rb").merged_code == expected


PRESET_JS = """\
(function () {
  'use strict';

  var builder = makeBuilder();
  function labelPlugin(_ref) {
    var t = _ref.types;
    return {
      visitor: {
        ExportDefault: function ExportDefault(nodePath) {
          nodePath.replace(builder(nodePath.node));
        },
        Declarator: function Declarator(path) {
          path.insertAfter(t.label(path.node));
        }
      }
    };
  }

  var other = makeBuilder();
  function refreshPlugin(_ref) {
    return { visitor: {} };
  }

  function preset(_, options) {
    return { plugins: [labelPlugin, refreshPlugin] };
  }

  return preset;
})();
"""


def test_moved_code_keeps_the_lines_it_glues_as_the_file_does() -> None:
    # jotai's babel preset: a plugin moved below the preset; its object's keys follow `},` with
    # no blank line, in the file as in the snippet
    moved = PRESET_JS[PRESET_JS.index("  function labelPlugin"):PRESET_JS.index("  var other")]
    snippet = """\
  var builder = makeBuilder();
  var other = makeBuilder();
  function refreshPlugin(_ref) {
// ... existing code ...
  function preset(_, options) {
    return { plugins: [labelPlugin, refreshPlugin] };
  }

""" + moved + """\
  return preset;
// ... existing code ...
"""
    expected = PRESET_JS.replace(moved, "").replace("  return preset;", moved + "  return preset;")
    assert apply(PRESET_JS, snippet, filename="preset.js").merged_code == expected


RULES_PY = """\
class Rules:
    def run(self, action, names, folder):
        if action == 'add':
            for name in names:
                if not self._add(name):
                    log.warning('nothing added for %r', name)

        elif action == 'drop':
            for name in names:
                found = self._drop(name, exact=True)
                #if not found:
                #    log.warning('nothing dropped for %r', name)

        elif action == 'add-tree':
            for name in names:
                if not self._add(name, under=folder):
                    log.warning('nothing added for %r under %r',
                                name, folder)

        elif action == 'drop-tree':
            for name in names:
                found = self._drop(name, under=folder)
                #if not found:
                #    log.warning('nothing dropped for %r under %r',
                #                name, folder)

        elif action == 'prune':
            self._prune(folder)
"""


def test_a_common_line_heading_an_edit_that_drops_commented_out_code_is_that_blocks_head() -> None:
    # distlib's manifest.py between two releases: `found = ...` and the commented-out warning
    # under it became a bare call; the snippet shows the loop's common `for` line above the edit
    snippet = """\
        elif action == 'add-tree':
            for name in names:
                if not self._add(name, under=folder):
            # ... rest of the code ...
            for name in names:
                self._drop(name, under=folder)

        elif action == 'prune':
            # ... rest of the code ...
"""
    old = """\
                found = self._drop(name, under=folder)
                #if not found:
                #    log.warning('nothing dropped for %r under %r',
                #                name, folder)
"""
    expected = RULES_PY.replace(old, "                self._drop(name, under=folder)\n")
    assert apply(RULES_PY, snippet, filename="rules.py").merged_code == expected


SAME_JS = """\
import React from 'react';

function same(a, b) {
  if (Object.is(a, b)) {
    return true;
  }
  return false;
}

export { same };
"""


def test_a_new_helper_above_the_first_function_of_a_snippet_without_markers_stays_under_the_imports() -> None:
    # zustand's shallow.js: a helper extracted above the function that calls it, the whole
    # function shown, no markers; the file's import above them stays first
    snippet = """\
function logStep(message) {
  console.debug(message);
}

function same(a, b) {
  logStep('same');
  if (Object.is(a, b)) {
    return true;
  }
  return false;
}
"""
    expected = SAME_JS.replace("function same(a, b) {\n", "function logStep(message) {\n  console.debug(message);\n}\n\n"
                               "function same(a, b) {\n  logStep('same');\n")
    assert apply(SAME_JS, snippet, filename="same.js").merged_code == expected


FORWARDS_H = """\
namespace Shop {

// cart.h
class Cart;
class CartBuilder;

// item.h
using ItemId = unsigned int;
class StaticName;
class Path;
class PathPart;
class Item;
class ItemIterator;

} // namespace Shop
"""


def test_forward_declarations_are_one_block_of_a_snippet_without_markers() -> None:
    # jsoncpp's forwards.h: three declarations rewritten in a row; `class Path;` is no definition
    # that a marker would be assumed above, keeping the old three next to the new
    snippet = """\
// item.h
using ItemId = unsigned int;
class Buffer;
class Record;
class PathPart;
class Item;
class ItemIterator;
"""
    expected = FORWARDS_H.replace("class StaticName;\nclass Path;\n", "class Buffer;\nclass Record;\n")
    assert apply(FORWARDS_H, snippet, filename="forwards.h").merged_code == expected


JSON_GO = """\
package socket

// SendJSON writes the JSON encoding of v as a message.
//
// Deprecated: Use c.SendJSON instead.
func SendJSON(c *Conn, v interface{}) error {
	return c.SendJSON(v)
}

// SendJSON writes the JSON encoding of v as a message.
//
// It encodes v with encoding/json.
func (c *Conn) SendJSON(v interface{}) error {
	w, err := c.NextWriter(TextMessage)
	if err != nil {
		return err
	}
	return json.NewEncoder(w).Encode(v)
}
"""


def test_a_renamed_go_function_whose_old_name_a_method_keeps_is_a_rename() -> None:
    # gorilla/websocket's json.go: the function SendJSON renamed while the method (c *Conn)
    # SendJSON, another namespace, keeps the name; read as new, the old function stayed
    snippet = """\
// SendJSON writes the JSON encoding of v as a message.
//
// Deprecated: Use c.SendJSON instead.
func SendJSONImpl(c *Conn, v interface{}) error {
	return c.SendJSON(v)
}

// SendJSON writes the JSON encoding of v as a message.
// ... existing code ...
func (c *Conn) SendJSON(v interface{}) error {
	panic("not supported")
}
"""
    body = JSON_GO[JSON_GO.index("\tw, err"):JSON_GO.rindex("}")]
    expected = JSON_GO.replace("func SendJSON(c", "func SendJSONImpl(c").replace(body, '\tpanic("not supported")\n')
    assert apply(JSON_GO, snippet, filename="json.go").merged_code == expected


OPTIONS_RB = """\
require 'shop/option'

module Shop
  # Example:
  #
  #   Shop.parse(%w[--name x])
  def self.parse(items)
    Parser.new.parse(items)
  end

  # Example:
  #
  #   Shop.option_defined?(:omg) #=> false
  #
  # Returns true if an option is defined.
  def self.option_defined?(name)
    const_defined?(option_name(name.to_s))
  rescue NameError
    # not a constant name: never defined
    false
  end

  # Example:
  #
  #   Shop.option_name("string") #=> "StringOption"
  def self.option_name(s)
    s.capitalize + "Option"
  end
end
"""


def test_a_method_with_a_rescue_clause_ends_at_its_end_not_at_the_rescue() -> None:
    # slop.rb: a body with `rescue` rewritten, the comment line after the method's `end` shown
    # before a marker; the `end` pairs with the method's own, so the comment is context
    snippet = """\
require 'set'
require 'shop/option'
  # ... existing code ...
  #   Shop.option_defined?(:omg) #=> false
  #
  # Returns true if an option is defined.
  def self.option_defined?(name)
    warn "not supported here"
    nil
  end

  # Example:
  # ... existing code ...
"""
    old = "    const_defined?(option_name(name.to_s))\n  rescue NameError\n    # not a constant name: never defined\n    false\n"
    assert old in OPTIONS_RB
    expected = "require 'set'\n" + OPTIONS_RB.replace(old, '    warn "not supported here"\n    nil\n')
    assert apply(OPTIONS_RB, snippet, filename="options.rb").merged_code == expected


def test_block_end_passes_over_a_rescue_clause_at_the_methods_depth() -> None:
    from fastapply.merge.lines import block_end

    lines = OPTIONS_RB.rstrip("\n").split("\n")
    header = lines.index("  def self.option_defined?(name)")
    end = block_end(lines, normalize_all(lines), header, len(lines))
    assert end is not None and lines[end] == "  end" and lines[end - 1] == "    false"


TODOS_GO = """\
package main

type todosResource struct{}

// Routes creates a router for the todos resource
func (rs todosResource) Routes() string {
	r := newRouter()
	// r.Use() // some middleware

	r.get("/", rs.List)
	r.post("/", rs.Create)
	r.route("/{id}", func(r Router) {
		r.get("/", rs.Get)
		r.put("/", rs.Update)
		r.delete("/", rs.Delete)
		r.get("/sync", rs.Sync)
	})

	return r.String()
}

func (rs todosResource) List(w Writer) {
	w.Write("todos list")
}

func (rs todosResource) Create(w Writer) {
	w.Write("todos create")
}

func (rs todosResource) Get(w Writer) {
	w.Write("todo get")
}

func (rs todosResource) Update(w Writer) {
	w.Write("todo update")
}

func (rs todosResource) Delete(w Writer) {
	w.Write("todo delete")
}

func (rs todosResource) Sync(w Writer) {
	w.Write("todo sync")
}
"""


def test_a_snippet_showing_the_files_last_definition_among_moved_ones_reaches_the_files_end() -> None:
    # go-chi's todos.go: Routes rewritten, Update moved to the end, Create left out; no last
    # marker, and the file's last function (Sync) is shown whole: the snippet reaches the end
    snippet = """\
// ... existing code ...
type todosResource struct{}

// Routes creates a router for the todos resource
func (rs todosResource) Routes() string {
	panic("not supported")
}

func (rs todosResource) List(w Writer) {
	w.Write("todos list")
}

func (rs todosResource) Get(w Writer) {
	w.Write("todo get")
}

func (rs todosResource) Delete(w Writer) {
	w.Write("todo delete")
}

func (rs todosResource) Sync(w Writer) {
	w.Write("todo sync")
}

func (rs todosResource) Update(w Writer) {
	w.Write("todo update")
}
"""
    expected = "package main\n\n" + snippet.split("\n", 1)[1]
    assert apply(TODOS_GO, snippet, filename="todos.go").merged_code == expected


RESULT_RB = """\
class Result
  # Returns the options that were used.
  def used_options
    parser.used_options
  end

  # Returns the options that were not used.
  def unused_options
    parser.unused_options
  end

  # Returns a hash of the options.
  def to_hash
    Hash[options.map { |o| [o.key, o.value] }]
  end
  alias to_h to_hash
end
"""


def test_a_moved_method_glued_under_a_siblings_end_gets_the_siblings_blank_line() -> None:
    # slop's result.rb: unused_options moved below to_hash, written right under its `end`, which
    # the file glues to an `alias` line; every method is set off by one blank line
    snippet = """\
class Result
  # Returns the options that were used.
  def used_options
    parser.used_options
  end

  # Returns a hash of the options.
  def to_hash
    Hash[options.map { |o| [o.key, o.value] }]
  end
  # Returns the options that were not used.
  def unused_options
    parser.unused_options
  end
  alias to_h to_hash
  # ... existing code ...
"""
    moved = "  # Returns the options that were not used.\n  def unused_options\n    parser.unused_options\n  end\n"
    expected = RESULT_RB.replace(moved + "\n", "").replace("  end\n  alias", "  end\n\n" + moved + "  alias")
    assert apply(RESULT_RB, snippet, filename="result.rb").merged_code == expected


SEARCH_PY = """\
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from site.config import Config
    from site.util.templates import Context

log = logging.getLogger(__name__)


class SearchPlugin:
    \"\"\"Add a search feature.\"\"\"

    def on_config(self, config):
        return config


def build(config):
    return SearchPlugin().on_config(config)
"""


def test_two_blank_lines_before_top_level_code_after_a_block_stand_where_the_file_has_no_habit_there() -> None:
    # mkdocs' search plugin between two releases: an import under `if TYPE_CHECKING:` edited and
    # PEP 8's two blank lines written before `log = ...`; the file uses two before its top-level
    # definitions and has no other place where one blank line follows a block
    snippet = """\
# ...
if TYPE_CHECKING:
    from site.config import Config
    from site.utils.templates import Context


log = logging.getLogger(__name__)
# ...
"""
    expected = SEARCH_PY.replace("site.util.templates import Context\n\n", "site.utils.templates import Context\n\n\n")
    assert apply(SEARCH_PY, snippet, filename="search.py").merged_code == expected


SOUNDS_PY = """\
tests = []


def test_aiff(h, f):
    \"\"\"AIFF file\"\"\"
    return h.startswith(b'FORM')

tests.append(test_aiff)


def test_svx(h, f):
    \"\"\"8SVX file\"\"\"
    return h[8:12] == b'8SVX'

tests.append(test_svx)


def test_sndt(h, f):
    \"\"\"SNDT file\"\"\"
    return h.startswith(b'SOUND')

tests.append(test_sndt)
"""


def test_a_file_that_puts_one_blank_line_after_its_functions_keeps_it_under_a_rewritten_one() -> None:
    # the stdlib's sndhdr: every test function is followed by one blank line and its
    # `tests.append`; a rewritten one written with PEP 8's two keeps the file's one
    snippet = """\
# ... existing code ...
def test_svx(h, f):
    return None


tests.append(test_svx)
# ... existing code ...
"""
    expected = SOUNDS_PY.replace("    \"\"\"8SVX file\"\"\"\n    return h[8:12] == b'8SVX'\n", "    return None\n")
    assert apply(SOUNDS_PY, snippet, filename="sounds.py").merged_code == expected


BRAIN_PY = """\
def infer_alias(node, ctx=None):
    if node.subscriptable:
        # If the alias is subscriptable, add `__class_getitem__`
        func_to_add = extract_node(CLASS_GETITEM)
        class_def.locals["__class_getitem__"] = [func_to_add]
    else:
        forbid_getitem(class_def)

    # Avoid re-instantiating this class every time it's seen
    node.explicit = lambda node, context: iter([class_def])
    return iter([class_def])


def looks_like_special(node):
    return node.name in SPECIAL


def infer_special(node, ctx=None):
    class_def = ClassDef(name=node.name)
    func_to_add = extract_node(CLASS_GETITEM)
    class_def.locals["__class_getitem__"] = [func_to_add]
    return iter([class_def])


def looks_like_cast(node):
    return node.name == "cast"
"""


def test_context_that_fits_right_above_the_next_anchor_is_not_read_as_a_deletion_elsewhere() -> None:
    # astroid's brain_typing.py between two releases: two lines added above `return` in
    # infer_special, copies of lines infer_alias already has; read against that copy, the merge
    # deleted looks_like_special and infer_special whole
    snippet = """\
    # ... existing code ...
    func_to_add = extract_node(CLASS_GETITEM)
    class_def.locals["__class_getitem__"] = [func_to_add]
    # Avoid re-instantiating this class every time it's seen
    node.explicit = lambda node, context: iter([class_def])
    return iter([class_def])


def looks_like_cast(node):
    # ... existing code ...
"""
    with pytest.raises(ApplyError) as error:
        apply(BRAIN_PY, snippet, filename="brain.py")
    assert error.value.code == "ambiguous_anchor" and error.value.line == 2


DOCS_PY = """\
class DocServer:
    def render(self, methods):
        result = self.heading(methods)
        result = result + self.section(methods)

        return result


    def page(self, title, contents):
        \"\"\"Format an HTML page.\"\"\"
        return '''\\
<!DOCTYPE>
<html lang="en">
<title>%s</title>
%s</html>''' % (title, contents)

class DocGenerator:
    \"\"\"Generates documentation.\"\"\"
"""


def test_new_code_after_a_long_return_whose_string_runs_at_column_0_is_unreachable() -> None:
    # xmlrpc/server.py: `return result` shown after a marker, meant as the end of render() before
    # the deleted page(); read as new code, it lands after page()'s `return '''...'''`, whose
    # last line stands at column 0
    snippet = """\
        // … existing code …
        return result


class DocGenerator:
    \"\"\"Generates documentation.\"\"\"
"""
    with pytest.raises(ApplyError) as error:
        apply(DOCS_PY, snippet, filename="docs.py")
    assert error.value.code == "ambiguous_anchor" and error.value.line == 2


DIRECTORY_RB = """\
# frozen_string_literal: true

require 'time'

module Shop
  class Directory
    def check_forbidden(path_info)
      return unless path_info.include? ".."
      return if root == "/"

      body = "Forbidden\\n"
      [403, { CONTENT_TYPE => "text/plain",
        CONTENT_LENGTH => body.bytesize.to_s,
        "X-Cascade" => "pass" }, [body]]
    end

    def fail(status, body)
      [status, { CONTENT_TYPE => "text/plain",
        CONTENT_LENGTH => body.bytesize.to_s,
        "X-Cascade" => "pass" }, [body]]
    end
  end
end
"""


def test_a_part_out_of_order_is_placed_by_its_anchor_and_the_edit_of_the_line_under_it() -> None:
    # rack's directory.rb: a literal replaced by a constant defined at the top, the edited part
    # shown first; its one unique line and the edited line under it place it
    snippet = """\
# ... existing code ...
      body = "Forbidden\\n"
      [FORBIDDEN, { CONTENT_TYPE => "text/plain",
        CONTENT_LENGTH => body.bytesize.to_s,
# ... existing code ...
require 'time'

FORBIDDEN = 403

module Shop
# ... existing code ...
"""
    expected = DIRECTORY_RB.replace("require 'time'\n", "require 'time'\n\nFORBIDDEN = 403\n") \
        .replace("[403, {", "[FORBIDDEN, {")
    assert apply(DIRECTORY_RB, snippet, filename="directory.rb").merged_code == expected
