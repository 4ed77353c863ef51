"""Blank lines where a snippet's edit meets the file: models double or drop the blank line where
their edit ends and the file resumes; the merged file keeps the file's own blank lines there.
(Failures of this kind are 'wrong, whitespace only' merges: silently wrong all the same.)"""

from __future__ import annotations

import pytest

import fastapply
from fastapply import apply

JS_ROUTE = """\
'use strict';

var debug = require('debug')('express:router:route');

Route.prototype._handles_method = function _handles_method(method) {
  if (this.methods._all) {
    return true;
  }

  var name = typeof method === 'string'
    ? method.toLowerCase()
    : method;

  if (name === 'head' && !this.methods['head']) {
    name = 'get';
  }

  return Boolean(this.methods[name]);
};

Route.prototype.dispatch = function dispatch(req, res, done) {
  var idx = 0;
  var stack = this.stack;
  if (stack.length === 0) {
    return done();
  }
  req.route = this;
  next();
};
"""


def _merged(original: str, update: str) -> str:
    return apply(original, update, filename="route.js").merged_code


def test_dropped_blank_line_after_an_edited_line_is_kept() -> None:
    # the edit rewrote the statement above the blank line; the model wrote no blank line after it
    update = """\
// ... existing code ...
Route.prototype._handles_method = function _handles_method(method) {
  if (this.methods._all) {
    return true;
  }

  var name = String(method || '').toLowerCase();
  if (name === 'head' && !this.methods['head']) {
// ... existing code ...
"""
    expected = JS_ROUTE.replace("typeof method === 'string'\n    ? method.toLowerCase()\n    : method;",
                                "String(method || '').toLowerCase();")
    assert _merged(JS_ROUTE, update) == expected


def test_doubled_blank_line_after_an_edited_line_is_single() -> None:
    update = """\
// ... existing code ...
  if (this.methods._all) {
    return false;
  }


  var name = typeof method === 'string'
// ... existing code ...
"""
    expected = JS_ROUTE.replace("    return true;\n", "    return false;\n")
    assert _merged(JS_ROUTE, update) == expected


def test_doubled_blank_line_after_an_inserted_function_is_single() -> None:
    update = """\
// ... existing code ...
  return Boolean(this.methods[name]);
};

function methodName(method) {
  return typeof method === 'string' ? method.toLowerCase() : method;
}


Route.prototype.dispatch = function dispatch(req, res, done) {
// ... existing code ...
"""
    anchor = "Route.prototype.dispatch"
    helper = ("function methodName(method) {\n"
              "  return typeof method === 'string' ? method.toLowerCase() : method;\n}\n\n")
    expected = JS_ROUTE.replace(anchor, helper + anchor)
    assert _merged(JS_ROUTE, update) == expected


def test_blank_line_the_model_adds_inside_new_code_stays() -> None:
    # a blank line between two new statements is the snippet's own: never touched
    update = """\
// ... existing code ...
  var idx = 0;
  var stack = this.stack;

  debug('dispatching %s %s', req.method, req.url);
  if (stack.length === 0) {
// ... existing code ...
"""
    expected = JS_ROUTE.replace(
        "  var stack = this.stack;\n",
        "  var stack = this.stack;\n\n  debug('dispatching %s %s', req.method, req.url);\n")
    assert _merged(JS_ROUTE, update) == expected


PHP_HANDLER = """\
<?php

namespace Monolog\\Handler;

class PushoverHandler extends SocketHandler
{
    private $highPriorityLevel;
    private $emergencyLevel;

    /**
     * @param int|string $value
     */
    public function setHighPriorityLevel($value): self
    {
        $this->highPriorityLevel = Logger::toMonologLevel($value);

        return $this;
    }

    /**
     * @param int|string $value
     */
    public function setEmergencyLevel($value): self
    {
        $this->emergencyLevel = Logger::toMonologLevel($value);

        return $this;
    }

    /**
     * Use the formatted message?
     */
    public function useFormattedMessage(bool $value): self
    {
        $this->useFormattedMessage = $value;

        return $this;
    }

    /**
     * @return string
     */
    public function getDefaultFormatter(): string
    {
        return 'json';
    }
}
"""


