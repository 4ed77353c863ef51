"""Issue 8, thirteenth round: real release edits of the twelfth round's kept-aside batch, read case
by case from this round on as tune-24."""

from __future__ import annotations

from fastapply import apply
from fastapply.merge.lines import header_key
from fastapply.merge.shapes import pep8_gap

ANALYSIS = '''from pythran.analyses.argument_effects import ArgumentEffects
from pythran.analyses.global_effects import GlobalEffects
from pythran.passmanager import ModuleAnalysis


class PureFunctions(ModuleAnalysis):
    """Yields the set of pure functions"""

    def __init__(self):
        self.result = set()
        super(PureFunctions, self).__init__(ArgumentEffects, GlobalEffects)


    def prepare(self, node):
        super(PureFunctions, self).prepare(node)
        self.result = {func for func, ae in self.argument_effects.items()
                       if -1 not in ae}

    def visit_FunctionDef(self, node):
        if not self.global_effects[node]:
            self.result.add(node)
'''

ANALYSIS_EDIT = '''# ... existing code ...
from pythran.passmanager import ModuleAnalysis


class PureFunctions(ModuleAnalysis[ArgumentEffects, GlobalEffects]):
    """Yields the set of pure functions"""

    ResultType = set

    def prepare(self, node):
        super(PureFunctions, self).prepare(node)
# ... existing code ...
'''


def test_fewer_blank_lines_but_some_are_what_the_edit_meant() -> None:
    """A method replaced by a class attribute, the two blank lines the file had above the next
    method written as one: one stays. Models double a blank line or leave a lone one out; one of
    two dropped is the edit (pythran's pure_functions.py)."""
    merged = apply(ANALYSIS, ANALYSIS_EDIT, filename="pure_functions.py").merged_code
    assert "    ResultType = set\n\n    def prepare(self, node):\n" in merged
    assert "__init__" not in merged


def test_a_doubled_blank_line_is_still_mended() -> None:
    """The slip the rule above leaves alone: where the file had one blank line above the next
    method, a snippet that writes two after its new statement gets one."""
    edit = ANALYSIS_EDIT.replace("    ResultType = set\n\n", "    ResultType = set\n\n\n")
    source = ANALYSIS.replace("\n\n\n    def prepare", "\n\n    def prepare")
    merged = apply(source, edit, filename="pure_functions.py").merged_code
    assert "    ResultType = set\n\n    def prepare(self, node):\n" in merged


SETS = """lunr.Set = function (elements) {
  this.elements = Object.create(null)
}

/**
 * A complete set that contains all elements.
 */
lunr.Set.complete = {
  intersect: function (other) {
    return other
  },

  union: function (other) {
    return other
  },

  contains: function () {
    return true
  }
}

/**
 * An empty set that contains no elements.
 */
lunr.Set.empty = {
  intersect: function () {
    return this
  },

  union: function (other) {
    return other
  },

  contains: function () {
    return false
  }
}
"""

SETS_EDIT = """    // ... existing code ...
    return other
  },

  union: function () {
    return this
  },

  contains: function () {
    return true
  }
}

/**
 * An empty set that contains no elements.
 // ... existing code ...
"""


def test_object_literal_methods_are_named_by_their_keys() -> None:
    """`union: function () {` defines `union`, not `function`: the edited method of the first
    object is matched by its key, its old body replaced, not kept above a second `union`
    (lunr's set.js)."""
    assert header_key("union: function (other) {") == "union"
    assert header_key('"union": async function () {') == "union"
    assert header_key("onClick: async (event) => {") == "onClick"  # (was 'async')
    assert header_key("parse: text => {") == "parse"
    assert header_key("x ? y : (z) => {") is None
    expected = SETS.replace("  union: function (other) {\n    return other\n  },\n\n  contains: function () {\n"
                            "    return true", "  union: function () {\n    return this\n  },\n\n"
                            "  contains: function () {\n    return true", 1)
    assert apply(SETS, SETS_EDIT, filename="set.js").merged_code == expected


PROPS = '''class NonVisualDrawingProps(Serialisable):
    tagname: ClassVar[str]
    id: Incomplete
    name: String[Literal[False]]
    descr: String[Literal[True]]
    hidden: Bool[Literal[True]]
    title: String[Literal[True]]
    __elements__: ClassVar[list[str]]
    @overload
    def __init__(
        self,
        id: Incomplete | None = None,
        *,
        name: str,
        descr: str | None = None,
        hidden: _ConvertibleToBool | None = None,
        title: str | None = None,
        extLst: ExtensionList | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self,
        id: Incomplete | None,
        name: str,
        descr: str | None = None,
        hidden: _ConvertibleToBool | None = None,
        title: str | None = None,
        extLst: ExtensionList | None = None,
    ) -> None: ...

class NonVisualGroupShape(Serialisable):
    tagname: ClassVar[str]
'''

