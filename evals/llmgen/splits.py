"""The dev and held-out splits: THE one place that says what is held out.

Nobody tunes on the held-out split: do not read its cases or failures while developing, and report
its numbers separately. A split is a set of seeds plus a set of sources:

- seeds: dev uses 0-999 (the default run uses 0-9), held-out uses 7001-7010, heldout2 7011-7020;
- local files (stdlib, site-packages, files under --source): a file is held out when a stable hash of
  its path (relative to its root) falls in bucket 0 of 5 (`is_heldout_path`), so dev and the held-out
  splits never share a base file (both held-out splits read bucket 0, with different seeds);
- registry packages (`packages.PACKAGES`) and release pairs (`packages.RELEASE_PAIRS`): each entry
  names its split; the held-out entries are never fetched for dev.

Why two held-out splits: by its ninth round, one release pair of `heldout` (httpx) had been
disclosed in a closing note, and the split had been run often enough that it no longer gave a
figure nobody had seen. `heldout2` was drawn at the start of the tenth round, before that round's
engine work, from packages no split or check batch had used (picked by a seeded random draw from
candidate lists), and is the figure of record from then on; `heldout` is still reported next to it.
"""

from __future__ import annotations

import hashlib

SPLITS = ("dev", "heldout", "heldout2")
DEV_SEEDS = list(range(0, 10))  # the default dev run; any seed in 0-999 is dev
DEV_SEED_RANGE = range(0, 1000)
HELDOUT_SEEDS = list(range(7001, 7011))
HELDOUT2_SEEDS = list(range(7011, 7021))
SPLIT_SEEDS = {"dev": DEV_SEEDS, "heldout": HELDOUT_SEEDS, "heldout2": HELDOUT2_SEEDS}
HELDOUT_BUCKETS = 5


def is_heldout_path(relative: str) -> bool:
    digest = hashlib.sha256(relative.encode("utf-8")).digest()
    return digest[0] % HELDOUT_BUCKETS == 0


def is_heldout_split(split: str) -> bool:
    return split != "dev"


def seeds_for(split: str) -> list[int]:
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; use one of {', '.join(SPLITS)}")
    return SPLIT_SEEDS[split]


def check_seed(split: str, seed: int) -> None:
    """A dev run may not use a held-out seed (and the other way round)."""
    if split == "dev" and seed not in DEV_SEED_RANGE:
        raise ValueError(f"seed {seed} is not a dev seed (dev seeds are 0-999)")
    if split != "dev" and seed not in (own := seeds_for(split)):
        raise ValueError(f"seed {seed} is not a {split} seed ({own[0]}-{own[-1]})")
