"""Segments shown out of file order are put back in order by their own anchors (fastapply/merge/order.py)."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply
from merge_support import TAGS_PHP

PRICING = '''import math
from dataclasses import dataclass

TAX_RATE = 0.2


def round_cents(value: float) -> int:
    """Round a price in cents half up."""
    return int(math.floor(value + 0.5))


@dataclass
class Item:
    name: str
    cents: int
    quantity: int = 1


def line_total(item: Item) -> int:
    return round_cents(item.cents * item.quantity)


def order_total(items: list[Item]) -> int:
    subtotal = sum(line_total(item) for item in items)
    return round_cents(subtotal * (1 + TAX_RATE))
'''


def test_a_later_edit_shown_first_and_a_head_edit_placed_by_one_telling_line() -> None:
    """The constant's segment has one unchanged line of its own, at its edge: enough to place it
    (main refused: "starts new code between two markers")."""
    snippet = '''# ... existing code ...
def order_total(items: list[Item]) -> int:
    subtotal = sum(line_total(item) for item in items)
    return round_cents(subtotal * (1 + TAX_RATE) - DISCOUNT)
# ... existing code ...
from dataclasses import dataclass

TAX_RATE = 0.21
DISCOUNT = 0
# ... existing code ...
'''
    expected = PRICING.replace("TAX_RATE = 0.2\n", "TAX_RATE = 0.21\nDISCOUNT = 0\n").replace(
        "(1 + TAX_RATE))", "(1 + TAX_RATE) - DISCOUNT)")
    assert apply(PRICING, snippet, filename="pricing.py").merged_code == expected


def test_a_segment_with_one_short_line_of_its_own_is_not_placed() -> None:
    """`TAX_RATE = 0.2` alone says too little (it could be new code equal to an old line): refuse."""
    snippet = '''# ... existing code ...
def order_total(items: list[Item]) -> int:
    subtotal = sum(line_total(item) for item in items)
    return round_cents(subtotal * (1 + TAX_RATE) - DISCOUNT)
# ... existing code ...
TAX_RATE = 0.2
DISCOUNT = 0
# ... existing code ...
'''
    with pytest.raises(ApplyError) as error:
        apply(PRICING, snippet, filename="pricing.py")
    assert error.value.code == "ambiguous_anchor"


SESSION = '''require 'time'
require 'securerandom'

module Session
  class SessionId
    attr_reader :public_id

    def initialize(public_id)
      @public_id = public_id
    end

    # Commit the session to the response.
    def commit_session(req, res)
      session = req.session
      options = session.options
      res.set(options)
    end
  end
end
'''


def test_a_column_0_marker_after_a_header_is_placed_by_the_anchored_segment_after_it() -> None:
    """Put back in file order, the column-0 marker stands right after `class SessionId` and before
    the deeper segment shown first: that segment's first line is unique in both texts, so it says
    where the marker ends (main refused: "it would break the order of the snippet's other parts")."""
    snippet = '''# ... existing code ...
    # Commit the session to the response.
    def commit_session(req, res)
      log_step("commit_session")
      session = req.session
# ... existing code ...
require 'time'
require 'securerandom'

def log_step(message)
  warn message
end

module Session
  class SessionId
# ... existing code ...
'''
    expected = SESSION.replace("\nmodule Session", "\ndef log_step(message)\n  warn message\nend\n\nmodule Session")
    expected = expected.replace("res)\n      session", "res)\n      log_step(\"commit_session\")\n      session")
    assert apply(SESSION, snippet, filename="session.rb").merged_code == expected


CODEC = '''import codecs


class Encoder:
    def reset(self):
        self.first = 0

    def getstate(self):
        return self.first


class Decoder:
    def reset(self):
        self.first = 1

    def getstate(self):
        state = self.buffer_state()
        # state[1] must be 0 here, as it is not passed along
        return (state[0], self.first)

    def setstate(self, state):
        self.first = state[1]


class Reader:
    def reset(self):
        self.stream.reset()
'''


def _moved_setstate(first_body_line: str = "") -> str:
    """setstate moved above getstate, the snippet showing getstate's tail first; put back in file
    order, the column-0 marker stands after `def getstate(self):`, a header the file has twice."""
    return """# ... existing code ...
