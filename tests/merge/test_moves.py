"""Whole definitions shown somewhere else than in the original move there (fastapply/merge/moves.py)."""

from __future__ import annotations

from fastapply import apply

UID = '''<?php

namespace App\\Processor;

class UidProcessor
{
    private string $uid;

    public function __construct(int $length = 7)
    {
        if ($length > 32 || $length < 1) {
            throw new \\InvalidArgumentException('The uid length must be an integer between 1 and 32');
        }

        $this->uid = $this->generateUid($length);
    }

    public function __invoke(array $record): array
    {
        $record['extra']['uid'] = $this->uid;

        return $record;
    }

    public function getUid(): string
    {
        return $this->uid;
    }

    public function reset(): void
    {
        $this->uid = $this->generateUid(strlen($this->uid));
    }
}
'''

GET_UID = '''    public function getUid(): string
    {
        return $this->uid;
    }

'''


def test_php_method_moved_up_in_a_segment_shown_before_the_place_it_left() -> None:
    """getUid moves above __invoke; the segment showing the gap it left comes first in the
    snippet (main refused: "it would break the order of the snippet's other parts")."""
    snippet = '''    // ... existing code ...
        $record['extra']['uid'] = $this->uid;

        return $record;
    }

    public function reset(): void
    {
        $this->uid = $this->generateUid(strlen($this->uid));
    }
    // ... existing code ...
            throw new \\InvalidArgumentException('The uid length must be an integer between 1 and 32');
        }

        $this->uid = $this->generateUid($length);
    }

    public function getUid(): string
    {
        return $this->uid;
    }

    public function __invoke(array $record): array
    // ... existing code ...
'''
    invoke = "    public function __invoke"
    expected = UID.replace(GET_UID, "").replace(invoke, GET_UID + invoke)
    assert apply(UID, snippet, filename="UidProcessor.php").merged_code == expected


CONFIG = '''import { readFileSync } from "fs";

export interface Config {
  retries: number;
  timeoutMs: number;
}

export function parseConfig(text: string): Config {
  const raw = JSON.parse(text);
  return normalize(raw);
}

export function loadDefaults(): Config {
  return { retries: 3, timeoutMs: 1000 };
}

function normalize(raw: any): Config {
  return {
    retries: Number(raw.retries ?? 3),
    timeoutMs: Number(raw.timeoutMs ?? 1000),
  };
}

export function mergeConfig(a: Config, b: Config): Config {
  return { ...a, ...b };
}
'''

NORMALIZE = '''function normalize(raw: any): Config {
  return {
    retries: Number(raw.retries ?? 3),
    timeoutMs: Number(raw.timeoutMs ?? 1000),
  };
}

'''


def test_typescript_helper_moved_above_its_caller_with_the_place_it_left() -> None:
    snippet = '''// ... existing code ...
  timeoutMs: number;
}

function normalize(raw: any): Config {
  return {
    retries: Number(raw.retries ?? 3),
    timeoutMs: Number(raw.timeoutMs ?? 1000),
  };
}

export function parseConfig(text: string): Config {
// ... existing code ...
export function loadDefaults(): Config {
  return { retries: 3, timeoutMs: 1000 };
}

export function mergeConfig(a: Config, b: Config): Config {
// ... existing code ...
'''
    expected = CONFIG.replace(NORMALIZE, "").replace("export function parseConfig",
                                                     NORMALIZE + "export function parseConfig")
    assert apply(CONFIG, snippet, filename="config.ts").merged_code == expected


STORE = '''package store

func New() *Store {
	return &Store{data: map[string]string{}}
}

func (s *Store) Delete(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.data, key)
}

func (s *Store) Get(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data[key]
}

func (s *Store) Len() int {
	return len(s.data)
}
'''


def test_go_neighbours_swapped() -> None:
    delete = "func (s *Store) Delete(key string) {\n\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\tdelete(s.data, key)\n}\n\n"
    get = "func (s *Store) Get(key string) string {\n\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\treturn s.data[key]\n}\n\n"
    snippet = "// ... existing code ...\n\treturn &Store{data: map[string]string{}}\n}\n\n" + get + delete + \
        "func (s *Store) Len() int {\n// ... existing code ...\n"
    assert apply(STORE, snippet, filename="store.go").merged_code == STORE.replace(delete + get, get + delete)


