"""Blank lines around a new definition in a file whose own spacing is not uniform (too few
definitions to tell, or a mix): the new sibling gets the spacing its neighbours have when the
snippet is one blank line off it (a doubled or dropped blank line), and the blank lines after a new
block inserted between two siblings stay the file's."""

from __future__ import annotations

from fastapply import apply

# one blank line between most functions, two before `path.join`: no spacing the whole file keeps
LUA = """\
local path = {}

local function at(s, i)
    return s:sub(i, i)
end

function path.isdir(p)
    return at(p, 1) == '/'
end


function path.join(a, b)
    return a .. '/' .. b
end

function path.base(p)
    return p
end

return path
"""

LUA_NEW = """\
local function fallback_value(value, fallback)
    if value == nil then
        return fallback
    end
    return value
end
"""


def test_doubled_blank_line_before_a_new_function_takes_the_neighbours_spacing() -> None:
    update = f"""\
-- ... existing code ...
function path.isdir(p)
    return at(p, 1) == '/'
end
-- ... existing code ...
function path.base(p)
    return p
end


{LUA_NEW}
return path
"""
    expected = LUA.replace("    return p\nend\n\n", f"    return p\nend\n\n{LUA_NEW}\n")
    assert apply(LUA, update, filename="path.lua").merged_code == expected


def test_a_blank_line_two_off_the_neighbours_is_the_snippets_choice() -> None:
    # three blank lines where the neighbours have one is no slip: the snippet means more than
    # one, as many as the file ever writes (two, before `path.join`)
    update = f"""\
-- ... existing code ...
function path.base(p)
    return p
end



{LUA_NEW}
return path
"""
    expected = LUA.replace("    return p\nend\n\n", f"    return p\nend\n\n\n{LUA_NEW}\n")
    assert apply(LUA, update, filename="path.lua").merged_code == expected


PY_CLASS = '''\
class Tag:
    """A tag."""

    def __init__(self, value):
        self.value = value

    def cvt(self, value):
        return value


def lookup(tag):
    return Tag(tag)
'''


def test_missing_blank_line_before_a_new_method_at_the_end_of_a_small_class() -> None:
    update = '''\
# ...
    def cvt(self, value):
        return value
    def fallback(self, value, default=None):
        return default if value is None else value


def lookup(tag):
# ...
'''
    expected = PY_CLASS.replace(
        "        return value\n",
        "        return value\n\n    def fallback(self, value, default=None):\n"
        "        return default if value is None else value\n")
    assert apply(PY_CLASS, update, filename="tags.py").merged_code == expected


PY_MODULE = '''\
import codecs


class Codec(codecs.Codec):
    def encode(self, text):
        return text


def getregentry():
    return codecs.CodecInfo(
        name='cp869',
    )

### Decoding Map

decoding_map = {}
'''


def test_new_python_function_inserted_into_a_blank_run_keeps_the_run_after_it() -> None:
    # the model wrote the run before the new function and none after it: the file's run follows it
    update = '''\
# ... rest of the code ...
        name='cp869',
    )

def value_or_default(value, default=None):
    return default if value is None else value
### Decoding Map
# ... rest of the code ...
'''
    expected = PY_MODULE.replace(
        "    )\n\n",
        "    )\n\ndef value_or_default(value, default=None):\n    return default if value is None else value\n\n")
    assert apply(PY_MODULE, update, filename="cp869.py").merged_code == expected


RUBY = """\
module Thor
  class Basic
    def say(message)
      puts message
    end

    def set_color(string)
      string
    end

  protected

    def padding
      2
    end
  end
end
"""


def test_new_method_closed_right_before_the_end_of_its_section_keeps_the_blank_line() -> None:
    update = """\
# ... existing code ...
    def set_color(string)
      string
    end

    def coalesce(value, fallback = nil)
      return fallback if value.nil?

      value
    end
  protected
# ... existing code ...
"""
    expected = RUBY.replace(
        "      string\n    end\n\n",
        "      string\n    end\n\n    def coalesce(value, fallback = nil)\n      return fallback if value.nil?\n\n"
        "      value\n    end\n\n")
    assert apply(RUBY, update, filename="basic.rb").merged_code == expected


RUBY_SECTIONS = """\
module Rack
  class Request
    def valid?
      !@env.nil?
    end

    def parts
      @parts ||= @env.split(' ', 2)
    end

    def scheme
      @scheme ||= parts.first
    end

    def basic?
      scheme == 'basic'
    end

    def digest?
      scheme == 'digest'
    end

    def params
      @params ||= parts.last
    end


    private

    def key
      'HTTP_AUTHORIZATION'
    end
  end
end
"""