""" + first_body_line + """        # state[1] must be 0 here, as it is not passed along
        return (state[0], self.first)


class Reader:
# ... existing code ...
    def reset(self):
        self.first = 1

    def setstate(self, state):
        self.first = state[1]

    def getstate(self):
# ... existing code ...
"""


def test_a_column_0_marker_before_a_line_the_original_has_is_placed_by_that_line() -> None:
    """The deeper line after the marker is the original's (line 18): the alignment pairs it there,
    so the marker stands for getstate's first body line (main refused: "could not be placed")."""
    moved = "    def setstate(self, state):\n        self.first = state[1]\n\n"
    expected = CODEC.replace(moved, "").replace("    def getstate(self):\n        state", moved + "    def getstate(self):\n        state")
    assert apply(CODEC, _moved_setstate(), filename="codec.py").merged_code == expected


def test_a_column_0_marker_before_new_code_after_a_header_is_refused() -> None:
    """A new deeper line after the marker could start getstate's body or follow more of it: a guess."""
    with pytest.raises(ApplyError) as error:
        apply(CODEC, _moved_setstate("        self.log('getstate')\n"), filename="codec.py")
    assert error.value.code == "ambiguous_anchor"


def test_the_files_head_put_first_gets_no_marker_before_it() -> None:
    """Put back in file order, a part that starts on the file's first line has nothing before it:
    the marker that stood before the first part of the snippet is not put above it (standing for
    nothing there, next to a swapped definition's old copy, it made the merge refuse)."""
    from fastapply.languages import get_language
    from fastapply.merge.anchor import Aligner
    from fastapply.merge.defmatch import DefIndex
    from fastapply.merge.order import file_order
    from fastapply.merge.segments import classify, normalize_all

    orig = PRICING.rstrip("\n").split("\n")
    snippet = '''# ... existing code ...
def order_total(items: list[Item]) -> int:
    subtotal = sum(line_total(item) for item in items)
    return round_cents(subtotal * (1 + TAX_RATE) - DISCOUNT)
# ... existing code ...
import math
from dataclasses import dataclass

TAX_RATE = 0.21
DISCOUNT = 0
# ... existing code ...
'''
    items = classify(snippet, set(normalize_all(orig)))
    al = Aligner(items, orig, normalize_all(orig))
    ordered = file_order(al, DefIndex(get_language("python"), al))
    assert [item.text for item in ordered[:2]] == ["import math", "from dataclasses import dataclass"]
    assert sum(item.kind == "marker" for item in ordered) == 2



LVM_BASH = '''_lvm_volumegroups()
{
    COMPREPLY=($(compgen -W "$(vgscan)" -- "$cur"))
}

_lvm_physicalvolumes()
{
    COMPREPLY=($(compgen -W "$(pvscan)" -- "$cur"))
}

_lvm_logicalvolumes()
{
    COMPREPLY=($(compgen -W "$(lvscan)" -- "$cur"))
    if [[ $cur == /dev/mapper/* ]]; then
        for i in "${!COMPREPLY[@]}"; do
            unset 'COMPREPLY[i]'
        done
    fi
}

_lvm_units()
{
    COMPREPLY=($(compgen -W 'h s b k m g' -- "$cur"))
}
'''
SNIPPET_LVM_BASH = '''# ... existing code ...
_lvm_physicalvolumes()
{
    COMPREPLY=($(compgen -W "$(pvscan)" -- "$cur"))
    # ... existing code ...
        done
    fi
}

_lvm_units()
{
    COMPREPLY=($(compgen -W 'h s b k m g t' -- "$cur"))
}
'''