DEBUGGER = '''function wrapPlainTraceback() {
  const plainTraceback = document.querySelector("div.plain textarea");
  const wrapper = document.createElement("pre");
  const textNode = document.createTextNode(plainTraceback.textContent);
  wrapper.appendChild(textNode);
  plainTraceback.replaceWith(wrapper);
}

function makeDebugURL(args) {
  const params = new URLSearchParams(args);
  params.set("s", SECRET);
  return `?__debugger__=yes&${params}`;
}

function initPinBox() {
  document.querySelector(".pin-prompt form").addEventListener("submit", (event) => {
    event.preventDefault();
    fetch(makeDebugURL({ cmd: "pinauth" })).then((res) => res.json());
  });
}

function docReady(fn) {
  if (document.readyState === "complete" || document.readyState === "interactive") {
    setTimeout(fn, 1);
  } else {
    document.addEventListener("DOMContentLoaded", fn);
  }
}
'''

MAKE_URL = '''function makeDebugURL(args) {
  const params = new URLSearchParams(args);
  params.set("s", SECRET);
  return `?__debugger__=yes&${params}`;
}

'''


def test_javascript_helper_moved_into_another_segment() -> None:
    """The first segment shows the helper's old place closed up, the second shows it whole before
    `docReady`: the segments overlap until the helper is read as moved (main refused)."""
    snippet = '''// ... existing code ...
  wrapper.appendChild(textNode);
  plainTraceback.replaceWith(wrapper);
}

function initPinBox() {
  // ... existing code ...
}

function makeDebugURL(args) {
  const params = new URLSearchParams(args);
  params.set("s", SECRET);
  return `?__debugger__=yes&${params}`;
}

function docReady(fn) {
  if (document.readyState === "complete" || document.readyState === "interactive") {
    // ... existing code ...
'''
    expected = DEBUGGER.replace(MAKE_URL, "").replace("function docReady", MAKE_URL + "function docReady")
    assert apply(DEBUGGER, snippet, filename="debugger.js").merged_code == expected


SEARCHER = '''mod imp {
    pub struct Searcher(());

    impl Searcher {
        pub fn empty() -> Self {
            Searcher(())
        }

        pub fn prefixes(_: Literals) -> Self {
            Searcher(())
        }

        pub fn suffixes(_: Literals) -> Self {
            Searcher(())
        }

        pub fn complete(&self) -> bool {
            false
        }

        pub fn find(&self, _: &[u8]) -> Option<(usize, usize)> {
            unreachable!()
        }

        pub fn len(&self) -> usize {
            0
        }

        pub fn is_empty(&self) -> bool {
            true
        }
    }
}
'''

LEN = '''        pub fn len(&self) -> usize {
            0
        }

'''


def test_an_edited_neighbour_of_a_moved_method_stays_where_it_is() -> None:
    """`len` moves up; `prefixes` next to it has its body edited, so only its header is an anchor.
    The edited method covers its old lines (main read it as moved too and dropped `empty` and
    `prefixes` to put them back as new code, with a stray blank line)."""
    snippet = '''        pub fn empty() -> Self {
            Searcher(())
        }

        pub fn prefixes(_: Literals) -> Self {
            Settings(())
        }

        pub fn suffixes(_: Literals) -> Self {
            Searcher(())
        }

        pub fn len(&self) -> usize {
            0
        }

        pub fn complete(&self) -> bool {
        // ... existing code ...
'''
    snippet = "// ... existing code ...\n" + snippet
    expected = SEARCHER.replace(LEN, "").replace("        pub fn complete", LEN + "        pub fn complete")
    expected = expected.replace("            Searcher(())\n        }\n\n        pub fn suffixes",
                                "            Settings(())\n        }\n\n        pub fn suffixes")
    assert apply(SEARCHER, snippet, filename="searcher.rs").merged_code == expected


