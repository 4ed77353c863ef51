"""Issue 8, seventh round: spacing and file heads that real release edits showed (batch tune-5).

Each case is written in the shape the failing cases had (an OAuth grant gaining a decorator, a
user-info filter, a job store dropping Python 2's head), with names of our own.
"""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply
from fastapply.errors import ValidationError
from fastapply.languages import get_language
from fastapply.merge.similar import edited_version
from fastapply.merge.validate import check_syntax

GRANT = '''\
from .errors import InvalidScopeError
from .util import scope_to_list


class RefreshGrant:
    def validate(self):
        token = self.load_token()
        self.check_scope(token)
        self.request.token = token

    def create_response(self):
        """Issue a new access token for the refresh token."""
        token = self.request.token
        self.save(token)
        return 200, token

    def issue(self, user):
        return self.generate(user)
'''


def test_a_new_decorator_stays_glued_to_the_definition_under_it() -> None:
    """A decorator added above a kept method, the snippet writing the blank line above it as
    the file has it. Before, the blank line above the paired `def` line (the file's, between the
    two methods) was given back under the decorator, as if the decorator ended new code."""
    snippet = '''\
from .errors import InvalidScopeError
from .hooks import hooked
from .util import scope_to_list
# ... existing code ...
        self.request.token = token

    @hooked
    def create_response(self):
        """Issue a new access token for the refresh token."""
        # ... existing code ...
'''
    expected = GRANT.replace("from .util", "from .hooks import hooked\nfrom .util") \
        .replace("    def create_response", "    @hooked\n    def create_response")
    assert apply(GRANT, snippet, filename="grants/refresh.py").merged_code == expected


USERINFO = '''\
class UserInfo(dict):
    REGISTERED = [
        "sub",
        "name",
    ]

    def __getattr__(self, key):
        try:
            return object.__getattribute__(self, key)
        except AttributeError:
            return self.get(key)
'''

FILTER = '''\
    def filter(self, scope):
        """Only the claims the scope grants."""
        wanted = [
            claim
            for part in scope.split()
            for claim in self.SCOPES.get(part, [])
        ]
        kept = {
            key: value for key, value in self.items() if key in wanted
        }
        return UserInfo(kept)
'''


def test_a_literal_assigned_right_under_another_stays_glued() -> None:
    """A new method whose body assigns a dict right under the `]` closing a list. Before, the
    `]` read as the end of a sibling definition and `kept = {` as a new one, so a blank line the
    snippet never wrote was put between two statements."""
    snippet = '''\
class UserInfo(dict):
    # ... existing code ...
    ]

''' + FILTER + '''
    def __getattr__(self, key):
        # ... existing code ...
'''
    expected = USERINFO.replace("    ]\n\n", "    ]\n\n" + FILTER + "\n")
    assert apply(USERINFO, snippet, filename="claims.py").merged_code == expected


STORE = '''\
from __future__ import absolute_import

from scheduler.base import BaseStore, LookupFailed, Conflict
from scheduler.util import to_timestamp


class MemoryStore(BaseStore):
    """Keeps jobs in a list in memory."""

    def __init__(self):
        super(MemoryStore, self).__init__()
        self._jobs = []

    def add(self, job):
        stamp = to_timestamp(job.next_run)
        self._jobs.append((job, stamp))

    def remove(self, job_id):
        for index, (job, _) in enumerate(self._jobs):
            if job.id == job_id:
                del self._jobs[index]
                return
        raise LookupFailed(job_id)
'''


def test_a_markerless_snippet_starting_under_python2_future_imports_drops_them() -> None:
    """The whole file back without markers, from an edited first import on: the release dropped
    `from __future__ import absolute_import` (pyupgrade's edit). Before, only a snippet with
    markers elsewhere dropped such a head; a markerless one kept it above its first line."""
    expected = STORE.replace("from __future__ import absolute_import\n\n", "") \
        .replace("BaseStore, LookupFailed, Conflict", "BaseStore, Conflict, LookupFailed") \
        .replace("super(MemoryStore, self).__init__()", "super().__init__()")
    assert apply(STORE, expected, filename="jobstores/memory.py").merged_code == expected


def test_a_markerless_snippet_starting_under_other_code_keeps_it() -> None:
    """The same snippet under a head that is not Python 2's imports: the head stays."""
    original = STORE.replace("from __future__ import absolute_import", "import logging")
    snippet = original.replace("import logging\n\n", "") \
        .replace("BaseStore, LookupFailed, Conflict", "BaseStore, Conflict, LookupFailed")
    merged = apply(original, snippet, filename="jobstores/memory.py").merged_code
    assert merged.startswith("import logging\n\nfrom scheduler.base import BaseStore, Conflict, LookupFailed\n")