def test_a_closing_line_after_a_marker_closes_the_block_its_context_lines_belong_to() -> None:
    """The marker inside `_lvm_physicalvolumes` reaches into `_lvm_logicalvolumes`: `done` and
    `fi` after it are lines of that later function, so the `}` after them closes it, not the
    function whose header the part shows (main paired the `}` with the first function's end and
    read the second function as deleted, or refused)."""
    expected = LVM_BASH.replace("h s b k m g'", "h s b k m g t'")
    assert apply(LVM_BASH, SNIPPET_LVM_BASH, filename="lvm.sh").merged_code == expected


def test_a_php_head_shown_after_a_part_that_swaps_methods_and_ends_with_the_class_brace() -> None:
    """The part of methods ends with the class's `}` and swaps two of them: its definitions are
    read (fragments.py once blanked them all, up to that brace), so the head shown after it is
    put back first instead of refused."""
    snippet = """    // ... existing code ...
        $this->setTags($tags);
    }

    public function setTags(array $tags = []): self
    {
        $this->tags = $tags;

        return $this;
    }

    public function addTags(array $tags = []): self
    {
        $this->tags = array_merge($this->tags, $tags);

        return $this;
    }

    public function __invoke(array $record): array
    {
        $record['extra']['tags'] = array_values($this->tags);

        return $record;
    }
}
// ... existing code ...
<?php declare(strict_types=1);

// Adds the configured tags to every record.
namespace App\\Processor;
// ... existing code ...
"""
    setter, adder = (TAGS_PHP.split("    public function setTags")[1].split("\n\n    public")[0],
                     TAGS_PHP.split("    public function addTags")[1].split("\n\n    public")[0])
    expected = TAGS_PHP.replace("    public function addTags" + adder, "@@").replace(
        "    public function setTags" + setter, "    public function addTags" + adder).replace(
        "@@", "    public function setTags" + setter).replace(
        "= $this->tags;", "= array_values($this->tags);").replace(
        "\nnamespace", "\n// Adds the configured tags to every record.\nnamespace")
    assert apply(TAGS_PHP, snippet, filename="TagProcessor.php").merged_code == expected


COMPILER_PY = """import _sre

SRE_FLAG_IGNORECASE = 2
SRE_FLAG_UNICODE = 32


def _get_iscased(flags):
    if not flags & SRE_FLAG_IGNORECASE:
        return None
    elif flags & SRE_FLAG_UNICODE:
        return _sre.unicode_iscased
    else:
        return _sre.ascii_iscased


def _get_literal_prefix(pattern, flags):
    # look for literal prefix
    prefix = []
    return prefix


def dis(code):
    import sys

    def print_(*args, to=None):
        if to is not None:
            print('%3d' % to)
        print(*args)

    def print_2(*args):
        print(end=' ' * 2)
        print(*args)

    print_2(code)
"""


def test_a_segment_with_one_anchor_and_the_context_line_next_to_it_is_put_back_in_order() -> None:
    """The later part, shown first, has one line of its own (`def print_2`); the line above it
    (`print(*args)`, twice in the file) is the original's line above it too: the two stand together
    once, as good as a second anchor, so the parts are put back in file order."""
    snippet = """# [...]
        print(*args)

    def print_2(*args):
        print(end=' ' * 4)
        print(*args)
# [...]
    elif flags & SRE_FLAG_UNICODE:
        return _sre.unicode_iscased
    else:
        return _sre.ascii_iscased


def fallback_value(value, default=None):
    \"\"\"Return value, or default when it is missing.\"\"\"
    if value is None:
        return default
    return value


def _get_literal_prefix(pattern, flags):
    # look for literal prefix
# [...]
"""
    new_function = '''def fallback_value(value, default=None):
    """Return value, or default when it is missing."""
    if value is None:
        return default
    return value


'''
    expected = COMPILER_PY.replace("' ' * 2", "' ' * 4").replace(
        "def _get_literal_prefix", new_function + "def _get_literal_prefix")
    assert apply(COMPILER_PY, snippet, filename="_compiler.py").merged_code == expected


