"""Issue 8, eighth round: spacing that real release edits showed (batches tune-10 and tune-11).

Each case is written in the shape the failing cases had (a deprecated class under a decorator
whose string closes at column 0, an import split in two, a rewritten lookup), with names of our own.
"""

from __future__ import annotations

from fastapply import apply

DEPRECATED = '''\
from typing import Any

from ._core import Action


class Parser:
    def parse(self, text: str) -> Any:
        return text.split()
'''


def test_a_decorator_whose_string_closes_at_column_0_stays_glued_to_its_class() -> None:
    """A decorator's argument string closing at column 0, then `)`: the `)` closes the decorator,
    not a block, so no blank line goes between it and the class under it."""
    snippet = '''\
# ... existing code ...
class Parser:
    def parse(self, text: str) -> Any:
        return text.split()


@deprecated(
    """
    OldParser is deprecated and will be removed in the next major release.
"""
)
class OldParser(Parser):
    """Kept for old callers."""
'''
    expected = DEPRECATED + '''

@deprecated(
    """
    OldParser is deprecated and will be removed in the next major release.
"""
)
class OldParser(Parser):
    """Kept for old callers."""
'''
    assert apply(DEPRECATED, snippet, filename="compat.py").merged_code == expected


IMPORTS = '''\
import pytest

from toolkit import (
    Parser,
    Result,
    Token,
    parse_all,
    to_tokens,
    null_sink,
)
from toolkit.extras import (
    pretty,
)


def test_parse() -> None:
    assert parse_all("a b") == ["a", "b"]
'''


def test_an_import_split_in_two_stays_glued() -> None:
    """A multi-line import written right under another's closing `)` is a statement, not a new
    definition after a closed block: no blank line goes between them."""
    snippet = '''\
import pytest

from toolkit import (
    Parser,
    Token,
    # ... existing code ...
    to_tokens,
)
from toolkit._internal import (
    Result,
    null_sink,
)
from toolkit.extras import (
    # ... existing code ...
'''
    expected = IMPORTS.replace('''    Parser,
    Result,
    Token,''', '''    Parser,
    Token,''').replace('''    to_tokens,
    null_sink,
)''', '''    to_tokens,
)
from toolkit._internal import (
    Result,
    null_sink,
)''')
    assert apply(IMPORTS, snippet, filename="test_parse.py").merged_code == expected


LOOKUP = '''\
def settings_for(module, ctx):
    settings = None
    if ctx.django:
        found = load(module)
        for member in inspect(found):
            if isinstance(member, Settings):
                settings = member
                break

        if settings is not None and ctx.echo:
            echo("Django app detected")

    return settings


def parse_marker(self, m):
    if m is None:
        raise InvalidMarker(m)

    self.op = m.group("op")
    if self.op is None:
        self.op = "=="

    self.value = m.group("value")
    return self
'''


def test_a_rewritten_loop_glued_to_the_if_after_it_stays_glued() -> None:
    """The loop (and the blank line under it) became two statements written right above the
    kept `if`: the blank line set the loop off, so it goes with it."""
    snippet = '''\
def settings_for(module, ctx):
    settings = None
    if ctx.django:
        found = load(module)
        matches = [member for member in inspect(found) if isinstance(member, Settings)]
        if matches:
            settings = matches[0]
        if settings is not None and ctx.echo:
            echo("Django app detected")
# ... existing code ...
'''
    expected = LOOKUP.replace('''        for member in inspect(found):
            if isinstance(member, Settings):
                settings = member
                break

''', '''        matches = [member for member in inspect(found) if isinstance(member, Settings)]
        if matches:
            settings = matches[0]
''')
    assert apply(LOOKUP, snippet, filename="cli.py").merged_code == expected


def test_an_edited_line_that_absorbed_the_block_under_it_stays_glued() -> None:
    """`self.op = m.group("op")` and its `if ... is None:` fallback became one edited line written
    right above the kept `self.value = ...`: the blank line that set the `if` block off goes."""
    snippet = '''\
# ... existing code ...
    if m is None:
        raise InvalidMarker(m)

    self.op = (m.group("op") or "==").strip()
    self.value = m.group("value")
# ... existing code ...
'''
    expected = LOOKUP.replace('''    self.op = m.group("op")
    if self.op is None:
        self.op = "=="

''', '''    self.op = (m.group("op") or "==").strip()
''')
    assert apply(LOOKUP, snippet, filename="markers.py").merged_code == expected