COMPLETIONS = '''# completion helpers for the bluez tools

def addresses(cur):
    if scan_enabled():
        return scan(cur)
    return []

def devices(cur):
    return [d for d in list_devices() if d.startswith(cur)]

def packet_types(cur):
    return match(cur, PACKET_TYPES)

def hcitool(words):
    cur = words[-1]
    return devices(cur)
'''

ADDRESSES = '''def addresses(cur):
    if scan_enabled():
        return scan(cur)
    return []

'''


def test_a_move_out_of_the_files_head_shown_after_its_new_place() -> None:
    """`addresses` moves from the file's head to before `hcitool`; the head, shown closed up,
    comes second. Put back in file order, the first marker stands for nothing at the file's start,
    next to the moved definition's old lines: those are moved, not deleted by a guess (main
    refused: "the marker on snippet line 1 stands for no code where it is")."""
    snippet = '''# ... existing code ...
def packet_types(cur):
    return match(cur, PACKET_TYPES)

def addresses(cur):
    if scan_enabled():
        return scan(cur)
    return []

def hcitool(words):
# ... existing code ...
# completion helpers for the bluez tools

def devices(cur):
    return [d for d in list_devices() if d.startswith(cur)]
# ... existing code ...
'''
    expected = COMPLETIONS.replace(ADDRESSES, "").replace("def hcitool", ADDRESSES + "def hcitool")
    assert apply(COMPLETIONS, snippet, filename="completions.py").merged_code == expected


UTILS = '''import re


def quote(text):
    return text.replace('"', '\\\\"')


def unquote(text):
    return text.strip('"')

def has_surrogates(text):
    try:
        text.encode()
        return False
    except UnicodeEncodeError:
        return True

def format_date(stamp, usegmt=False):
    if usegmt:
        stamp = stamp.astimezone()
    return stamp.isoformat()

def parse_date(text):
    return datetime.fromisoformat(text)
'''

SURROGATES = '''def has_surrogates(text):
    try:
        text.encode()
        return False
    except UnicodeEncodeError:
        return True

'''


def test_a_moved_function_glued_to_the_code_above_gets_its_blank_line() -> None:
    """The snippet shows the moved function right after the last line of the one above it, with
    no blank line: it is spaced as it was from its siblings (one blank line on both sides in a
    file that mixes one and two), not glued to its new neighbour."""
    snippet = '''# ... existing code ...
def unquote(text):
    return text.strip('"')

def format_date(stamp, usegmt=False):
    if usegmt:
        stamp = stamp.astimezone()
    return stamp.isoformat()
def has_surrogates(text):
    try:
        text.encode()
        return False
    except UnicodeEncodeError:
        return True

def parse_date(text):
# ... existing code ...
'''
    expected = UTILS.replace(SURROGATES, "").replace("def parse_date", SURROGATES + "def parse_date")
    assert apply(UTILS, snippet, filename="utils.py").merged_code == expected


LOADER = '''class Loader:
    """Loads modules."""

    def is_package(self, fullname):
        """Return whether the module is a package.

        Raises ImportError if the module cannot be found.
        """
        raise ImportError

    def get_code(self, fullname):
        """Return the code object for the module."""
        source = self.get_source(fullname)
        return self.source_to_code(source)

    def source_to_code(self, data, path='<string>'):
        """Compile 'data' into a code object.

        The 'path' argument should be where the data was retrieved."""
        return compile(data, path, 'exec', dont_inherit=True)

    exec_module = _LoaderBasics.exec_module
'''

IS_PACKAGE = '''    def is_package(self, fullname):
        """Return whether the module is a package.

        Raises ImportError if the module cannot be found.
        """
        raise ImportError

'''


