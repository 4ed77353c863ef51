"""The habits of frontier-model snippets (issue 8), one or more realistic cases each.

Each case is an original file, a snippet written the way models write them, and the file the
snippet means. Where the snippet does not say enough, a refusal (ApplyError) is the right answer
and the test says so; a merge that differs from the meant file is never acceptable.
"""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

PY_STORE = '''\
"""A small key-value store with expiry."""

import time
from typing import Optional


class Store:
    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._data: dict[str, tuple[float, str]] = {}
        self._hits = 0
        self._misses = 0

    def get(self, key: str) -> Optional[str]:
        entry = self._data.get(key)
        if entry is None:
            self._misses += 1
            return None
        expires, value = entry
        if expires < self._clock():
            del self._data[key]
            self._misses += 1
            return None
        self._hits += 1
        return value

    def put(self, key: str, value: str, ttl: float = 60.0) -> None:
        self._data[key] = (self._clock() + ttl, value)

    def stats(self) -> dict[str, int]:
        return {"hits": self._hits, "misses": self._misses, "size": len(self._data)}


def open_store(path: str) -> Store:
    store = Store()
    with open(path) as handle:
        for line in handle:
            key, _, value = line.rstrip("\\n").partition("=")
            store.put(key, value)
    return store
'''

TS_CART = """\
import { Item, Discount } from "./types";
import { formatPrice } from "./format";

const TAX_RATE = 0.2;

export class Cart {
  private items: Item[] = [];
  private discounts: Discount[] = [];

  add(item: Item): void {
    const existing = this.items.find((i) => i.sku === item.sku);
    if (existing) {
      existing.quantity += item.quantity;
      return;
    }
    this.items.push(item);
  }

  remove(sku: string): void {
    this.items = this.items.filter((i) => i.sku !== sku);
  }

  subtotal(): number {
    let total = 0;
    for (const item of this.items) {
      total += item.price * item.quantity;
    }
    return total;
  }

  total(): number {
    const discounted = this.discounts.reduce((sum, d) => sum - d.amount, this.subtotal());
    return discounted * (1 + TAX_RATE);
  }

  describe(): string {
    //
    // one line per item, then the total
    const lines = this.items.map((i) => `${i.name} x${i.quantity}`);
    lines.push(`total: ${formatPrice(this.total())}`);
    return lines.join("\\n");
  }
}
"""


def merge(original: str, update: str, filename: str) -> str:
    return apply(original, update, filename=filename).merged_code


# -- 1: markers at column 0 or in another comment syntax inside an indented block -------------------

def test_column0_marker_inside_a_method_keeps_the_rest_of_the_method() -> None:
    update = '''\
# ... existing code ...
    def get(self, key: str) -> Optional[str]:
        entry = self._data.get(key)
        if entry is None:
            self._misses += 1
            logger.debug("miss %s", key)
            return None
# ... existing code ...
        self._hits += 1
        return value
# ... existing code ...
'''
    expected = PY_STORE.replace('            self._misses += 1\n            return None\n        expires',
                                '            self._misses += 1\n            logger.debug("miss %s", key)\n'
                                '            return None\n        expires')
    assert merge(PY_STORE, update, "store.py") == expected


def test_column0_marker_right_before_the_closing_brace_keeps_the_block() -> None:
    update = """\
// ... existing code ...
  subtotal(): number {
    let total = 0;
    for (const item of this.items) {
      total += item.price * item.quantity * (item.taxable ? 1 : 1);
    }
// ... existing code ...
  }
// ... existing code ...
"""
    expected = TS_CART.replace("total += item.price * item.quantity;",
                               "total += item.price * item.quantity * (item.taxable ? 1 : 1);")
    assert merge(TS_CART, update, "cart.ts") == expected


GLOO_HEADER = """\
#pragma once

#include <string>

namespace c10d {

class TORCH_API GlooDeviceFactory {
  static std::mutex mutex_;

 public:
  // Create new device instance for specific interface.
  static std::shared_ptr<::gloo::transport::Device> makeDeviceForInterface(
      const std::string& interface,
      bool lazyInit);

  // Create new device instance for specific hostname or address.
  static std::shared_ptr<::gloo::transport::Device> makeDeviceForHostname(
      const std::string& hostname,
      bool lazyInit);
};

} // namespace c10d
"""


