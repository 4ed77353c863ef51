"""Precision first (issue 8): snippets whose place the engine cannot tell are refused, never merged
wrongly; and edits that are recognisable are recognised. Each case is a realistic file and a
snippet shaped like one that merged silently wrong (or was refused needlessly) on the generated
dev split; every test here but the last (a guard) failed on the engine before this work.
"""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

PHP_HANDLER = """\
<?php declare(strict_types=1);

namespace Monolog\\Handler;

use Monolog\\Logger;

/**
 * Logs to syslog service.
 */
class SyslogHandler extends AbstractSyslogHandler
{
    /** @var string */
    protected $ident;
    /** @var int */
    protected $logopts;

    /**
     * @param string $ident
     * @param int    $logopts Option flags for the openlog() call, defaults to LOG_PID
     */
    public function __construct(string $ident, $facility = LOG_USER, $level = Logger::DEBUG, bool $bubble = true, int $logopts = LOG_PID)
    {
        parent::__construct($facility, $level, $bubble);

        $this->ident = $ident;
        $this->logopts = $logopts;
    }

    /**
     * {@inheritDoc}
     */
    public function close(): void
    {
        closelog();
    }

    /**
     * {@inheritDoc}
     */
    protected function write(array $record): void
    {
        if (!openlog($this->ident, $this->logopts, $this->facility)) {
            throw new \\LogicException('Can\\'t open syslog for ident "'.$this->ident.'"');
        }
        syslog($this->logLevels[$record['level']], (string) $record['formatted']);
    }
}
"""


def test_a_rename_with_a_marker_right_after_a_doc_comment_head_is_merged_line_for_line():
    # `close` renamed: the header and its short body stand exactly where the old ones stood, and
    # the doc comment head after them is context for the next method, not new code
    snippet = """\
// ... remaining implementation unchanged ...
        $this->logopts = $logopts;
    }

    /**
     * {@inheritDoc}
     */
    public function close_strict(): void
    {
        closelog();
    }

    /**
     * {@inheritDoc}
// ... remaining implementation unchanged ...
"""
    merged = apply(PHP_HANDLER, snippet, language="php").merged_code
    assert merged == PHP_HANDLER.replace("public function close(): void", "public function close_strict(): void")


PHP_FORMATTER = """\
<?php declare(strict_types=1);

namespace Monolog\\Formatter;

use Monolog\\Logger;

class HtmlFormatter extends NormalizerFormatter
{
    /**
     * Translates Monolog log levels to html color priorities.
     */
    protected $logLevels = [
        Logger::DEBUG     => '#CCCCCC',
        Logger::INFO      => '#28A745',
        Logger::ERROR     => '#DC3545',
        Logger::EMERGENCY => '#000000',
    ];

    /**
     * @param string|null $dateFormat The format of the timestamp: one supported by DateTime::format
     */
    public function __construct(?string $dateFormat = null)
    {
        parent::__construct($dateFormat);
    }

    /**
     * Creates an HTML table row
     *
     * @param string $th       Row header content
     * @param string $td       Row standard cell content
     * @param bool   $escapeTd false if td content must not be html escaped
     */
    protected function addRow(string $th, string $td = ' ', bool $escapeTd = true): string
    {
        $th = htmlspecialchars($th, ENT_NOQUOTES, 'UTF-8');
        return "<tr><th>$th:</th><td>".$td."</td></tr>";
    }
}
"""


def test_doc_comment_context_that_fits_a_later_copy_deletes_the_definition_in_between():
    # `/**` pairs first with the constructor's doc comment, but the unique line after it is in the
    # next method's: the opener moves there and the constructor, left out between two shown
    # lines, goes (as the snippet says); the merge used to splice these lines into its comment
    snippet = """\
    # ... existing code ...
        Logger::ERROR     => '#DC3545',
        Logger::EMERGENCY => '#000000',
    ];

    /**
     * Creates an HTML table row
     *
     * @param string $th       Row header content
     * @param string $td       Row standard cell content
    # ... existing code ...
"""
    start = PHP_FORMATTER.index("    /**\n     * @param string|null $dateFormat")
    end = PHP_FORMATTER.index("    /**\n     * Creates an HTML table row")
    expected = PHP_FORMATTER[:start] + PHP_FORMATTER[end:]
    assert apply(PHP_FORMATTER, snippet, language="php").merged_code == expected


