"""Edits as they happen between two releases of a package (the real_edit cases of issue 8, found
on the dev release pairs): a block dedented out of a removed `try:`, a loop rewritten right above a
line that kept its blank line, a signature split over several lines, a long annotation split after
its bracket, a header renamed to the name of a definition the merge keeps, a statement that takes
a blank line's place, comments reworded or added above an edited condition, multi-line decorators
and Lua block comments right above a definition, an encoding declaration dropped above the file's
head.

Each case is written in the shape a release diff has, with a snippet the way models write it.
"""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply
from fastapply.merge.context import context_block
from merge_support import aligned

FORM_PARSER = '''\
import json


class FormParser:
    def __init__(self, limit):
        self.limit = limit

    def parse_json(self, stream, length):
        if length > self.limit:
            raise ValueError("too large")

        try:
            items = json.loads(
                stream.read(),
                parse_float=str,
            )
        except ValueError as exc:
            raise ValueError("bad body") from exc

        return stream, items

    def parse_text(self, stream):
        return stream.read().decode()
'''


def test_a_block_dedented_out_of_a_removed_try_keeps_the_snippets_indentation() -> None:
    # the outermost lines of the part (`items = ...`, its `)`) moved out one level; the lines that
    # sit where the original has them (`raise`, `return`) say the snippet's indentation is meant
    snippet = '''\
    # ... existing code ...
            raise ValueError("too large")

        items = json.loads(
            stream.read(),
            parse_float=str,
        )
        return stream, items
    # ... existing code ...
'''
    expected = FORM_PARSER.replace('''        try:
            items = json.loads(
                stream.read(),
                parse_float=str,
            )
        except ValueError as exc:
            raise ValueError("bad body") from exc

        return''', '''        items = json.loads(
            stream.read(),
            parse_float=str,
        )
        return''')
    assert apply(FORM_PARSER, snippet, filename="forms.py").merged_code == expected


OPTIONS = '''\
def parse_options(text):
    if not text:
        return {}

    options = {}
    for key, value in _pairs(text):
        if not key:
            continue

        key = key.lower()

        if key.endswith("*"):
            key = key[:-1]
        options[key] = value

    return options


def _pairs(text):
    return [part.split("=", 1) for part in text.split(";")]
'''


def test_a_rewritten_loop_header_is_not_followed_by_the_blank_line_of_the_code_it_replaced() -> None:
    snippet = '''\
def parse_options(text):
    if not text:
        return {}

    options = {}
    # normalise the keys first
    for key, value in _normalized(_pairs(text)):
        if key.endswith("*"):
            key = key[:-1]
        options[key] = value
    # ... existing code ...
'''
    expected = OPTIONS.replace('''    for key, value in _pairs(text):
        if not key:
            continue

        key = key.lower()

        if key''', '''    # normalise the keys first
    for key, value in _normalized(_pairs(text)):
        if key''')
    assert apply(OPTIONS, snippet, filename="options.py").merged_code == expected


CALLS = '''\
class Parser:
    def parse_slice(self, args):
        return Slice(*args)

    def parse_call_args(self) -> tuple:
        token = self.expect("lparen")
        args = []
        while not self.at("rparen"):
            args.append(self.parse_expression())
        self.expect("rparen")
        return args, token

    def parse_call(self, node):
        args, token = self.parse_call_args()
        return Call(node, args, lineno=token.lineno)
'''


def test_a_signature_split_after_its_parenthesis_does_not_replace_the_body_it_heads() -> None:
    # the header `def parse_call_args(` pairs with the one-line original header; its "block" in
    # the snippet is the parameter list, and the marker after the body's first line keeps the rest
    snippet = '''\
    # ... existing code ...
        return Slice(*args)

    def parse_call_args(
        self,
    ) -> tuple[
        list,
        object,
    ]:
        token = self.expect("lparen")
# ... existing code ...
'''
    expected = CALLS.replace("    def parse_call_args(self) -> tuple:\n", '''\
    def parse_call_args(
        self,
    ) -> tuple[
        list,
        object,
    ]:
''')
    assert apply(CALLS, snippet, filename="parser.py").merged_code == expected


