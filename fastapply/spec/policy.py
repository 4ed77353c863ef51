"""Defaults of the hybrid drafter's policy, chosen from data (pure Python: the runtime reads them
without importing torch).

Tuned with `python -m evals.head_policy` on dev prompts (continue-lazy + generated cases that share no
file with the speed benchmark's; never the held-out split): each setting's decode time estimated from the
replayed acceptance and the costs measured on SmolLM2-135M on a CPU. The README's eagle section has the
table and the command.
"""

MIN_COPY_MATCH = 2  # copy drafts when the copy index's current match is at least this long
HEAD_CONFIDENCE = 0.5  # a head chain stops at a token the head gives less than this probability
HEAD_DEPTH = 4  # at most this many head tokens per draft