def test_doc_comment_lines_before_a_marker_that_could_not_be_placed_are_refused():
    # after the new method, the doc comment lines shown before the marker belong to the
    # constructor, further up: they cannot be placed here, and kept as new code they would open
    # a second comment over `write`
    snippet = """\
// ... existing code ...
    public function close(): void
    {
        closelog();
    }

    public function reopen(): void
    {
        openlog($this->ident, $this->logopts, $this->facility);
    }

    /**
     * @param string $ident
// ... existing code ...
"""
    with pytest.raises(ApplyError) as caught:
        apply(PHP_HANDLER, snippet, language="php")
    assert caught.value.code == "ambiguous_anchor"
    assert "snippet line 13" in caught.value.message


C_HEADER = """\
#ifndef NPY_COMPAT_H
#define NPY_COMPAT_H

#include <Python.h>

/*
 * PyCObject functions adapted to PyCapsules.
 */
static inline PyObject *
NpyCapsule_FromVoidPtr(void *ptr, void (*dtor)(PyObject *))
{
    PyObject *ret = PyCapsule_New(ptr, NULL, dtor);
    if (ret == NULL) {
        PyErr_Clear();
    }
    return ret;
}

/* a copy of _PyErr_ChainExceptions, with __cause__ instead of __context__ */
static inline void
npy_PyErr_ChainExceptionsCause(PyObject *exc, PyObject *val, PyObject *tb)
{
    if (exc == NULL)
        return;
    PyErr_Restore(exc, val, tb);
}

static inline void *
NpyCapsule_AsVoidPtr(PyObject *obj)
{
    void *ret = PyCapsule_GetPointer(obj, NULL);
    if (ret == NULL) {
        PyErr_Clear();
    }
    return ret;
}

#endif
"""


def test_a_function_written_again_next_to_its_kept_copy_is_refused():
    # the snippet shows ChainExceptionsCause after AsVoidPtr (a move) without deleting the old
    # copy: with the header's name on its own line (C style) the merge defined it twice
    snippet = """\
/* ... existing code ... */
static inline void *
NpyCapsule_AsVoidPtr(PyObject *obj)
{
    void *ret = PyCapsule_GetPointer(obj, NULL);
    if (ret == NULL) {
        PyErr_Clear();
    }
    return ret;
}

static inline void
npy_PyErr_ChainExceptionsCause(PyObject *exc, PyObject *val, PyObject *tb)
{
    if (exc == NULL)
        return;
    PyErr_Restore(exc, val, tb);
}

#endif
"""
    with pytest.raises(ApplyError) as caught:
        apply(C_HEADER, snippet, language="c")
    assert caught.value.code == "ambiguous_anchor"


CPP_CLASS = """\
#pragma once

#include <string>
#include <vector>

namespace c10d {

class ParamCommsDebugInfo {
 public:
  ParamCommsDebugInfo() = default;

  int getRank() const {
    return pgRank_;
  }

  const std::vector<int64_t>& getGroupRanks() const {
    return groupRanks_;
  }

  bool isAsynchronizedOp() const {
    return isAsynchronizedOp_;
  }

  const std::string& getCollectiveName() const {
    return collectiveName_;
  }

 private:
  int pgRank_{0};
  std::vector<int64_t> groupRanks_;
  bool isAsynchronizedOp_{false};
  std::string collectiveName_;
};

} // namespace c10d
"""


def test_a_column_0_marker_inside_a_new_braced_method_is_refused():
    # `hasCollective` is new, its block is still open when a column-0 marker follows:
    # the marker would stand for existing code of a method the original does not have
    snippet = """\
// ... existing code ...
  const std::vector<int64_t>& getGroupRanks() const {
    return groupRanks_;
  }

  bool hasCollective() const {
    return !collectiveName_.empty();
// ... existing code ...
  std::string collectiveName_;
};
"""
    with pytest.raises(ApplyError) as caught:
        apply(CPP_CLASS, snippet, language="cpp")
    assert caught.value.code == "anchor_not_found"
    assert "hasCollective" in caught.value.message


