"""`fastapply.apply`: the one entry point for lazy-snippet merges, whatever engine does the work."""

from __future__ import annotations

from time import perf_counter
from typing import TYPE_CHECKING, Literal

from .errors import ApplyError, ErrorCode, InputError, ModelError
from .languages import detect_language
from .result import ApplyResult, ApplyStats, make_result
from .text import DEFAULT_LIMITS, Document, Limits, check_size, ensure_text, normalize_newlines

if TYPE_CHECKING:
    from .runtime import ApplyModel

Engine = Literal["structural", "model", "auto"]


def apply(original: str | bytes, update: str | bytes, *, filename: str | None = None,
          language: str | None = None, instruction: str | None = None, engine: Engine = "structural",
          model: ApplyModel | None = None, limits: Limits = DEFAULT_LIMITS) -> ApplyResult:
    """Merge an edit snippet (with `// ... existing code ...` style markers, or none) into `original`.

    engine: "structural" (default; tree-sitter, CPU, milliseconds), "model" (the fast-apply LM given as
    `model`, from `fastapply.load_model`), or "auto" (the structural merge when it succeeds, else the
    model when one is given, else the structural ApplyError).
    Returns an ApplyResult; raises ApplyError (with a machine-readable `code`) when the edit cannot be
    placed safely. The merged code keeps the original's line endings, BOM and indentation style.
    """
    started = perf_counter()
    original = ensure_text(original, "original file")
    update = ensure_text(update, "update snippet")
    check_size(original, limits.max_file_bytes, "original file")
    check_size(update, limits.max_update_bytes, "update snippet")
    if not update.strip():
        raise InputError("the update snippet is empty; send the edited code with "
                         "'... existing code ...' markers for unchanged parts", code=ErrorCode.EMPTY_UPDATE)
    if engine not in ("structural", "model", "auto"):
        raise InputError(f"unknown engine {engine!r}; use 'structural', 'model' or 'auto'",
                         code=ErrorCode.INVALID_ARGUMENT)
    if engine == "model" and model is None:
        raise ModelError("engine 'model' needs a model: pass model=fastapply.load_model(...)",
                         code=ErrorCode.MODEL_NOT_CONFIGURED)
    doc = Document.parse(original)
    lang = detect_language(filename, doc.text, language)
    refused: ApplyError | None = None
    if engine != "model":
        try:
            return structural(original, doc, normalize_newlines(update), lang, filename, started)
        except ApplyError as exc:
            if engine == "structural" or model is None:
                raise
            refused = exc
    assert model is not None
    result = model.merge(original, update, instruction=instruction, filename=filename, language=lang)
    if refused is not None:
        result.warnings.insert(0, f"the structural merge refused ({refused.code}: {refused.message}); "
                                  "the model merged the file")
    return result


def structural(original: str, doc: Document, snippet: str, lang: str | None, filename: str | None,
               started: float) -> ApplyResult:
    from .merge import merge_snippet
    from .merge.collector import collector_paused

    with collector_paused(len(doc.text) + len(snippet)):  # (the diff below builds as many containers)
        outcome = merge_snippet(doc.text, snippet, lang)
        stats = ApplyStats(markers_resolved=outcome.markers_resolved, segments=outcome.segments)
        return make_result(original, doc.restore(outcome.text), method=outcome.method, language=lang,
                           filename=filename, started=started, stats=stats, warnings=outcome.warnings)
