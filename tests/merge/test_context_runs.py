"""Context lines that only their neighbours place (issue 8, needless refusals): each test is a small
version of a class of snippets that were refused although a careful reader places every line, and
the near miss that must stay refused."""

import pytest

from fastapply import ApplyError, apply


def _kind(n: int, extra: str = "") -> str:
    return (f"static PyObject *escape_kind{n}(PyObject *in)\n{{\n"
            f"\tGET_DELTA(in, delta);\n\tif (!delta) {{\n\t\tPy_INCREF(in);\n\t\treturn in;\n\t}}\n"
            f"\tout = New(LENGTH(in) + delta);\n\tif (!out)\n\t\treturn NULL;\n\tinp = DATA_{n}(in);\n{extra}\treturn out;\n}}\n\n")


C_FILE = _kind(1) + _kind(2) + _kind(4)


def test_a_whole_block_above_a_unique_line_is_context_of_its_copy() -> None:
    # `if (!delta) { ... }` is in all three functions; walking up from the unique `DATA_4` line
    # past the new `trace` line, the block's closing brace comes first, and the whole block is
    # the original's right there: it is context, placed by the run of lines down to `DATA_4`.
    update = ("// ... existing code ...\n\tGET_DELTA(in, delta);\n\tif (!delta) {\n\t\tPy_INCREF(in);\n"
              "\t\treturn in;\n\t}\n\ttrace(in);\n\tout = New(LENGTH(in) + delta);\n\tif (!out)\n"
              "\t\treturn NULL;\n\tinp = DATA_4(in);\n// ... existing code ...\n")
    merged = apply(C_FILE, update, filename="speedups.c").merged_code
    assert merged == _kind(1) + _kind(2) + _kind(4).replace("\tout = New", "\ttrace(in);\n\tout = New")


GO_FILE = """\
package logrus

func (l *Logger) Println(args ...interface{}) {
	entry := l.newEntry()
	entry.Println(args...)
	l.release(entry)
}

func (l *Logger) Warnln(args ...interface{}) {
	l.Logln(WarnLevel, args...)
}

func (l *Logger) Warningln(args ...interface{}) {
	l.Warnln(args...)
}

func (l *Logger) Errorln(args ...interface{}) {
	l.Logln(ErrorLevel, args...)
}
"""


def test_a_unique_line_after_a_marker_inside_a_block_outweighs_the_blocks_closing_line() -> None:
    # The marker hides the end of Println and the head of Warnln: the `}` after the unique
    # `Logln(WarnLevel` line closes Warnln, not Println, and Warningln is deleted.
    update = """\
// ... existing code ...
func (l *Logger) Println(args ...interface{}) {
	entry := l.newEntry()
// ... existing code ...
	l.Logln(WarnLevel, args...)
}

func (l *Logger) Errorln(args ...interface{}) {
// ... existing code ...
"""
    merged = apply(GO_FILE, update, filename="logger.go").merged_code
    start = GO_FILE.index("func (l *Logger) Warningln")
    assert merged == GO_FILE[:start] + GO_FILE[GO_FILE.index("func (l *Logger) Errorln"):]


def _ruby(between: str) -> str:
    return ("class Chunked\n  def each\n    yield chunk\n    yield term\n  end\n\n" + between +
            "  private\n\n  def trailers\n  end\nend\n\nclass Plain\n  def each\n    yield body\n  end\n\n"
            "  private\n\n  def close\n  end\nend\n")


RUBY_UPDATE = "  # ... existing code ...\n    yield term\n  end\n\n  private\n  # ... existing code ...\n"


def test_a_line_before_a_marker_after_whole_deleted_definitions_is_context() -> None:
    # `private` follows `end` in the snippet; in the file a whole method stands between them:
    # the snippet deletes it, and `private` is the file's own line, not a new one.
    original = _ruby("  # Close the body.\n  def close\n    @body.close\n  end\n\n")
    merged = apply(original, RUBY_UPDATE, filename="chunked.rb").merged_code
    assert merged == _ruby("")


def test_a_line_before_a_marker_after_statements_stays_refused() -> None:
    # With a statement between them (not a whole definition), `private` may as well be new code
    # that makes what follows private: nothing tells, so the merge is refused, naming the line.
    original = _ruby("  attr_reader :body\n  attr_reader :size\n\n")
    with pytest.raises(ApplyError) as caught:
        apply(original, RUBY_UPDATE, filename="chunked.rb")
    assert caught.value.code == "ambiguous_anchor"
    assert "snippet line 5 ('private')" in caught.value.message


