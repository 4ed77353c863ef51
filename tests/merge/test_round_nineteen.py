"""Issue 8, nineteenth round: real release edits of the kept-aside batches check-15 and check-16
(now tune-43 and tune-46) and of the fresh batches tune-44, tune-45, tune-47 and tune-48, read case
by case."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

HEADER_PY = """'''
    icmplib
    ~~~~~~~

    The power to forge ICMP packets and do ping and traceroute.

        https://github.com/ValentinBELYN/icmplib

    :copyright: Copyright 2017-2022 Valentin BELYN.
    :license: GNU LGPLv3, see the LICENSE for details.

    ~~~~~~~

    This program is free software: you can redistribute it and/or
    modify it under the terms of the GNU Lesser General Public License.
'''

from .ping import ping
"""


def test_a_title_underline_written_twice_pairs_with_the_copy_left_over() -> None:
    # `~~~~~~~` over and under the title: the lower one pairs between unique lines, the upper one,
    # right after the marker, is the other copy; read as new, the old description line stayed
    snippet = """# ... existing code ...
    ~~~~~~~

    Easily forge ICMP packets and make your own ping and traceroute.

        https://github.com/ValentinBELYN/icmplib

    :copyright: Copyright 2017-2023 Valentin BELYN.
    :license: GNU LGPLv3, see the LICENSE for details.

    ~~~~~~~

    This program is free software: you can redistribute it and/or
# ... existing code ...
"""
    merged = apply(HEADER_PY, snippet, filename="__init__.py").merged_code
    assert merged == HEADER_PY.replace("The power to forge ICMP packets and do ping and traceroute.",
                                       "Easily forge ICMP packets and make your own ping and traceroute.") \
        .replace("2017-2022", "2017-2023")


READER_JS = """function parse(node, c) {
  switch (node.name) {
    case 'c':
      break;
    case 'f':
      if (c) {
        current = c.f = {text: ''};
      }
      break;
    case 'v':
      if (c) {
        current = c.v = {text: ''};
      }
      break;
    case 'mergeCell':
      break;
  }
}
"""


def test_a_copied_case_does_not_make_the_context_above_it_a_sure_copy() -> None:
    # the snippet writes `if (c) {` and `current = c.v` twice (the old case and a new one like it):
    # which copy pairs where is a guess, and pairing the first one with case 'f' deleted it
    snippet = """    // ... existing code ...
      if (c) {
        current = c.v = {text: ''};
      }
      break;
    case 'is':
    case 't':
      if (c) {
        current = c.v = {text: ''};
      }
      break;
    case 'mergeCell':
    // ... existing code ...