GENERATOR = '''\
<?php

/**
 * Escapes a value for HTML: "'" and """ are used as delimiters there.
 */
class UrlBuilder
{
    public function setContext($context)
    {
        $this->context = $context;
    }

    /**
     * Returns the context.
     */
    public function getContext()
    {
        return $this->context;
    }
}
'''


def test_quotes_in_a_comment_line_do_not_open_a_string() -> None:
    """A PHP doc comment that mentions `\"\"\"` is no Python string: the blank lines the snippet
    doubles after a new method are a slip, mended to the file's one."""
    snippet = '''\
    // ... existing code ...
    public function setContext($context)
    {
        $this->context = $context;
    }

    private function coalesce($value, $fallback = null)
    {
        return $value ?? $fallback;
    }


    /**
     * Returns the context.
     // ... existing code ...
'''
    expected = GENERATOR.replace('''        $this->context = $context;
    }
''', '''        $this->context = $context;
    }

    private function coalesce($value, $fallback = null)
    {
        return $value ?? $fallback;
    }
''')
    assert apply(GENERATOR, snippet, filename="UrlBuilder.php").merged_code == expected


LOADER = '''\
/**
 * Loads routes.
 *
 * Example:
 *
 *     class Blog {
 *         route() {}
 *     }
 *
 * @author Someone <someone@example.com>
 */
export class Loader {
  load(name) {
    if (!name) {
      throw new Error("no name");
    }
    return this.routes[name];
  }
}
'''


def test_doc_comment_lines_after_a_new_function_are_context() -> None:
    """The ` * ` lines written after a new function's closing brace are not inside it: they are
    the file's doc comment, placed by their own unique lines, not inserted a second time."""
    snippet = '''\
// ... existing code ...
 *     }

function logStep(message) {
  console.log(message);
}

 *
 * @author Someone <someone@example.com>
// ... existing code ...
  load(name) {
    logStep("load");
    if (!name) {
// ... existing code ...
'''
    expected = LOADER.replace(''' *     }
 *
 * @author''', ''' *     }

function logStep(message) {
  console.log(message);
}

 *
 * @author''').replace('''  load(name) {
''', '''  load(name) {
    logStep("load");
''')
    assert apply(LOADER, snippet, filename="loader.js").merged_code == expected


LIMITER = '''\
class RateLimiter:
    def hit(self, item):
        raise NotImplementedError

    def clear(self, item, *identifiers):
        return self.storage.clear(item.key_for(*identifiers))


class SlidingWindowRateLimiter(RateLimiter):
    def hit(self, item):
        return self.storage.incr(item)

    def stats(self, item):
        remaining = self.storage.remaining(item)
        return Stats(self.storage.reset_at(item), remaining)


KNOWN = (
    SlidingWindowRateLimiter,
)
'''


def test_an_override_added_to_a_subclass_is_no_move_of_the_base_method() -> None:
    """`def clear` added at the end of a subclass, under the same header as the base class's
    one-line `clear` but with another body: the base class keeps its method (a move carries its
    body along)."""
    snippet = '''\
# ... existing code ...
        remaining = self.storage.remaining(item)
        return Stats(self.storage.reset_at(item), remaining)

    def clear(self, item, *identifiers):
        return self.storage.clear_window(item.key_for(*identifiers), item.expiry)


KNOWN = (
    SlidingWindowRateLimiter,
# ... existing code ...
'''
    expected = LIMITER.replace('''        return Stats(self.storage.reset_at(item), remaining)
''', '''        return Stats(self.storage.reset_at(item), remaining)

    def clear(self, item, *identifiers):
        return self.storage.clear_window(item.key_for(*identifiers), item.expiry)
''')
    assert apply(LIMITER, snippet, filename="strategies.py").merged_code == expected


COMPILED = '''\
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.build = void 0;
const build = (options) => {
    return options.join
        ? joinPath
        : joinPathWithBasePath;
};
exports.build = build;
'''


def test_a_statement_moved_from_the_files_end_to_its_head_leaves_the_end() -> None:
    """A compiler moved `exports.build = build;` from the end to the head: the snippet shows the
    head with it, then the file down to its new last line, without a last marker. The old copy
    at the end goes: the snippet ends where the file now ends."""
    snippet = '''\
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.build = build;
const build = (options) => {
    return options.join
        // ... existing code ...
        : joinPathWithBasePath;
};
'''
    expected = COMPILED.replace("exports.build = void 0;\n", "exports.build = build;\n", 1)
    expected = expected[: expected.rindex("exports.build = build;\n")]
    assert apply(COMPILED, snippet, filename="join-path.js").merged_code == expected


