"""Issue 8, thirtieth round: real release edits of tune-98 (the twenty-ninth round's check-27),
read case by case."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

_DEVITO = '''\
from sympy import Expr


class Macro(Expr):

    @property
    def base(self):
        return self._base

    def __str__(self):
        return self.name


class AlignedAccess(Expr):

    """
    Abstract base class for an aligned access.
    """

    @property
    def _expected_alignment(self):
        """
        The expected alignment in bytes.

        To be implemented by subclasses.
        """
        raise NotImplementedError

    @property
    def _expected_alignment_elems(self):
        return self._expected_alignment // self.dtype().itemsize

    @property
    def base(self):
        return self.args[0]

    func = Reserved._rebuild

    @cacheit
    def sort_key(self, order=None):
        return self.base.sort_key(order=order)


class VectorAccess(AlignedAccess):

    def __str__(self):
        return f"VL<{self.base}>"

    @cached_property
    def _expected_alignment(self):
        try:
            return mapper[self.function.dtype]
        except KeyError as e:
            raise ValueError(
                f"Unsupported dtype `{self.function.dtype}` for VectorAccess"
            )

    @property
    def indices(self):
        return self.base.indices
'''
_DEVITO_SNIPPET = '''\
    # ... existing code ...
                f"Unsupported dtype `{self.function.dtype}` for VectorAccess"
            )

    @property
    def base(self):
        return self.args[0]

    @property
    def indices(self):
    # ... existing code ...
    @property
    def base(self):
        """
        The IndexedBase of the aligned access.

        To be implemented by subclasses.
        """
        raise NotImplementedError

    func = Reserved._rebuild

    @cacheit
    def sort_key(self, order=None):
        # ... existing code ...
'''
_DEVITO_EXPECTED = _DEVITO.replace('''    @property
    def base(self):
        return self.args[0]
''', '''    @property
    def base(self):
        """
        The IndexedBase of the aligned access.

        To be implemented by subclasses.
        """
        raise NotImplementedError
''').replace('''    @property
    def indices(self):''', '''    @property
    def base(self):
        return self.args[0]

    @property
    def indices(self):''')

def test_a_definition_shown_twice_pairs_its_own_copy_above_the_next_anchor() -> None:
    # devito: `base` added to the subclass and made abstract in the base class, the base class's
    # part shown second; the abstract body's lines match `_expected_alignment`'s, and its
    # `@property` paired with that property's: two definitions went
    merged = apply(_DEVITO, _DEVITO_SNIPPET, filename="extended_sympy.py").merged_code
    assert merged == _DEVITO_EXPECTED


_SUMY = '''\
# -*- coding: utf-8 -*-

from __future__ import absolute_import
from __future__ import division, print_function, unicode_literals

from operator import attrgetter
from itertools import chain
from .._compat import ffilter
from ._summarizer import AbstractSummarizer


class EdmundsonTitleMethod(AbstractSummarizer):
    def __init__(self, stemmer, null_words):
        super(EdmundsonTitleMethod, self).__init__(stemmer)
        self._null_words = null_words

    def __call__(self, document, sentences_count):
        sentences = document.sentences
        significant_words = self._compute_significant_words(document)
        return self._get_best_sentences(sentences, sentences_count, self._rate_sentence, significant_words)

    def _compute_significant_words(self, document):
        heading_words = map(attrgetter("words"), document.headings)
        significant_words = chain(*heading_words)
        significant_words = map(self.stem_word, significant_words)
        significant_words = ffilter(self._is_null_word, significant_words)
        return frozenset(significant_words)

    def _is_null_word(self, word):
        return word in self._null_words
'''
_SUMY_EXPECTED = _SUMY.replace('''# -*- coding: utf-8 -*-

from __future__ import absolute_import
from __future__ import division, print_function, unicode_literals

from operator import attrgetter
from itertools import chain
''', '''

from itertools import chain
from operator import attrgetter

''').replace("super(EdmundsonTitleMethod, self).__init__", "super().__init__")

def test_python2_head_above_a_whole_file_snippet_that_reorders_its_imports_goes() -> None:
    # sumy: the release dropped the encoding line and `__future__` imports and swapped the two
    # imports under them; the import it moved down is no part of the head above the first pair
    merged = apply(_SUMY, _SUMY_EXPECTED, filename="edmundson_title.py").merged_code
    assert merged == _SUMY_EXPECTED


_WANDB = '''\
from __future__ import annotations

import netrc
from urllib.parse import urlsplit

from wandb.errors import term


def read_netrc_auth(host, netrc_file):
    """The API key for `host` from the netrc file, or None."""
    if not (netloc := urlsplit(host.url).netloc):
        return None
    if not (creds := netrc_file.authenticators(netloc)):
        return None

    _, _, password = creds
    if not password:
        term.termwarn(f"Found entry for machine {netloc!r} with no API key")
        return None

    return password
'''
_WANDB_SNIPPET = '''\
    // ... existing code ...
    if not (netloc := urlsplit(host.url).netloc):
        return None
    creds = netrc_file.authenticators(netloc)
    if not creds and (upstream := urls.forge_upstream_url(host.url)) != host.url:
        creds = netrc_file.authenticators(urlsplit(upstream).netloc)
    if not creds:
        return None
    // ... existing code ...
from wandb.errors import term
from wandb.sdk.lib import urls
// ... existing code ...
'''
_WANDB_EXPECTED = _WANDB.replace('''    if not (creds := netrc_file.authenticators(netloc)):
        return None
''', '''    creds = netrc_file.authenticators(netloc)
    if not creds and (upstream := urls.forge_upstream_url(host.url)) != host.url:
        creds = netrc_file.authenticators(urlsplit(upstream).netloc)
    if not creds:
        return None
''').replace("from wandb.errors import term\n", "from wandb.errors import term\nfrom wandb.sdk.lib import urls\n")

def test_new_lines_naming_all_a_dropped_condition_replace_it_above_the_same_return() -> None:
    # wandb: `if not (creds := netrc_file.authenticators(netloc)):` split into an assignment, a
    # fallback and `if not creds:` over the same `return None`, then a marker: the old condition
    # went (before, it stayed under the new lines, a second early return)
    merged = apply(_WANDB, _WANDB_SNIPPET, filename="wbnetrc.py").merged_code
    assert merged == _WANDB_EXPECTED


def test_new_lines_that_do_not_name_the_condition_below_keep_it() -> None:
    snippet = '''\
    # ... existing code ...
    if not (netloc := urlsplit(host.url).netloc):
        return None
    logger.debug("netloc %s", netloc)
    if netloc in BLOCKED:
        return None
    # ... existing code ...
'''
    merged = apply(_WANDB, snippet, filename="wbnetrc.py").merged_code
    assert merged == _WANDB.replace("        return None\n    if not (creds", "        return None\n"
                                    "    logger.debug(\"netloc %s\", netloc)\n    if netloc in BLOCKED:\n"
                                    "        return None\n    if not (creds", 1)


_READER = '''\
class Reader:

    def run(self):
        return self.read()

    def read(self):
        return 1


class Writer:

    def stop(self):
        return None
'''
_WRITER_SNIPPET = '''\
class Writer:

    def run(self):
        return self.write()

    def stop(self):
        # ... existing code ...
'''

def test_a_definition_whose_only_copy_is_in_another_class_stays_new() -> None:
    merged = apply(_READER, _WRITER_SNIPPET, filename="io.py").merged_code
    assert merged == _READER.replace("    def stop(self):", "    def run(self):\n        return self.write()\n\n"
                                     "    def stop(self):")


_ADAPTERS = '''\
import logging

from .adapter import Adapter, FakeAdapter
from .protocol import ProtocolAdapter

from pymeasure.adapters.telnet import TelnetAdapter

log = logging.getLogger(__name__)
log.addHandler(logging.NullHandler())

try:
    from pymeasure.adapters.visa import VISAAdapter
except ImportError:
    log.warning("PyVISA library could not be loaded")

try:
    from pymeasure.adapters.serial import SerialAdapter
except ImportError:
    log.warning("PySerial library could not be loaded")
{tail}'''

_ADAPTERS_SNIPPET = '''\
# ... existing code ...
from .protocol import ProtocolAdapter

log = logging.getLogger(__name__)
log.addHandler(logging.NullHandler())

try:
    from pymeasure.adapters.visa import VISAAdapter
    from pymeasure.adapters.prologix import PrologixAdapter
except ImportError:
    log.warning("PyVISA library could not be loaded")

try:
    from pymeasure.adapters.serial import SerialAdapter
except ImportError:
    log.warning("PySerial library could not be loaded")
'''


def test_a_snippet_ending_on_a_block_of_a_run_of_like_blocks_is_refused() -> None:
    # pymeasure: the release deleted the last `try:` block (VXI-11) along with the telnet import;
    # a snippet ending on the block before it, markers elsewhere, reads as well with a missing
    # last marker: the merge kept the block, silently wrong either way it guesses
    original = _ADAPTERS.format(tail='''
try:
    from pymeasure.adapters.vxi11 import VXI11Adapter
except ImportError:
    log.warning("VXI-11 library could not be loaded")
''')
    with pytest.raises(ApplyError) as error:
        apply(original, _ADAPTERS_SNIPPET, filename="adapters/__init__.py")
    assert error.value.code == "ambiguous_anchor" and error.value.line == 16
    assert "End the snippet with a '... existing code ...' marker" in error.value.message


def test_a_snippet_ending_on_a_block_followed_by_other_code_keeps_it() -> None:
    original = _ADAPTERS.format(tail='''
__all__ = ["Adapter", "FakeAdapter", "ProtocolAdapter"]
''')
    merged = apply(original, _ADAPTERS_SNIPPET, filename="adapters/__init__.py").merged_code
    assert merged.endswith('    log.warning("PySerial library could not be loaded")\n\n'
                           '__all__ = ["Adapter", "FakeAdapter", "ProtocolAdapter"]\n')