JS_FILE = """\
/**
 * Module dependencies.
 * @private
 */

var encode = require('encodeurl');
var mime = require('mime');

/**
 * Module variables.
 * @private
 */

var charsetRegExp = /;\\s*charset\\s*=/;

/**
 * Set status `code`.
 * @public
 */

res.status = function status(code) {
  this.statusCode = code;
  return this;
};
"""


def test_a_comment_tail_as_context_is_not_read_as_an_earlier_comments_tail() -> None:
    # ` * @private` / ` */` end two comments; read as the first, the snippet would delete the code
    # that comment describes and keep the comment's head: no reader means that.
    update = """\
// ... existing code ...
 * @private
 */

var charsetRegExp = /;\\s*charset\\s*=/;
var hostRegExp = /^\\/\\//;

/**
 * Set status `code`.
// ... existing code ...
"""
    merged = apply(JS_FILE, update, filename="response.js").merged_code
    assert merged == JS_FILE.replace("charset\\s*=/;\n", "charset\\s*=/;\nvar hostRegExp = /^\\/\\//;\n")


RUST_FILE = """\
impl Exec {
    fn exec_nfa(&self, text: &[u8], matches: &mut [bool], slots: &mut [Slot]) -> bool {
        if self.ro.nfa.uses_bytes() {
            pikevm::Fsm::exec(
                matches,
                slots,
                quit_after_match,
                ByteInput::new(text),
                start,
                end,
            )
        } else {
            pikevm::Fsm::exec(
                matches,
                slots,
                quit_after_match,
                CharInput::new(text),
                start,
                end,
            )
        }
    }

    /// Always runs the NFA using bounded backtracking.
    fn exec_backtrack(&self) -> bool {
        false
    }
}
"""


def test_context_then_edited_lines_that_replace_the_originals_one_for_one() -> None:
    # `matches,` / `slots,` start both calls; after them, four edited lines up to `)` replace the
    # four lines the nearest copy has there: the second call is edited, nothing is inserted.
    update = """\
                // ... existing code ...
                matches,
                slots,
                element,
                Buffer::new(text),
                source,
                candidate,
            )
        }
    }

    /// Always runs the NFA using bounded backtracking.
    // ... existing code ...
"""
    merged = apply(RUST_FILE, update, filename="exec.rs").merged_code
    old = "quit_after_match,\n                CharInput::new(text),\n                start,\n                end,\n"
    new = "element,\n                Buffer::new(text),\n                source,\n                candidate,\n"
    assert merged == RUST_FILE.replace(old, new)


SCHEMA = """\
{
  "properties": {
    "checks": {
      "type": "object",
      "properties": {
        "enabled": {
          "type": "boolean"
        },
        "report": {
          "type": "string"
        }
      }
    },
    "warnings": {
      "type": "object",
      "properties": {
        "enabled": {
          "type": "boolean"
        },
        "display": {
          "$ref": "#/$defs/WarningNameList"
        }
      }
    }
  }
}
"""


def test_context_with_an_edited_value_before_the_next_key_replaces_the_nearest_copy() -> None:
    # `"enabled": {` is in both objects; after it an edited value, then the same `},` as the
    # original before the next anchor: the nearest copy is edited one for one, not inserted again
    # (a second "enabled" key in one object).
    update = """\
        // ... existing code ...
        "enabled": {
          "enum": [0, 1]
        },
        "display": {
          // ... existing code ...
"""
    merged = apply(SCHEMA, update, filename="schema.json").merged_code
    head, tail = SCHEMA.split('"warnings"')
    assert merged == head + '"warnings"' + tail.replace('"type": "boolean"', '"enum": [0, 1]')


def _method(name: str, body: str) -> str:
    return f"  void {name}(at::Tensor& input) {{\n    at::AutoDispatchBelowAutograd guard;\n{body}    return make_work();\n  }}\n\n"


CPP_FILE = ("class FakeGroup {\n public:\n" + _method("broadcast", "    input.zero_();\n")
            + _method("allgather", "    auto chunks = output.chunk(size_);\n    for (auto& tensor : chunks) {\n"
                      "      tensor.copy_(input);\n    }\n")
            + _method("barrier", "") + "};\n")


