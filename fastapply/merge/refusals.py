"""The refusals plan_merge raises itself, one function per kind: each message names the snippet
line and says what would make it placeable."""

from __future__ import annotations

from ..errors import ErrorCode, MergeError
from .segments import SnippetLine


def fail_unanchored(item: SnippetLine, why: str) -> None:
    raise MergeError(
        f"could not place snippet line {item.number} ({item.text.strip()!r}): {why}. Include at least "
        "one unchanged line from the original around each edited block, or send the whole file",
        code=ErrorCode.ANCHOR_NOT_FOUND, line=item.number)


def fail_ambiguous_context(item: SnippetLine, below: bool = False) -> None:
    where = "below them (for example the first line of the definition after them)" if below else \
        "above them (for example the enclosing function's signature)"
    raise MergeError(
        f"the context lines from snippet line {item.number} ({item.text.strip()!r}) occur twice, and "
        "between the two places there is only whole code that the snippet might mean to delete. Add "
        f"a distinctive unchanged line {where}",
        code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def fail_needless_deletion(item: SnippetLine) -> None:
    raise MergeError(
        f"the lines from snippet line {item.number} ({item.text.strip()!r}) up to the next unchanged "
        "anchor fit two places: where the merge puts them, deleting whole definitions before that "
        "anchor, and right above the anchor, deleting nothing. Add the enclosing function's "
        "signature above them, or, to delete that code, show the lines on both sides of it",
        code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def fail_needless_rewrite(item: SnippetLine) -> None:
    raise MergeError(
        f"the context lines from snippet line {item.number} ({item.text.strip()!r}) occur several times "
        "in the original and fit two places: where the merge puts them, rewriting the code between "
        "them and the next unchanged anchor, and right above that anchor, inserting the new lines "
        "and changing nothing. Show one more unchanged, distinctive line above them (the entry or "
        "function they end), or the first line of the code you mean to rewrite",
        code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def fail_better_copy(item: SnippetLine) -> None:
    raise MergeError(
        f"the part of the snippet from line {item.number} ({item.text.strip()!r}) has no line that "
        "occurs once in the original, and another copy of it holds more of its lines unchanged than "
        "the place its neighbours put it: the merge would edit the wrong copy. Add a distinctive "
        "unchanged line (the enclosing function's signature) to that part",
        code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def fail_tied_copy(item: SnippetLine) -> None:
    raise MergeError(
        f"snippet line {item.number} ({item.text.strip()!r}) stands unchanged in another place of the "
        "original, which fits the lines around it as well as the place the merge chose, where it would "
        "replace a line: the merge cannot tell which copy to edit. Add an unchanged line that occurs "
        "once in the original (the enclosing function's signature) to that part of the snippet",
        code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def fail_copied_tail(item: SnippetLine) -> None:
    raise MergeError(
        f"snippet line {item.number} ({item.text.strip()!r}) is not in the original right there, but "
        "it is further down, after whole definitions: the snippet may add a second copy of it, or "
        "delete those definitions. To delete them, add the line that follows that copy; to add the "
        "line, add the original line that follows it here",
        code=ErrorCode.AMBIGUOUS_ANCHOR, line=item.number)


def fail_no_change(code: list[SnippetLine]) -> None:
    """A snippet with markers whose lines all read as unchanged context, spaced differently from
    the file or with a context line that also fits an earlier copy: something was probably to be
    deleted there, but the context also fits the file without deleting anything."""
    raise MergeError(
        f"every line of the snippet (from line {code[0].number}) matches the file as it is, so the "
        "merge would change nothing (or only blank lines), but its context lines also fit another "
        "place where code in between would be deleted. If code should be deleted, show a distinctive "
        "unchanged line on each side of it; if the edit is already in the file, nothing needs doing",
        code=ErrorCode.AMBIGUOUS_ANCHOR, line=code[0].number)