def test_column0_marker_after_an_access_label_stands_for_the_members_under_it() -> None:
    # ` public:` ends with ':' and the member after the marker is deeper: the marker is in the
    # class body. Read at column 0 it ended the class there, which then counted as given whole
    # (a new member its last line), and the members after the snippet's last line were dropped.
    update = """\
// ... existing code ...
class TORCH_API GlooDeviceFactory {
  static std::mutex mutex_;
  static int retries_;

 public:
// ... existing code ...
  static std::shared_ptr<::gloo::transport::Device> makeDeviceForInterface(
      const std::string& interface,
      bool record);

  // Create new device instance for specific hostname or address.
  static std::shared_ptr<::gloo::transport::Device> makeDeviceForHostname(
// ... existing code ...
"""
    expected = GLOO_HEADER.replace("interface,\n      bool lazyInit", "interface,\n      bool record") \
        .replace("mutex_;\n", "mutex_;\n  static int retries_;\n")
    assert merge(GLOO_HEADER, update, "GlooDeviceFactory.hpp") == expected


def test_marker_in_python_comment_syntax_inside_a_typescript_method() -> None:
    update = """\
  add(item: Item): void {
    # ... existing code ...
      existing.quantity += item.quantity;
      this.touched = true;
      return;
    }
    this.items.push(item);
  }
"""
    expected = TS_CART.replace("      existing.quantity += item.quantity;\n      return;",
                               "      existing.quantity += item.quantity;\n      this.touched = true;\n      return;")
    assert merge(TS_CART, update, "cart.ts") == expected


# -- 2: a renamed definition next to a marker ---------------------------------------------------------

def test_renamed_method_next_to_a_marker_replaces_the_old_one() -> None:
    update = '''\
# ... existing code ...
    def put(self, key: str, value: str, ttl: float = 60.0) -> None:
        self._data[key] = (self._clock() + ttl, value)

    def statistics(self) -> dict[str, int]:
        return {"hits": self._hits, "misses": self._misses, "size": len(self._data)}
# ... existing code ...
'''
    expected = PY_STORE.replace("def stats(self)", "def statistics(self)")
    result = _merge_or_refuse(PY_STORE, update, "store.py")
    assert result is None or result == expected


# -- 3: moved code --------------------------------------------------------------------------------------

def test_function_moved_above_its_caller_is_not_kept_twice() -> None:
    original = '''\
import json


def load(path):
    with open(path) as handle:
        return parse(handle.read())


def save(path, data):
    with open(path, "w") as handle:
        handle.write(json.dumps(data, indent=2))


def parse(text):
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("expected an object")
    return data
'''
    update = '''\
import json


def parse(text):
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("expected an object")
    return data


def load(path):
    with open(path) as handle:
        return parse(handle.read())


def save(path, data):
    with open(path, "w") as handle:
        handle.write(json.dumps(data, indent=2))
'''
    expected = update
    assert merge(original, update, "io.py") == expected


IO_PY = '''\
import json


def load(path):
    with open(path) as handle:
        return parse(handle.read())


def save(path, data):
    with open(path, "w") as handle:
        handle.write(json.dumps(data, indent=2))


def parse(text):
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("expected an object")
    return data


def main():
    print(load("x.json"))
'''


def test_definition_moved_to_the_top_next_to_a_marker_moves() -> None:
    update = '''\
import json


def parse(text):
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("expected an object")
    return data


def load(path):
    with open(path) as handle:
        return parse(handle.read())
# ... existing code ...
'''
    parse = IO_PY[IO_PY.index("def parse"):IO_PY.index("def main")]
    expected = IO_PY.replace(parse, "").replace("import json\n\n\n", "import json\n\n\n" + parse)
    assert merge(IO_PY, update, "io.py") == expected


def test_partly_shown_definition_out_of_order_is_never_moved() -> None:
    update = '''\
import json


def parse(text):
    data = json.loads(text)
    # ... existing code ...


def load(path):
    with open(path, encoding="utf-8") as handle:
        return parse(handle.read())
# ... existing code ...
'''
    result = _merge_or_refuse(IO_PY, update, "io.py")
    assert result is None or result == IO_PY.replace("open(path) as", 'open(path, encoding="utf-8") as')