def test_a_block_whose_first_line_is_edited_keeps_its_closing_line_and_what_follows() -> None:
    # The `for` line is edited, its body and `}` are not: the `}` and the common `return` after it
    # are the original's lines in that block, not new ones next to them.
    update = ("  // ... existing code ...\n    auto chunks = output.chunk(size_);\n"
              "    for (auto& element : chunks) {\n      tensor.copy_(input);\n    }\n"
              "    return make_work();\n  // ... existing code ...\n")
    merged = apply(CPP_FILE, update, filename="fake.hpp").merged_code
    assert merged == CPP_FILE.replace("auto& tensor", "auto& element")


def _schema(name: str, extra: str = "") -> str:
    return (f'    "{name}": {{\n      "properties": {{\n        "title": {{\n          "type": "string",\n{extra}'
            f'          "description": "The title of the {name}."\n        }},\n'
            f'        "{name}_version": {{\n          "type": "string"\n        }}\n      }}\n    }}')


JSON_FILE = "{\n  \"definitions\": {\n" + ",\n".join(_schema(n) for n in ("info", "contact", "license")) + "\n  }\n}\n"


def test_common_context_with_a_line_inserted_in_it_runs_into_its_anchor() -> None:
    # `"properties": {`, `"title": {` and `"type": "string",` are in every schema; the unique
    # lines below them, after the inserted line, place them all in `contact`, and the last
    # `"type": "string"` after `contact_version` is that block's own line, not a new one.
    update = ('      // ... existing code ...\n      "properties": {\n        "title": {\n'
              '          "type": "string",\n          "log_level": true,\n'
              '          "description": "The title of the contact."\n        },\n'
              '        "contact_version": {\n          "type": "string"\n      // ... existing code ...\n')
    merged = apply(JSON_FILE, update, filename="schema.json").merged_code
    assert merged == JSON_FILE.replace(_schema("contact"), _schema("contact", '          "log_level": true,\n'))


ROUTE_JS = """\
Route.prototype._handles_method = function _handles_method(method) {
  if (this.methods._all) {
    return true;
  }

  var name = method.toLowerCase();

  if (name === 'head' && !this.methods['head']) {
    name = 'get';
  }

  return Boolean(this.methods[name]);
};

Route.prototype._options = function _options() {
  var methods = Object.keys(this.methods);
  if (this.methods.get && !this.methods.head) {
    methods.push('head');
  }
  return methods;
};
"""


def test_a_line_found_once_in_the_file_places_its_context_before_a_rewritten_line() -> None:
    # `return true;` reads like a line found everywhere, but this file has it once: with its `}`
    # it is context, and the four lines after it replace the one line up to the `if` anchor.
    update = """\
// ... unchanged ...
    return true;
  }

  // normalize name
  var name = typeof method === 'string'
    ? method.toLowerCase()
    : method

  if (name === 'head' && !this.methods['head']) {
// ... unchanged ...
"""
    merged = apply(ROUTE_JS, update, filename="route.js").merged_code
    assert merged == ROUTE_JS.replace(
        "  var name = method.toLowerCase();\n",
        "  // normalize name\n  var name = typeof method === 'string'\n    ? method.toLowerCase()\n    : method\n")


def test_a_lost_original_line_is_refused_naming_the_snippet_line_next_to_it() -> None:
    # Every refusal names a snippet line: also the provenance check that finds an original line
    # gone without a reason (a splice that forgot a kept line, as a misplaced anchor leaves it).
    from fastapply.errors import ValidationError
    from fastapply.merge.anchor import Aligner
    from fastapply.merge.indent import detect_style
    from fastapply.merge.provenance import check_provenance
    from fastapply.merge.segments import classify, normalize
    from fastapply.merge.splice import splice

    original = "def pop(self):\n    item = self.items.pop(0)\n    self.size_changed()\n    return item\n"
    update = "def pop(self):\n    item = self.items.pop(0)\n    # ... existing code ...\n"
    orig = original.rstrip("\n").split("\n")
    onorm = [normalize(line) for line in orig]
    items = classify(update, set(onorm))
    al = Aligner(items, orig, onorm)
    al.rebase(items, {0: 0, 1: 1})
    style = detect_style(orig)
    spliced = splice(items, orig, {0: 0, 1: 1}, file_style=style, snip_style=style, drop=set())
    row = spliced.origin.index((-1, 2))
    del spliced.lines[row], spliced.origin[row]
    with pytest.raises(ValidationError) as caught:
        check_provenance(al, spliced, set())
    assert "original line 3" in caught.value.message
    assert "near snippet line 2 ('item = self.items.pop(0)')" in caught.value.message


