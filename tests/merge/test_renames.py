"""Renamed definitions replace the old one instead of being added next to it (fastapply/merge/renames.py)."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

LIMBS = '''mod small {
    use super::Limb;

    /// AddAssign small integer to bigint.
    #[inline]
    pub fn iadd(x: &mut Vec<Limb>, y: Limb) {
        iadd_impl(x, y, 0);
    }

    /// SubAssign small integer to bigint.
    #[inline]
    pub fn isub(x: &mut Vec<Limb>, y: Limb) {
        isub_impl(x, y, 0);
    }
}

mod large {
    use super::Limb;

    /// AddAssign bigint to bigint.
    #[inline]
    pub fn iadd(x: &mut Vec<Limb>, y: &[Limb]) {
        iadd_impl(x, y, 0);
    }
}
'''


def test_rust_rename_among_equal_bodies_told_apart_by_its_doc_comment() -> None:
    """Two `iadd` share their body; the doc comment says which one is renamed (main refused:
    none of the lines placed the snippet)."""
    snippet = '''// ... existing code ...
    /// AddAssign small integer to bigint.
    #[inline]
    pub fn iadd_checked(x: &mut Vec<Limb>, y: Limb) {
        iadd_impl(x, y, 0);
    }
// ... existing code ...
'''
    expected = LIMBS.replace("pub fn iadd(x: &mut Vec<Limb>, y: Limb)",
                             "pub fn iadd_checked(x: &mut Vec<Limb>, y: Limb)")
    assert apply(LIMBS, snippet, filename="limbs.rs").merged_code == expected


PY = '''import json


class Settings:
    def __init__(self, path):
        self.path = path
        self.values = {}

    def load(self):
        """Read the settings file."""
        with open(self.path) as handle:
            self.values = json.load(handle)
        return self.values

    def get(self, key, default=None):
        return self.values.get(key, default)
'''


def test_python_rename_shown_in_part_replaces_the_old_method() -> None:
    snippet = '''# ... existing code ...
    def load_file(self):
        """Read the settings file."""
        with open(self.path) as handle:
            # ... existing code ...
'''
    assert apply(PY, snippet, filename="settings.py").merged_code == PY.replace("def load(self):",
                                                                                "def load_file(self):")


GO = '''package store

func (s *Store) Get(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data[key]
}

func (s *Store) Peek(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data[key]
}
'''


def test_go_rename_that_fits_two_old_methods_is_refused_not_duplicated() -> None:
    snippet = '''// ... existing code ...
func (s *Store) Lookup(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data[key]
}
// ... existing code ...
'''
    with pytest.raises(ApplyError) as error:
        apply(GO, snippet, filename="store.go")
    assert error.value.code == "anchor_not_found" and error.value.line == 2