def test_extracted_helper_placed_before_a_marker_and_its_caller() -> None:
    update = '''\
# ... existing code ...


def _parse_line(line: str) -> tuple[str, str]:
    key, _, value = line.rstrip("\\n").partition("=")
    return key, value


def open_store(path: str) -> Store:
    store = Store()
    with open(path) as handle:
        for line in handle:
            store.put(*_parse_line(line))
    return store
'''
    expected = PY_STORE.replace('''def open_store(path: str) -> Store:
    store = Store()
    with open(path) as handle:
        for line in handle:
            key, _, value = line.rstrip("\\n").partition("=")
            store.put(key, value)
''', '''def _parse_line(line: str) -> tuple[str, str]:
    key, _, value = line.rstrip("\\n").partition("=")
    return key, value


def open_store(path: str) -> Store:
    store = Store()
    with open(path) as handle:
        for line in handle:
            store.put(*_parse_line(line))
''')
    assert merge(PY_STORE, update, "store.py") == expected


# -- 4: segments out of file order ----------------------------------------------------------------------

def test_segments_out_of_file_order_are_placed_by_their_own_anchors() -> None:
    update = """\
// ... existing code ...
  total(): number {
    const discounted = this.discounts.reduce((sum, d) => sum - d.amount, this.subtotal());
    return Math.round(discounted * (1 + TAX_RATE) * 100) / 100;
  }
// ... existing code ...
  remove(sku: string): void {
    this.items = this.items.filter((i) => i.sku !== sku);
    this.onChange?.();
  }
// ... existing code ...
"""
    expected = TS_CART.replace("return discounted * (1 + TAX_RATE);",
                               "return Math.round(discounted * (1 + TAX_RATE) * 100) / 100;") \
        .replace("this.items = this.items.filter((i) => i.sku !== sku);\n",
                 "this.items = this.items.filter((i) => i.sku !== sku);\n    this.onChange?.();\n")
    assert merge(TS_CART, update, "cart.ts") == expected


def test_helper_shown_after_its_caller_out_of_order() -> None:
    update = '''\
# ... existing code ...
def open_store(path: str) -> Store:
    store = Store()
    with open(path, encoding="utf-8") as handle:
# ... existing code ...

    def put(self, key: str, value: str, ttl: float = 300.0) -> None:
        self._data[key] = (self._clock() + ttl, value)
# ... existing code ...
'''
    expected = PY_STORE.replace("with open(path) as handle:", 'with open(path, encoding="utf-8") as handle:') \
        .replace("ttl: float = 60.0", "ttl: float = 300.0")
    assert merge(PY_STORE, update, "store.py") == expected


# -- 5: edited lines not recognised as edits --------------------------------------------------------------

def test_annotation_change_replaces_the_line() -> None:
    update = '''\
# ... existing code ...
        self._clock = clock
        self._data: Dict[str, Tuple[float, str]] = {}
        self._hits = 0
# ... existing code ...
'''
    expected = PY_STORE.replace("self._data: dict[str, tuple[float, str]] = {}",
                                "self._data: Dict[str, Tuple[float, str]] = {}")
    assert merge(PY_STORE, update, "store.py") == expected


def test_literal_replaced_by_a_named_constant_between_markers() -> None:
    update = '''\
# ... existing code ...
    def put(self, key: str, value: str, ttl: float = DEFAULT_TTL) -> None:
# ... existing code ...
'''
    expected = PY_STORE.replace("ttl: float = 60.0", "ttl: float = DEFAULT_TTL")
    assert merge(PY_STORE, update, "store.py") == expected


def test_a_run_of_edited_lines_between_two_markers() -> None:
    update = """\
// ... existing code ...
  subtotal(): number {
    let sum = 0;
    for (const entry of this.items) {
      sum += entry.price * entry.quantity;
    }
    return sum;
  }
// ... existing code ...
"""
    expected = TS_CART.replace("""    let total = 0;
    for (const item of this.items) {
      total += item.price * item.quantity;
    }
    return total;""", """    let sum = 0;
    for (const entry of this.items) {
      sum += entry.price * entry.quantity;
    }
    return sum;""")
    assert merge(TS_CART, update, "cart.ts") == expected


