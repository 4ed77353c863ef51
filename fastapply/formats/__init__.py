"""Agent edit formats besides lazy snippets: replacement lists, SEARCH/REPLACE blocks, unified diffs,
V4A patches, and batches of them over many files. All share one tolerant matcher (matching.py)."""