PROPS = '''\
/**
 * Checks that every property of a type is set.
 *
 * ```ts
 * const a = requireAllProps<SomeType>({ propA: "value A" });
 * ```
 *
 * Wrong use:
 *
 * ```ts
 * const z = requireAllProps({ propC: "no type will work" });
 * ```
 *
 * ```ts
 * const y: SomeType = { propA: "" };
 * const x = requireAllProps<SomeType>( { ... y } );
 * ```
 *
 * @param obj object to check
 */
function requireAllProps(obj) {
    return obj;
}
'''


def test_a_fence_after_a_replaced_line_is_the_files_own() -> None:
    """A doc comment's example line rewritten, the snippet showing the fence under it and then a
    marker: the fence is the file's (the old line goes), not a second fence above the old line."""
    snippet = '''\
// ...
 * const z = requireAllProps({ propC: "no type will work" });
 * ```
 *
 * ```ts
 * const y: SomeType = { propA: "" };
 * // const x = requireAllProps<SomeType>({ ...y }); // Argument of type '{ propA: string; propB?: number; }' is not assignable to parameter of type 'AllProps<SomeType>'.
 * ```
// ...
'''
    expected = PROPS.replace(" * const x = requireAllProps<SomeType>( { ... y } );",
                             " * // const x = requireAllProps<SomeType>({ ...y }); // Argument of type '{ propA: string; propB?: number; }' is not assignable to parameter of type 'AllProps<SomeType>'.")
    assert apply(PROPS, snippet, filename="require-all-props.js").merged_code == expected


EXAMPLES = '''\
/**
 * Checks that every property of a type is set.
 *
 * Example use:
 *
 * ```ts
 * type SomeType = { propA: string; propB?: number; }
 *
 * // propB has to be mentioned even if it is optional.
 * const a: SomeType = requireAllProps<SomeType>({ propA: "value A", propB: undefined });
 * ```
 *
 * Wrong use of this helper:
 *
 * ```ts
 * const z: SomeType = requireAllProps({ propC: "no type will work" });
 * ```
 *
 * 2. Apply to a spread object: nothing checks it at compile time.
 *
 * @param obj object to check
 */
function requireAllProps(obj) {
    return obj;
}
'''

WRONG_USE = '''\
 * ```ts
 * type SomeType = { propA: string; propB?: number; }
 * // const z: SomeType = requireAllProps({ propC: "no type will work" }); // Property 'propA' is missing in type '{ propC: string; }' but required in type 'SomeType'.
 * ```
'''


def test_a_fence_after_a_marker_opens_the_example_nearest_the_next_anchor() -> None:
    """A part that opens, after its marker, with the fence and a line the first example also
    has: it rewrites the example right above its next unique line (the wrong use), not the first
    one (which reading it there would delete with everything up to the wrong use)."""
    snippet = '''\
// ...
''' + WRONG_USE + ''' *
 * 2. Apply to a spread object: nothing checks it at compile time.
// ...
'''
    expected = EXAMPLES.replace(''' * ```ts
 * const z: SomeType = requireAllProps({ propC: "no type will work" });
 * ```
''', WRONG_USE)
    assert apply(EXAMPLES, snippet, filename="props.js").merged_code == expected


def test_two_new_lines_for_one_before_a_fence_replace_it() -> None:
    """The same rewrite shown from the file's head down to its fence, then a marker: two new lines
    took the place of one, and the fence under them is the file's own."""
    head = EXAMPLES[: EXAMPLES.index(" * ```ts\n * const z")]
    snippet = head + WRONG_USE + "/* ... */\n"
    expected = EXAMPLES.replace(''' * ```ts
 * const z: SomeType = requireAllProps({ propC: "no type will work" });
 * ```
''', WRONG_USE)
    assert apply(EXAMPLES, snippet, filename="props.js").merged_code == expected


def _comparable(name: str, lt: bool) -> str:
    less = f'''
    def __lt__(self, other):
        if isinstance(other, {name}):
            return self._key() < other._key()
        return NotImplemented
''' if lt else ""
    return f'''class {name}:
    def __eq__(self, other):
        if isinstance(other, {name}):
            return self._key() == other._key()
        return False
{less}
    def __hash__(self):
        return hash(self._key())
'''


MODELS = "\n\n".join(_comparable(name, lt) for name, lt in (("Rating", True), ("Analysis", False), ("Source", True)))


