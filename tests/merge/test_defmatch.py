"""Matching the snippet's definitions with the original's (fastapply/merge/defmatch.py): identical
first, then by name, then renames by body, in python, typescript, go and rust; ties are no match."""

from __future__ import annotations

import pytest

import fastapply

from fastapply.languages import get_language
from fastapply.merge import defmatch, defs
from fastapply.merge.anchor import Aligner
from fastapply.merge.defmatch import DefIndex, DefinitionMatch, category
from fastapply.merge.plan import _without_notes
from fastapply.merge.segments import classify, drop_closing_context, normalize_all, place_markers


def _index(language: str, original: str, snippet: str) -> DefIndex:
    """The definitions of one merge call, built the way plan_merge builds them."""
    orig = original.split("\n")
    onorm = normalize_all(orig)
    items = drop_closing_context(place_markers(_without_notes(classify(snippet, set(onorm)))))
    return DefIndex(get_language(language), Aligner(items, orig, onorm))


def _match(language: str, original: str, snippet: str) -> tuple[DefinitionMatch, dict[str, str]]:
    match = _index(language, original, snippet).match()
    assert match is not None
    named = {match.snippet[s].name: match.original[o].name for s, o in match.pairs.items()}
    return match, named


PY_ORIGINAL = '''import json


class Settings:
    def __init__(self, path):
        self.path = path
        self.values = {}

    def load(self):
        with open(self.path) as handle:
            self.values = json.load(handle)
        return self.values

    def get(self, key, default=None):
        return self.values.get(key, default)


def read_settings(path):
    settings = Settings(path)
    settings.load()
    return settings'''


def test_python_identical_by_name_and_renamed() -> None:
    snippet = '''# ... existing code ...
    def load_file(self):
        with open(self.path) as handle:
            self.values = json.load(handle)
        return self.values

    def get(self, key, default=""):
        return self.values.get(key, default)


def read_settings(path):
    settings = Settings(path)
    settings.load()
    return settings'''
    match, named = _match("python", PY_ORIGINAL, snippet)
    assert named == {"load_file": "load", "get": "get", "read_settings": "read_settings"}
    renamed = [match.snippet[s].name for s in match.renamed]
    assert renamed == ["load_file"]
    top = next(s for s, d in enumerate(match.snippet) if d.name == "read_settings")
    assert top in match.identical
    # every line of an identical definition stands for its original line; a renamed header for the old one
    first = match.snippet[top]
    assert match.anchor(first.header + 2) == PY_ORIGINAL.split("\n").index("    settings.load()")
    load = next(s for s, d in enumerate(match.snippet) if d.name == "load_file")
    assert match.anchor(match.snippet[load].header) == PY_ORIGINAL.split("\n").index("    def load(self):")


TS_ORIGINAL = '''export function parseConfig(text: string): Config {
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
}'''


def test_typescript_edited_body_matches_by_name_and_a_new_function_matches_nothing() -> None:
    snippet = '''// ... existing code ...
function normalize(raw: any): Config {
  return {
    retries: Number(raw.retries ?? 5),
    timeoutMs: Number(raw.timeoutMs ?? 1000),
  };
}

export function mergeConfig(a: Config, b: Config): Config {
  return { ...a, ...b };
}'''
    match, named = _match("typescript", TS_ORIGINAL, snippet)
    assert named == {"normalize": "normalize"} and not match.identical and not match.renamed


GO_ORIGINAL = '''package store

func (s *Store) Get(key string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data[key], nil
}

func (s *Store) Peek(key string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data[key], nil
}

func (s *Store) Len() int {
	return len(s.data)
}'''


def test_go_rename_with_two_equal_old_bodies_is_no_match() -> None:
    snippet = '''// ... existing code ...
func (s *Store) Lookup(key string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data[key], nil
}
// ... existing code ...'''
    match, named = _match("go", GO_ORIGINAL, snippet)
    assert named == {} and match.renamed == []  # Get and Peek fit alike: a guess is worse than nothing


RUST_ORIGINAL = '''mod small {
    /// AddAssign small integer to bigint.
    #[inline]
    pub fn iadd(x: &mut Vec<Limb>, y: Limb) {
        iadd_impl(x, y, 0);
    }
}

mod large {
    /// AddAssign bigint to bigint.
    #[inline]
    pub fn iadd(x: &mut Vec<Limb>, y: &[Limb]) {
        iadd_impl(x, y, 0);
    }
}'''