CALENDAR = '''\
from convert import Hijri

from calendars import base_parser


class calendar:
    @classmethod
    def to_gregorian(cls, year=None, month=None, day=None):
        g = Hijri(
            year=year, month=month, day=day
        ).to_gregorian()
        return g.datetuple()

    @classmethod
    def month_length(cls, year, month):
        h = Hijri(year=year, month=month, day=1)
        return h.month_length()


class parser(base_parser):
    default_year = 1389

    @classmethod
    def replace_conventions(cls, source):
        result = source
        for latin, arabic in cls.conventions.items():
            result = result.replace(arabic, latin)
        return result
'''


def test_a_part_placed_at_a_column_no_block_has_is_refused() -> None:
    """The part that adds a method after `return result` (the file's last lines) shown first,
    under the head's `class calendar:`, with one anchor that places nothing out of order. The
    alignment put it under the class header, at the method body's depth, and the next method
    dedented to a column no enclosing block has: tree-sitter reads that without an error, Python
    does not ("unindent does not match any outer indentation level"). Now refused."""
    snippet = '''\
from hijridate import Hijri

from calendars import base_parser


class calendar:
# ... existing code ...
        return result

    def two_digit_year(self, year):
        if year >= 90:
            return year + 1300
        return year + 1400
# ... existing code ...
    def to_gregorian(cls, year=None, month=None, day=None):
        g = Hijri(year=year, month=month, day=day).to_gregorian()
        return g.datetuple()
# ... existing code ...
'''
    with pytest.raises(ApplyError):
        merged = apply(CALENDAR, snippet, filename="calendars/hijri.py").merged_code
        compile(merged, "hijri.py", "exec")  # (what the merge was, when it was not refused)


def test_a_statement_dedented_to_no_open_column_counts_as_a_syntax_error() -> None:
    original = "class A:\n    def f(self):\n        return 1\n"
    check_syntax(get_language("python"), original, original)
    for merged in ("class A:\n        x = 1\n\n    def f(self):\n        return 1\n",
                   "def f():\n    if x:\n        a = 1\n      b = 2\n    return a\n"):
        with pytest.raises(ValidationError):
            check_syntax(get_language("python"), original, merged)
    fine = 'class A:\n    def f(self):\n        s = """\ntext at column 0\n  two\n"""\n        return (1,\n   2)\n'
    check_syntax(get_language("python"), original, fine)


PARSE_TIME = '''\
class FreshnessParser:
    def parse_time(self, text):
        text = PATTERN.sub("", text)
        try:
            return time_parser(text)
        except:
            pass

    def local_tz(self):
        return get_localzone()
'''


def test_a_bare_except_narrowed_to_a_type_is_an_edit_of_it() -> None:
    """`except:` -> `except Exception:` between the anchor above and a marker. Before, the two
    lines did not read as one edited line (a bare `except:` is a trivial line, and the pair is
    under the similarity bar), so the old handler stayed under the new one."""
    snippet = '''\
    # ... existing code ...
        try:
            return time_parser(text)
        except Exception:
            pass
    # ... existing code ...
'''
    expected = PARSE_TIME.replace("except:", "except Exception:")
    assert apply(PARSE_TIME, snippet, filename="freshness.py").merged_code == expected


def test_handler_widening_reads_as_an_edit_and_another_type_does_not() -> None:
    assert edited_version("except Exception:", "except:")
    assert edited_version("except:", "except Exception:")
    assert edited_version("rescue StandardError => e", "rescue")
    assert edited_version("} catch (err) {", "} catch {") or edited_version("catch (err) {", "catch {")
    assert not edited_version("except ValueError:", "except KeyError:")


ENTRYPOINTS = '''\
from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from . import version

if TYPE_CHECKING:
    from . import types

log = version.log
'''


def test_a_new_literal_glued_to_the_statement_after_it_stays_glued() -> None:
    """`__all__ = [` .. `]` written right above `if TYPE_CHECKING:`. Before, a new block closed
    right above an anchor got the file's blank line there, as a new function would."""
    snippet = '''\
# ... existing code ...
from . import version

__all__ = [
    "entry_points",
]
if TYPE_CHECKING:
    from . import types
# ... existing code ...
'''
    expected = ENTRYPOINTS.replace("\nif TYPE_CHECKING", '\n__all__ = [\n    "entry_points",\n]\nif TYPE_CHECKING')
    assert apply(ENTRYPOINTS, snippet, filename="_entrypoints.py").merged_code == expected


