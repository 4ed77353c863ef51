"""The `--style llm` case generator: lazy snippets with the habits of frontier models.

Modules, in the order data flows through them:
- `packages`: the pinned registry packages and release pairs, each with its split,
- `sources`: which real files to derive cases from (stdlib, site-packages, registry downloads),
- `splits`: the dev and held-out splits (seeds and sources that are never tuned on),
- `outline`: definitions, bodies and imports of a file, found with tree-sitter,
- `langs`: per-language comment syntax and code templates (log line, new function, constant),
- `edits`: the edit catalogue (original -> expected, each edit tagged),
- `snippet`: the snippet an LLM would write for those edits, with its tagged habits,
- `datafiles`: YAML / JSON / TOML record edits,
- `evolution`: real edits between two releases of a package,
- `build`: one file -> cases, answerability and syntax checks; all files of a split -> cases,
- `cli`: the `--style llm` options of `python -m evals.generate`,
- `validate`: checks of generated cases without the merge engine (`python -m evals.llmgen.validate`).
"""