def test_one_word_substitution_in_a_call() -> None:
    update = """\
// ... existing code ...
    const existing = this.items.find((i) => i.sku === item.sku);
    if (existing) {
      existing.quantity = item.quantity;
// ... existing code ...
"""
    expected = TS_CART.replace("existing.quantity += item.quantity;", "existing.quantity = item.quantity;")
    assert merge(TS_CART, update, "cart.ts") == expected


# -- 6: a new comment must not pair with a bare `//` --------------------------------------------------------

def test_new_comment_does_not_pair_with_a_bare_comment_line() -> None:
    update = """\
// ... existing code ...
  describe(): string {
    // one line per item, then the total (with tax)
    const lines = this.items.map((i) => `${i.name} x${i.quantity}`);
// ... existing code ...
"""
    result = _merge_or_refuse(TS_CART, update, "cart.ts")
    assert result is None or result == TS_CART.replace(
        "    //\n    // one line per item, then the total\n",
        "    //\n    // one line per item, then the total (with tax)\n") or result == TS_CART.replace(
        "    //\n    // one line per item, then the total\n", "    // one line per item, then the total (with tax)\n")
    assert result is None or "formatPrice(this.total())" in result


def test_new_comment_after_a_header_is_inserted_not_paired_with_a_bare_comment() -> None:
    update = """\
// ... existing code ...
  describe(): string {
    // Lists the cart for the receipt printer.
// ... existing code ...
"""
    expected = TS_CART.replace("  describe(): string {\n", "  describe(): string {\n"
                               "    // Lists the cart for the receipt printer.\n")
    assert merge(TS_CART, update, "cart.ts") == expected


# -- 7: a head segment without a leading marker --------------------------------------------------------------

def test_head_segment_without_leading_marker_replaces_the_head() -> None:
    update = '''\
"""A small key-value store with expiry and statistics."""

import logging
import time
from typing import Optional

logger = logging.getLogger(__name__)
# ... existing code ...
'''
    expected = PY_STORE.replace('"""A small key-value store with expiry."""\n\nimport time\n',
                                '"""A small key-value store with expiry and statistics."""\n\nimport logging\n'
                                'import time\n').replace("from typing import Optional\n",
                                                         "from typing import Optional\n\n"
                                                         "logger = logging.getLogger(__name__)\n", 1)
    assert merge(PY_STORE, update, "store.py") == expected


# -- 9: a near-whole-file snippet without markers -------------------------------------------------------------

def test_near_whole_file_without_markers_is_the_new_file() -> None:
    lines = PY_STORE.split("\n")
    update = "\n".join(lines[2:]).replace("return None\n        self._hits", "return None\n        self.hits")
    # the snippet leaves out the module docstring: nearly the whole file, no markers
    result = _merge_or_refuse(PY_STORE, update, "store.py")
    assert result is None or result == update or result == "\n".join(lines[:2]) + "\n" + update


# -- 10: trivial context after a marker ------------------------------------------------------------------------

LUA = """\
local M = {}

function M.find(list, wanted)
  for index, value in ipairs(list) do
    if value == wanted then
      return index
    end
  end
  return nil
end

function M.count(list, wanted)
  local total = 0
  for _, value in ipairs(list) do
    if value == wanted then
      total = total + 1
    end
  end
  return total
end

return M
"""


def test_trivial_context_after_a_marker_is_context() -> None:
    update = """\
-- ... existing code ...
function M.count(list, wanted)
  local total = 0
  for _, value in ipairs(list) do
    -- ... existing code ...
    end
  end
  return total * 1
end
-- ... existing code ...
"""
    expected = LUA.replace("  return total\n", "  return total * 1\n")
    assert merge(LUA, update, "list.lua") == expected


# -- 11: YAML records ----------------------------------------------------------------------------------------------

YAML = """\
services:
  - name: api
    image: registry.local/api:1.4.2
    port: 8080
    replicas: 3
  - name: worker
    image: registry.local/worker:1.4.2
    replicas: 2
  - name: cache
    image: redis:7
    port: 6379
"""


def test_yaml_new_record_does_not_anchor_on_a_coincidental_line() -> None:
    update = """\
services:
  # ... existing services ...
  - name: metrics
    image: prom/prometheus:2.51
    port: 8080
    replicas: 1
"""
    expected = YAML + "  - name: metrics\n    image: prom/prometheus:2.51\n    port: 8080\n    replicas: 1\n"
    result = _merge_or_refuse(YAML, update, "deploy.yaml")
    assert result is None or result == expected


