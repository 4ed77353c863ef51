"""The dev and held-out splits: THE one place that says what is held out.

Nobody tunes on the held-out split: do not read its cases or failures while developing, and report
its numbers separately. A split is a set of seeds plus a set of sources:

- seeds: dev uses 0-999 (the default run uses 0-9), held-out uses 7001-7010;
- local files (stdlib, site-packages, files under --source): a file is held out when a stable hash of
  its path (relative to its root) falls in bucket 0 of 5 (`is_heldout_path`), so the two splits never
  share a base file;
- registry packages (`sources.PACKAGES`) and release pairs (`evolution.RELEASE_PAIRS`): each entry
  names its split; the held-out entries below are never fetched for dev.
"""

from __future__ import annotations

import hashlib

SPLITS = ("dev", "heldout")
DEV_SEEDS = list(range(0, 10))  # the default dev run; any seed in 0-999 is dev
DEV_SEED_RANGE = range(0, 1000)
HELDOUT_SEEDS = list(range(7001, 7011))
HELDOUT_BUCKETS = 5


def is_heldout_path(relative: str) -> bool:
    digest = hashlib.sha256(relative.encode("utf-8")).digest()
    return digest[0] % HELDOUT_BUCKETS == 0


def seeds_for(split: str) -> list[int]:
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; use one of {', '.join(SPLITS)}")
    return HELDOUT_SEEDS if split == "heldout" else DEV_SEEDS


def check_seed(split: str, seed: int) -> None:
    """A dev run may not use a held-out seed (and the other way round)."""
    if split == "dev" and seed not in DEV_SEED_RANGE:
        raise ValueError(f"seed {seed} is not a dev seed (dev seeds are 0-999)")
    if split == "heldout" and seed not in HELDOUT_SEEDS:
        raise ValueError(f"seed {seed} is not a held-out seed ({HELDOUT_SEEDS[0]}-{HELDOUT_SEEDS[-1]})")