BASH_COMPLETION = """\
# autoreconf(1) completion                                 -*- shell-script -*-

_autoreconf()
{
    local cur prev words cword split
    _init_completion -s || return

    case "$prev" in
        --help | -h | --version | -V)
            return
            ;;
        --prepend-include | -B | --include | -I)
            _filedir -d
            return
            ;;
    esac

    $split && return

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '$(_parse_help "$1")' -- "$cur"))
        [[ ${COMPREPLY-} == *= ]] && compopt -o nospace
        return
    fi

    _filedir -d
} &&
    complete -F _autoreconf autoreconf autoheader

# ex: filetype=sh
"""


def test_a_snippet_without_markers_keeps_the_files_leading_comment():
    snippet = """\
log_autoreconf_step() {
    echo "$1" >&2
}

_autoreconf()
{
    log_autoreconf_step "_autoreconf"
    local cur prev words cword split
    _init_completion -s || return

    case "$prev" in
        --help | -h | --version | -V)
            return
            ;;
        --prepend-include | -B | --include | -I)
            _filedir -d
            return
            ;;
    esac

    $split && return

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '$(_parse_help "$1")' -- "$cur"))
        [[ ${COMPREPLY-} == *= ]] && compopt -o nospace
        return
    fi

    _filedir -d
} &&
"""
    merged = apply(BASH_COMPLETION, snippet, language="bash").merged_code
    assert merged.startswith("# autoreconf(1) completion")
    assert merged.count("_init_completion -s || return") == 1
    assert 'log_autoreconf_step "_autoreconf"\n    local cur' in merged


TS_SCHEDULER = """\
import { AsyncAction } from './AsyncAction';
import { Subscription } from '../Subscription';
import { AsyncScheduler } from './AsyncScheduler';

export class VirtualAction<T> extends AsyncAction<T> {
  protected active: boolean = true;

  public schedule(state?: T, delay: number = 0): Subscription {
    if (Number.isFinite(delay)) {
      if (!this.id) {
        return super.schedule(state, delay);
      }
      this.active = false;
      const action = new VirtualAction(this.scheduler, this.work);
      this.add(action);
      return action.schedule(state, delay);
    } else {
      return Subscription.EMPTY;
    }
  }

  protected requestAsyncId(scheduler: VirtualTimeScheduler, id?: any, delay: number = 0): number {
    this.delay = scheduler.frame + delay;
    const { actions } = scheduler;
    actions.push(this);
    (actions as Array<VirtualAction<T>>).sort(VirtualAction.sortActions);
    return 1;
  }

  protected recycleAsyncId(scheduler: VirtualTimeScheduler, id?: any, delay: number = 0): number | undefined {
    if (delay > 0) {
      return 1;
    }
    return undefined;
  }
}
"""


def test_a_run_of_one_word_edits_closed_by_an_unchanged_line_replaces_the_old_lines():
    # three lines each with one word changed, then `return 1;` (not unique) as it was, then a
    # column-0 marker: line for line edits, not new lines inserted above the old ones
    snippet = """\
/* ... existing code ... */
      return Subscription.EMPTY;
    }
  }

  protected requestAsyncId(scheduler: VirtualTimeScheduler, id?: any, delay: number = 0): number {
    this.delay = scheduler.frame + delay;
    const { actions } = record;
    actions.unshift(this);
    (payload as Array<VirtualAction<T>>).sort(VirtualAction.sortActions);
    return 1;
/* ... existing code ... */
"""
    expected = TS_SCHEDULER.replace("const { actions } = scheduler;", "const { actions } = record;") \
        .replace("actions.push(this);", "actions.unshift(this);") \
        .replace("(actions as Array", "(payload as Array")
    assert apply(TS_SCHEDULER, snippet, language="typescript").merged_code == expected


RUST_NUM = """\
use super::cached::*;

pub trait Float: Sized {
    fn mantissa_limit() -> i32;
    fn pow10(self, n: i32) -> Self;
    fn is_sign_negative(self) -> bool;
}

impl Float for f32 {
    #[inline]
    fn mantissa_limit() -> i32 {
        7
    }

    #[inline]
    fn pow10(self, n: i32) -> f32 {
        debug_assert!(n >= -10 && n <= 10, "pow10() out of bounds");
        self * F32_POW10[n as usize]
    }

    #[inline]
    fn is_sign_negative(self) -> bool {
        f32::is_sign_negative(self)
    }
}

impl Float for f64 {
    #[inline]
    fn mantissa_limit() -> i32 {
        15
    }

    #[inline]
    fn pow10(self, n: i32) -> f64 {
        debug_assert!(n >= -22 && n <= 22, "pow10() out of bounds");
        self * F64_POW10[n as usize]
    }

    #[inline]
    fn is_sign_negative(self) -> bool {
        f64::is_sign_negative(self)
    }
}
"""