DICTIONARY = '''\
class Dictionary:
    def split_by_known_words(self, string, keep):
        regex = self.split_regex()
        match = regex.match(string)
        if not match:
            return self.split_by_numerals(string, keep)

        unparsed, known, unknown = match.groups()
        splitted = [known] if keep else []
        if unknown:
            splitted.extend(self.split_by_known_words(unknown, keep))

        return splitted

    def split_by_numerals(self, string, keep):
        return [string]
'''


def test_a_rewritten_block_glued_to_the_return_after_it_stays_glued() -> None:
    """The body rewritten as a loop whose last line sits right above the kept `return`, where
    the file had a blank line. Before, the kept line got its blank line back (right for a
    snippet that rewrites lines above a blank line and then shows the next statement apart)."""
    body = '''\
        regex = self.split_regex()
        splitted = []
        unknown = string
        while unknown:
            match = regex.match(unknown)
            if not match:
                splitted.extend(self.split_by_numerals(unknown, keep))
                unknown = ""
            else:
                unparsed, known, unknown = match.groups()
                splitted.append(known)
        return splitted
'''
    snippet = "class Dictionary:\n    def split_by_known_words(self, string, keep):\n" + body + \
        "\n    # ... existing code ...\n"
    start = DICTIONARY.index("        regex")
    end = DICTIONARY.index("        return splitted\n") + len("        return splitted\n")
    expected = DICTIONARY[:start] + body + DICTIONARY[end:]
    assert apply(DICTIONARY, snippet, filename="dictionary.py").merged_code == expected


BUNDLE = '''\
// This file has been generated from template.mjs
(function (global, factory) {
  typeof exports === 'object' ? module.exports = factory() : global.Template = factory();
}(this, (function () { 'use strict';
  var template = {
    name: 'template.js',
    version: '4.1.0',
    tags: [ '{{', '}}' ]
  };
  return template;
})));
'''


def test_a_snippet_starting_under_a_one_line_note_drops_it() -> None:
    """The snippet starts at the file's second line without a marker, shows a marker further
    down: the first line, a plain comment, went (the release dropped it). Before, any first
    line above such a snippet was kept, as if a leading marker had been left out."""
    snippet = '''\
(function (global, factory) {
  typeof exports === 'object' ? module.exports = factory() : global.Template = factory();
  // ... existing code ...
    name: 'template.js',
    version: '4.2.0',
    tags: [ '{{', '}}' ]
  // ... existing code ...
'''
    expected = BUNDLE.split("\n", 1)[1].replace("4.1.0", "4.2.0")
    assert apply(BUNDLE, snippet, filename="template.js").merged_code == expected


@pytest.mark.parametrize("first", ["#!/usr/bin/env node", "// SPDX-License-Identifier: MIT", "// @ts-check",
                                   "/* eslint-disable no-var */"])
def test_a_directive_or_notice_above_such_a_snippet_stays(first: str) -> None:
    original = first + "\n" + BUNDLE.split("\n", 1)[1]
    snippet = original.split("\n", 1)[1].replace("4.1.0", "4.2.0")
    snippet = "\n".join(snippet.split("\n")[:3]) + "\n  // ... existing code ...\n    version: '4.2.0',\n" \
        "  // ... existing code ...\n"
    assert apply(original, snippet, filename="template.js").merged_code == original.replace("4.1.0", "4.2.0")


FORMAT = '''\
def label(param: Parameter) -> str:
    if isinstance(param, Argument):
        return param.human_readable_name
    return param.name


def format_param(param: Parameter) -> str:
    if isinstance(param, Argument):
        return param.human_readable_name
    if len(param.opts) == 1:
        return param.opts[0]
    short, long = sorted(param.opts, key=len)
    return f"{long} ({short})"


def format_list(params: list[Parameter]) -> str:
    return ", ".join(map(format_param, params))
'''


