"""The `--style llm` case generator: lazy snippets with the habits of frontier models.

Modules, in the order data flows through them:
- `sources`: which real files to derive cases from (stdlib, site-packages, registry downloads),
- `splits`: the dev and held-out splits (seeds and sources that are never tuned on),
- `outline`: definitions, bodies and imports of a file, found with tree-sitter,
- `langs`: per-language comment syntax and code templates (log line, new function, constant),
- `edits`: the edit catalogue (original -> expected, each edit tagged),
- `snippet`: the snippet an LLM would write for those edits, with its tagged habits,
- `datafiles`: YAML / JSON / TOML record edits,
- `build`: one file -> cases, answerability and syntax checks.
"""
