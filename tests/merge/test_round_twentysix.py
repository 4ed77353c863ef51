"""Issue 8, twenty-sixth round: real release edits of tune-84 .. (drawn from crawl-34, crawl-37 and
the new crawl-38 / crawl-39), read case by case."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

_DOWNLOAD = '''def download(pairs, exchange, data_handler, erase):
    for pair in pairs:
        if pair not in exchange.markets:
            logger.info(f"Skipping pair {pair}...")
            continue

        if erase:
            if data_handler.purge(pair):
                logger.info(f"Deleting data for pair {pair}.")

        logger.info(f"Downloading pair {pair}.")
        fetch(pair)
    return True
'''


def test_a_trivial_line_after_a_marker_stays_context_above_a_nested_condition_folded_into_one() -> None:
    # freqtrade: `if erase:` over `if data_handler.purge(pair):` became one condition; the model
    # shows the `continue` above it as context, right after a marker
    snippet = '''    # ... existing code ...
            continue

        if erase and data_handler.purge(pair):
            logger.info(f"Deleting data for pair {pair}.")

        logger.info(f"Downloading pair {pair}.")
    # ... existing code ...
'''
    expected = _DOWNLOAD.replace('''        if erase:
            if data_handler.purge(pair):
                logger.info(f"Deleting data for pair {pair}.")''', '''        if erase and data_handler.purge(pair):
            logger.info(f"Deleting data for pair {pair}.")''')
    assert apply(_DOWNLOAD, snippet, filename="history.py").merged_code == expected


def test_a_new_line_after_a_trivial_one_that_folds_nothing_is_not_read_as_folding() -> None:
    # the same shape, but the new condition does not hold the words of the two it would replace:
    # the old lines are not silently dropped
    snippet = '''    # ... existing code ...
            continue

        if refresh_cache(pair):
            logger.info(f"Deleting data for pair {pair}.")

        logger.info(f"Downloading pair {pair}.")
    # ... existing code ...
'''
    try:
        merged = apply(_DOWNLOAD, snippet, filename="history.py").merged_code
    except ApplyError:
        return
    assert "if erase:" in merged or "if data_handler.purge(pair):" in merged


_RENDERERS = '''class Expectation:
    @classmethod
    def _prescriptive_template(
        cls,
        configuration: Optional[dict] = None,
        runtime_configuration: Optional[dict] = None,
    ) -> List[RenderedStringTemplateContent]:
        renderer_configuration: RendererConfiguration = RendererConfiguration(
            configuration=configuration,
            runtime_configuration=runtime_configuration,
        )
        return renderer_configuration

    @classmethod
    def _atomic_template(
        cls,
        configuration: Optional[dict] = None,
        runtime_configuration: Optional[dict] = None,
    ) -> RenderedAtomicContent:
        renderer_configuration = RendererConfiguration(
            configuration=configuration,
            runtime_configuration=runtime_configuration,
        )
        return renderer_configuration.atomic
'''


def test_a_part_that_fits_two_near_twins_with_one_line_changed_each_is_refused() -> None:
    # great-expectations: the part shows the second renderer's return type over the first one's
    # annotated assignment; each place matches with one line changed, so either could be meant
    snippet = '''    # ... existing code ...
        runtime_configuration: Optional[dict] = None,
    ) -> RenderedAtomicContent:
        renderer_configuration: RendererConfiguration = RendererConfiguration(
            configuration=configuration,
            runtime_configuration=runtime_configuration,
    # ... existing code ...
'''
    with pytest.raises(ApplyError) as error:
        apply(_RENDERERS, snippet, filename="expectation.py")
    assert error.value.code == "ambiguous_anchor"
    assert "snippet line 3" in str(error.value)


def test_a_part_whose_unique_line_pins_one_twin_is_still_merged() -> None:
    # one more line of the second renderer (its name) tells the twins apart: merged there
    snippet = '''    # ... existing code ...
    def _atomic_template(
        cls,
        configuration: Optional[dict] = None,
        runtime_configuration: Optional[dict] = None,
    ) -> RenderedAtomicContent:
        renderer_configuration: RendererConfiguration = RendererConfiguration(
            configuration=configuration,
    # ... existing code ...
'''
    expected = _RENDERERS.replace('''        renderer_configuration = RendererConfiguration(''',
                                  '''        renderer_configuration: RendererConfiguration = RendererConfiguration(''')
    assert apply(_RENDERERS, snippet, filename="expectation.py").merged_code == expected


_REGEX = '''class Regex:
    @classmethod
    def _render(cls, params, renderer_configuration):
        if not params.regex_list:
            values_string = "[ ]"
        else:
            array_param_name = "regex_list"
            param_prefix = "v__"
            renderer_configuration = cls._add_array_params(
                array_param_name=array_param_name,
                param_prefix=param_prefix,
                renderer_configuration=renderer_configuration,
            )
            values_string: str = cls._get_array_string(
                array_param_name=array_param_name,
                param_prefix=param_prefix,
                renderer_configuration=renderer_configuration,
            )

        if params.match_on == "all":
            template_str = "values must match all of " + values_string
        return template_str
'''


def test_context_the_file_has_twice_goes_with_the_copy_its_edited_lines_follow_in_lock_step() -> None:
    # great-expectations dropped the annotation of `values_string`: the snippet's context (the
    # call's arguments) is in the file twice, and from the first copy on the snippet's lines go on
    # one for one, the annotation dropped, down to the anchor
    snippet = '''            # ... existing code ...
                array_param_name=array_param_name,
                param_prefix=param_prefix,
                renderer_configuration=renderer_configuration,
            )
            values_string = cls._get_array_string(
                array_param_name=array_param_name,
                param_prefix=param_prefix,
                renderer_configuration=renderer_configuration,
            )

        if params.match_on == "all":
        # ... existing code ...
'''
    expected = _REGEX.replace("values_string: str = cls", "values_string = cls")
    assert apply(_REGEX, snippet, filename="regex.py").merged_code == expected


_CRAWLER = '''class SegmentSeekerCrawler:
    def crawl(self, context):
        if self.types.isdisjoint(context.segment.descendant_type_set):
            return

        new_parent_stack = context.parent_stack + (context.segment,)
        for idx, child in enumerate(context.segment.segments):
            # For performance reasons, don't create a new RuleContext for
            # each segment; just modify the existing one in place. This
            # requires some careful bookkeeping.
            context.segment = child
            context.parent_stack = new_parent_stack
            context.segment_idx = idx
            yield from self.crawl(context)


class ParentOfSegmentCrawler(SegmentSeekerCrawler):
    def passes_filter(self, segment):
        return True
'''


def test_a_new_blocks_body_lines_do_not_pair_with_the_old_body_when_the_snippet_shows_its_comment_after() -> None:
    # sqlfluff: a fast path for leaf children repeats the loop body's three assignments, deeper;
    # the loop's old comment follows it, then a marker (at column 0) for the rest of the loop
    snippet = '''# ... existing code ...
        new_parent_stack = context.parent_stack + (context.segment,)
        for idx, child in enumerate(context.segment.segments):
            if not child.segments:
                if self.passes_filter(child):
                    context.segment = child
                    context.parent_stack = new_parent_stack
                    context.segment_idx = idx
                    yield context
                continue
            # For performance reasons, don't create a new RuleContext for
            # each segment; just modify the existing one in place. This
# ... existing code ...
'''
    expected = _CRAWLER.replace('''            # For performance reasons''', '''            if not child.segments:
                if self.passes_filter(child):
                    context.segment = child
                    context.parent_stack = new_parent_stack
                    context.segment_idx = idx
                    yield context
                continue
            # For performance reasons''')
    assert apply(_CRAWLER, snippet, filename="crawlers.py").merged_code == expected


_RULE = '''class Rule_ST07(BaseRule):
    """Prefer specifying join keys instead of using ``USING``.

    .. note::
       This rule was originally taken from the `dbt Style Guide
       <https://github.com/dbt-labs/corp/blob/main/dbt_style_guide.md>`_
       which notes that:

        Certain warehouses have inconsistencies in ``USING``
        results (specifically Snowflake).

    .. note::
       This rule is disabled for ClickHouse.
    """

    groups = ("all", "structure")
'''


def test_a_rewritten_docstring_paragraph_runs_to_the_next_copy_of_its_closing_line() -> None:
    # sqlfluff shortened a note; the snippet ends on the next `.. note::` (the docstring has two)
    # and a marker: the prose between goes, as no name in it can say
    snippet = '''# ... existing code ...
class Rule_ST07(BaseRule):
    """Prefer specifying join keys instead of using ``USING``.

    .. note::
       This rule was originally taken from the dbt Style Guide.

       Some like the rule, so for now we will keep it.

    .. note::