def test_a_context_line_the_file_has_twice_is_the_copy_nearest_the_next_anchor() -> None:
    """A marker, one context line the file has in two functions, the rewritten rest of the
    second, then the next function. Before, the context line paired with neither copy and was
    written again under the old body (an unexpected indent that tree-sitter did not flag)."""
    new_tail = '''\

    opts = param.opts
    if len(opts) == 1:
        return opts[0]

    long_opts = [opt for opt in opts if opt.startswith("--")]
    return f"{long_opts[0]} ({', '.join(opts)})"
'''
    snippet = "        # ... existing code ...\n        return param.human_readable_name\n" + new_tail + \
        "\n\ndef format_list(params: list[Parameter]) -> str:\n    # ... existing code ...\n"
    start = FORMAT.index("    if len(param.opts)")
    end = FORMAT.index("\n\ndef format_list")
    expected = FORMAT[:start].rstrip("\n") + "\n" + new_tail + FORMAT[end:]
    assert apply(FORMAT, snippet, filename="common.py").merged_code == expected


DIAL = '''\
func dial(conn net.Conn) (net.Conn, error) {
	if err := connectReq.Write(conn); err != nil {
		conn.Close()
		return nil, err
	}

	resp, err := http.ReadResponse(br, connectReq)
	if err != nil {
		conn.Close()
		return nil, err
	}

	if resp.StatusCode != 200 {
		conn.Close()
		f := strings.SplitN(resp.Status, " ", 2)
		return nil, errors.New(f[1])
	}
	return conn, nil
}
'''


def test_of_several_copies_the_one_an_edit_run_follows_down_to_the_anchor() -> None:
    """The context `conn.Close()` / `return nil, err` / `}` is in the file twice, the snippet's
    next two lines are one-token edits of the two lines under the second copy, then the anchor.
    The first line alone has three copies; the run and its edits place it."""
    snippet = '''\
// ... existing code ...
		conn.Close()
		return nil, err
	}

	if response.StatusCode != 200 {
		conn.Shutdown()
		f := strings.SplitN(resp.Status, " ", 2)
// ... existing code ...
'''
    expected = DIAL.replace("if resp.StatusCode", "if response.StatusCode") \
        .replace("\t\tconn.Close()\n\t\tf :=", "\t\tconn.Shutdown()\n\t\tf :=")
    assert apply(DIAL, snippet, filename="proxy.go").merged_code == expected


def test_an_unexpected_indent_counts_as_a_syntax_error() -> None:
    original = "def f(x):\n    y = x\n    return y\n"
    merged = "def f(x):\n    y = x\n        return x\n    return y\n"
    with pytest.raises(ValidationError):
        check_syntax(get_language("python"), original, merged)
    continued = "def f(x):\n    y = g(x,\n          x)\n    z = (y\n        + 1)\n    return z\n"
    check_syntax(get_language("python"), original, continued)


CONFIGURE = '''\
class Cert:
    def configure_trust(self, ctx):
        if isinstance(ctx, ssl.SSLContext):
            ctx.load_verify_locations(cadata=self.pem)
        elif _smells_like_pyopenssl(ctx):
            ctx.get_cert_store().add_cert(self.cert)
        else:
            raise TypeError("unsupported context")

    def configure_cert(self, ctx):
        if isinstance(ctx, ssl.SSLContext):
            ctx.load_cert_chain(self.path)
        elif _smells_like_pyopenssl(ctx):
            from OpenSSL.crypto import FILETYPE_PEM, load_privatekey

            key = load_privatekey(FILETYPE_PEM, self.private_key_pem.bytes())
            ctx.use_privatekey(key)
        else:
            raise TypeError("unsupported context")
'''


def test_a_local_import_the_rewrite_no_longer_needs_goes_with_the_lines_it_replaces() -> None:
    """The context line is in the file twice; under its nearer copy the new line replaces a local
    import and the statement that used it. The import shares no name with the new line and is
    still dropped: a rewrite that stops needing an import drops it."""
    snippet = '''\
        # ... existing code ...
        elif _smells_like_pyopenssl(ctx):
            key = load_pem_private_key(self.private_key_pem.bytes(), None)
            ctx.use_privatekey(key)
        else:
            raise TypeError("unsupported context")
'''
    expected = CONFIGURE.replace('''\
            from OpenSSL.crypto import FILETYPE_PEM, load_privatekey

            key = load_privatekey(FILETYPE_PEM, self.private_key_pem.bytes())
''', "            key = load_pem_private_key(self.private_key_pem.bytes(), None)\n")
    assert apply(CONFIGURE, snippet, filename="trustme.py").merged_code == expected


RESOLVE = '''\
def resolve_examples():
    # Input
    s = "PetSchema"
    # Output
    r = {"$ref": "Pet"}
    # Input
    a = {"type": "array", "items": "PetSchema"}
    # Output
    b = {"type": "array", "items": {"$ref": "Pet"}}

    # Input
    c = {"type": "object", "properties": {"pet": "PetSchema", "user": "UserSchema"}}

    # Output
    d = {"type": "object", "properties": {"pet": {"$ref": "Pet"}}}
    return a, b, c, d
'''