def test_missing_blank_line_before_an_inserted_allman_method_is_restored() -> None:
    # the file puts one blank line before each method (its doc block one column deeper)
    update = """\
// ... existing code ...
    public function setHighPriorityLevel($value): self
    {
        $this->highPriorityLevel = Logger::toMonologLevel($value);

        return $this;
    }
    private function valueOrDefault($value, $fallback = null)
    {
        return $value ?? $fallback;
    }

    /**
     * @param int|string $value
     */
    public function setEmergencyLevel($value): self
// ... existing code ...
"""
    method = ("    private function valueOrDefault($value, $fallback = null)\n    {\n"
              "        return $value ?? $fallback;\n    }\n\n")
    at = PHP_HANDLER.index("    /**\n     * @param int|string $value\n     */\n    public function setEmergencyLevel")
    expected = PHP_HANDLER[:at] + method + PHP_HANDLER[at:]
    assert apply(PHP_HANDLER, update, filename="PushoverHandler.php").merged_code == expected


PY_GENERATOR = '''\
class Generator:
    """Generates output from a Message object tree."""

    def __init__(self, outfp, mangle_from_=None, maxheaderlen=None):
        self._fp = outfp
        self._mangle_from_ = mangle_from_
        self.maxheaderlen = maxheaderlen

    def write(self, s):
        # Just delegate to the file object
        self._fp.write(s)

    def flatten(self, msg, unixfrom=False, linesep=None):
        """Print the message object tree rooted at msg."""
        if unixfrom:
            self.write(msg.get_unixfrom() + linesep)
        self._write(msg)

    def clone(self, fp):
        """Clone this generator with the exact same options."""
        return self.__class__(fp, self._mangle_from_, None)
'''


def test_missing_blank_line_between_an_inserted_method_and_the_next_one() -> None:
    update = '''\
    # ... existing code ...
        self._fp.write(s)

    def fallback_value(self, value, default=None):
        """Return value, or default when it is missing."""
        return default if value is None else value
    def flatten(self, msg, unixfrom=False, linesep=None):
        """Print the message object tree rooted at msg."""
    # ... existing code ...
'''
    method = ('    def fallback_value(self, value, default=None):\n'
              '        """Return value, or default when it is missing."""\n'
              '        return default if value is None else value\n\n')
    at = PY_GENERATOR.index("    def flatten")
    expected = PY_GENERATOR[:at] + method + PY_GENERATOR[at:]
    assert apply(PY_GENERATOR, update, filename="generator.py").merged_code == expected


PY_PASS_NONE = '''\
import functools


def pass_none(func):
    """
    Wrap func so it's not called if its first param is None.
    """

    @functools.wraps(func)
    def wrapper(param, *args, **kwargs):
        if param is not None:
            return func(param, *args, **kwargs)

    return wrapper
'''


def test_statements_inserted_above_a_nested_definition_add_no_blank_line() -> None:
    # new statements (not a new sibling definition) end right before the decorator: the snippet's
    # spacing stands, no blank line is invented between them
    update = '''\
# ... existing code ...
def pass_none(func, strict=False):
    """
    Wrap func so it's not called if its first param is None.
    """

    if strict and func is None:
        raise ValueError("func is required")
    @functools.wraps(func)
    def wrapper(param, *args, **kwargs):
# ... existing code ...
'''
    expected = PY_PASS_NONE.replace("def pass_none(func):", "def pass_none(func, strict=False):").replace(
        '    """\n\n    @functools', '    """\n\n    if strict and func is None:\n'
        '        raise ValueError("func is required")\n    @functools')
    assert apply(PY_PASS_NONE, update, filename="functools_util.py").merged_code == expected


