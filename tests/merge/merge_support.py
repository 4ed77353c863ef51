"""Helpers shared by the tests of the merge's checks (tests/merge is on sys.path under pytest)."""

from __future__ import annotations

from fastapply.merge.anchor import Aligner
from fastapply.merge.indent import detect_style
from fastapply.merge.segments import classify, normalize
from fastapply.merge.splice import Spliced, splice


def aligned(original: str, update: str, pairs: dict[int, int], drop: set[int] | None = None
            ) -> tuple[Aligner, Spliced, set[int]]:
    """Splice `update` into `original` with the given pairs (snippet item -> original line)."""
    orig = original.rstrip("\n").split("\n")
    onorm = [normalize(line) for line in orig]
    items = classify(update, set(onorm))
    al = Aligner(items, orig, onorm)
    al.rebase(items, pairs)
    style = detect_style(orig)
    drop = drop or set()
    return al, splice(items, orig, pairs, file_style=style, snip_style=style, drop=drop), drop


# A PHP class of four methods (tests of parts that end with the class's own closing brace).
TAGS_PHP = """<?php declare(strict_types=1);

namespace App\\Processor;

class TagProcessor
{
    private array $tags;

    public function __construct(array $tags = [])
    {
        $this->setTags($tags);
    }

    public function addTags(array $tags = []): self
    {
        $this->tags = array_merge($this->tags, $tags);

        return $this;
    }

    public function setTags(array $tags = []): self
    {
        $this->tags = $tags;

        return $this;
    }

    public function __invoke(array $record): array
    {
        $record['extra']['tags'] = $this->tags;

        return $record;
    }
}
"""
