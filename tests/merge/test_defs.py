"""Definitions read with tree-sitter (fastapply/merge/defs.py, fragments.py): whole files and the
parts of a snippet between its markers, in several languages."""

from __future__ import annotations

from fastapply.languages import get_language
from fastapply.merge.defs import Definition, read_definitions
from fastapply.merge.segments import normalize_all
from merge_support import TAGS_PHP


def _read(language: str, text: str, markers: tuple[int, ...] = ()) -> list[Definition]:
    lines = text.split("\n")
    found = read_definitions(get_language(language), lines, normalize_all(lines), frozenset(markers))
    assert found is not None
    return found


def _by_name(found: list[Definition]) -> dict[str, Definition]:
    return {d.name: d for d in found}


PYTHON = '''import time


class Cache:
    """Entries that expire."""

    @property
    def size(self) -> int:
        return len(self._data)

    # Remove what expired before `now`.
    def purge(self, now: float) -> int:
        stale = [k for k, (t, _) in self._data.items() if t < now]
        for key in stale:
            del self._data[key]
        return len(stale)


def open_cache() -> Cache:
    return Cache()'''


def test_python_methods_have_their_class_as_scope_and_their_decorators_and_comments() -> None:
    found = _by_name(_read("python", PYTHON))
    assert set(found) == {"Cache", "size", "purge", "open_cache"}
    size, purge = found["size"], found["purge"]
    assert (size.kind, size.scope, size.first, size.header, size.last) == ("function_definition", "Cache", 6, 7, 8)
    assert (purge.first, purge.header, purge.last) == (10, 11, 15)  # the comment above belongs to it
    assert purge.signature == "def purge(self, now: float) -> int:"
    assert found["Cache"].parent == -1 and size.parent == list(_read("python", PYTHON)).index(found["Cache"])
    assert found["open_cache"].scope == "" and all(d.complete for d in found.values())


TYPESCRIPT = '''import { Config } from "./types";

/** Parse a config file. */
export function parseConfig(text: string): Config {
  return normalize(JSON.parse(text));
}

export class Loader {
  private cache = new Map<string, Config>();

  load(path: string): Config {
    return this.cache.get(path) ?? parseConfig(readFile(path));
  }
}'''


def test_typescript_export_is_one_definition_with_the_inner_kind() -> None:
    found = _by_name(_read("typescript", TYPESCRIPT))
    parse = found["parseConfig"]
    assert (parse.kind, parse.first, parse.header, parse.last) == ("function_declaration", 2, 3, 5)
    assert found["load"].scope == "Loader" and found["load"].kind == "method_definition"


GO = '''package store

// Get returns the value for key.
func (s *Store) Get(key string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data[key], nil
}

type Store struct {
	data map[string]string
}'''


def test_go_method_and_type_with_doc_comment() -> None:
    found = _by_name(_read("go", GO))
    assert (found["Get"].kind, found["Get"].first, found["Get"].header, found["Get"].last) == \
        ("method_declaration", 2, 3, 7)
    assert found["Store"].kind == "type_declaration" and found["Store"].last == 11


RUST = '''impl fmt::Display for Money {
    /// Cents as a decimal amount.
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:02}", self.0 / 100, self.0 % 100)
    }
}'''


def test_rust_impl_is_named_for_trait_and_type_and_attributes_go_with_the_function() -> None:
    found = _by_name(_read("rust", RUST))
    assert "fmt::Display for Money" in found
    assert (found["fmt"].first, found["fmt"].header, found["fmt"].scope) == (1, 3, "fmt::Display for Money")


def test_keys_of_data_files_are_definitions() -> None:
    json_found = _read("json", '{\n  "name": "app",\n  "scripts": {\n    "test": "pytest"\n  }\n}')
    assert [(d.name, d.scope) for d in json_found] == [("name", ""), ("scripts", ""), ("test", "scripts")]
    yaml_found = _read("yaml", "server:\n  port: 8080\n  host: localhost\nlogging: debug")
    assert [(d.name, d.scope) for d in yaml_found] == [("server", ""), ("port", "server"), ("host", "server"),
                                                      ("logging", "")]