LOADERS = '''\
import os
import typing as t


class FileLoader:
    def __init__(
        self,
        searchpath: t.Union[str, os.PathLike, t.Sequence[t.Union[str, os.PathLike]]],
        encoding: str = "utf-8",
        followlinks: bool = False,
    ) -> None:
        self.searchpath = searchpath
        self.encoding = encoding
        self.followlinks = followlinks


class PackageLoader:
    def __init__(
        self,
        package: str,
        encoding: str = "utf-8",
    ) -> None:
        self.package = package
        self.encoding = encoding
'''

SPLIT_SEARCHPATH = '''\
        searchpath: t.Union[
            str, "os.PathLike[str]", t.Sequence[t.Union[str, "os.PathLike[str]"]]
        ],
'''


def test_a_long_annotation_split_after_its_bracket_replaces_the_line_it_was() -> None:
    # `encoding: ...` occurs twice; right after the new lines, it is the first loader's
    snippet = '''\
class FileLoader:
    def __init__(
        self,
''' + SPLIT_SEARCHPATH + '''\
        encoding: str = "utf-8",
    # ... existing code ...
'''
    expected = LOADERS.replace(
        '        searchpath: t.Union[str, os.PathLike, t.Sequence[t.Union[str, os.PathLike]]],\n',
        SPLIT_SEARCHPATH)
    assert apply(LOADERS, snippet, filename="loaders.py").merged_code == expected


def test_context_before_a_split_annotation_pairs_with_the_copy_right_above_what_it_replaces() -> None:
    # `self,` (in both loaders) after a marker, then the split annotation, then the anchor
    # `encoding` of the first loader: `self,` is the line right above the one the split replaces
    snippet = """\
    # ... existing code ...
        self,
""" + SPLIT_SEARCHPATH + """\
        encoding: str = "utf-8",
    # ... existing code ...
"""
    orig = LOADERS.rstrip("\n").split("\n")
    anchor = orig.index('        encoding: str = "utf-8",')
    al, _, _ = aligned(LOADERS, snippet, {5: anchor})
    context_block(al, [1, 2, 3, 4], 0, anchor)
    assert al.pairs.get(1) == anchor - 2  # `self,` of FileLoader, not left as new code


SYNONYMS = '''\
import functools


def _flatten(items):
    return [x for group in items for x in group]


def _make_synonym(compat_name, fn):
    @functools.wraps(fn)
    def inner(*args, **kwargs):
        return fn(*args, **kwargs)

    inner.__name__ = compat_name
    return inner


def replaced_by_pep8(fn):
    """Decorator for pre-PEP8 compatibility synonyms."""
    return lambda other: _make_synonym(other.__name__, fn)
'''


def test_a_header_renamed_to_the_name_of_a_kept_definition_is_refused() -> None:
    # the release renamed `_make_synonym` to `replaced_by_pep8` and deleted the old one at the end
    # of the file; a snippet without a last marker may be cut short, so the tail is kept: the
    # merge would define `replaced_by_pep8` twice, and a second Python `def` is no overload
    snippet = '''\
# ... existing code ...
def _flatten(items):
    return [x for group in items for x in group]


def replaced_by_pep8(compat_name, fn):
    @functools.wraps(fn)
    def inner(*args, **kwargs):
        return fn(*args, **kwargs)

    inner.__name__ = compat_name
    return inner
'''
    with pytest.raises(ApplyError) as info:
        apply(SYNONYMS, snippet, filename="util.py")
    assert info.value.code == "ambiguous_anchor" and "'replaced_by_pep8' a second time" in str(info.value)


TABLES = '''\
class OutOfOrderTable:
    def __init__(self, container, indices):
        self._tables = []
        for i in indices:
            item = container.body[i]
            if item.is_table():
                self._tables.append(item)

        self._validate()

    def _validate(self):
        return True
'''