GO_HEADER = """\
package doc

func fillHeader(header *GenManHeader, name string) error {
	if header.Title == "" {
		header.Title = strings.ToUpper(name)
	}
	if header.Section == "" {
		header.Section = "1"
	}
	if header.Date == nil {
		now := time.Now()
		header.Date = &now
	}
	return nil
}
"""


def test_a_closing_line_after_a_marker_is_the_one_before_the_next_anchor() -> None:
    # The marker inside the `Title` block may stand for its body or for more; the `}` after it
    # closes whatever ends right before `if header.Date`: the reading that deletes nothing.
    update = """\
func fillHeader(header *GenManHeader, name string) error {
	if header.Title == "" {
	// ... existing code ...
	}
	if header.Date == nil {
		now := time.Now().UTC()
	// ... existing code ...
"""
    merged = apply(GO_HEADER, update, filename="man_docs.go").merged_code
    assert merged == GO_HEADER.replace("now := time.Now()", "now := time.Now().UTC()")


CSS_FILE = """\
.table th,
.table td {
  border-bottom: 1px solid #ddd;
}

@media (max-width: 720px) {
  .layout {
    grid-template-columns: 1fr;
  }
}
"""


def test_a_closing_line_after_a_marker_with_only_new_code_after_it_closes_its_own_block() -> None:
    # Nothing after the `}` says the marker stands for more than the block's rest, so the `}` is
    # the block's own; the copies of `.table th,` inside the new block are new code, not anchors.
    update = """\
/* ... existing code ... */
@media (max-width: 720px) {
  /* ... existing code ... */
}

@media (prefers-color-scheme: dark) {
  .table th,
  .table td {
    border-bottom-color: #262a33;
  }
}
"""
    merged = apply(CSS_FILE, update, filename="dashboard.css").merged_code
    assert merged == CSS_FILE + update.split("}\n\n", 1)[1].join(["\n", ""])


PHP_FILE = """\
<?php

class PushoverHandler
{
    private function buildHeader(string $content): string
    {
        $header = "POST /1/messages.json HTTP/1.1\\r\\n";
        $header .= "Host: api.pushover.net\\r\\n";
        return $header;
    }

    protected function write(array $record): void
    {
        $this->user = null;
    }

    public function setHighPriorityLevel($value): self
    {
        $this->highPriorityLevel = $value;
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
}
"""

NEW_METHOD = """\
    private function fallbackValue($value, $fallback = null)
    {
        return $value ?? $fallback;
    }

"""


def test_a_closing_line_after_a_marker_yields_to_the_unique_line_after_it() -> None:
    # The marker in buildHeader stands for its rest and two more methods: the `return $this;` / `}`
    # after it end setHighPriorityLevel (the `/** Use the formatted message?` line after the new
    # method says where the snippet goes on), not buildHeader, which would delete both methods.
    update = """\
    // ... existing code ...
    private function buildHeader(string $content): string
    {
        error_log('buildHeader: start');
        $header = "POST /1/messages.json HTTP/1.1\\r\\n";
    // ... existing code ...
        return $this;
    }

""" + NEW_METHOD + """\
    /**
     * Use the formatted message?
    // ... existing code ...
"""
    merged = apply(PHP_FILE, update, filename="PushoverHandler.php").merged_code
    expected = PHP_FILE.replace("    {\n        $header =", "    {\n        error_log('buildHeader: start');\n"
                                "        $header =").replace("    /**\n", NEW_METHOD + "    /**\n")
    assert merged == expected


BASH_FILE = """\
_have apt-cache && {
    _installable()
    {
        apt-cache pkgnames "$1"
    }
} || {
    _installable()
    {
        command grep -A 1 "Package: $1" /var/lib/dpkg/available
    }
}

_have grep-status && {
    _purgeable()
    {
        grep-status -P -e "^$1" -n -s Package
    }
} || {
    _purgeable()
    {
        command grep -A 1 "Package: $1" /var/lib/dpkg/status
    }
}
"""