def test_snippet_and_neighbours_agreeing_win_over_the_files_usual_spacing() -> None:
    # one blank line between methods is the file's habit, but `params` is followed by two; the
    # snippet writes two before its new method there too: the two agree
    update = """\
# ... rest of the code ...
    def params
      @params ||= parts.last
    end


    def coalesce(value, fallback = nil)
      value.nil? ? fallback : value
    end


    private
# ... rest of the code ...
"""
    expected = RUBY_SECTIONS.replace(
        "      @params ||= parts.last\n    end\n\n\n",
        "      @params ||= parts.last\n    end\n\n\n    def coalesce(value, fallback = nil)\n"
        "      value.nil? ? fallback : value\n    end\n\n\n")
    assert apply(RUBY_SECTIONS, update, filename="request.rb").merged_code == expected


PACKED_LUA = """\
local M = {}
local function match_string(s, pos)
  return s, pos
end
M.match_string = match_string


local function match_bracketed(s, pos)
  return s, pos
end
M.match_bracketed = match_bracketed


local function gsub(s, f)
  return s
end
M.gsub = gsub


return M
"""


def test_doubled_blank_line_next_to_packed_siblings_is_one() -> None:
    # `end` and the export line after it are packed: a new function there is set apart by one
    update = """\
-- ... unchanged ...
local function gsub(s, f)
  return s
end


local function coalesce_value(value, fallback)
  if value == nil then
    return fallback
  end
  return value
end
M.gsub = gsub
-- ... unchanged ...
"""
    expected = PACKED_LUA.replace(
        "  return s\nend\nM.gsub",
        "  return s\nend\n\nlocal function coalesce_value(value, fallback)\n  if value == nil then\n"
        "    return fallback\n  end\n  return value\nend\nM.gsub")
    assert apply(PACKED_LUA, update, filename="balanced.lua").merged_code == expected


CPP_TEMPLATES = """\
template <typename EventType>
std::vector<int> FlightRecorder<EventType>::entries() {
  std::vector<int> out;
  return out;
}

template <typename EventType>
int FlightRecorder<EventType>::size() {
  return 0;
}

template <typename EventType>
void FlightRecorder<EventType>::reset() {
  size_ = 0;
}

template <typename EventType>
void FlightRecorder<EventType>::record() {
  size_ += 1;
}

template <typename EventType>
bool FlightRecorder<EventType>::enabled() {
  return true;
}

template <typename EventType>
bool FlightRecorder<EventType>::empty() {
  return size_ == 0;
}

template <typename EventType>
int FlightRecorder<EventType>::capacity() {
  return 64;
}
"""


def test_template_lines_are_part_of_the_header_when_measuring_spacing() -> None:
    # every definition opens with a `template` line right above its name: the file separates them
    # by one blank line, not by none
    update = """\
// ... existing code ...
  std::vector<int> out;
  return out;
}

static int valueOrDefault(int value, int low, int high) {
  return value < low ? low : value > high ? high : value;
}
template <typename EventType>
int FlightRecorder<EventType>::size() {
// ... existing code ...
"""
    expected = CPP_TEMPLATES.replace(
        "  return out;\n}\n\n",
        "  return out;\n}\n\nstatic int valueOrDefault(int value, int low, int high) {\n"
        "  return value < low ? low : value > high ? high : value;\n}\n\n")
    assert apply(CPP_TEMPLATES, update, filename="recorder.hpp").merged_code == expected


PY_WIDE = '''\
class BuildScripts:
    def initialize_options(self):
        self.scripts = None


    def run(self):
        if not self.scripts:
            return
        self.copy_scripts()


    def copy_scripts(self):
        return []
'''


def test_one_blank_line_between_python_methods_is_pep8_not_a_slip() -> None:
    # the file writes two blank lines between its methods; the snippet's one is PEP 8's, kept
    update = '''\
# ... existing code ...
        self.copy_scripts()

    def describe(self):
        return "build_scripts"


    def copy_scripts(self):
# ... existing code ...
'''
    expected = PY_WIDE.replace(
        "        self.copy_scripts()\n",
        "        self.copy_scripts()\n\n    def describe(self):\n        return \"build_scripts\"\n")
    assert apply(PY_WIDE, update, filename="build_scripts.py").merged_code == expected