def test_a_new_line_at_the_next_lines_depth_takes_the_place_of_the_blank_line_above_it() -> None:
    # the release replaced the blank line before `self._validate()` with a statement at its depth
    snippet = '''\
    # ... existing code ...
            if item.is_table():
                self._tables.append(item)
        container.done()
        self._validate()
    # ... existing code ...
'''
    expected = TABLES.replace("                self._tables.append(item)\n\n",
                              "                self._tables.append(item)\n        container.done()\n")
    assert apply(TABLES, snippet, filename="tables.py").merged_code == expected


SPLITTER = '''\
class StatementSplitter:
    def _declare_level(self, unified):
        if unified == 'DECLARE':
            if self._is_create:
                return 1
            return 0
        return None

    def _change_splitlevel(self, unified):
        if unified == 'BEGIN':
            self._begin_depth += 1
            if self._is_create:
                return 1
            return 0

        # Should this respect a preceding BEGIN?
        # In CASE ... WHEN ... END this results in a split level -1.
        # Would nested CASE blocks cut the statement off?
        if unified == 'END':
            self._begin_depth = max(0, self._begin_depth - 1)
            return -1

        if unified in ('IF', 'FOR', 'WHILE'):
            return 1
        return 0
'''


def test_context_then_a_comment_rewritten_into_fewer_lines_replaces_the_old_comment() -> None:
    # `return 1` / `return 0` occur more than once: the copy right above the comment is meant
    snippet = '''\
        # ... existing code ...
                return 1
            return 0

        # BEGIN and CASE both end with END
        if unified == 'END':
            if not self._in_case:
                self._begin_depth = max(0, self._begin_depth - 1)
            return -1
        # ... existing code ...
'''
    expected = SPLITTER.replace('''        # Should this respect a preceding BEGIN?
        # In CASE ... WHEN ... END this results in a split level -1.
        # Would nested CASE blocks cut the statement off?
        if unified == 'END':
            self._begin_depth''', '''        # BEGIN and CASE both end with END
        if unified == 'END':
            if not self._in_case:
                self._begin_depth''')
    assert apply(SPLITTER, snippet, filename="splitter.py").merged_code == expected


WRITABLE = '''\
import errno
import os


def try_makedirs(cache_dir):
    try:
        os.makedirs(cache_dir, exist_ok=True)
    except (FileNotFoundError, NotADirectoryError, FileExistsError):
        return False
    except PermissionError:
        return False
    except OSError as e:
        # EROFS has no OSError subclass of its own
        if e.errno == errno.EROFS:
            return False
        raise
    return True
'''


def test_new_comment_lines_and_an_edited_condition_before_a_marker_replace_the_old_condition() -> None:
    # more new lines than the walk down from the anchor lets in, the edited `if`, then
    # `return False` (in three places): it is the one right under the old `if`
    snippet = '''\
    # ... existing code ...
        # EROFS has no OSError subclass of its own
        #
        # some FUSE filesystems answer ENOSYS ("Function not implemented")
        # for a read-only mount
        if e.errno in {errno.EROFS, errno.ENOSYS}:
            return False
    # ... existing code ...
'''
    expected = WRITABLE.replace('''        # EROFS has no OSError subclass of its own
        if e.errno == errno.EROFS:''', '''        # EROFS has no OSError subclass of its own
        #
        # some FUSE filesystems answer ENOSYS ("Function not implemented")
        # for a read-only mount
        if e.errno in {errno.EROFS, errno.ENOSYS}:''')
    assert apply(WRITABLE, snippet, filename="rewrite.py").merged_code == expected


PATH_TESTS = '''\
import pytest


def test_home():
    assert Path.home()


def test_cwd():
    assert Path.cwd()
'''


def test_a_new_test_under_a_decorator_written_over_several_lines_stays_glued_to_it() -> None:
    snippet = '''\
# ... existing code ...
def test_cwd():
    assert Path.cwd()


@pytest.mark.parametrize(
    "wrapper",
    [wrap_async, wrap_method],
)
def test_wrapping_without_docstrings(wrapper):
    assert wrapper(lambda: None).__doc__ is None
'''
    expected = PATH_TESTS + '''\


@pytest.mark.parametrize(
    "wrapper",
    [wrap_async, wrap_method],
)
def test_wrapping_without_docstrings(wrapper):
    assert wrapper(lambda: None).__doc__ is None
'''
    assert apply(PATH_TESTS, snippet, filename="test_path.py").merged_code == expected