def test_context_of_one_impl_block_placed_in_its_twin_is_refused():
    # the snippet edits f64's mantissa_limit, shown after the f32 block's end (out of order): the
    # only distinctive line, f64's `pow10` header, would have been paired as an edit of f32's
    snippet = """\
// ... existing code ...
    #[inline]
    fn mantissa_limit() -> i32 {
        MANTISSA_LIMIT_SIZE
    }

    #[inline]
    fn pow10(self, n: i32) -> f64 {
// ... existing code ...
    fn is_sign_negative(self) -> bool {
        f32::is_sign_negative(self)
    }
}

const MANTISSA_LIMIT_SIZE: i32 = 15;

impl Float for f64 {
// ... existing code ...
"""
    try:
        merged = apply(RUST_NUM, snippet, language="rust").merged_code
    except ApplyError as error:
        assert error.code == "ambiguous_anchor"
        return
    assert "        7\n" in merged and "fn pow10(self, n: i32) -> f32 {" in merged


RUBY_ARGUMENTS = """\
class Thor
  class Arguments
    def initialize(arguments = [])
      @assigns = {}
      @non_assigned_required = []
      @switches = arguments
    end

    def parse(args)
      @pile = args.dup
      @switches.each do |argument|
        break unless peek
        @non_assigned_required.delete(argument)
        @assigns[argument.human_name] = send(:"parse_#{argument.type}", argument.human_name)
      end
      check_requirement!
      @assigns
    end

  private

    def no_or_skip?(arg)
      arg =~ /^--(no|skip)-([-\\w]+)$/
      $2
    end

    def last?
      @pile.empty?
    end

    def peek
      @pile.first
    end

    def shift
      @pile.shift
    end
  end
end
"""


def test_a_ruby_instance_variable_is_not_a_decorator_and_a_renamed_method_pairs_in_place():
    snippet = """\
    # ... existing code ...
    def last?
      @pile.empty?
    end

    def peek_next
      @pile.first
    # ... existing code ...
"""
    merged = apply(RUBY_ARGUMENTS, snippet, language="ruby").merged_code
    assert merged == RUBY_ARGUMENTS.replace("def peek\n", "def peek_next\n")


GO_WRITER = """\
package cobra

import (
\t"fmt"
\t"io"
)

const zshScript = `
#compdef %[1]s
    local -a completions
    local -a completions_with_descriptions
    local -a response
    local lastParam lastChar flagPrefix requestComp out directive
    compCount=0
    if [ "${lastChar}" = "" ]; then
        requestComp="${requestComp} \\"\\""
    fi
    eval out=$(${requestComp} 2>/dev/null)
    while IFS='\\n' read -r comp; do
        if [ -n "$comp" ]; then
            comp=${comp//:/\\\\:}
        fi
    done < <(printf "%%s\\n" "${out[@]}")
`

// GenZshCompletion generates zsh completion.
func (c *Command) GenZshCompletion(w io.Writer) error {
\treturn c.genZshCompletion(w, true)
}

// GenZshCompletionNoDesc generates zsh completion without descriptions.
func (c *Command) GenZshCompletionNoDesc(w io.Writer) error {
\treturn c.genZshCompletion(w, false)
}

func (c *Command) genZshCompletion(w io.Writer, includeDesc bool) error {
\t_, err := fmt.Fprintf(w, zshScript, c.Name())
\treturn err
}
"""


def test_a_snippet_in_the_files_tab_style_stays_tabbed_in_a_file_mostly_indented_with_spaces():
    # the file's indentation is mostly spaces (a shell script in a string), its Go code uses tabs;
    # only two lines of the snippet pair, both tab-indented like the file's code
    snippet = """\
// ... existing code ...
\treturn c.genZshCompletion(w, false)
}

func logZshStep(message string) {
\tfmt.Println(message)
}
// ... existing code ...
"""
    merged = apply(GO_WRITER, snippet, language="go").merged_code
    assert "\nfunc logZshStep(message string) {\n\tfmt.Println(message)\n}\n" in merged