PROPS_EDIT = '''class NonVisualDrawingProps(Serialisable):
    tagname: ClassVar[str]
    id: Incomplete
    # ... existing code ...
    __elements__: ClassVar[list[str]]
    @overload
    def __init__(
        self,
        id=None,
        *,
        name: str,
        descr: str | None = None,
        hidden: _ConvertibleToBool | None = None,
    # ... existing code ...
'''


def test_an_edited_parameter_before_repeated_ones_is_an_edit() -> None:
    """One parameter edited, the next ones shown as they are though the second overload repeats
    them, then a marker less indented than the list: the edited line replaces its original and
    the rest of the list stays (openpyxl's stub in pyright's typeshed lost four parameters)."""
    expected = PROPS.replace("        id: Incomplete | None = None,\n        *,", "        id=None,\n        *,")
    assert apply(PROPS, PROPS_EDIT, filename="properties.pyi").merged_code == expected


HANDLERS = '''class Handler:
    def list(self, request):
        items = self.store.list()
        return json_response(items)

    def create(self, request):
        user = self.user_of(request)
        if user is None:
            return error(401, "login required")
        item = self.store.create(user, request.json())
        return json_response(item, status=201)
'''

HANDLERS_EDIT = '''# ... existing code ...
        return json_response(items)

    def get(self, request):
        user = self.user_of(request)
        if user is None:
            return error(401, "login required")
        return json_response(self.store.get(user, request.args["id"]))

# ... existing code ...
'''


def test_a_new_function_above_one_that_starts_alike_is_inserted() -> None:
    """The substitution above is never read into definition headers: `get`, whose first lines are
    `create`'s, is a new function above it, not an edit of it (the corpus's go/get-endpoint-multi
    lost `create` to a first version of that rule)."""
    merged = apply(HANDLERS, HANDLERS_EDIT, filename="handlers.py").merged_code
    assert "    def get(self, request):" in merged and "    def create(self, request):" in merged
    assert merged.count('return error(401, "login required")') == 2


ZSH = """# Define default styles.
: ${ZSH_HIGHLIGHT_STYLES[cursor]:=standout}

# Whether the cursor highlighter should be called or not.
_zsh_highlight_highlighter_cursor_predicate()
{
  [[ $WIDGET == zle-line-finish ]] || _zsh_highlight_cursor_moved
}

# Cursor highlighting function.
_zsh_highlight_highlighter_cursor_paint()
{
  [[ $WIDGET == zle-line-finish ]] && return
  _zsh_highlight_add_highlight $CURSOR $(( $CURSOR + 1 )) cursor
}
"""
ZSH_EDIT = """# ... existing code ...
_zsh_highlight_highlighter_cursor_paint()
{
  [[ $WIDGET == zle-line-finish ]] && return
  _zsh_highlight_add_highlight $CURSOR $(( $CURSOR + 1 )) cursor
}


fallback_value() {
  local value="${1:-}"
  echo "${value:-default}"
}
"""


def test_a_doubled_blank_line_before_a_new_function_after_allman_ones() -> None:
    """Functions with their `{` on the line under the header, one blank line between them: a new
    one written after the last with two gets one (the header above the brace is what the spacing
    is measured from: zsh-syntax-highlighting's cursor highlighter)."""
    merged = apply(ZSH, ZSH_EDIT, filename="cursor-highlighter.zsh").merged_code
    assert "}\n\nfallback_value() {" in merged


RUBY = """module Formatters
  class Terminal256
    def initialize(theme)
      @theme = theme
    end

    def format(tokens)
      tokens.each { |t| yield t }
    end

    def escape(text)
      text.gsub("\\e", "")
    end
  end
end
"""
RUBY_EDIT = """# ... existing code ...
    def escape(text)
      text.gsub("\\e", "")
    end


    def coalesce_value(value, fallback = nil)
      value.nil? ? fallback : value
    end
  end
end
"""