ACTIVE_HELP_GO = '''// Copyright 2013-2022 The Cobra Authors
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//      http://www.apache.org/licenses/LICENSE-2.0

package cobra

import (
	"fmt"
	"os"
	"strings"
)

func GetActiveHelpConfig(cmd *Command) string {
	activeHelpCfg := os.Getenv(activeHelpGlobalEnvVar)
	if activeHelpCfg != activeHelpGlobalDisable {
		activeHelpCfg = os.Getenv(activeHelpEnvVar(cmd.Root().Name()))
	}
	return activeHelpCfg
}

// activeHelpEnvVar returns the name of the program-specific ActiveHelp environment
// variable.
func activeHelpEnvVar(name string) string {
	// This format should not be changed: users will be using it explicitly.
	activeHelpEnvVar := strings.ToUpper(fmt.Sprintf("%s%s", name, activeHelpEnvVarSuffix))
	return strings.ReplaceAll(activeHelpEnvVar, "-", "_")
}
'''


def test_a_closing_line_alone_after_the_last_marker_stays_with_the_part_before_it() -> None:
    """The licence comment, shown between two parts of the end of the file, goes back first; the
    lone `}` after the last marker carries no anchor and ends the function the part before it
    shows (it was refused: a part without an anchor)."""
    snippet = '''// ... existing code ...
		activeHelpCfg = os.Getenv(activeHelpEnvVar(cmd.Root().Name()))
	}
	return activeHelpCfg
}

func logActiveHelpStep(message string) {
	fmt.Fprintln(os.Stderr, message)
}

// activeHelpEnvVar returns the name of the program-specific ActiveHelp environment
// ... existing code ...
// You may obtain a copy of the License at
//
// See the NOTICE file for the history of this rule.
//      http://www.apache.org/licenses/LICENSE-2.0
// ... existing code ...
func activeHelpEnvVar(name string) string {
	logActiveHelpStep("activeHelpEnvVar")
	// This format should not be changed: users will be using it explicitly.
// ... existing code ...
}
'''
    expected = ACTIVE_HELP_GO.replace("//\n//      http", "//\n// See the NOTICE file for the history of this rule.\n//      http").replace(
    "\treturn activeHelpCfg\n}\n", "\treturn activeHelpCfg\n}\n\nfunc logActiveHelpStep(message string) {\n\tfmt.Fprintln(os.Stderr, message)\n}\n").replace(
    "string) string {\n\t// This", "string) string {\n\tlogActiveHelpStep(\"activeHelpEnvVar\")\n\t// This")
    assert apply(ACTIVE_HELP_GO, snippet, filename="active_help.go").merged_code == expected


SCAFFOLD_PY = '''"""Scaffold."""
from __future__ import annotations

import os
import typing as t


class Scaffold:
    """Common behavior.

    .. versionadded:: 2.0
    """

    name: str
    _static_folder: str | None = None

    def __init__(self, import_name: str) -> None:
        self.import_name = import_name


def helper():
    """Helper.

    .. versionadded:: 2.0
    """
    return 1
'''


def test_context_next_to_a_segments_one_anchor_may_step_over_a_new_line() -> None:
    """flask's sansio/scaffold.py between two releases: a class attribute added right above the one
    unique line of its part (`name: str`), under the end of the class docstring. Past the new line,
    the closing quotes and `.. versionadded:: 2.0` (twice in the file) stand above that line in the
    original too: the part is placed, and the parts go back in file order."""
    snippet = '''# ... existing code ...
    .. versionadded:: 2.0
    """

    cli: t.Any
    name: str
# ... existing code ...
from __future__ import annotations

import os
import sys
import typing as t
# ... existing code ...
'''
    expected = SCAFFOLD_PY.replace("import os\n", "import os\nimport sys\n").replace(
        "    name: str\n", "    cli: t.Any\n    name: str\n")
    assert apply(SCAFFOLD_PY, snippet, filename="scaffold.py").merged_code == expected