PHP = """\
<?php

final class InvoiceRepository
{
    public function forCustomer(int $customerId, int $page = 1): array
    {
        $sql = "SELECT * FROM invoices WHERE customer_id = :customer
                ORDER BY issued_at DESC";
        $rows = $this->fetchAll($sql, [
            'customer' => $customerId,
        ]);

        return $rows;
    }
}
"""


def test_a_new_statement_after_a_continuation_line_is_no_new_definition() -> None:
    # `$params = [` opens a block after a deeper line, but that line ends no sibling: no blank line
    update = """\
// ... existing code ...
        $sql = "SELECT * FROM invoices WHERE customer_id = :customer
                ORDER BY issued_at DESC";
        $params = [
            'customer' => $customerId,
        ];
        $rows = $this->fetchAll($sql, $params);

        return $rows;
// ... existing code ...
"""
    expected = PHP.replace(
        "        $rows = $this->fetchAll($sql, [\n            'customer' => $customerId,\n        ]);\n",
        "        $params = [\n            'customer' => $customerId,\n        ];\n"
        "        $rows = $this->fetchAll($sql, $params);\n")
    assert apply(PHP, update, filename="InvoiceRepository.php").merged_code == expected


# lua-http's style: some functions packed right under the one before, some set apart
PACKED_HTTP = """\
local hpack = {}

local function encode_integer(i, prefix, first_byte)
	return i
end
local function decode_integer(str, prefix, pos)
	return str, pos
end

local function encode_string(s, huffman)
	return s
end
local function decode_string(str, pos)
	return str, pos
end

local function compound_key(name, value)
	return name .. value
end
local function uncompound_key(key)
	return key
end

return hpack
"""


def test_a_new_function_packed_under_packed_siblings_stays_packed() -> None:
    update = """\
-- ... existing code ...
local function encode_string(s, huffman)
	return s
end
local function log_encode_string_step(message)
	print(message)
end
local function decode_string(str, pos)
-- ... existing code ...
"""
    expected = PACKED_HTTP.replace(
        "\treturn s\nend\n",
        "\treturn s\nend\nlocal function log_encode_string_step(message)\n\tprint(message)\nend\n")
    assert apply(PACKED_HTTP, update, filename="hpack.lua").merged_code == expected


def test_a_moved_function_packed_where_it_was_stays_packed() -> None:
    # `encode_integer` moves down under `compound_key`; where it was, its sibling followed it
    # with no blank line between, and the snippet writes it packed here too
    update = """\
local hpack = {}

local function decode_integer(str, prefix, pos)
	return str, pos
end
-- ... existing code ...
local function compound_key(name, value)
	return name .. value
end
local function encode_integer(i, prefix, first_byte)
	return i
end
local function uncompound_key(key)
-- ... existing code ...
"""
    moved = "local function encode_integer(i, prefix, first_byte)\n\treturn i\nend\n"
    expected = PACKED_HTTP.replace(moved, "").replace(
        "\treturn name .. value\nend\n", "\treturn name .. value\nend\n" + moved)
    assert apply(PACKED_HTTP, update, filename="hpack.lua").merged_code == expected


SPACED = """\
local M = {}

function M.a()
    return 1
end

function M.b()
    return 2
end

function M.c()
    return 3
end

function M.d()
    return 4
end


function M.e()
    return 5
end

function M.f()
    return 6
end

function M.g()
    return 7
end

function M.h()
    return 8
end

function M.i()
    return 9
end

function M.j()
    return 10
end

function M.k()
    return 11
end

function M.l()
    return 12
end

return M
"""


def test_a_moved_function_brings_the_blank_lines_it_had_where_it_was() -> None:
    # the file sets functions apart by one blank line, but `M.d` was followed by two; moved up
    # under `M.a` with the two blank lines the snippet writes before it, it keeps them
    update = """\
-- ... existing code ...
function M.a()
    return 1
end


function M.d()
    return 4
end

function M.b()
-- ... existing code ...
function M.c()
    return 3
end

function M.e()
-- ... existing code ...
"""
    moved = "function M.d()\n    return 4\nend\n\n\n"
    expected = SPACED.replace(moved, "").replace(
        "    return 1\nend\n\n", "    return 1\nend\n\n\nfunction M.d()\n    return 4\nend\n\n")
    assert apply(SPACED, update, filename="m.lua").merged_code == expected


LUA_UTIL = """\
local util = {}

do
	local blacklist = {}
	for char in ("#$&+,/:;=?@"):gmatch(".") do
		blacklist[string.byte(char)] = true
	end
end

return util
"""