HOOKS = '''\
class PluginManager:
    def parse_hookimpl_opts(self, plugin, name):
        if not name.startswith("pytest_"):
            return None
        # Ignore names which can not be hooks.
        if name == "pytest_plugins":
            return None

        return super().parse_hookimpl_opts(plugin, name)
'''


def test_one_trivial_context_line_pairs_right_above_the_line_the_next_one_edits() -> None:
    # `return None` occurs twice; the reworded comment right after it edits the line right
    # under the first copy, so that copy is the context
    snippet = '''\
            # ...
            return None
        # Ignore names which cannot be hooks.
        if name == "pytest_plugins":
            return None
        # ...
'''
    expected = HOOKS.replace("can not be hooks", "cannot be hooks")
    assert apply(HOOKS, snippet, filename="config.py").merged_code == expected


LUA_SERVER = '''\
local server_methods = {}

function server_methods:pause()
\tself.paused = true
end

--[[
Extra options:
  - `.host`: address to bind to
  - `.port`: port to bind to
]]
function server_methods:listen(timeout)
\treturn self.socket:listen(timeout)
end

function server_methods:close()
\tself.socket:close()
end

return server_methods
'''


def test_a_function_moved_under_a_lua_block_comment_stays_glued_to_its_closing_brackets() -> None:
    # `]]` ends the comment above the function, not a sibling block: no blank line goes between
    snippet = '''\
-- ... existing code ...
  - `.port`: port to bind to
]]
function server_methods:close()
\tself.socket:close()
end

function server_methods:listen(timeout)
\treturn self.socket:listen(timeout)
end

return server_methods
'''
    expected = LUA_SERVER.replace('''function server_methods:listen(timeout)
\treturn self.socket:listen(timeout)
end

function server_methods:close()
\tself.socket:close()
end
''', '''function server_methods:close()
\tself.socket:close()
end

function server_methods:listen(timeout)
\treturn self.socket:listen(timeout)
end
''')
    assert apply(LUA_SERVER, snippet, filename="server.lua").merged_code == expected


MIDDLEWARE = '''\
import typing


class Middleware:
    def __init__(
        self, app: typing.Callable, dispatch: typing.Optional[typing.Callable] = None
    ) -> None:
        self.app = app
        self.dispatch_func = self.dispatch if dispatch is None else dispatch

    async def __call__(self, scope, receive, send):
        await self.app(scope, receive, send)
'''


def test_a_header_joined_onto_one_line_keeps_the_body_lines_it_shows() -> None:
    # the body lines pair inside the original header's block: the one after its `) -> None:`
    snippet = '''\
# ... existing code ...
class Middleware:
    def __init__(self, app: typing.Callable, dispatch: typing.Callable | None = None) -> None:
        self.app = app
        self.dispatch_func = self.dispatch if dispatch is None else dispatch
    # ... existing code ...
'''
    expected = MIDDLEWARE.replace('''    def __init__(
        self, app: typing.Callable, dispatch: typing.Optional[typing.Callable] = None
    ) -> None:
''', '''    def __init__(self, app: typing.Callable, dispatch: typing.Callable | None = None) -> None:
''')
    assert apply(MIDDLEWARE, snippet, filename="base.py").merged_code == expected


DIFF_EXPLANATION = '''\
import difflib


def _compare_eq_iterable(left, right, highligher, verbose=0):
    explanation = ["", "Full diff:"]
    explanation.extend(
        highligher(
            "\\n".join(
                line.rstrip()
                for line in difflib.ndiff(right, left)
            ),
            lexer="diff",
        ).splitlines()
    )
    return explanation
'''