# ... existing code ...
'''
    expected = _RULE.replace('''       This rule was originally taken from the `dbt Style Guide
       <https://github.com/dbt-labs/corp/blob/main/dbt_style_guide.md>`_
       which notes that:

        Certain warehouses have inconsistencies in ``USING``
        results (specifically Snowflake).
''', '''       This rule was originally taken from the dbt Style Guide.

       Some like the rule, so for now we will keep it.
''')
    assert apply(_RULE, snippet, filename="ST07.py").merged_code == expected


_CHECK = '''def execute(self):
    findings = []
    for domain in gmail_client.domains:
        report = Report(domain)

        enabled = gmail_client.policies.detect_spoofing
        domain_name = gmail_client.provider.identity.domain

        if enabled is False:
            report.status = "FAIL"
            report.status_extended = (
                f"Protection is disabled in domain {domain_name}."
            )
        elif not is_protective(consequence):
            report.status = "FAIL"
            report.status_extended = (
                f"Protection is {describe(consequence)} in domain {domain_name}."
            )
        else:
            report.status = "PASS"
            report.status_extended = (
                f"Protection is enabled in domain {domain_name}."
            )

        findings.append(report)
    return findings
'''


def test_a_new_first_branch_like_the_else_branch_is_inserted_above_the_old_first_one() -> None:
    # prowler: a new first branch whose body is like the `else:` branch's (`report.status =
    # "PASS"`), then the old first branch as `elif`, then a marker: the alignment had paired the
    # new body with the `else:` branch and deleted the chain between
    snippet = '''        # ... existing code ...
        domain_name = gmail_client.provider.identity.domain

        if gmail_client.policies.off_for_everyone:
            report.status = "PASS"
            report.status_extended = (
                f"Gmail is turned off in domain {domain_name}."
            )
        elif enabled is False:
            report.status = "FAIL"
            # ... existing code ...