def test_a_python_part_that_starts_inside_a_docstring_shows_a_moved_method() -> None:
    """The part starts with the end of a docstring whose start the marker elides: parsed as it is,
    its closing quotes open a string that swallows the moved method, which then reads as new
    code next to its old copy (main refused: "could not be placed there")."""
    snippet = '''    # ... existing code ...
        The 'path' argument should be where the data was retrieved."""
        return compile(data, path, 'exec', dont_inherit=True)

    def is_package(self, fullname):
        """Return whether the module is a package.

        Raises ImportError if the module cannot be found.
        """
        raise ImportError

    exec_module = _LoaderBasics.exec_module
'''
    expected = LOADER.replace(IS_PACKAGE, "").replace("    exec_module", IS_PACKAGE + "    exec_module")
    assert apply(LOADER, snippet, filename="loader.py").merged_code == expected


FLAGS = '''package flags

func writeFlags(buf *Buffer, cmd *Command) {
	for _, flag := range cmd.Local() {
		writeShortFlag(buf, flag)
	}
	for _, flag := range cmd.Inherited() {
		writeShortFlag(buf, flag)
	}

	buf.WriteString("\\n")
}

func writeRequiredFlags(buf *Buffer, cmd *Command) {
	buf.WriteString("required=()\\n")
	for _, flag := range cmd.Required() {
		writeShortFlag(buf, flag)
	}

	buf.WriteString("\\n")
}

func writeNouns(buf *Buffer, cmd *Command) {
	buf.WriteString("nouns=()\\n")
	buf.WriteString(cmd.Nouns())
}

func writeAliases(buf *Buffer, cmd *Command) {
	buf.WriteString(cmd.Aliases())
}
'''

REQUIRED = '''func writeRequiredFlags(buf *Buffer, cmd *Command) {
	buf.WriteString("required=()\\n")
	for _, flag := range cmd.Required() {
		writeShortFlag(buf, flag)
	}

	buf.WriteString("\\n")
}

'''


def test_context_that_ends_like_the_moved_function_stands_for_the_function_before_it() -> None:
    """The first part ends like both `writeFlags` and the moved `writeRequiredFlags`; matched
    upwards from `writeNouns`, it passes over the moved function's old lines (they go elsewhere)
    and lands on the end of `writeFlags` (main paired it with the moved copy and refused)."""
    snippet = '''		// ... existing code ...
		writeShortFlag(buf, flag)
	}

	buf.WriteString("\\n")
}

func writeNouns(buf *Buffer, cmd *Command) {
	buf.WriteString("nouns=()\\n")
	buf.WriteString(cmd.Nouns())
}

''' + REQUIRED + '''func writeAliases(buf *Buffer, cmd *Command) {
// ... existing code ...
'''
    expected = FLAGS.replace(REQUIRED, "").replace("func writeAliases", REQUIRED + "func writeAliases")
    assert apply(FLAGS, snippet, filename="flags.go").merged_code == expected


def test_a_moved_method_that_ended_its_block_keeps_the_snippets_gluing() -> None:
    """A method that stood last in its block, right above the closing line, had no blank line
    after it: shown glued to the code above at its new place, it stays glued (the siblings'
    spacing says nothing of it), while one that had a sibling after it takes that spacing."""
    from fastapply.merge.anchor import Aligner
    from fastapply.merge.moves import _mark_moved, _Unit
    from fastapply.merge.segments import classify, normalize_all

    orig = ["impl Entry {", "    fn get(&self) {", "        get()", "    }", "", "    fn remove(self) {",
            "        take()", "    }", "}"]
    items = classify("    fn remove(self) {\n        take()\n    }\n", set(normalize_all(orig)))
    al = Aligner(items, orig, normalize_all(orig))
    _mark_moved(al, _Unit([0, 1, 2], 1), (5, 8))  # remove: last in the impl, `}` right after it
    assert (items[0].gap_above, items[0].gap_firm) == (0, False)
    items = classify("    fn get(&self) {\n        get()\n    }\n", set(normalize_all(orig)))
    al = Aligner(items, orig, normalize_all(orig))
    _mark_moved(al, _Unit([0, 1, 2], 0), (1, 4))  # get: one blank line to its sibling below
    assert (items[0].gap_above, items[0].gap_firm) == (1, False)