def test_a_marker_cuts_a_definition_short_and_does_not_swallow_what_follows() -> None:
    # line 3 stands for elided code inside `lexer.cpp`, whose `end` the snippet does not show
    text = "function lexer.cpp(s)\n    local n = 1\n    -- ...\nfunction lexer.lua(s)\n    return s\nend"
    found = _by_name(_read("lua", text, markers=(2,)))
    assert not found["lexer.cpp"].complete and found["lexer.cpp"].last == 1
    assert found["lexer.lua"].complete and found["lexer.lua"].parent == -1 and found["lexer.lua"].scope == ""


def test_a_python_definition_right_before_a_deeper_marker_is_not_whole() -> None:
    text = "def load(path):\n    data = read(path)\n    # ...\n\ndef save(path):\n    write(path)"
    found = _by_name(_read("python", text, markers=(2,)))
    assert not found["load"].complete and found["load"].open_end
    assert found["save"].complete


def test_a_part_of_class_members_in_php_and_a_part_starting_inside_a_doc_comment() -> None:
    text = '''    // ...
     * @param int $level
     */
    public function setLevel(int $level): self
    {
        $this->level = $level;
        return $this;
    }
    // ...'''
    found = _read("php", text, markers=(0, 8))
    assert [(d.name, d.kind, d.first, d.header, d.last, d.complete) for d in found] == \
        [("setLevel", "method_declaration", 1, 3, 7, True)]


def test_a_part_that_starts_by_closing_a_block_still_yields_the_next_definition() -> None:
    text = '''        return $record;
    }

    /**
     * Clears the buffer.
     */
    public function clear(): void
    {
        $this->buffer = [];
    }'''
    found = _read("php", "<?php\n// ...\n" + text, markers=(1,))
    assert [(d.name, d.first, d.header, d.last) for d in found] == [("clear", 5, 8, 11)]


def test_a_part_that_ends_by_closing_its_class_keeps_the_methods_before_that_brace() -> None:
    """The part starts at the end of one method and ends with the class's own `}`: both close
    blocks opened before the part. Only the head up to the first one is an elided block's end;
    the class's brace goes alone, and the methods between are the part's (they were all blanked)."""
    text = TAGS_PHP[TAGS_PHP.index("        $this->setTags($tags);"):].rstrip("\n")
    found = _read("php", "<?php\n// ...\n" + text + "\n// ...", markers=(1, 26))
    assert [(d.name, d.header, d.last, d.complete) for d in found] == \
        [("addTags", 5, 10, True), ("setTags", 12, 17, True), ("__invoke", 19, 24, True)]


def test_a_part_that_starts_two_blocks_deep_skips_the_statements_between_their_ends() -> None:
    """`}` of a loop, `return $this;`, `}` of its method: all the end of elided blocks (no block
    opens between them), so the method after them is the part's first definition."""
    text = '''            $this->suggestValue($value);
        }

        return $this;
    }

    public function suggestOptions(array $options): self
    {
        foreach ($options as $option) {
            $this->suggestOption($option);
        }

        return $this;
    }'''
    found = _read("php", "<?php\n// ...\n" + text + "\n// ...", markers=(1, 17))
    assert [(d.name, d.header, d.last) for d in found] == [("suggestOptions", 8, 15)]


def test_no_grammar_or_too_large_means_no_definitions() -> None:
    lines = ["a = 1"]
    assert read_definitions(None, lines, lines) is None
    big = ["x = 1"] * 200_000
    assert read_definitions(get_language("python"), big, big) is None