def test_a_function_right_after_a_loop_block_is_no_dropped_blank_line() -> None:
    # the `end` before the new function closes a `for` loop, not a sibling definition
    update = """\
-- ... existing code ...
	for char in ("#$&+,/:;=?@"):gmatch(".") do
		blacklist[string.byte(char)] = true
	end
	function util.is_blacklisted(byte)
		return blacklist[byte] == true
	end
end
-- ... existing code ...
"""
    expected = LUA_UTIL.replace(
        "\t\tblacklist[string.byte(char)] = true\n\tend\n",
        "\t\tblacklist[string.byte(char)] = true\n\tend\n\tfunction util.is_blacklisted(byte)\n"
        "\t\treturn blacklist[byte] == true\n\tend\n")
    assert apply(LUA_UTIL, update, filename="util.lua").merged_code == expected


# babel's output (zustand): no blank line between top-level definitions anywhere
PACKED_JS = """\
'use strict';
var identity = function identity(arg) {
  return arg;
};
function useStore(api, selector) {
  var slice = api.subscribe(selector);
  return slice;
}
var createImpl = function createImpl(createState) {
  var api = createState();
  return api;
};
var create = function create(createState) {
  return createImpl(createState);
};
function shallow(a, b) {
  return a === b;
}
function useShallow(selector) {
  return selector;
}
function devtools(fn) {
  return fn;
}

exports.create = create;
"""


def test_a_new_function_set_apart_by_one_blank_line_between_packed_siblings_keeps_it() -> None:
    # the snippet writes one blank line above the new function and none below: what it writes
    # there is its choice, not a slip (a doubled one, two, would be)
    update = """\
// ... existing code ...
  return slice;
}

function fallbackValue(value, fallback) {
  return value == null ? fallback : value;
}
var createImpl = function createImpl(createState) {
// ... existing code ...
"""
    expected = PACKED_JS.replace(
        "  return slice;\n}\n",
        "  return slice;\n}\n\nfunction fallbackValue(value, fallback) {\n  return value == null ? fallback : value;\n}\n")
    assert apply(PACKED_JS, update, filename="index.js").merged_code == expected


COMPLETION = """\
# Bash command completion for uupdate.

_uupdate()
{
    local cur prev

    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}

    return 0

}
complete -F _uupdate -o filenames uupdate


# Local variables:
# mode: shell-script
"""


def test_a_rewritten_body_drops_the_blank_line_the_old_one_had_above_its_closing_line() -> None:
    update = """\
# ... existing code ...
_uupdate()
{
    echo "_uupdate is not supported here" >&2
    return 1
}
complete -F _uupdate -o filenames uupdate
# ... existing code ...
"""
    start, end = COMPLETION.index("    local cur"), COMPLETION.index("}\ncomplete")
    expected = COMPLETION[:start] + '    echo "_uupdate is not supported here" >&2\n    return 1\n' + COMPLETION[end:]
    assert apply(COMPLETION, update, filename="uupdate.bash").merged_code == expected


STREAM_PHP = """\
<?php
class Stream
{
    public function getSize(): ?int
    {
        if ($this->size !== null) {
            return $this->size;
        }

        return null;
    }

    public function isReadable(): bool
    {
        return $this->readable;
    }
}
"""


def test_a_statement_in_place_of_a_block_keeps_the_snippets_spacing_above_the_next_line() -> None:
    # guzzle: the `if` block above `return null;` is replaced by one call written right above it;
    # the blank line set off the block, which is gone
    update = """\
// ... existing code ...
    public function getSize(): ?int
    {
        error_log('getSize is not supported here');
        return null;
    }
// ... existing code ...
"""
    start, end = STREAM_PHP.index("        if ($this->size"), STREAM_PHP.index("        return null;")
    expected = STREAM_PHP[:start] + "        error_log('getSize is not supported here');\n" + STREAM_PHP[end:]
    assert apply(STREAM_PHP, update, filename="Stream.php").merged_code == expected



def test_a_multi_line_rust_attribute_closes_a_preamble() -> None:
    # memchr: `#[cfg(any(` ... `))]` then `#[inline(always)]` above one function: the blank-line
    # rules read the attribute's last line as part of the function below, not as a sibling's end
    from fastapply.merge.shapes import SNIP, closes_preamble

    lines = ["    #[cfg(any(", '        feature = "std",', "    ))]", "    #[inline(always)]"]
    out = [(line, SNIP, -1, index) for index, line in enumerate(lines)]
    assert closes_preamble(out, 2, 4)
    lines[0] = "    call(any("
    assert not closes_preamble([(line, SNIP, -1, index) for index, line in enumerate(lines)], 2, 4)