YAML_DEPRECATED = """\
- name: add(Tensor self, Scalar alpha, Tensor other) -> Tensor
  aten: add(self, other, alpha)

- name: addbmm(Scalar beta, Tensor self, Scalar alpha, Tensor batch1, Tensor batch2) -> Tensor
  aten: addbmm(self, batch1, batch2, beta, alpha)

- name: addcdiv(Tensor self, Scalar value, Tensor tensor1, Tensor tensor2) -> Tensor
  aten: addcdiv(self, tensor1, tensor2, value)
"""


def test_new_key_at_the_end_of_a_record_keeps_the_blank_line_after_the_record() -> None:
    # the model wrote no blank line on either side of the new key: the record's blank line stays
    update = """\
# ... existing code ...
- name: addbmm(Scalar beta, Tensor self, Scalar alpha, Tensor batch1, Tensor batch2) -> Tensor
  aten: addbmm(self, batch1, batch2, beta, alpha)
  log_level: false
- name: addcdiv(Tensor self, Scalar value, Tensor tensor1, Tensor tensor2) -> Tensor
# ... existing code ...
"""
    expected = YAML_DEPRECATED.replace("  aten: addbmm(self, batch1, batch2, beta, alpha)\n",
                                       "  aten: addbmm(self, batch1, batch2, beta, alpha)\n  log_level: false\n")
    assert apply(YAML_DEPRECATED, update, filename="deprecated.yaml").merged_code == expected


BASH_COMPLETION = """\
# bash completion for dnssec-keygen(8)                     -*- shell-script -*-

_dnssec_keygen_optarg()
{
    local args=$("$1" -h 2>&1 |
        command sed -e 's/|/ /g' -e 's/(.*//' -e '/^[[:space:]]*-/d')
    COMPREPLY+=($(compgen -W '$args' -- "$cur"))
}

_dnssec_keygen()
{
    local cur prev words cword
    _init_completion || return
}

complete -F _dnssec_keygen dnssec-keygen
"""


def test_new_function_closed_right_before_the_next_one_gets_the_file_spacing() -> None:
    update = """\
# ... existing code ...
    COMPREPLY+=($(compgen -W '$args' -- "$cur"))
}

fallback_value() {
    local value="${1:-}"
    echo "${value:-default}"
}
_dnssec_keygen()
{
# ... existing code ...
"""
    helper = 'fallback_value() {\n    local value="${1:-}"\n    echo "${value:-default}"\n}\n\n'
    expected = BASH_COMPLETION.replace("_dnssec_keygen()\n", helper + "_dnssec_keygen()\n")
    assert apply(BASH_COMPLETION, update, filename="dnssec-keygen.sh", language="bash").merged_code == expected


def test_a_blank_line_the_snippet_adds_among_unique_context_is_applied() -> None:
    """A real edit between two releases (flask's json/tag.py): a blank line after the module
    docstring, shown with context found once in the file. Only blank lines change, and nothing
    else fits the context: the blank line is the edit (it used to be refused as a no-op)."""
    original = ('"""Tagged JSON."""\nfrom __future__ import annotations\n\nimport typing as t\n'
                "from base64 import b64decode\n\n\ndef f():\n    return 1\n")
    snippet = ('"""Tagged JSON."""\n\nfrom __future__ import annotations\n\nimport typing as t\n'
               "# ... existing code ...\n")
    merged = fastapply.apply(original, snippet, filename="tag.py").merged_code
    assert merged == original.replace('"""\n', '"""\n\n', 1)