PHP_CONSOLE = """\
<?php

namespace Symfony\\Component\\Console\\Output;

class ConsoleOutput extends StreamOutput implements ConsoleOutputInterface
{
    private $stderr;

    /**
     * {@inheritdoc}
     */
    public function setDecorated(bool $decorated)
    {
        parent::setDecorated($decorated);
        $this->stderr->setDecorated($decorated);
    }

    /**
     * {@inheritdoc}
     */
    public function setVerbosity(int $level)
    {
        parent::setVerbosity($level);
        $this->stderr->setVerbosity($level);
    }

    /**
     * {@inheritdoc}
     */
    public function getErrorOutput()
    {
        return $this->stderr;
    }

    /**
     * {@inheritdoc}
     */
    public function setErrorOutput(OutputInterface $error)
    {
        $this->stderr = $error;
    }

    /**
     * Returns true if current environment supports writing console output to STDOUT.
     */
    protected function hasStdoutSupport(): bool
    {
        return false === $this->isRunningOS400();
    }
}
"""


def test_a_dropped_method_never_leaves_its_doc_comment_behind():
    # getErrorOutput and setErrorOutput swapped, setVerbosity renamed: whatever the engine makes
    # of it, no doc comment may be left standing over nothing (or over another method)
    snippet = """\
    // ... existing code ...
     * {@inheritdoc}
     */
    public function setVerbosityV2(int $level)
    {
        parent::setVerbosity($level);
        $this->stderr->setVerbosity($level);
    }

    /**
     * {@inheritdoc}
     */
    public function setErrorOutput(OutputInterface $error)
    {
        $this->stderr = $error;
    }

    /**
     * {@inheritdoc}
     */
    public function getErrorOutput()
    {
        return $this->stderr;
    }

    /**
     * Returns true if current environment supports writing console output to STDOUT.
     // ... existing code ...
"""
    try:
        merged = apply(PHP_CONSOLE, snippet, language="php").merged_code
    except ApplyError:
        return
    assert "     */\n\n    /**" not in merged
    assert merged.count("{@inheritdoc}") == 4


PHP_LISTENER = """\
<?php

namespace Symfony\\Component\\Console\\EventListener;

class ErrorListener implements EventSubscriberInterface
{
    private $logger;

    public function onConsoleError(ConsoleErrorEvent $event)
    {
        if (null === $this->logger) {
            return;
        }

        $error = $event->getError();

        if (!$inputString = $this->getInputString($event)) {
            $this->logger->critical('An error occurred while using the console.', ['exception' => $error]);

            return;
        }

        $this->logger->critical('Error thrown while running command.', ['exception' => $error]);
    }

    public function onConsoleTerminate(ConsoleTerminateEvent $event)
    {
        if (null === $this->logger) {
            return;
        }

        $exitCode = $event->getExitCode();

        if (0 === $exitCode) {
            return;
        }

        if (!$inputString = $this->getInputString($event)) {
            $this->logger->debug('The console exited with code "{code}"', ['code' => $exitCode]);

            return;
        }

        $this->logger->debug('Command "{command}" exited with code "{code}"', ['command' => $inputString]);
    }
}
"""


def test_a_column_0_marker_followed_by_lines_that_end_several_blocks_is_refused():
    # `return;` / `}` end three blocks of onConsoleTerminate: placed right after the marker, they
    # would make it stand for nothing and delete the two checks in between
    snippet = """\
/* ... existing code ... */
    public function onConsoleTerminate(ConsoleTerminateEvent $event)
    {
        if (null === $this->logger) {
/* ... existing code ... */
            return;
        }

        $this->logger->info('Command "{command}" exited with code "{code}"', ['command' => $inputString]);
    }
}
"""
    with pytest.raises(ApplyError) as caught:
        apply(PHP_LISTENER, snippet, language="php")
    assert caught.value.code == "ambiguous_anchor"
    assert "snippet line 5" in caught.value.message


PY_DEFINE = '''\
"""Decorators for classes with attributes."""

from functools import partial


def define(maybe_cls=None, *, these=None, repr=None, frozen=False, slots=True):
    """Define an *attrs* class.

    Usually this has only upsides and few visible effects in everyday programming.
    """

    def do_it(cls, auto_attribs):
        return attrs(maybe_cls=cls, these=these, repr=repr, auto_attribs=auto_attribs)

    def wrap(cls):
        nonlocal frozen
        for base_cls in cls.__bases__:
            if base_cls.__setattr__ is _frozen_setattrs:
                frozen = True
                break

        return do_it(cls, True)

    if maybe_cls is None:
        return wrap
    else:
        return wrap(maybe_cls)


mutable = define
frozen = partial(define, frozen=True, on_setattr=None)
'''


