"""Suffix automaton over token ids, and an incremental matcher that walks it as output tokens arrive.

The automaton of a text T is the smallest automaton that accepts every substring of T. It is built
online in O(|T|) (amortized) and lets a matcher keep "the longest suffix of the output seen so far that
occurs somewhere in T" up to date in amortized O(1) per appended token: no rescan of the context per
step, unlike n-gram lookups that search the whole prompt again for every draft.

Each state also stores `first_end`, the end position of the first occurrence of its strings, which is
where a drafter can copy the continuation from when it has no better (continuing) position.
Texts are lists of non-negative ints; `add_separator` appends a fresh negative id (unique, so the text
stays one plain string) that no output token equals, so no match spans two segments.
"""

from __future__ import annotations

from collections.abc import Iterable

class SuffixAutomaton:
    """Online suffix automaton. `extend` appends tokens; states are parallel lists (cheap in CPython)."""

    def __init__(self, tokens: Iterable[int] = ()) -> None:
        self.text: list[int] = []
        self.length: list[int] = [0]  # longest string in each state
        self.link: list[int] = [-1]  # suffix link
        self.next: list[dict[int, int]] = [{}]  # transitions
        self.first_end: list[int] = [-1]  # end index in `text` of the first occurrence
        self.last = 0  # state of the whole text
        self._separators = 0
        self.extend(tokens)

    def __len__(self) -> int:
        return len(self.text)

    def extend(self, tokens: Iterable[int]) -> None:
        for token in tokens:
            self._add(token)

    def add_separator(self) -> None:
        """Append a token that occurs nowhere else, so no match spans two segments."""
        self._separators += 1
        self._add(-self._separators)

    def _new_state(self, length: int, link: int, nxt: dict[int, int], first_end: int) -> int:
        self.length.append(length)
        self.link.append(link)
        self.next.append(nxt)
        self.first_end.append(first_end)
        return len(self.length) - 1

    def _add(self, token: int) -> None:
        pos = len(self.text)
        self.text.append(token)
        cur = self._new_state(self.length[self.last] + 1, -1, {}, pos)
        p = self.last
        while p != -1 and token not in self.next[p]:
            self.next[p][token] = cur
            p = self.link[p]
        if p == -1:
            self.link[cur] = 0
        else:
            q = self.next[p][token]
            if self.length[p] + 1 == self.length[q]:
                self.link[cur] = q
            else:
                clone = self._new_state(self.length[p] + 1, self.link[q], dict(self.next[q]),
                                        self.first_end[q])
                while p != -1 and self.next[p].get(token) == q:
                    self.next[p][token] = clone
                    p = self.link[p]
                self.link[q] = clone
                self.link[cur] = clone
        self.last = cur


class Matcher:
    """The longest suffix of a token stream that occurs in the automaton's text, kept incrementally."""

    def __init__(self, automaton: SuffixAutomaton) -> None:
        self.automaton = automaton
        self.state = 0
        self.length = 0  # length of the current match

    def reset(self) -> None:
        self.state, self.length = 0, 0

    def feed(self, token: int) -> int:
        """Advance by one output token; returns the new match length. Amortized O(1): the match length
        grows by at most one per token, and every suffix-link step shrinks it."""
        a = self.automaton
        if token < 0:
            self.reset()
            return 0
        state, length = self.state, self.length
        while state != 0 and token not in a.next[state]:
            state = a.link[state]
            length = a.length[state]
        nxt = a.next[state].get(token)
        if nxt is None:
            state, length = 0, 0
        else:
            state, length = nxt, length + 1
        self.state, self.length = state, length
        return length

    def end_position(self) -> int:
        """End index in the text of the first occurrence of the current match (-1 when empty)."""
        return self.automaton.first_end[self.state] if self.length else -1