def test_a_renamed_call_inside_a_call_is_an_edited_line_not_a_new_definition() -> None:
    # `highlighter(` opens a call inside `explanation.extend(`: no definition, so the marker
    # after its argument's first line stands for the rest of the call
    snippet = '''\
def _compare_eq_iterable(left, right, highlighter, verbose=0):
    # ... existing code ...
    explanation.extend(
        highlighter(
            "\\n".join(
# ... existing code ...
'''
    expected = DIFF_EXPLANATION.replace("highligher", "highlighter")
    assert apply(DIFF_EXPLANATION, snippet, filename="util.py").merged_code == expected


PLAIN_LOGGER = '''\
from ._utils import until_not_interrupted


class PlainFileLogObserver:
    def __init__(self, file):
        self._write = file.write
        self._flush = file.flush

    def __call__(self, eventDict):
        until_not_interrupted(
            self._write,
            textFromEventDict(eventDict)
            + "\\n",
        )
        until_not_interrupted(self._flush)
'''


def test_a_call_whose_opening_line_is_replaced_keeps_the_arguments_the_snippet_shows() -> None:
    # `until_not_interrupted(` and its first argument become `self._write(`: the opener is
    # replaced in place, not a definition's header dropped above a body that stays
    snippet = '''\
# ... existing code ...
    def __call__(self, eventDict):
        self._write(
            textFromEventDict(eventDict)
            + "\\n",
        )
        self._flush()
'''
    expected = PLAIN_LOGGER.replace('''        until_not_interrupted(
            self._write,
''', '''        self._write(
''').replace("until_not_interrupted(self._flush)", "self._flush()")
    assert apply(PLAIN_LOGGER, snippet, filename="twisted.py").merged_code == expected


WEBSOCKETS = '''\
import typing


class WebSocketDisconnect(Exception):
    def __init__(self, code: int = 1000, reason: typing.Optional[str] = None) -> None:
        self.code = code
        self.reason = reason or ""


class WebSocket:
    async def send(self, message):
        try:
            await self._send(message)
        except IOError:
            self.application_state = "disconnected"
            raise WebSocketDisconnect(code=1006)


class WebSocketClose:
    def __init__(self, code: int = 1000, reason: str | None = None) -> None:
        self.code = code
        self.reason = reason or ""
'''


def test_an_edited_header_equal_to_another_classs_header_is_placed_under_the_class_shown() -> None:
    # the parts are out of order; the edited `__init__` reads exactly like WebSocketClose's,
    # but it is written under `class WebSocketDisconnect`, whose block it belongs to
    snippet = '''\
            # ... existing code ...
            await self._send(message)
        except OSError:
            self.application_state = "disconnected"
            raise WebSocketDisconnect(code=1006)
# ... existing code ...
class WebSocketDisconnect(Exception):
    def __init__(self, code: int = 1000, reason: str | None = None) -> None:
        self.code = code
        # ... existing code ...
'''
    expected = WEBSOCKETS.replace("reason: typing.Optional[str] = None", "reason: str | None = None") \
        .replace("except IOError:", "except OSError:")
    assert apply(WEBSOCKETS, snippet, filename="websockets.py").merged_code == expected


TIMESTAMPS = '''\
import datetime as dt


def from_iso_date(value):
    if not value:
        raise ValueError("Not a valid date")
    return dt.date.fromisoformat(value)


def from_timestamp(value):
    value = float(value)
    if value < 0:
        raise ValueError("Not a valid POSIX timestamp")
    return dt.datetime.fromtimestamp(value)
'''


def test_a_new_guard_that_copies_a_line_of_a_later_block_does_not_anchor_there() -> None:
    # the new `raise` equals the one under `if value < 0:`, which the snippet shows after it
    snippet = '''\
# ... existing code ...
def from_timestamp(value):
    if value is True or value is False:
        raise ValueError("Not a valid POSIX timestamp")
    value = float(value)
    if value < 0:
        # ... existing code ...
'''
    expected = TIMESTAMPS.replace('''def from_timestamp(value):
''', '''def from_timestamp(value):
    if value is True or value is False:
        raise ValueError("Not a valid POSIX timestamp")
''')
    assert apply(TIMESTAMPS, snippet, filename="utils.py").merged_code == expected