'''
    expected = _CHECK.replace('''        if enabled is False:''', '''        if gmail_client.policies.off_for_everyone:
            report.status = "PASS"
            report.status_extended = (
                f"Gmail is turned off in domain {domain_name}."
            )
        elif enabled is False:''')
    assert apply(_CHECK, snippet, filename="check.py").merged_code == expected


_ATTACH = '''# fmt: off

import numpy as np

from ase.geometry import get_distances


def nearest(atoms1, atoms2, cell=None, pbc=None):
    """Return indices of nearest atoms"""
    p1 = atoms1.get_positions()
    p2 = atoms2.get_positions()
    vd_aac, d2_aa = get_distances(p1, p2, cell, pbc)
    i1, i2 = np.argwhere(d2_aa == d2_aa.min())[0]
    return i1, i2, vd_aac[i1, i2]
'''


def test_a_snippet_from_the_first_import_drops_a_formatters_file_wide_off_switch_above_it() -> None:
    # ase removed `# fmt: off` from its modules when it took up a formatter; the snippet starts at
    # the first import, no marker above it
    snippet = '''import numpy as np

from ase.geometry import get_distances


def nearest(atoms1, atoms2, cell=None, pbc=None):
    """Return indices of nearest atoms"""
    # ... existing code ...
'''
    expected = _ATTACH.replace("# fmt: off\n\n", "")
    assert apply(_ATTACH, snippet, filename="attach.py").merged_code == expected


def test_a_licence_line_above_the_first_import_stays() -> None:
    # the same snippet under a licence line: a notice stays
    original = _ATTACH.replace("# fmt: off", "# SPDX-License-Identifier: LGPL-2.1-or-later")
    snippet = '''import numpy as np