def test_rust_rename_told_apart_by_the_doc_comment_above_equal_bodies() -> None:
    snippet = '''// ... existing code ...
    /// AddAssign small integer to bigint.
    #[inline]
    pub fn iadd_checked(x: &mut Vec<Limb>, y: Limb) {
        iadd_impl(x, y, 0);
    }
// ... existing code ...'''
    match, _ = _match("rust", RUST_ORIGINAL, snippet)
    (s,) = match.renamed
    assert match.original[match.pairs[s]].scope == "small"


def test_a_new_sibling_copied_from_an_old_one_is_not_a_rename() -> None:
    # `Has` is new and reads like `Get`, but it stands after `Len`, far from `Get`
    snippet = '''// ... existing code ...
func (s *Store) Len() int {
	return len(s.data)
}

func (s *Store) Has(key string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data[key], nil
}'''
    original = GO_ORIGINAL.replace("func (s *Store) Peek", "func (s *Store) PeekAt").replace(
        "return s.data[key], nil\n}\n\nfunc (s *Store) Len", "return s.data[key], false\n}\n\nfunc (s *Store) Len")
    match, named = _match("go", original, snippet)
    assert "Has" not in named and match.renamed == []


def test_methods_and_functions_share_a_category() -> None:
    assert category("method_declaration") == category("function_definition") == category("function_item") \
        == category("method") == "function"
    assert category("class_declaration") == category("impl_item") == "type"
    assert category("pair") == "pair"


@pytest.mark.parametrize("snippet", [
    "# ... existing code ...\n    def get(self, key, default=None):\n        return self.values.get(key, default)\n"
    "# ... existing code ...",
    "# ... existing code ...\ndef read_settings(path):\n    settings = Settings(path)\n# ... existing code ...",
])
def test_snippets_in_file_order_parse_nothing(snippet: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Most merges never need the definitions: only the snippet's parts may be parsed, never the original."""
    import fastapply

    texts: list[int] = []
    real = defs.read_definitions

    def counting(spec, lines, norms, markers=frozenset()):  # type: ignore[no-untyped-def]
        texts.append(len(lines))
        return real(spec, lines, norms, markers)

    monkeypatch.setattr(defmatch, "read_definitions", counting)
    fastapply.apply(PY_ORIGINAL, snippet.replace("default=None", "default=0"), filename="settings.py")
    assert len(PY_ORIGINAL.split("\n")) not in texts


_RINGBUF = """\
#include <stddef.h>

size_t rb_read(struct ringbuf *rb, uint8_t *dst, size_t len)
{
	size_t n = len < rb_used(rb) ? len : rb_used(rb);
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = rb->data[RB_MASK(rb, rb->tail + i)];
	rb->tail += n;
	return n;
}

int rb_peek(const struct ringbuf *rb, size_t offset, uint8_t *out)
{
	if (offset >= rb_used(rb))
		return RB_EMPTY;
	*out = rb->data[RB_MASK(rb, rb->tail + offset)];
	return RB_OK;
}

size_t rb_dropped(const struct ringbuf *rb)
{
	return rb->dropped;
}
"""

_DISCARD = """\
// ... existing code ...
int rb_peek(const struct ringbuf *rb, size_t offset, uint8_t *out)
{
	// ... existing code ...
}

size_t rb_discard(struct ringbuf *rb, size_t len)
{
	size_t n = len < rb_used(rb) ? len : rb_used(rb);

	rb->tail += n;
	return n;
}

// ... existing code ...
"""


def test_a_new_sibling_after_a_matched_one_is_not_a_rename_of_one_before_it():
    # rb_discard's body is most like rb_read's, but it is shown right after rb_peek, which stands
    # after rb_read in the file (the marker inside rb_peek elides its body, not the code between)
    match, named = _match("c", _RINGBUF, _DISCARD)
    assert named.get("rb_peek") == "rb_peek"
    assert "rb_discard" not in named and not match.renamed
    merged = fastapply.apply(_RINGBUF, _DISCARD, filename="ringbuf.c").merged_code
    assert "size_t rb_read(" in merged and merged.index("rb_peek(") < merged.index("rb_discard(")