# -- 12: blank lines around inserted blocks -------------------------------------------------------------------------

def test_no_doubled_blank_lines_around_an_inserted_function() -> None:
    update = '''\
# ... existing code ...
    def stats(self) -> dict[str, int]:
        return {"hits": self._hits, "misses": self._misses, "size": len(self._data)}


def empty_store() -> Store:
    return Store()


# ... existing code ...
'''
    expected = PY_STORE.replace('"size": len(self._data)}\n\n\n',
                                '"size": len(self._data)}\n\n\ndef empty_store() -> Store:\n'
                                '    return Store()\n\n\n')
    assert merge(PY_STORE, update, "store.py") == expected


def _merge_or_refuse(original: str, update: str, filename: str) -> str | None:
    try:
        return merge(original, update, filename)
    except ApplyError as error:
        assert error.code and "line" in str(error)
        return None


@pytest.mark.parametrize("update", [
    "# ... existing code ...\n    def drop(self, key: str) -> None:\n        self._data.pop(key, None)\n"
    "# ... existing code ...\n",
])
def test_refusals_name_the_snippet_line(update: str) -> None:
    try:
        merged = merge(PY_STORE, update, "store.py")
    except ApplyError as error:
        assert "line" in str(error)
    else:
        assert merged.count("def drop(") == 1


# -- more habits, as the generator's dev data showed them ----------------------------------------------

GO = """\
package store

import "errors"

// ErrMissing is returned when a key is absent.
var ErrMissing = errors.New("missing")

type Store struct {
\tdata map[string]string
}

func (s *Store) Get(key string) (string, error) {
\tvalue, ok := s.data[key]
\tif !ok {
\t\treturn "", ErrMissing
\t}
\treturn value, nil
}

func (s *Store) Put(key, value string) {
\ts.data[key] = value
}

func (s *Store) Delete(key string) {
\tdelete(s.data, key)
}
"""


def test_closing_line_alone_between_two_markers_is_context() -> None:
    update = """\
// ... existing code ...
func (s *Store) Get(key string) (string, error) {
\tvalue, ok := s.data[strings.TrimSpace(key)]
// ... existing code ...
\t}
// ... existing code ...
"""
    expected = GO.replace("s.data[key]\n\tif", "s.data[strings.TrimSpace(key)]\n\tif")
    assert merge(GO, update, "store.go") == expected


def test_missing_blank_line_before_an_inserted_function_is_restored() -> None:
    update = """\
// ... existing code ...
func (s *Store) Put(key, value string) {
\ts.data[key] = value
}
func (s *Store) Len() int {
\treturn len(s.data)
}

func (s *Store) Delete(key string) {
// ... existing code ...
"""
    expected = GO.replace("\ts.data[key] = value\n}\n\n", "\ts.data[key] = value\n}\n\n"
                          "func (s *Store) Len() int {\n\treturn len(s.data)\n}\n\n")
    assert merge(GO, update, "store.go") == expected


def test_renamed_go_method_pairs_with_its_old_header() -> None:
    update = """\
// ... existing code ...
func (s *Store) Remove(key string) {
\tdelete(s.data, key)
}
"""
    assert merge(GO, update, "store.go") == GO.replace("func (s *Store) Delete(", "func (s *Store) Remove(")


def test_copy_and_edit_sibling_is_not_a_rename() -> None:
    update = """\
// ... existing code ...
func (s *Store) Put(key, value string) {
\ts.data[key] = value
}

func (s *Store) PutIfAbsent(key, value string) {
\tif _, ok := s.data[key]; !ok {
\t\ts.data[key] = value
\t}
}
// ... existing code ...
"""
    result = _merge_or_refuse(GO, update, "store.go")
    assert result is None or "func (s *Store) Put(key" in result and "PutIfAbsent" in result \
        and "func (s *Store) Delete(" in result


def test_yaml_changed_value_of_a_list_item_replaces_it() -> None:
    update = """\
services:
  # ... existing services ...
    replicas: 2
  - name: cache
    image: redis:7.2
  # ... existing services ...
"""
    assert merge(YAML, update, "deploy.yaml") == YAML.replace("image: redis:7\n", "image: redis:7.2\n")