def test_blank_lines_only_with_context_that_also_fits_across_a_whole_function_are_refused() -> None:
    """`return helper(x)` ends two functions in a row: the snippet may mean to delete the second
    one (context that fits the first copy), or only to respace. Nothing tells: refused."""
    original = ("def first(x):\n    return helper(x)\n\n\ndef second(x):\n    y = x + 1\n    return helper(x)\n"
                "\n\ndef third(x):\n    return 3\n")
    snippet = "# ... existing code ...\n    return helper(x)\n\ndef third(x):\n# ... existing code ...\n"
    with pytest.raises(fastapply.ApplyError) as caught:
        fastapply.apply(original, snippet, filename="h.py")
    assert caught.value.code == "ambiguous_anchor"
HPACK = """\
local function decode_string(str, pos)
	local val, newpos = read(str, pos)
	return val, newpos
end

local function compound_key(name, value)
	return spack("s4s4", name, value)
end
local function uncompound_key(key)
	return sunpack("s4s4", key)
end
-- Section 4.1
local function dynamic_table_entry_size(k)
	return 32 - 8 + #k
end
"""


def test_two_glued_neighbours_swapped_stay_glued() -> None:
    # The file writes the two helpers with no blank line between them; the snippet swaps them,
    # glued as well. The moved one brings its spacing: no blank line is added before the other.
    update = """\
-- ... existing code ...
	return val, newpos
end

local function uncompound_key(key)
	return sunpack("s4s4", key)
end
local function compound_key(name, value)
	return spack("s4s4", name, value)
end
-- Section 4.1
-- ... existing code ...
"""
    merged = apply(HPACK, update, filename="hpack.lua").merged_code
    compound = 'local function compound_key(name, value)\n\treturn spack("s4s4", name, value)\nend\n'
    uncompound = 'local function uncompound_key(key)\n\treturn sunpack("s4s4", key)\nend\n'
    assert merged == HPACK.replace(compound + uncompound, uncompound + compound)



RUST_EXPAND = """\
use crate::re_bytes;

pub fn expand_str(caps: &Captures<'_>, dst: &mut String) {
    dst.push_str("start");
}

pub fn find_cap_ref(replacement: &[u8]) -> Option<CaptureRef<'_>> {
    None
}
"""


def test_match_arms_in_new_code_stay_glued() -> None:
    # `Ref::Named(name) => {` after the closing `}` of the arm above is a match arm, not a new
    # definition after a sibling's end: no blank line goes between them.
    update = """\
// ... existing code ...
pub fn expand_str(caps: &Captures<'_>, dst: &mut String) {
    dst.push_str("start");
}

pub fn expand_bytes(caps: &Captures<'_>, dst: &mut Vec<u8>, cap: Ref<'_>) {
    match cap {
        Ref::Number(i) => {
            dst.extend(caps.get(i).map(|m| m.as_bytes()).unwrap_or(b""));
        }
        Ref::Named(name) => {
            dst.extend(caps.name(name).map(|m| m.as_bytes()).unwrap_or(b""));
        }
    }
}

pub fn find_cap_ref(replacement: &[u8]) -> Option<CaptureRef<'_>> {
// ... existing code ...
"""
    merged = apply(RUST_EXPAND, update, filename="expand.rs").merged_code
    new = update.split("}\n\n", 1)[1].split("pub fn find_cap_ref")[0]
    assert merged == RUST_EXPAND.replace("pub fn find_cap_ref", new + "pub fn find_cap_ref")



IDENTITY_TS = "".join(f" * line {n} of the doc comment\n" for n in range(20)).join(["/**\n", """ */
export function identity<T>(x: T): T {
  return x;
}
"""])


def test_a_file_without_blank_lines_keeps_the_one_the_snippet_writes_before_new_code() -> None:
    # The file has no blank line at all, so its longest run of blank lines is 0; that bound took
    # the one blank line the snippet writes between the last function and a new one.
    update = """\
// ... existing code ...
  return x;
}

function coalesceValue<T>(value: T | undefined, fallback: T): T {
  return value ?? fallback;
}
"""
    merged = apply(IDENTITY_TS, update, filename="identity.ts").merged_code
    assert merged == IDENTITY_TS + "\n" + update.split("}\n\n", 1)[1]