PHP_INPUT = '''<?php

class Input
{
    /**
     * {@inheritdoc}
     */
    public function getOption(string $name)
    {
        return $this->options[$name] ?? $this->definition->getOption($name)->getDefault();
    }

    /**
     * {@inheritdoc}
     */
    public function setOption(string $name, $value)
    {
        if ($this->definition->hasNegation($name)) {
            $this->options[$this->definition->negationToName($name)] = !$value;
            return;
        }
        $this->options[$name] = $value;
    }

    /**
     * {@inheritdoc}
     */
    public function hasOption(string $name)
    {
        return $this->definition->hasOption($name) || $this->definition->hasNegation($name);
    }

    /**
     * Escapes a token through escapeshellarg if it contains unsafe chars.
     */
    public function escapeToken(string $token)
    {
        return preg_match('{^[\\w-]+$}', $token) ? $token : escapeshellarg($token);
    }

    /**
     * {@inheritdoc}
     */
    public function setStream($stream)
    {
        $this->stream = $stream;
    }
}
'''
ESCAPE_TOKEN = '''    /**
     * Escapes a token through escapeshellarg if it contains unsafe chars.
     */
    public function escapeToken(string $token)
    {
        return preg_match('{^[\\w-]+$}', $token) ? $token : escapeshellarg($token);
    }

'''
SNIPPET_INPUT = '''        // ... existing code ...
        return $this->options[$name] ?? $this->definition->getOption($name)->getDefault();
    }

''' + ESCAPE_TOKEN + '''    /**
     * {@inheritdoc}
     */
    public function setOption(string $name, $value)
    {
        if ($this->definition->hasNegation($name)) {
            // ... existing code ...
    }
    // ... existing code ...
    public function hasOption(string $name)
    {
        return $this->definition->hasOption($name) || $this->definition->hasNegation($name);
    }

    /**
     * {@inheritdoc}
     // ... existing code ...
'''
SET_OPTION = "    /**\n     * {@inheritdoc}\n     */\n    public function setOption"
EXPECTED_INPUT = PHP_INPUT.replace(ESCAPE_TOKEN, "").replace(SET_OPTION, ESCAPE_TOKEN + SET_OPTION)


def test_common_context_after_a_moved_methods_old_place_stays_paired() -> None:
    """`/**` and `* {@inheritdoc}` occur all over the file; shown right after `hasOption`, they
    stand for the lines after it once the moved `escapeToken` (which sat between them) is gone,
    not for a copy elsewhere (main unpaired them as isolated and refused)."""
    assert apply(PHP_INPUT, SNIPPET_INPUT, filename="Input.php").merged_code == EXPECTED_INPUT



INITIALIZE = "    def initialize(app)\n      @app = app\n    end\n"
CALL = "    def call(env)\n      dup._call(env)\n    end\n"
_CALL = ("    def _call(env)\n      @script_name = env[SCRIPT_NAME]\n      @app.call(env)\n"
         "    rescue ForwardRequest => req\n      call(env.merge(req.env))\n    end\n")
INCLUDE = "    def include(env, path)\n"
RECURSIVE = ("require 'uri'\n\nmodule Rack\n  class Recursive\n" + INITIALIZE + "\n" + CALL + "\n" + _CALL + "\n"
             + INCLUDE + "      raise ArgumentError, path unless path.index(@script_name) == 0\n      @app.call(env)\n"
             "    end\n  end\nend\n")


def test_the_first_method_of_a_class_counted_as_moved_takes_the_blank_line_below_it() -> None:
    """`call` and `_call` swap; `initialize`, before them, is counted as moved to where it was (the
    chain of units that stay starts later). It was the first of its class, with no blank line
    above it: the blank line below goes with it, none is left under `class Recursive`."""
    marker = "# ... existing code ...\n"
    snippet = marker + INITIALIZE + "\n" + _CALL + "\n" + CALL + "\n" + INCLUDE + marker
    expected = RECURSIVE.replace(CALL + "\n", "").replace(INCLUDE, CALL + "\n" + INCLUDE)
    assert apply(RECURSIVE, snippet, filename="recursive.rb").merged_code == expected