def test_context_above_the_next_anchor_is_matched_up_from_it() -> None:
    # Between `_have grep-status && {` and the unique `grep ... dpkg/status` line there is no
    # marker: the snippet deletes the first `_purgeable`. Its `} || {` reads like a closing line,
    # so matching down from the first anchor stops at once; matched up from the next anchor,
    # `} || {` and the two lines after it are the file's own, right above it. That leaves the
    # `_have grep-status && {` group (merged line 13) empty, which bash rejects: refused, naming it.
    update = """\
# ... unchanged ...
_have grep-status && {
} || {
    _purgeable()
    {
        command grep -A 1 "Package: $1" /var/lib/dpkg/status
# ... unchanged ...
"""
    with pytest.raises(ApplyError) as caught:
        apply(BASH_FILE, update, filename="dpkg-query.sh")
    assert caught.value.code == "syntax_regressed"
    assert "merged line 13 ('_have grep-status && {') empty" in caught.value.message
    # with a command left in the group, the same placement merges
    kept = BASH_FILE.replace("_have grep-status && {\n", "_have grep-status && {\n    _comp_purge=1\n")
    merged = apply(kept, update.replace("&& {\n", "&& {\n    _comp_purge=1\n"), filename="dpkg-query.sh").merged_code
    first = '    _purgeable()\n    {\n        grep-status -P -e "^$1" -n -s Package\n    }\n'
    assert merged == kept.replace(first, "")


TAP = """\
export function tap<T>(observer: Partial<TapObserver<T>>): MonoTypeOperatorFunction<T> {
  return operate((source, subscriber) => {
    let isUnsub = true;
    source.subscribe(
      createOperatorSubscriber(
        subscriber,
        (value) => {
          observer.next?.(value);
          subscriber.next(value);
        },
        () => {
          isUnsub = false;
          observer.complete?.();
          subscriber.complete();
        },
        (err) => {
          isUnsub = false;
          observer.error?.(err);
          subscriber.error(err);
        }
      )
    );
  });
}
"""


def test_a_callback_whose_body_is_rewritten_after_a_marker_replaces_its_copy() -> None:
    # `() => {` says little, and every line after it is new, but the original has a block of the
    # same length right before the next anchor, ending with the same `},`: it is that callback,
    # edited, not a new argument inserted next to it.
    update = """\
        // ... existing code ...
        () => {
          completed = true;
          observer.finalize?.();
          destination.complete();
        },
        (err) => {
        // ... existing code ...
"""
    merged = apply(TAP, update, filename="tap.ts").merged_code
    assert merged == TAP.replace("isUnsub = false;\n          observer.complete?.();\n          subscriber",
                                 "completed = true;\n          observer.finalize?.();\n          destination")


COLOR = """\
module Thor
  class Shell
    class Color < Basic
      def show_diff(destination, content)
        if diff_lcs_loaded?
          output_diff(destination, content)
        else
          super
        end
      end

      def output_diff_line(diff)
        case diff.action
        when "-"
          say "- #{diff.old_element.chomp}", :red, true
        else
          say "  #{diff.old_element.chomp}", nil, true
        end
      end

      # Check if Diff::LCS is loaded.
      def diff_lcs_loaded?
        @diff_lcs_loaded ||= false
      end
    end
  end
end
"""


def test_the_end_of_a_method_after_a_marker_deletes_the_whole_methods_up_to_the_anchor() -> None:
    # `super` / `end` / `end` end show_diff; output_diff_line, a whole method, stands between them
    # and the anchor: the snippet deletes it. Walking up from the anchor paired the two `end`
    # lines with output_diff_line's own, and `super` went into its `else` as new code.
    update = """\
          # ... existing code ...
          super
        end
      end

      # Check if Diff::LCS is loaded.
      # ... existing code ...
"""
    merged = apply(COLOR, update, filename="color.rb").merged_code
    start = COLOR.index("      def output_diff_line")
    assert merged == COLOR[:start] + COLOR[COLOR.index("      # Check if"):]


APTITUDE = """\
# Debian aptitude(1) completion                            -*- shell-script -*-

_have grep-status && {
    _comp_dpkg_hold_packages()
    {
        grep-status -P -e "^$1" -a -FStatus 'hold' -n -s Package
    }
} || {
    _comp_dpkg_hold_packages()
    {
        command grep -B 2 'hold' /var/lib/dpkg/status |
            awk "/Package: $1/ { print \\$2 }"
    }
}

_aptitude()
{
    local cur prev words cword
    _init_completion || return
}
"""