def test_the_comments_above_a_ruby_classs_first_method_go_with_the_method() -> None:
    """tree-sitter-ruby puts the comments before a class's first statement in the class, beside
    its body: they are still the method's own (a move of that method takes them along); a comment
    that ends the class's header line is not."""
    found = _by_name(_read("ruby", '''class BodyProxy
  # Set the response body to wrap.
  # And the block to call.
  def initialize(body, &block)
    @body = body
  end
end

class Other # a note on the header
  def run
    1
  end
end'''))
    assert (found["initialize"].first, found["initialize"].header) == (1, 3)
    assert (found["run"].first, found["run"].header) == (9, 9)


def test_a_part_that_ends_inside_a_doc_comment_keeps_its_method_and_the_comment_above_it() -> None:
    """The next marker cuts the part inside the doc comment of the method after it (`/**` and one
    line, right under the method's `}`). Closed for the parse, the part reads as class members:
    `public function debug` is a method whose doc comment is its first line. Before, every variant
    had one error, the unwrapped text won, and `public` stood between the comment and a top-level
    function (symfony GithubActionReporter.php: the method then could not be moved)."""
    text = '''        return false !== getenv('GITHUB_ACTIONS');
    }

    /**
     * Output a debug log using the Github annotations format.
     *
     * @see https://docs.github.com/en/free-pro-team@latest/actions/reference/workflow-commands-for-github-actions#setting-a-debug-message
     */
    public function debug(string $message, ?string $file = null, ?int $line = null, ?int $col = null): void
    {
        $this->log('debug', $message, $file, $line, $col);
    }
    /**
     * Output an error using the Github annotations format.'''
    found = _read("php", "<?php\n// ...\n" + text + "\n// ...", markers=(1, 16))
    assert [(d.name, d.kind, d.first, d.header, d.last) for d in found] == \
        [("debug", "method_declaration", 5, 10, 13)]


def test_a_python_part_that_starts_inside_an_import_list_still_shows_its_functions() -> None:
    """A part cut after a marker inside `from io import (` ... `)`: its first lines end the list, and
    left as they are, their unmatched `)` hid the functions after them from the parse."""
    text = "\n".join(["                 # ... existing code ...",
                      "                 open, open_code, FileIO, BytesIO, StringIO, BufferedReader,",
                      "                 BufferedWriter, BufferedRWPair, BufferedRandom,",
                      "                 IncrementalNewlineDecoder, text_encoding, TextIOWrapper)", "", "",
                      "def log_step(message):", "    logger.debug(message)", "",
                      "def __getattr__(name):", "    log_step(name)", '    if name == "OpenWrapper":',
                      "        # kept for older callers, which read it", "        # as a plain function",
                      "        # ... existing code ..."])
    assert set(_by_name(_read("python", text, (0, 14)))) == {"log_step", "__getattr__"}


def test_a_part_cut_inside_a_parenthesised_expression_still_shows_its_function() -> None:
    """A part that ends in `return (` before a marker: the parse closes the expression (`0)`), not
    only with a bare `)` that leaves `return ()` (ws's validation.js, dev split)."""
    text = "\n".join(["// ... existing code ...", " * @param {Number} code The status code", " */",
                      "function isValidStatusCode(code) {", "  return (", "    // ... existing code ...", "}"])
    found = _by_name(_read("javascript", text, (0, 5)))
    assert found["isValidStatusCode"].header == 3


def test_a_part_that_starts_inside_a_method_body_still_shows_the_next_method() -> None:
    """The end of one method (its `const`, `try` and closing braces), then the next method: the
    head up to the class-level `}` is the end of elided blocks, blanked for the parse; a `const`
    line there names something but opens no definition's block (axios's Axios.js, dev split)."""
    text = "\n".join(["        // ... existing code ...",
                      "        const stack = dummy.stack ? dummy.stack.replace(/^.+\\n/, '') : '';",
                      "        try {", "          err.stack = stack;", "        } catch (e) {", "          // ignore",
                      "        }", "      }", "", "      throw err;", "    }", "  }", "",
                      "  _request(configOrUrl, config) {", "    /*eslint no-param-reassign:0*/",
                      "    // ... existing code ..."])
    assert set(_by_name(_read("javascript", text, (0, 15)))) == {"_request"}
