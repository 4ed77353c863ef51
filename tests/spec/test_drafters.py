"""Copy drafters: which occurrence they copy from, how K adapts, how sources combine."""

import pytest

from fastapply.spec import AdaptiveK, CopyDrafter, CopySource, make_drafter

A, B, C, D, X, Y, Z = 10, 11, 12, 13, 20, 21, 22


def test_continues_the_copied_occurrence_not_the_first_one() -> None:
    # "A B" first occurs followed by X; the output is copying the later "C D A B Y Z" span.
    text = [A, B, X, 1, 2, C, D, A, B, Y, Z, 3]
    drafter = make_drafter("automaton", text, k_init=64, adaptive=False)
    drafter.accept([C, D])
    assert drafter.propose(3) == [A, B, Y]
    drafter.accept([A, B])  # partially accepted, then the target's token agrees with the copy too
    assert drafter.propose(2) == [Y, Z]


def test_jumps_to_longest_match_after_deviation() -> None:
    text = [1, 2, 3, 4, 5, 6, 7, 8]
    drafter = make_drafter("automaton", text, adaptive=False)
    drafter.accept([1, 2])
    assert drafter.propose(2) == [3, 4]
    drafter.accept([3, 9])  # the target rejected 4 and wrote 9: nothing to copy
    assert drafter.propose(4) == []
    drafter.accept([5, 6])
    assert drafter.propose(4) == [7, 8]


def test_min_match_is_respected() -> None:
    text = [1, 2, 3, 4]
    short = make_drafter("automaton", text, min_match=1, adaptive=False)
    long = make_drafter("automaton", text, min_match=3, adaptive=False)
    for drafter in (short, long):
        drafter.accept([2])
    assert short.propose(2) == [3, 4]
    assert long.propose(2) == []


def test_drafts_stop_at_segment_separators() -> None:
    source = CopySource([1, 2, 3])
    source.automaton.add_separator()
    source.automaton.extend([4, 5])
    for token in (1, 2):
        source.feed(token)
    assert source.propose(10) == [3]


def test_adaptive_k_grows_on_full_acceptance_and_shrinks_on_rejection() -> None:
    text = list(range(100, 300))
    drafter = make_drafter("automaton", text, k_init=4)
    drafter.accept([100, 101])
    sizes = []
    for _ in range(4):  # accept every draft plus the target's next copy token
        draft = drafter.propose(64)
        sizes.append(len(draft))
        drafter.accept([*draft, draft[-1] + 1])
    assert sizes == [4, 8, 16, 32]
    draft = drafter.propose(64)
    assert len(draft) == 64
    drafter.accept([*draft, draft[-1] + 1])
    assert len(drafter.propose(64)) == 64  # capped by max_tokens
    draft = drafter.propose(64)
    drafter.accept([draft[0], 7])  # rejected at the second token
    assert drafter.k.k == 32


def test_fixed_k_always_uses_max_tokens() -> None:
    policy = AdaptiveK(4, adaptive=False)
    policy.update(10, 0, cap=64)
    assert policy.size(64) == 64 and policy.size(1) == 1


def test_predicted_output_drafts_from_the_first_token() -> None:
    drafter = make_drafter("predicted", [1, 2, 3], predicted_ids=[7, 8, 9, 10], adaptive=False)
    assert drafter.propose(3) == [7, 8, 9]


def test_auto_takes_the_source_with_the_longer_match() -> None:
    prompt = [1, 2, 3, 4, 5, 6, 40, 41]
    predicted = [1, 2, 3, 30, 31, 32, 5, 6, 50]
    drafter = make_drafter("auto", prompt, predicted_ids=predicted, adaptive=False)
    assert isinstance(drafter, CopyDrafter)
    assert drafter.propose(3) == [1, 2, 3]  # only the prediction is aligned at the start
    drafter.accept([1, 2, 3, 4])  # the target deviates from the prediction, follows the prompt
    assert drafter.propose(2) == [5, 6]
    assert drafter.source_used == 1  # the prompt: match "1 2 3 4" beats the prediction's "4"-less one
    drafter.accept([5, 6])
    assert drafter.propose(2) == [40, 41]


def test_make_drafter_kinds() -> None:
    assert make_drafter("none", [1, 2]) is None
    assert len(make_drafter("auto", [1, 2]).sources) == 1
    with pytest.raises(ValueError):
        make_drafter("predicted", [1, 2])
    with pytest.raises(ValueError):
        make_drafter("ngram", [1, 2])


def test_the_output_can_copy_from_itself() -> None:
    drafter = make_drafter("automaton", [1, 2, 3], adaptive=False)
    drafter.accept([50, 51, 52, 53, 7, 50, 51])  # not in the prompt, but written before
    assert drafter.propose(3) == [52, 53, 7]