SHOW_STATUS = """\
# frozen_string_literal: true

require 'erb'

module Rack
  # Rack::ShowStatus catches all empty responses and replaces them
  # with a site explaining the error.

  class ShowStatus
    def initialize(app)
      @app = app
      @template = ERB.new(TEMPLATE)
    end

    def call(env)
      status, headers, body = @app.call(env)
      empty = headers[CONTENT_LENGTH].to_i <= 0

      # client or server error, or explicit message
      if (status.to_i >= 400 && empty) || env[RACK_SHOWSTATUS_DETAIL]
        # This double assignment is to prevent an "unused variable" warning.
        req = req = Rack::Request.new(env)
        body = @template.result(binding)
        [status, headers, [body]]
      else
        [status, headers, body]
      end
    end
  end
end
"""


def test_a_renamed_method_shown_with_two_of_its_lines_places_its_part_in_file_order() -> None:
    # rack: the part with the renamed `initialize_safe` has one anchor of its own (`class
    # ShowStatus`); the two body lines it shows as they were, a run the original has once, place
    # it too, so the parts go back in file order
    update = """\
  # ... existing code ...
  class ShowStatus
    def initialize_safe(app)
      @app = app
      @template = ERB.new(TEMPLATE)
    # ... existing code ...
# frozen_string_literal: true

require 'erb'

CALL_MAX = 400

module Rack
      # ... existing code ...
      # client or server error, or explicit message
      if (status.to_i >= CALL_MAX && empty) || env[RACK_SHOWSTATUS_DETAIL]
        # This double assignment is to prevent an "unused variable" warning.
        # ... existing code ...
"""
    expected = SHOW_STATUS.replace("def initialize(app)", "def initialize_safe(app)")
    expected = expected.replace("require 'erb'\n", "require 'erb'\n\nCALL_MAX = 400\n")
    expected = expected.replace("status.to_i >= 400", "status.to_i >= CALL_MAX")
    assert apply(SHOW_STATUS, update, filename="show_status.rb").merged_code == expected


PACKAGE = '''{
	"name": "extend",
	"author": "Stefan",
	"version": "3.0.1",
	"description": "Port of jQuery.extend",
	"main": "index",
	"scripts": {
		"test": "npm run lint && npm run tests-only"
	},
	"contributors": [
		{
			"name": "Jordan",
			"url": "https://github.com/jordan"
		}
	],
	"dependencies": {},
	"devDependencies": {
		"tape": "^4.6.3",
		"covert": "^1.1.0",
		"jscs": "^3.0.7",
		"eslint": "^3.19.0",
		"@ljharb/eslint-config": "^11.0.0"
	},
	"license": "MIT"
}
'''


def test_parts_of_a_json_file_shown_out_of_order_are_placed_by_their_keys() -> None:
    # extend's package.json: the devDependencies part first, then the version part; the definition
    # matcher finds no parts there, and its empty answer had overruled the keys' own order
    edit = '''	// ... existing code ...
	"dependencies": {},
	"devDependencies": {
		"@ljharb/eslint-config": "^12.2.1",
		"covert": "^1.1.0",
		"eslint": "^4.19.1",
		"jscs": "^3.0.7",
		"tape": "^4.9.1"
	},
	"license": "MIT"
}
	// ... existing code ...
	"name": "extend",
	"author": "Stefan",
	"version": "3.0.2",
	"description": "Port of jQuery.extend",
	// ... existing code ...
'''
    expected = PACKAGE.replace('"3.0.1"', '"3.0.2"').replace('''		"tape": "^4.6.3",
		"covert": "^1.1.0",
		"jscs": "^3.0.7",
		"eslint": "^3.19.0",
		"@ljharb/eslint-config": "^11.0.0"
''', '''		"@ljharb/eslint-config": "^12.2.1",
		"covert": "^1.1.0",
		"eslint": "^4.19.1",
		"jscs": "^3.0.7",
		"tape": "^4.9.1"
''')
    assert apply(PACKAGE, edit, filename="package.json").merged_code == expected
