"""The suffix automaton matcher against a brute-force longest-match search."""

from hypothesis import given, settings
from hypothesis import strategies as st

from fastapply.spec.automaton import Matcher, SuffixAutomaton


def occurrences_end(text: list[int], pattern: list[int]) -> list[int]:
    n = len(pattern)
    return [i + n - 1 for i in range(len(text) - n + 1) if text[i:i + n] == pattern]


def brute_longest(text: list[int], stream: list[int]) -> tuple[int, int]:
    """(length, first end index) of the longest suffix of `stream` occurring in `text`."""
    for length in range(len(stream), 0, -1):
        ends = occurrences_end(text, stream[len(stream) - length:])
        if ends:
            return length, ends[0]
    return 0, -1


segments = st.lists(st.lists(st.integers(0, 3), max_size=40), min_size=1, max_size=3)


@settings(max_examples=300, deadline=None)
@given(segments=segments, stream=st.lists(st.integers(0, 4), max_size=60))
def test_matcher_equals_brute_force(segments: list[list[int]], stream: list[int]) -> None:
    automaton = SuffixAutomaton()
    for i, segment in enumerate(segments):
        if i:
            automaton.add_separator()
        automaton.extend(segment)
    matcher = Matcher(automaton)
    for i, token in enumerate(stream):
        length = matcher.feed(token)
        expected_length, expected_end = brute_longest(automaton.text, stream[:i + 1])
        assert length == expected_length
        assert matcher.end_position() == expected_end


def test_separator_stops_matches_across_segments() -> None:
    automaton = SuffixAutomaton([1, 2])
    automaton.add_separator()
    automaton.extend([3, 4])
    matcher = Matcher(automaton)
    assert [matcher.feed(t) for t in [1, 2, 3, 4]] == [1, 2, 1, 2]
    assert automaton.text == [1, 2, -1, 3, 4]


def test_automaton_size_is_linear() -> None:
    text = [i % 7 for i in range(3000)] + list(range(100, 1100))
    automaton = SuffixAutomaton(text)
    assert len(automaton.length) <= 2 * len(text)


@settings(max_examples=200, deadline=None)
@given(prompt=st.lists(st.integers(0, 3), max_size=30), stream=st.lists(st.integers(0, 3), max_size=40))
def test_live_automaton_tracks_the_longest_earlier_suffix(prompt: list[int], stream: list[int]) -> None:
    """Appending output online, the last state's suffix link is the longest suffix occurring earlier."""
    automaton = SuffixAutomaton(prompt)
    automaton.add_separator()
    for token in stream:
        automaton.extend([token])
        text = automaton.text
        state = automaton.link[automaton.last]
        expected_length, expected_end = 0, -1
        for length in range(len(text) - 1, 0, -1):
            ends = [e for e in occurrences_end(text, text[len(text) - length:]) if e < len(text) - 1]
            if ends:
                expected_length, expected_end = length, ends[0]
                break
        assert automaton.length[state] == expected_length
        if expected_length:
            assert automaton.first_end[state] == expected_end