def test_ruby_methods_are_not_spaced_by_pep8() -> None:
    """Two blank lines before a Python definition are PEP 8's choice, never a slip; a Ruby `def`
    is no Python one (rouge's terminal256.rb kept a doubled blank line above a new method)."""
    assert pep8_gap("def f(x) -> None: ...") and pep8_gap("class A(B):  # noqa") and pep8_gap("def f(")
    assert not pep8_gap("def coalesce_value(value, fallback = nil)") and not pep8_gap("class Foo < Bar")
    merged = apply(RUBY, RUBY_EDIT, filename="terminal256.rb").merged_code
    assert "    end\n\n    def coalesce_value" in merged


LUA = """local colors = {
  red = 31,
  green = 32,
}

local escapeString = string.char(27) .. '[%dm'
local function escapeNumber(number)
  return escapeString:format(number)
end

local function escapeKeys(str)
  local buffer = {}
  for word in str:gmatch("%w+") do
    table.insert(buffer, escapeNumber(colors[word]))
  end
  return table.concat(buffer)
end

local function ansicolors(str)
  str = tostring(str or '')

  return escapeKeys(str) .. str
end


return ansicolors
"""
LUA_EDIT = """-- ... rest of the code ...
local escapeString = string.char(27) .. '[%dm'
local function escapeKeys(str)
  local buffer = {}
  -- ... rest of the code ...
  str = tostring(str or '')

  return escapeKeys(str) .. str
end


local function escapeNumber(number)
  return escapeString:format(number)
end


return ansicolors
"""


def test_a_moved_function_written_with_a_doubled_blank_line_gets_its_own() -> None:
    """A function moved below another, written with two blank lines above it where it had one
    after it and none above: one (ansicolors' escapeNumber; a moved definition that brings two
    blank lines it had above it keeps them, as penlight's check_cnfg does)."""
    merged = apply(LUA, LUA_EDIT, filename="ansicolors.lua").merged_code
    assert ".. str\nend\n\nlocal function escapeNumber(number)\n" in merged
    assert merged.count("local function escapeNumber") == 1


GO = '''package report

func quote(s string) string {
	if strings.HasPrefix(s, `"""`) {
		return s + `"""`
	}
	return `"""` + s
}

// formatString prints s.
func formatString(s string) string {
	return s
}

// formatHex prints v in hex.
func formatHex(v uint64) string {
	return fmt.Sprintf("%x", v)
}
'''
GO_EDIT = '''// ... existing code ...
	return `"""` + s
}

func wrap(s string) string {
	return "(" + s + ")"
}


// formatString prints s.
// ... existing code ...
'''


def test_three_quotes_inside_a_go_raw_string_open_no_docstring() -> None:
    """Three double quotes written between backticks are a Go string's text, not the start of a
    Python docstring: the lines after them are code, and a doubled blank line after a new function
    there is mended (go-cmp's report_reflect.go)."""
    merged = apply(GO, GO_EDIT, filename="report.go").merged_code
    assert '+ s + ")"\n}\n\n// formatString prints s.\n' in merged


MAP = """impl<'a> IntoIterator for &'a Map {
    type Item = (&'a String, &'a Value);
    type IntoIter = Iter<'a>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        Iter {
            iter: self.map.iter(),
        }
    }
}

/// An iterator over a serde_json::Map's entries.
pub struct Iter<'a> {
    iter: IterImpl<'a>,
}

impl<'a> IntoIterator for &'a mut Map {
    type Item = (&'a String, &'a mut Value);
    type IntoIter = IterMut<'a>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        IterMut {
            iter: self.map.iter_mut(),
        }
    }
}

/// A mutable iterator over a serde_json::Map's entries.
pub struct IterMut<'a> {
    iter: IterMutImpl<'a>,
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = IntoIter;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        IntoIter {
            iter: self.map.into_iter(),
        }
    }
}
"""
MAP_EDIT = """    // ... existing code ...
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        log::debug!("into_iter is not supported here");
        todo!()
    }
}

/// A mutable iterator over a serde_json::Map's entries.
// ... existing code ...
"""


def test_a_rewritten_body_under_a_header_the_file_repeats() -> None:
    """`fn into_iter` is in three impls; the snippet rewrites the second one's body, shown with its
    `#[inline]` above and the distinctive line after the impl: the header and `#[inline]` pair with
    that impl's (its closing lines are paired), the old body goes, nothing is defined twice
    (serde_json's map.rs had been refused as a second `into_iter`)."""
    expected = MAP.replace("        IterMut {\n            iter: self.map.iter_mut(),\n        }\n",
                           '        log::debug!("into_iter is not supported here");\n        todo!()\n')
    assert apply(MAP, MAP_EDIT, filename="map.rs").merged_code == expected