def test_a_doubled_blank_line_inside_a_function_body_follows_the_file():
    # two blank lines before a statement inside a function: the file never has that (only before
    # top-level definitions), so the merge keeps one
    snippet = '''\
# ... existing code ...
    if maybe_cls is None:
        return wrap


    return wrap(maybe_cls)


mutable = define
# ... existing code ...
'''
    expected = PY_DEFINE.replace("        return wrap\n    else:\n        return wrap(maybe_cls)\n",
                                 "        return wrap\n\n    return wrap(maybe_cls)\n")
    assert apply(PY_DEFINE, snippet, language="python").merged_code == expected


GO_HANDLER = """\
package bookmarks

import (
\t"encoding/json"
\t"net/http"
)

type Handler struct {
\tstore Store
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
\tuser, ok := h.userID(r)
\tif !ok {
\t\twriteError(w, http.StatusUnauthorized, "login required")
\t\treturn
\t}
\titems, err := h.store.List(r.Context(), user)
\tif err != nil {
\t\twriteError(w, http.StatusInternalServerError, "could not list bookmarks")
\t\treturn
\t}
\twriteJSON(w, http.StatusOK, items)
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) {
\tuser, ok := h.userID(r)
\tif !ok {
\t\twriteError(w, http.StatusUnauthorized, "login required")
\t\treturn
\t}
\tvar in bookmarkInput
\tif err := json.NewDecoder(r.Body).Decode(&in); err != nil {
\t\twriteError(w, http.StatusBadRequest, "invalid JSON body")
\t\treturn
\t}
\twriteJSON(w, http.StatusCreated, in)
}
"""


def test_a_new_function_written_like_its_next_sibling_is_inserted_not_a_rename():
    # a guard (it passed before this work too) for the line-for-line edit runs: `get` starts
    # like `create` (one word apart, same first lines) but then differs, so it is a new function,
    # not `create` renamed
    snippet = """\
// ... existing code ...
\twriteJSON(w, http.StatusOK, items)
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) {
\tuser, ok := h.userID(r)
\tif !ok {
\t\twriteError(w, http.StatusUnauthorized, "login required")
\t\treturn
\t}
\tb, err := h.store.Get(r.Context(), user, r.PathValue("id"))
\tif err != nil {
\t\twriteError(w, http.StatusNotFound, "bookmark not found")
\t\treturn
\t}
\twriteJSON(w, http.StatusOK, b)
}

// ... existing code ...
"""
    merged = apply(GO_HANDLER, snippet, language="go").merged_code
    assert "func (h *Handler) create(" in merged and "func (h *Handler) get(" in merged
    assert merged.index("func (h *Handler) get(") < merged.index("func (h *Handler) create(")


RUBY_MOCK = """\\
# frozen_string_literal: true

require 'uri'
require 'stringio'

module Rack
  # Rack::MockRequest helps testing your Rack application without
  # actually using HTTP.
  #
  # After performing a request on a URL with get/post/put/patch/delete, it
  # returns a MockResponse with useful helper methods for effective
  # testing.
  #
  # You can pass a hash with additional configuration to the
  # get/post/put/patch/delete.
  #     ...
  # <tt>:fatal</tt>:: Raise a FatalWarning if the app writes to rack.errors.
  class MockRequest
    class FatalWarning < RuntimeError
    end

    def initialize(app)
      @app = app
    end
  end
end
"""


def test_a_marker_that_reads_like_a_comment_of_the_file_is_never_inserted_as_code():
    # the file has a comment `#     ...`, so the snippet's `# ...` markers are read as code; they
    # could not be placed, and inserted they would split the comment
    snippet = """\\
# ...
  # returns a MockResponse with useful helper methods for effective
  # testing.
  #
  # Keep this in sync with the docs.
  # You can pass a hash with additional configuration to the
# ...
"""
    try:
        merged = apply(RUBY_MOCK, snippet, language="ruby").merged_code
    except ApplyError as error:
        assert error.code == "ambiguous_anchor"
        return
    assert "\n# ...\n" not in merged