"""
    try:
        merged = apply(READER_JS, snippet, filename="reader.js").merged_code
    except ApplyError as error:
        assert error.code == "ambiguous_anchor"
    else:
        assert "current = c.f = {text: ''};" in merged


HTTP11_PY = '''class Connection:
    def handle_request(self, request):
        if not self.can_handle_request(request.url.origin):
            raise RuntimeError(f"Attempted to send request to {request.url.origin} on connection to {self._origin}")

        with self._state_lock:
            if self._state in (State.NEW, State.IDLE):
                self._request_count += 1
                self._state = State.ACTIVE
                self._expire_at = None
            else:
                raise ConnectionNotAvailable()
        return self._send(request)

    def has_expired(self) -> bool:
        now = time.monotonic()
        # Read `_expire_at` once into a local: on free-threaded builds another
        # thread may reset it to `None` between the check and the comparison.
        expire_at = self._expire_at
        keepalive_expired = expire_at is not None and now > expire_at

        # If the HTTP connection is idle but the socket is readable, then the
        # only valid state is that the socket is about to return b"", indicating
        # a server-initiated disconnect.
        server_disconnected = self._state == State.IDLE and self._stream.get_extra_info("is_readable")

        return keepalive_expired or server_disconnected

    def is_idle(self) -> bool:
        return self._state == State.IDLE

    def is_closed(self) -> bool:
        return self._state == State.CLOSED

    def close(self) -> None:
        with self._state_lock:
            self._state = State.CLOSED
            self._stream.close()

    def start_tls(self) -> None:
        with self._state_lock:
            self._stream = self._stream.start_tls()
'''

HTTP11_EXPECTED = HTTP11_PY.replace('''        with self._state_lock:
            if self._state in''', '''        with self._state_lock:
            # If the HTTP connection is idle but the socket is readable, then the
            # only valid state is that the socket is about to return b"", indicating
            # a server-initiated disconnect.
            if self._state == State.IDLE and self._stream.get_extra_info("is_readable"):
                self.close()
            if self._state in''').replace('''        expire_at = self._expire_at
        keepalive_expired = expire_at is not None and now > expire_at

        # If the HTTP connection is idle but the socket is readable, then the
        # only valid state is that the socket is about to return b"", indicating
        # a server-initiated disconnect.
        server_disconnected = self._state == State.IDLE and self._stream.get_extra_info("is_readable")

        return keepalive_expired or server_disconnected
''', '''        expire_at = self._expire_at
        return expire_at is not None and now > expire_at
''')


@pytest.mark.parametrize("order", ["request first", "expiry first"])
def test_lines_moved_out_of_another_parts_place_do_not_place_their_part(order: str) -> None:
    # the comment moved from `has_expired` into the request handler is unique in both texts, but it
    # lies between two anchors of the other part: it stands for no place, and is new where it is
    request = '''        # ... existing code ...
        with self._state_lock:
            # If the HTTP connection is idle but the socket is readable, then the
            # only valid state is that the socket is about to return b"", indicating
            # a server-initiated disconnect.
            if self._state == State.IDLE and self._stream.get_extra_info("is_readable"):
                self.close()
            if self._state in (State.NEW, State.IDLE):
'''
    expiry = '''        # ... existing code ...
        # thread may reset it to `None` between the check and the comparison.
        expire_at = self._expire_at
        return expire_at is not None and now > expire_at

    def is_idle(self) -> bool:
'''
    parts = [request, expiry] if order == "request first" else [expiry, request]
    snippet = "".join(parts) + "        # ... existing code ...\n"
    assert apply(HTTP11_PY, snippet, filename="http11.py").merged_code == HTTP11_EXPECTED


URLS_PY = """def admin_urlpatterns(name_prefix=''):
    def maybe_wrap(view):
        return view

    return [
        # Dashboard
        path('', maybe_wrap(stats), name=f'{name_prefix}home'),
        path(
            'queues/<int:queue_index>/<str:job_id>/results/<str:result_id>/',
            maybe_wrap(views.result_detail),
            name=f'{name_prefix}result_detail',
        ),
        path('queues/<int:queue_index>/<str:job_id>/delete/', maybe_wrap(views.delete_job), name=f'{name_prefix}delete_job'),
        # Schedulers
        path(
            'cron-schedulers/<int:connection_index>/<str:scheduler_name>/',
            maybe_wrap(cron_views.cron_scheduler_detail),
            name=f'{name_prefix}cron_scheduler_detail',
        ),
    ]


app_name = "django_rq"
"""


def test_a_new_entry_glued_under_a_closing_line_that_the_file_glues_stays_glued() -> None:
    # the file writes `),` with the next entry right under it; a new `path(` with a comment above
    # it, written so, got the blank line a new definition gets after a sibling's end
    new_entry = """        # `path` rather than `str`: a cron job's name may contain slashes
        path(
            'cron-schedulers/<int:connection_index>/<str:scheduler_name>/jobs/<path:cron_job_name>/',
            maybe_wrap(cron_views.cron_job_detail),
            name=f'{name_prefix}cron_job_detail',
        ),
"""
    snippet = """            # ... unchanged ...
            maybe_wrap(cron_views.cron_scheduler_detail),
            name=f'{name_prefix}cron_scheduler_detail',
        ),
""" + new_entry + """    ]