def test_a_method_that_other_classes_have_goes_into_the_class_the_snippet_shows() -> None:
    """`__lt__` added to the one class without it, the snippet ending on `def __hash__` (every
    class has one) and a marker: the next classes' `__lt__` + `__hash__` match more of the new
    lines, but a class lies between; the nearest `__hash__` is the one meant."""
    snippet = '''\
        # ... existing code ...
        if isinstance(other, Analysis):
            return self._key() == other._key()
        return False

    def __lt__(self, other):
        if isinstance(other, Analysis):
            return self._key() < other._key()
        return NotImplemented

    def __hash__(self):
        # ... existing code ...
'''
    expected = MODELS.replace(_comparable("Analysis", False), _comparable("Analysis", True))
    assert apply(MODELS, snippet, filename="models.py").merged_code == expected


TRANSLATIONS = '''\
package en

import (
	"fmt"
	"log"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// RegisterDefaultTranslations registers the default translations.
func RegisterDefaultTranslations(v *Validate, trans Translator) (err error) {

	translations := []struct {
		tag         string
		translation string
	}{
		{tag: "required", translation: "{0} is a required field"},
		{tag: "len", translation: "{0} must be {1} in length"},
	}
	for _, t := range translations {
		if err = trans.Add(t.tag, t.translation); err != nil {
			return
		}
	}
	return
}

func registrationFunc(tag string, translation string) RegisterFunc {
	return func(ut Translator) error {
		return ut.Add(tag, translation)
	}
}
'''


def test_an_edited_go_header_keeps_the_blank_line_the_file_writes_under_it() -> None:
    """The file writes a blank line under `func ... {`; the snippet edits the header and drops
    it (a slip): the blank line is the header's, not one that set off removed code."""
    snippet = '''\
// ... existing code ...
// RegisterDefaultTranslations registers the default translations.
func RegisterDefaultTranslations(v *Validate, trans Translator) (err *Error) {
	translations := []struct {
// ... existing code ...
'''
    expected = TRANSLATIONS.replace("(err error) {\n\n\ttranslations", "(err *Error) {\n\n\ttranslations")
    assert apply(TRANSLATIONS, snippet, filename="en.go").merged_code == expected


def test_one_long_function_sent_alone_is_no_whole_file() -> None:
    """A snippet without markers that is one function (with a constant added above it) and
    shares almost every line with the file, but leaves out the package clause, the imports and the
    function after it: it is a part of the file, which keeps its head and tail."""
    body = TRANSLATIONS[TRANSLATIONS.index("// RegisterDefault"): TRANSLATIONS.index("func registrationFunc")]
    rules = "".join(f'\t\t{{tag: "rule{n}", translation: "{{0}} fails rule {n}"}},\n' for n in range(300))
    body = body.replace('\t\t{tag: "len"', rules + '\t\t{tag: "len"')
    original = TRANSLATIONS.replace(TRANSLATIONS[TRANSLATIONS.index("// RegisterDefault"):
                                                 TRANSLATIONS.index("func registrationFunc")], body)
    snippet = "const DefaultBase = 64\n\n" + body.split("\n", 1)[1].rstrip("\n") + "\n"
    expected = original.replace("// RegisterDefaultTranslations registers the default translations.\n",
                                "// RegisterDefaultTranslations registers the default translations.\n"
                                "const DefaultBase = 64\n\n")
    assert apply(original, snippet, filename="en.go").merged_code == expected


PAINT = '''\
_cursor_moved()
{
  [[ $WIDGET == zle-line-finish ]] || _moved
  
  return 0
}

# Cursor highlighting function.
_cursor_paint()
{
  [[ $WIDGET == zle-line-finish ]] && return
  
  _add_highlight $CURSOR $(( $CURSOR + 1 )) cursor
}
'''


def test_whitespace_only_lines_of_the_file_stay_as_they_are() -> None:
    """A file whose blank lines hold two spaces: the untouched function keeps them, and so does
    the edited one where the snippet writes them (or writes an empty line instead)."""
    for blank in ("  ", ""):
        snippet = f'''\
# ...
# Cursor highlighting function.
_cursor_paint_impl()
{{
  [[ $WIDGET == zle-line-finish ]] && return
{blank}
  _add_highlight $CURSOR $(( $CURSOR + 1 )) cursor
}}
'''
        expected = PAINT.replace("_cursor_paint()", "_cursor_paint_impl()")
        assert apply(PAINT, snippet, filename="cursor.zsh").merged_code == expected