PY_VERSIONS = '''\
"""Find the versions of the build tools."""

import re
from subprocess import PIPE, Popen

RE_VERSION = re.compile(rb'(\\d+\\.\\d+(\\.\\d+)*)')


def find_executable(name):
    for folder in ("/usr/bin", "/usr/local/bin"):
        if name in ("gcc", "ld"):
            return folder + "/" + name
    return None


def _find_exe_version(cmd):
    """Find the version of an executable by running `cmd` in the shell.

    If the command is not found, or the output does not match
    `RE_VERSION`, returns None.
    """
    executable = cmd.split()[0]
    if find_executable(executable) is None:
        return None
    out = Popen(cmd, shell=True, stdout=PIPE).stdout
    try:
        out_string = out.read()
    finally:
        out.close()
    result = RE_VERSION.search(out_string)
    if result is None:
        return None
    return result.group(1).decode()
'''


def test_edited_lines_closed_by_a_common_line_before_a_marker_replace_the_old_ones():
    # two one-word edits, then `return None` (three copies in the file) at the same position, then
    # a marker: the edits replace the old lines instead of being inserted above them
    snippet = '''\
# ... rest of the code ...
    `RE_VERSION`, returns None.
    """
    program = cmd.split()[0]
    if find_program(program) is None:
        return None
    # ... rest of the code ...
'''
    expected = PY_VERSIONS.replace("    executable = cmd.split()[0]\n    if find_executable(executable) is None:",
                                   "    program = cmd.split()[0]\n    if find_program(program) is None:")
    assert apply(PY_VERSIONS, snippet, language="python").merged_code == expected


EMAIL_PARSER = '''\
class Parser:
    def __init__(self, _class=None, *, policy=compat32):
        """Parser of RFC 2822 and MIME email messages.

        _class is the class to instantiate for new message objects when they
        must be created.  This class must have a constructor that can take
        zero arguments.  Default is Message.Message.
        """
        self._class = _class
        self.policy = policy

    def parse(self, fp, headersonly=False):
        feedparser = FeedParser(self._class, policy=self.policy)
        return feedparser.close()


class HeaderParser(Parser):
    def parse(self, fp, headersonly=True):
        return Parser.parse(self, fp, True)


class BytesParser:

    def __init__(self, *args, **kw):
        """Parser of binary RFC 2822 and MIME email messages.

        _class is the class to instantiate for new message objects when they
        must be created.  This class must have a constructor that can take
        zero arguments.  Default is Message.Message.
        """
        self.parser = Parser(*args, **kw)

    def parse(self, fp, headersonly=False):
        fp = TextIOWrapper(fp, encoding='ascii', errors='surrogateescape')
        return self.parser.parse(fp, headersonly)
'''


def test_a_line_found_once_whose_part_went_to_another_copy_is_refused_not_kept_twice() -> None:
    # BytesParser's __init__ shown first, then HeaderParser: out of file order. The docstring's tail
    # and `def parse(...)` are in both classes. With a marker before it, the first part is put back
    # in file order by its one unique line and the lines next to it (order.py), and the new line
    # goes into BytesParser. Without one, the first part is the file's head and stays first, so it
    # goes to Parser's copy of those lines, where `self.parser = Parser(*args, **kw)`, a line of
    # BytesParser only, would go in as new code while BytesParser kept its own: refused, naming it.
    parts = '''\
        must be created.  This class must have a constructor that can take
        zero arguments.  Default is Message.Message.
        """
        log_init_step("__init__")
        self.parser = Parser(*args, **kw)

    def parse(self, fp, headersonly=False):
        # ... existing code ...
        return Parser.parse(self, fp, True)


class BytesParser:
    # ... existing code ...
'''
    merged = apply(EMAIL_PARSER, "        # ... existing code ...\n" + parts, filename="parser.py").merged_code
    assert merged == EMAIL_PARSER.replace('        """\n        self.parser', '        """\n        log_init_step("__init__")\n        self.parser')
    with pytest.raises(ApplyError) as caught:
        apply(EMAIL_PARSER, parts, filename="parser.py")
    assert caught.value.code == "ambiguous_anchor"
    assert "snippet line 5 ('self.parser = Parser(*args, **kw)')" in caught.value.message