app_name = "django_rq"
"""
    merged = apply(URLS_PY, snippet, filename="urls.py").merged_code
    assert merged == URLS_PY.replace("        ),\n    ]\n", "        ),\n" + new_entry + "    ]\n")


MIXTURE_PY = '''class BayesianGaussianMixture:
    def _estimate_wishart_full(self, nk, xk, sk):
        """Estimate the full Wishart distribution parameters.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        nk : array-like of shape (n_components,)
        """
        return nk

    def _m_step(self, X, log_resp):
        """M step.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        log_resp : array, shape (n_samples, n_components)
            Logarithm of the posterior probabilities (or responsibilities) of
            the point of each sample in X.
        """
        return log_resp
'''


def test_a_section_underline_right_after_a_marker_is_context_not_new() -> None:
    # `----------` after the marker is the underline right above `log_resp`; kept as a new line,
    # the old `X` entry stayed between two underlines: refused instead
    snippet = '''        # ... existing code ...
        ----------
        log_resp : array, shape (n_samples, n_components)
            Logarithm of the posterior probabilities (or responsibilities) of
            # ... existing code ...
'''
    try:
        merged = apply(MIXTURE_PY, snippet, filename="mixture.py").merged_code
    except ApplyError as error:
        assert error.code == "ambiguous_anchor" and error.line == 2
    else:
        assert merged.count("----------") == 2


VISITOR_JS = """class BaseTypesVisitor {
    getInputObjectDeclarationBlock(node) {
        return new DeclarationBlock(this._declarationBlockConfig)
            .export()
            .asKind(this._parsedConfig.declarationKind.input)
            .withName(this.convertName(node))
            .withComment(node.description?.value)
            .withBlock(node.fields.join('\\n'));
    }
    getInputObjectOneOfDeclarationBlock(node) {
        // As multiple fields always result in a union, we have
        // to force a declaration kind of `type` in this case
        const declarationKind = node.fields.length === 1 ? this._parsedConfig.declarationKind.input : 'type';
        return new DeclarationBlock(this._declarationBlockConfig)
            .export()
            .asKind(declarationKind)
            .withName(this.convertName(node))
            .withComment(node.description?.value)
            .withContent(`\\n` + node.fields.join('\\n  |'));
    }
    InputObjectTypeDefinition(node) {
        return new DeclarationBlock(this._declarationBlockConfig)
            .export()
            .asKind('type')
            .withName(this.convertName(node))
            .withBlock(node.fields.join('\\n'));
    }
}
"""


def test_the_line_before_a_marker_pairs_inside_the_method_its_part_rewrites() -> None:
    # `.withName(...)` occurs in every method; the one in the method whose header the part shows
    # is meant, across the local `const declarationKind` the rewrite drops
    snippet = """    // ... existing code ...
    getInputObjectOneOfDeclarationBlock(node) {
        return new DeclarationBlock(this._declarationBlockConfig)
            .export()
            .asKind(getOneOfInputDeclarationKind({
            fieldCount: node.fields.length,
            inputDeclarationKind: this._parsedConfig.declarationKind.input,
        }))
            .withName(this.convertName(node))
            // ... existing code ...
"""
    merged = apply(VISITOR_JS, snippet, filename="visitor.js").merged_code
    assert merged == VISITOR_JS.replace("""        // As multiple fields always result in a union, we have
        // to force a declaration kind of `type` in this case
        const declarationKind = node.fields.length === 1 ? this._parsedConfig.declarationKind.input : 'type';
        return new DeclarationBlock(this._declarationBlockConfig)
            .export()
            .asKind(declarationKind)
""", """        return new DeclarationBlock(this._declarationBlockConfig)
            .export()
            .asKind(getOneOfInputDeclarationKind({
            fieldCount: node.fields.length,
            inputDeclarationKind: this._parsedConfig.declarationKind.input,
        }))
""")


TEMP_DIR_PY = '''import logging
from contextlib import ExitStack, contextmanager

from pip._internal.utils.misc import enum, rmtree

logger = logging.getLogger(__name__)


# Kinds of temporary directories. Only needed for ones that are
# globally-managed.
tempdir_kinds = enum(
    BUILD_ENV="build-env",
    REQ_BUILD="req-build",
)


_tempdir_manager = None


@contextmanager
def global_tempdir_manager():
    with ExitStack() as stack:
        yield
'''


def test_the_comment_over_a_replaced_definition_is_kept_context_not_new() -> None:
    # the comment lines over `tempdir_kinds` stay over the new class that replaces it; read as the
    # new class's own comment, the marker above them kept the old `enum(...)` too
    snippet = '''# ... existing code ...
# Kinds of temporary directories. Only needed for ones that are
# globally-managed.
class TempDirectoryKind(str, Enum):
    BUILD_ENV = "build-env"
    REQ_BUILD = "req-build"


_tempdir_manager = None
# ... existing code ...
'''
    try:
        merged = apply(TEMP_DIR_PY, snippet, filename="temp_dir.py").merged_code
    except ApplyError as error:
        assert error.code == "content_lost"  # (the enum's entries rewritten: the loss check asks)
    else:
        assert "tempdir_kinds = enum(" not in merged and merged.count("# Kinds of temporary") == 1


MESSAGE_PY = """from typing import Any

from langgraph.graph.state import StateGraph
from langgraph.pregel._messages import (
    _messages_delta_reducer as _messages_delta_reducer,
)

__all__ = (
    "add_messages",
    "REMOVE_ALL_MESSAGES",
)

REMOVE_ALL_MESSAGES = "__remove_all__"
"""


def test_a_new_block_written_above_its_twin_before_a_marker_goes_above_it() -> None:
    # the second `from ... import (` stands right before a marker that stands for its body: it is
    # the original's block, and the first one, with its new lines, is new
    snippet = """# ... existing code ...
from langgraph.graph.state import StateGraph
from langgraph.pregel._messages import (
    REMOVE_ALL_MESSAGES as REMOVE_ALL_MESSAGES,
)
from langgraph.pregel._messages import (
# ... existing code ...
"""
    merged = apply(MESSAGE_PY, snippet, filename="message.py").merged_code
    assert merged == MESSAGE_PY.replace("""from langgraph.graph.state import StateGraph
""", """from langgraph.graph.state import StateGraph
from langgraph.pregel._messages import (
    REMOVE_ALL_MESSAGES as REMOVE_ALL_MESSAGES,
)
""")


CHAIN_PY = '''def _iter_fileobject_protocol_options(fileobject, protocol, storage_options):
    so = storage_options.copy()
    while True:
        if fileobject is None:
            yield fileobject, protocol, so
            break
        fileobject, protocol, so = next_link(fileobject, protocol, so)
    yield fileobject, protocol, so


class FSSpecChainParser:
    """parse an fsspec chained urlpath"""

    def __init__(self) -> None:
        self.link = "::"
'''


def test_the_body_of_a_new_function_with_a_wrapped_signature_is_new_code() -> None:
    # `) -> dict[str, Any]:` closes the new header's parameter list and opens its body: the body is
    # the new function's (its `so = storage_options.copy()` is no anchor), so the line right after
    # the marker pairs with the copy of it right above the class
    new = '''

def _merge_protocol_options(
    protocol: str,
    storage_options: dict[str, Any],
    /,
) -> dict[str, Any]:
    """merges storage options nested under protocol, flat options take precedence"""
    if protocol not in storage_options:
        return storage_options
    so = storage_options.copy()
    return {**so.pop(protocol), **so}
'''
    snippet = '''    # ... unchanged ...
    yield fileobject, protocol, so
''' + new + '''

class FSSpecChainParser:
    # ... unchanged ...
'''
    merged = apply(CHAIN_PY, snippet, filename="_chain.py").merged_code
    assert merged == CHAIN_PY.replace("    yield fileobject, protocol, so\n\n\nclass",
                                      "    yield fileobject, protocol, so\n" + new + "\n\nclass")


PROMPT_JS = """prompt.get = function (schema, callback) {
  var iterator = [],
      result = {};

  //
  // Now, iterate and assemble the result.
  //
  async.forEachSeries(iterator, function (branch, next) {
    get(branch, function assembler(err, line) {
      if (err) {
        return next(err);
      }
      result[line.name] = line.value;
      next();
    });
  }, function (err) {
    return err ? callback(err) : callback(null, result);
  });
};
"""


def test_a_call_rewritten_under_its_comment_after_a_marker_is_an_edit_in_place() -> None:
    # `async.forEachSeries(` became `eachSeries(`: the comment shown above it, as it is, says the
    # new line stands where the old one stood, and the marker inside stands for the old lines
    snippet = """  // ... rest of the file unchanged ...
  // Now, iterate and assemble the result.
  //
  eachSeries(iterator, function (branch, next) {
    get(branch, function assembler(err, line) {
      if (err) {
        return next(err);
    // ... rest of the file unchanged ...
"""
    merged = apply(PROMPT_JS, snippet, filename="prompt.js").merged_code
    assert merged == PROMPT_JS.replace("  async.forEachSeries(iterator", "  eachSeries(iterator")


STRINGS_PYI = """from typing import final

from mypy_extensions import i64, i32, i16, u8

@final
class BytesWriter:
    def getvalue(self) -> str: ...
    def __len__(self) -> i64: ...

def write_i16_le(b: BytesWriter, n: i16, /) -> None: ...
def write_i16_be(b: BytesWriter, n: i16, /) -> None: ...
def read_i16_le(b: bytes, index: i64, /) -> i16: ...
"""


def test_new_stub_definitions_stay_glued_to_the_glued_ones_below_them() -> None:
    # the snippet keeps the blank line under the class and glues the new stubs to the old ones,
    # as the file glues its stubs: no blank line between the new ones and `write_i16_le`
    snippet = """# ... existing code ...
    def __len__(self) -> i64: ...

def write_i8(b: BytesWriter, n: i8, /) -> None: ...
def read_i8(b: bytes, index: i64, /) -> i8: ...
def write_i16_le(b: BytesWriter, n: i16, /) -> None: ...
# ... existing code ...
"""
    merged = apply(STRINGS_PYI, snippet, filename="strings.pyi").merged_code
    assert merged == STRINGS_PYI.replace("\ndef write_i16_le", "\ndef write_i8(b: BytesWriter, n: i8, /) -> None: ...\n"
                                         "def read_i8(b: bytes, index: i64, /) -> i8: ...\ndef write_i16_le")


FINDER_PY = """def find_requirement(self, req, upgrade):
    if best_candidate is None:
        if not best_candidate_result.all_candidates:
            version_type = "version"
            if allows_pre is False:
                version_type = "final version"

        logger.critical(
            "Could not find a %s that satisfies the requirement %s",
            version_type,
            req,
        )

        raise DistributionNotFound(f"No matching distribution found for {req}")
    return best_candidate
"""


def test_a_statement_glued_above_a_call_took_the_blank_lines_place() -> None:
    # the new line stands where the blank line stood, at the depth of `logger.critical(`, which
    # opens a call, not a section: no blank line comes back between them
    snippet = """    # ... existing code ...
            if allows_pre is False:
                version_type = "final version"
        req_disp = req.format_without_marker()
        logger.critical(
            "Could not find a %s that satisfies the requirement %s",
            version_type,
            req_disp,
        )

        raise DistributionNotFound(f"No matching distribution found for {req_disp}")
    # ... existing code ...
"""
    merged = apply(FINDER_PY, snippet, filename="package_finder.py").merged_code
    assert merged == FINDER_PY.replace('''                version_type = "final version"

        logger''', '''                version_type = "final version"
        req_disp = req.format_without_marker()
        logger''').replace("            req,\n", "            req_disp,\n").replace("for {req}", "for {req_disp}")


SELECT_PY = '''class Select:
    def select_by_value(self, value: str) -> None:
        """Select all options that have a value matching the argument.

        Example:
            When given "foo" this would select an option like:

                `<option value="foo">Bar</option>`

        Raises:
            NoSuchElementException: If there is no option with specified value in SELECT
        """
        css = f"option[value ={self._escape_string(value)}]"
        opts = self._el.find_elements(By.CSS_SELECTOR, css)
        matched = False
        for opt in opts:
            self._set_selected(opt)
            if not self.is_multiple:
                return
            matched = True
        if not matched:
            raise NoSuchElementException(f"Cannot locate option with value: {value}")

    def deselect_by_value(self, value: str) -> None:
        """Deselect all options that have a value matching the argument.

        Example:
            When given "foo" this would deselect an option like:

                `<option value="foo">Bar</option>`

        Raises:
            NoSuchElementException: If there is no option with specified value in SELECT
        """
        if not self.is_multiple:
            raise NotImplementedError("You may only deselect options of a multi-select")
        matched = False
        css = f"option[value = {self._escape_string(value)}]"
        opts = self._el.find_elements(By.CSS_SELECTOR, css)
        for opt in opts:
            self._unset_selected(opt)
            matched = True
        if not matched:
            raise NoSuchElementException(f"Could not locate element with value: {value}")
'''


def test_the_tail_of_a_loop_every_method_has_pairs_under_its_rewritten_lines() -> None:
    # the parts out of file order; in the second, from the copy of `matched = True` in
    # `select_by_value` the snippet's lines go on as they are for six lines, under two rewritten
    # ones: that copy, not new lines after the old loop
    snippet = '''    # ... existing code ...
        Raises:
            NoSuchElementException: If there is no option with specified value in SELECT
        """
        if not self.is_multiple:
            raise NotImplementedError("You may only deselect options of a multi-select")
        matched = False
        xpath = f".//option[@value = {self._escape_string(value)}]"
        opts = self._el.find_elements(By.XPATH, xpath)
        for opt in opts:
            self._unset_selected(opt)
            matched = True
        if not matched:
            raise NoSuchElementException(f"Could not locate element with value: {value}")
            # ... existing code ...
            When given "foo" this would select an option like:

                `<option value="foo">Bar</option>`

        Raises:
            NoSuchElementException: If there is no option with specified value in SELECT
        """
        xpath = f".//option[@value = {self._escape_string(value)}]"
        opts = self._el.find_elements(By.XPATH, xpath)
        matched = False
        for opt in opts:
            self._set_selected(opt)
            if not self.is_multiple:
                return
            matched = True
        # ... existing code ...
'''
    merged = apply(SELECT_PY, snippet, filename="select.py").merged_code
    assert merged == SELECT_PY.replace('''        css = f"option[value ={self._escape_string(value)}]"
        opts = self._el.find_elements(By.CSS_SELECTOR, css)''', '''        xpath = f".//option[@value = {self._escape_string(value)}]"
        opts = self._el.find_elements(By.XPATH, xpath)''').replace('''        css = f"option[value = {self._escape_string(value)}]"
        opts = self._el.find_elements(By.CSS_SELECTOR, css)''', '''        xpath = f".//option[@value = {self._escape_string(value)}]"
        opts = self._el.find_elements(By.XPATH, xpath)''')


ALIAS_INIT_PY = """# flake8: noqa
from .alias import *
from .bookmark import *

__version__ = "2.2.2"

__all__ = [
    "__version__",
    "ALIAS_KIND_FILE",
]
"""


def test_a_snippet_starting_right_under_a_linter_line_drops_it() -> None:
    # the snippet starts on the file's second line, without a marker: the `# flake8: noqa` above it
    # went with the release (a shebang, an encoding or a licence line would stay)
    snippet = """from .alias import *
from .bookmark import *

__version__ = "2.2.3"

__all__ = [
    "__version__",
# ... existing code ...
"""
    merged = apply(ALIAS_INIT_PY, snippet, filename="__init__.py").merged_code
    assert merged == ALIAS_INIT_PY.replace("# flake8: noqa\n", "").replace("2.2.2", "2.2.3")


def test_a_snippet_starting_right_under_a_shebang_keeps_it() -> None:
    original = ALIAS_INIT_PY.replace("# flake8: noqa", "#!/usr/bin/env python3")
    snippet = """from .alias import *
from .bookmark import *

__version__ = "2.2.3"
# ... existing code ...
"""
    merged = apply(original, snippet, filename="__init__.py").merged_code
    assert merged == original.replace("2.2.2", "2.2.3")


JVPS_PY = """defjvp(anp.sum, "same")
defjvp(anp._primitive_mean, "same")
defjvp(
    anp.prod, lambda g, ans, x, axis=None, keepdims=False: ans * anp.sum(g / x, axis=axis, keepdims=keepdims)
)
defjvp(
    anp.linspace,
    lambda g, ans, start, stop, *args, **kwargs: anp.linspace(g, 0, *args, **kwargs),
)
"""


def test_a_rewritten_block_followed_by_its_next_twin_is_not_read_as_new() -> None:
    # `defjvp(` again before the marker: the original's block under the first one is followed by
    # another `defjvp(`, so the new lines may rewrite that block (they do) and the second `defjvp(`
    # be the next one: not the langgraph reading (new block above its twin), refused or merged right
    snippet = """# ... existing code ...
defjvp(anp._primitive_mean, "same")
defjvp(
    anp.prod,
    lambda g, ans, x, axis=None, keepdims=False, **kwargs: (
        ans * anp.sum(g / x, axis=axis, keepdims=keepdims)
    ),
)
defjvp(
    # ... existing code ...
"""
    expected = JVPS_PY.replace("""    anp.prod, lambda g, ans, x, axis=None, keepdims=False: ans * anp.sum(g / x, axis=axis, keepdims=keepdims)
""", """    anp.prod,
    lambda g, ans, x, axis=None, keepdims=False, **kwargs: (
        ans * anp.sum(g / x, axis=axis, keepdims=keepdims)
    ),
""")
    try:
        merged = apply(JVPS_PY, snippet, filename="numpy_jvps.py").merged_code
    except ApplyError as error:
        assert error.code in ("ambiguous_anchor", "syntax_regressed")
    else:
        assert merged == expected


def test_a_new_stub_glued_above_a_decorated_stub_stays_glued() -> None:
    # as librt's, but the anchor under the new stub is `@classmethod` over its stub
    original = """class Value:
    real: 'Value'
    imag: 'Value'

    @classmethod
    def from_proto(cls, msg: Proto) -> Value: ...
    def to_proto(self, msg: Proto | None = None) -> Proto: ...
"""
    snippet = """    # ... existing code ...
    imag: 'Value'

    # needed because np.generic declares __new__ as abstract.
    def __new__(cls, *args: Any, **kwargs: Any) -> Value: ...
    @classmethod
    def from_proto(cls, msg: Proto) -> Value: ...
    # ... existing code ...
"""
    merged = apply(original, snippet, filename="units.pyi").merged_code
    assert merged == original.replace("""
    @classmethod""", """
    # needed because np.generic declares __new__ as abstract.
    def __new__(cls, *args: Any, **kwargs: Any) -> Value: ...
    @classmethod""")


def test_a_new_method_glued_above_a_decorated_method_gets_the_files_blank_line() -> None:
    # `@classmethod` is glued to its own `def from_call(`, not to a sibling: the methods are spaced,
    # and the blank line the snippet left out between the new method and the decorator comes back
    original = '''class CallInfo:
    @property
    def result(self):
        return self._result

    @classmethod
    def from_call(
        cls,
        func,
    ):
        return cls(func)
'''
    snippet = '''    # ... existing code ...
        return self._result

    def value_or_default(self, value, default=None):
        if value is None:
            return default
        return value
    @classmethod
    # ... existing code ...
'''
    merged = apply(original, snippet, filename="runner.py").merged_code
    assert merged == original.replace('''        return self._result

''', '''        return self._result

    def value_or_default(self, value, default=None):
        if value is None:
            return default
        return value

''')