PORTAL = '''\
from typing import overload


class BlockingPortal:
    @overload
    def start_task_soon(
        self,
        func: Callable[..., Awaitable[T]],
        *args: object,
        name: object = None,
    ) -> Future[T]:
        ...

    @overload
    def start_task_soon(
        self,
        func: Callable[..., T],
        *args: object,
        name: object = None,
    ) -> Future[T]:
        ...

    def start_task_soon(
        self,
        func: Callable[..., Awaitable[T] | T],
        *args: object,
        name: object = None,
    ) -> Future[T]:
        return self._spawn(func, args, name)
'''


def test_overload_stubs_folded_onto_their_signature_keep_the_header_after_them() -> None:
    # black 24 writes `) -> Future[T]: ...`: the `...` line goes, and the third
    # `def start_task_soon(` (common: three copies) still pairs right after it
    snippet = '''\
    # ... existing code ...
        name: object = None,
    ) -> Future[T]: ...

    @overload
    def start_task_soon(
        self,
        func: Callable[..., T],
        *args: object,
        name: object = None,
    ) -> Future[T]: ...

    def start_task_soon(
        # ... existing code ...
'''
    expected = PORTAL.replace(") -> Future[T]:\n        ...\n", ") -> Future[T]: ...\n")
    assert apply(PORTAL, snippet, filename="from_thread.py").merged_code == expected


def test_a_common_decorator_after_a_folded_stub_pairs_with_the_next_method() -> None:
    # `@abstractmethod` is on every method: right after the folded `) -> bool | None: ...` it is
    # the next method's, past the `...` line the edit removed
    original = '''\
class TestRunner:
    @abstractmethod
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
    ) -> bool | None:
        ...

    @abstractmethod
    def run_fixture(self, fixture_func):
        """Run an async generator fixture."""

    @abstractmethod
    def run_test(self, test_func):
        """Run an async test function."""
'''
    snippet = '''\
    # ... existing code ...
        exc_type: type[BaseException] | None,
    ) -> bool | None: ...

    @abstractmethod
    # ... existing code ...
'''
    expected = original.replace(") -> bool | None:\n        ...\n", ") -> bool | None: ...\n")
    assert apply(original, snippet, filename="_testing.py").merged_code == expected


PREFIX_MODULE = '''\
# -*- coding: utf-8 -*-

# Copyright (c) 2013, Example Authors
# All rights reserved.
"""Prefix helpers."""


def strip_prefix(text, prefix):
    if text.startswith(prefix):
        return text[len(prefix):]
    return text


def has_prefix(text, prefix):
    return text.startswith(prefix)
'''


def test_a_snippet_that_starts_below_the_encoding_declaration_drops_it() -> None:
    # pyupgrade's Python 3 clean-up: the snippet gives the file's head from its first line on,
    # without the encoding declaration, and a marker only after it
    snippet = '''\
# Copyright (c) 2013, Example Authors
# All rights reserved.
"""Helpers for prefixes."""


def strip_prefix(text, prefix):
# ... existing code ...
'''
    expected = PREFIX_MODULE.replace("# -*- coding: utf-8 -*-\n\n", "")
    expected = expected.replace("Prefix helpers.", "Helpers for prefixes.")
    assert apply(PREFIX_MODULE, snippet, filename="prefix.py").merged_code == expected


def test_a_snippet_that_starts_below_other_head_lines_still_keeps_them() -> None:
    # a first line that is no encoding declaration: the model left out the first marker
    original = PREFIX_MODULE.replace("# -*- coding: utf-8 -*-", "#!/usr/bin/env python")
    snippet = '''\
# Copyright (c) 2013, Example Authors
# All rights reserved.
"""Helpers for prefixes."""


def strip_prefix(text, prefix):
# ... existing code ...
'''
    merged = apply(original, snippet, filename="prefix.py").merged_code
    assert merged.startswith("#!/usr/bin/env python\n\n# Copyright")
    assert merged == original.replace("Prefix helpers.", "Helpers for prefixes.")