def test_a_context_line_the_file_has_twice_before_a_marker_is_the_copy_nearest_the_anchor_above() -> None:
    """The mirror of the case above: a one-line literal split over four lines (black's edit) under
    a unique anchor, then `# Output` (found all over the file) and a marker. Before, `# Output` was new
    code and the old one-liner stayed under the new lines."""
    snippet = '''\
    # ... existing code ...
    b = {"type": "array", "items": {"$ref": "Pet"}}

    # Input
    c = {
        "type": "object",
        "properties": {"pet": "PetSchema", "user": "UserSchema"},
    }

    # Output
    # ... existing code ...
'''
    expected = RESOLVE.replace(
        '    c = {"type": "object", "properties": {"pet": "PetSchema", "user": "UserSchema"}}\n',
        '    c = {\n        "type": "object",\n        "properties": {"pet": "PetSchema", "user": "UserSchema"},\n    }\n')
    assert apply(RESOLVE, snippet, filename="schema_resolver.py").merged_code == expected


ATOMIC = '''\
public class JavaAtomicBoolean extends RubyObject {
    private AtomicBoolean atomicBoolean;

    public JavaAtomicBoolean(Ruby runtime, RubyClass metaClass) {
        super(runtime, metaClass);
    }

    @JRubyMethod
    public IRubyObject initialize(ThreadContext context, IRubyObject value) {
        atomicBoolean = new AtomicBoolean(toJavaBoolean(value));
        return context.nil;
    }

    @JRubyMethod
    public IRubyObject initialize(ThreadContext context) {
        atomicBoolean = new AtomicBoolean();
        return context.nil;
    }

    @JRubyMethod(name = "value")
    public IRubyObject value() {
        return getRuntime().newBoolean(atomicBoolean.get());
    }
}
'''


def test_a_common_line_before_a_marker_moves_to_the_copy_an_edited_definition_leads_to() -> None:
    """The first `initialize` renamed and its body edited token by token, shown between the
    constructor and the next `@JRubyMethod` (the file's annotation everywhere). Before, that
    `@JRubyMethod` paired with the first copy after the constructor, so the edited method went in
    as a new one above the old; read from the anchor above, the snippet's lines go line for line
    with the old method's, through its header, down to the second copy."""
    snippet = '''\
    // ... existing code ...
    public JavaAtomicBoolean(Ruby runtime, RubyClass metaClass) {
        super(runtime, metaClass);
    }

    @JRubyMethod
    public IRubyObject source(ThreadContext context, IRubyObject value) {
        atomicBoolean = new AtomicBoolean(limit(value));
        return context.candidate;
    }

    @JRubyMethod
    // ... existing code ...
'''
    expected = ATOMIC.replace('''\
    public IRubyObject initialize(ThreadContext context, IRubyObject value) {
        atomicBoolean = new AtomicBoolean(toJavaBoolean(value));
        return context.nil;''', '''\
    public IRubyObject source(ThreadContext context, IRubyObject value) {
        atomicBoolean = new AtomicBoolean(limit(value));
        return context.candidate;''')
    assert apply(ATOMIC, snippet, filename="JavaAtomicBooleanLibrary.java").merged_code == expected


def test_common_context_after_a_marker_moves_with_its_closing_line_to_the_copy_an_edit_run_leads_from() -> None:
    """The mirror: `return context.nil;` and `}` (both methods end so) after a marker, then the
    second method renamed and edited token by token, then the next method's unique header. The
    alignment paired the context with the second method's last lines; the edit run from the first
    method's end through the second's header places it there instead."""
    snippet = '''\
    // ... existing code ...
        return context.nil;
    }

    @JRubyMethod
    public IRubyObject reset(ThreadContext context) {
        atomicBoolean = new AtomicBoolean();
        return context.candidate;
    }

    @JRubyMethod(name = "value")
    // ... existing code ...
'''
    expected = ATOMIC.replace('''\
    public IRubyObject initialize(ThreadContext context) {
        atomicBoolean = new AtomicBoolean();
        return context.nil;''', '''\
    public IRubyObject reset(ThreadContext context) {
        atomicBoolean = new AtomicBoolean();
        return context.candidate;''')
    assert apply(ATOMIC, snippet, filename="JavaAtomicBooleanLibrary.java").merged_code == expected