def test_a_trivial_line_before_an_edited_block_places_it_at_the_copy_before_the_anchor() -> None:
    # The function is defined in both branches; `} || {` above its header says which, and the
    # block's lines up to `_aptitude()` replace the fallback's one for one. Read as new code, the
    # rewritten function stood next to the old one in the same branch.
    update = """\
# ... existing code ...
} || {
    _comp_dpkg_hold_packages()
    {
        echo "_comp_dpkg_hold_packages is not supported here" >&2
        return 1
    }
}

_aptitude()
# ... existing code ...
"""
    merged = apply(APTITUDE, update, filename="aptitude.bash").merged_code
    old = "        command grep -B 2 'hold' /var/lib/dpkg/status |\n            awk \"/Package: $1/ { print \\$2 }\"\n"
    new = "        echo \"_comp_dpkg_hold_packages is not supported here\" >&2\n        return 1\n"
    assert merged == APTITUDE.replace(old, new)


GO_FLAGS = """\
package cobra

// MarkFlagRequired instructs the various shell completion implementations to
// prioritize the named flag when performing completion.
func MarkFlagRequired(flags *pflag.FlagSet, name string) error {
	return flags.SetAnnotation(name, BashCompOneRequiredFlag, []string{"true"})
}

// MarkFlagFilename instructs the various shell completion implementations to
// limit completions for the named flag to the specified file extensions.
func (c *Command) MarkFlagFilename(name string, extensions ...string) error {
	return MarkFlagFilename(c.Flags(), name, extensions...)
}

// MarkFlagCustom adds the BashCompCustom annotation to the named flag, if it exists.
// This will only work for bash completion.
func (c *Command) MarkFlagCustom(name string, f string) error {
	return MarkFlagCustom(c.Flags(), name, f)
}

// MarkFlagCustom adds the BashCompCustom annotation to the named flag, if it exists.
// This will only work for bash completion.
func MarkFlagCustom(flags *pflag.FlagSet, name string, f string) error {
	return flags.SetAnnotation(name, BashCompCustom, []string{f})
}
"""


def test_context_before_a_marker_with_a_new_comment_line_in_it_still_deletes_what_it_skips() -> None:
    # After `}` the snippet shows MarkFlagCustom's doc comment (in the file twice) with one new
    # line in it: it is the nearest copy's, and MarkFlagFilename between them is deleted. Read as
    # new code, the doc comment went in twice and MarkFlagFilename stayed.
    update = """\
// ... existing code ...
	return flags.SetAnnotation(name, BashCompOneRequiredFlag, []string{"true"})
}

// MarkFlagCustom adds the BashCompCustom annotation to the named flag, if it exists.
// See the changelog for the history of this rule.
// This will only work for bash completion.
// ... existing code ...
"""
    merged = apply(GO_FLAGS, update, filename="shell_completions.go").merged_code
    start = GO_FLAGS.index("// MarkFlagFilename")
    rest = GO_FLAGS[GO_FLAGS.index("// MarkFlagCustom"):]
    assert merged == GO_FLAGS[:start] + rest.replace(
        "exists.\n// This", "exists.\n// See the changelog for the history of this rule.\n// This", 1)


ITERATORS = """\
impl<A> Iterator for RepeatCall<A> {
    type Item = A;

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (usize::max_value(), None)
    }
}

impl<St, F> Iterator for Iterate<St, F> {
    type Item = St;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        Some(self.state)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (usize::max_value(), None)
    }
}

/// Creates a new iterator that infinitely applies function to value and yields results.
pub fn iterate<St, F>(initial_value: St, f: F) -> Iterate<St, F> {
    Iterate { state: initial_value, f }
}
"""


def test_a_method_shown_whole_above_the_anchor_is_the_copy_right_there() -> None:
    # itertools: the same method (header and body) in two impls; the snippet shows the second
    # with a new first line, right above the closing brace and the comment that anchor it
    update = """\
    // ...
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        log::debug!("size_hint: start");
        (usize::max_value(), None)
    }
}

/// Creates a new iterator that infinitely applies function to value and yields results.
// ...
"""
    at = ITERATORS.rindex("        (usize::max_value(), None)")
    expected = ITERATORS[:at] + '        log::debug!("size_hint: start");\n' + ITERATORS[at:]
    assert apply(ITERATORS, update, filename="sources.rs").merged_code == expected