NUMBERS = '''\
from numbers import Number


def _is_comparable(x):
    return _is_actual_number(x) or isinstance(x, str)


def _is_actual_number(x):
    # We need to handle python's quirkiness with booleans:
    # >>> isinstance(True, int)
    # True
    if x is True or x is False:
        return False
    return isinstance(x, Number)


class Options(object):
    pass
'''


def test_a_condition_rewritten_over_the_same_body_before_a_marker_replaces_the_old_one() -> None:
    # the new `if` shares no words with the old one, but it opens the old one's body (`return
    # False`) right where the old one stood: kept both, the old test would survive next to it
    snippet = '''\
# ... existing code ...
    # >>> isinstance(True, int)
    # True
    if isinstance(x, bool):
        return False
    # ... existing code ...
'''
    expected = NUMBERS.replace("if x is True or x is False:", "if isinstance(x, bool):")
    assert apply(NUMBERS, snippet, filename="numbers_util.py").merged_code == expected


def test_a_new_condition_with_a_body_of_its_own_is_still_inserted() -> None:
    snippet = '''\
# ... existing code ...
    # >>> isinstance(True, int)
    # True
    if x is None:
        raise TypeError("no number")
    # ... existing code ...
'''
    expected = NUMBERS.replace("    # True\n", '    # True\n    if x is None:\n        raise TypeError("no number")\n')
    assert apply(NUMBERS, snippet, filename="numbers_util.py").merged_code == expected


WRAPPERS = '''\
import pytest


@pytest.mark.parametrize(
    "wrapper",
    [wraps_async, wrap_method],
)
def test_wrapping_keeps_docstrings(wrapper) -> None:
    assert wrapper(func).__doc__


def test_classmethods() -> None:
    assert Path.home().exists()

    # Wrapped method has docstring
    assert Path.home.__doc__, "a wrapped method keeps its docstring"
'''


def test_the_line_right_after_a_marker_outweighs_copies_of_lines_further_down() -> None:
    # trio: a new test appended after the file's last line, shown as context right after the
    # marker; the new test's decorator copies the one at the top of the file
    snippet = '''\
# ... existing code ...
    assert Path.home.__doc__, "a wrapped method keeps its docstring"


@pytest.mark.parametrize(
    "wrap",
    [wraps_async, wrap_method, wrap_path],
)
def test_wrapping_without_docstrings(wrap) -> None:
    assert wrap(func).__doc__ is None
'''
    expected = WRAPPERS + snippet.split("docstring\"\n", 1)[1]
    assert apply(WRAPPERS, snippet, filename="test_path.py").merged_code == expected


IMPORTS = '''\
import functools
from typing import Any

try:
    import idna

    have_idna = True
except ImportError:
    have_idna = False

import dns.enum
import dns.exception
import dns.immutable
import dns.wire

CompressType = dict


class Name:
    pass
'''


def test_plain_statements_that_replace_a_block_keep_the_snippets_spacing_below_them() -> None:
    # dnspython: the `try:` import becomes one import in the run below it; the blank line above
    # `import dns.enum` set off the removed block, and the snippet writes none
    snippet = '''\
# ... existing code ...
from typing import Any

import dns._features
import dns.enum
import dns.exception
import dns.immutable
import dns.wire

if dns._features.have("idna"):
    import idna

    have_idna = True
else:
    have_idna = False

CompressType = dict
# ... existing code ...
'''
    expected = snippet.replace("# ... existing code ...\n", "").replace("from typing", "import functools\nfrom typing")
    expected += "\n\nclass Name:\n    pass\n"
    assert apply(IMPORTS, snippet, filename="name.py").merged_code == expected


def test_a_replaced_assignment_before_a_definition_keeps_the_files_blank_line() -> None:
    # no block was removed: the blank line the snippet drops above `def` is a slip
    original = "import os\n\nLIMIT = 10\n\ndef main():\n    return LIMIT\n"
    snippet = "import os\n\nLIMIT = 20\ndef main():\n# ... existing code ...\n"
    assert apply(original, snippet, filename="main.py").merged_code == original.replace("10", "20")