from ase.geometry import get_distances
# ... existing code ...
'''
    assert apply(original, snippet, filename="attach.py").merged_code == original


def test_a_snippet_without_markers_from_the_first_import_drops_the_off_switch_too() -> None:
    # the same, the snippet being the rest of the file with one line edited and no marker at all
    expected = _ATTACH.replace("# fmt: off\n\n", "").replace("p2 = atoms2.get_positions()", "p2 = atoms2.positions")
    assert apply(_ATTACH, expected, filename="attach.py").merged_code == expected


def test_a_snippet_from_the_module_docstring_drops_a_file_wide_pylint_line_above_it() -> None:
    # openbb's famafrench router dropped its file-wide `# pylint: disable=...` line; the snippet
    # starts at the module docstring, right below it, no marker above
    original = '''# pylint: disable=import-outside-toplevel,unused-argument
"""Fama-French Router."""

from typing import Annotated

router = Router(prefix="")
'''
    snippet = '''"""Fama-French Router."""

from typing import Annotated
# ... existing code ...
'''
    assert apply(original, snippet, filename="router.py").merged_code == original.split("\n", 1)[1]


def test_a_python_shebang_and_encoding_line_above_the_licence_go_with_a_snippet_starting_below() -> None:
    # pyannote dropped Python 2's two-line boilerplate from its modules; the snippet starts at the
    # licence comment, no marker above it
    original = '''#!/usr/bin/env python
# encoding: utf-8

# The MIT License (MIT)

from typing import Optional


def get_class_by_name(class_name: str, default: Optional[str] = None) -> type:
    return import_module(default or class_name)
'''
    snippet = '''# The MIT License (MIT)

from typing import Optional
# ... existing code ...
'''
    assert apply(original, snippet, filename="helper.py").merged_code == original.split("\n", 3)[3]


def test_a_script_shebang_alone_stays_above_a_snippet_that_edits_below_it() -> None:
    original = '''#!/usr/bin/env python

import sys


def main() -> int:
    return 0
'''
    snippet = '''import sys


def main() -> int:
    return 1
'''
    assert apply(original, snippet, filename="tool.py").merged_code.startswith("#!/usr/bin/env python\n")


_PARSERS = '''class CharParser:
    def _normalize(self, text):
        return text.lower()


class RUCharParser(CharParser):
    """Russian-specific parsing."""

    def __init__(self):
        self.table = {"ё": "е"}


NAME_TO_PARSER = {'base': CharParser, 'ru': RUCharParser}


def make_parser(name='base'):
    return NAME_TO_PARSER[name]()
'''


def test_a_definition_the_snippet_drops_without_a_marker_while_the_file_still_uses_it_is_refused() -> None:
    # nemo: the snippet shows `_normalize`'s end, then `NAME_TO_PARSER` with no marker between:
    # read literally, `RUCharParser` is deleted while `NAME_TO_PARSER` still names it
    snippet = '''# ... existing code ...
    def _normalize(self, text):
        return text.casefold()


NAME_TO_PARSER = {'base': CharParser, 'ru': RUCharParser}
# ... existing code ...
'''
    with pytest.raises(ApplyError) as error:
        apply(_PARSERS, snippet, filename="parsers.py")
    assert error.value.code == "ambiguous_anchor"
    assert "RUCharParser" in str(error.value) and "snippet line 3" in str(error.value)


def test_a_definition_deleted_with_no_use_left_is_merged() -> None:
    # the same snippet where nothing names the class any more: a deletion, merged as written
    original = _PARSERS.replace("{'base': CharParser, 'ru': RUCharParser}", "{'base': CharParser}")
    snippet = '''# ... existing code ...
    def _normalize(self, text):
        return text.casefold()


NAME_TO_PARSER = {'base': CharParser}
# ... existing code ...
'''
    merged = apply(original, snippet, filename="parsers.py").merged_code
    assert "RUCharParser" not in merged and "text.casefold()" in merged