REGISTRY = '''\
"""Class registry."""


def register(name, cls):
    """Add a class to the registry.

    Example: ::

        class MyClass:
            pass

        register("MyClass", MyClass)
    """
    _registry[name] = cls


def get_class(name):
    """Look a class up by its name."""
    try:
        return _registry[name]
    except KeyError:
        raise LookupError(name) from None


def forget(name):
    """Remove a class from the registry."""
    if name in _registry:
        del _registry[name]
    return None
'''


def test_blank_lines_inside_a_docstring_are_its_text() -> None:
    # marshmallow: the docstring's example gets PEP 8's two blank lines; the file never has more
    # than one blank line inside a function, but inside a string that says nothing
    snippet = '''\
# ... existing code ...
    Example: ::

        class MyClass:
            pass


        register("MyClass", MyClass)
    # ... existing code ...
'''
    expected = REGISTRY.replace("            pass\n\n", "            pass\n\n\n")
    assert apply(REGISTRY, snippet, filename="class_registry.py").merged_code == expected


TASKS = '''\
def filter_manifest(manifest, global_config):
    # if keywords is not empty.
    if global_config.sessions is not None:
        try:
            manifest.filter_by_name(global_config.sessions)
        except KeyError as exc:
            logger.error("Error while collecting sessions.")
            logger.error(exc.args[0])
            return 3

    if not manifest and not global_config.list_sessions:
        print("No sessions selected.")
        return 3
    return manifest
'''


def test_a_condition_turned_around_with_the_old_body_under_a_new_else_keeps_the_rest_of_it() -> None:
    # nox: `if x is not None: try ...` became `if x is None: ... else: try ...`; the marker inside
    # the `except` stands for its body, which moved under the `else:` with the lines shown
    snippet = '''\
    # ... existing code ...
    # if keywords is not empty.
    if global_config.sessions is None:
        manifest.filter_by_default()
    else:
        try:
            manifest.filter_by_name(global_config.sessions)
        except KeyError as exc:
            # ... existing code ...
'''
    expected = TASKS.replace("    if global_config.sessions is not None:\n",
                             "    if global_config.sessions is None:\n        manifest.filter_by_default()\n"
                             "    else:\n")
    assert apply(TASKS, snippet, filename="tasks.py").merged_code == expected


CODE_BLOCK = '''\
import logging

LOGGER = logging.getLogger(__name__)


def code(state, startLine, endLine, silent):
    LOGGER.debug("entering code: %s", startLine)

    if state.sCount[startLine] - state.blkIndent < 4:
        return False

    last = nextLine = startLine + 1

    while nextLine < endLine:
        if state.isEmpty(nextLine):
            nextLine += 1
            continue

        if state.sCount[nextLine] - state.blkIndent >= 4:
            nextLine += 1
            last = nextLine
            continue
        break

    state.line = last
    return True
'''


def test_a_rewritten_condition_between_two_anchors_replaces_the_old_one() -> None:
    # markdown-it-py: `if state.sCount[...] - state.blkIndent >= 4:` became a call; the body
    # below it and the lines around are the old ones (the snippet's parts out of file order)
    snippet = '''\
            # ... existing code ...
            continue

        if state.is_code_block(nextLine):
            nextLine += 1
            last = nextLine
# ... existing code ...
import logging

LOGGER = logging.getLogger(__name__)


def code(state, startLine, endLine, silent):
    LOGGER.debug("entering code: %s", startLine)

    if not state.is_code_block(startLine):
        return False
    # ... existing code ...
'''
    expected = CODE_BLOCK.replace("if state.sCount[startLine] - state.blkIndent < 4:",
                                  "if not state.is_code_block(startLine):")
    expected = expected.replace("if state.sCount[nextLine] - state.blkIndent >= 4:",
                                "if state.is_code_block(nextLine):")
    assert apply(CODE_BLOCK, snippet, filename="code.py").merged_code == expected
