"""`UpstreamModel`: the model engine served by an OpenAI-compatible server instead of in-process.

`load_model("openai:http://gpu-box:8000/v1#Model")` returns one. It renders the same prompt templates
as the in-process path, streams the answer from the server, and passes it through the same extraction
and safety checks (runtime.answer), so an answer from vLLM is accepted or refused exactly like one
decoded here. Two wire formats, chosen by `api`:
- "completions" (raw /v1/completions): the prompt is rendered here with the model's own chat template,
  answer prefix included, so the answer continues right after `<updated-code>`. Needs the tokenizer
  (a local folder or a cached hub id); the default when one is configured.
- "chat" (/v1/chat/completions): system and user turns; an answer prefix is sent as a final assistant
  message with `continue_final_message` (vLLM, SGLang), and stripped if a server repeats it anyway.

The service awaits `astream`/`amerge` on its event loop (no thread, no per-model lock: the server
batches); `stream`/`merge` serve library callers from a private event-loop thread.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import AsyncIterator, Iterator
from time import perf_counter
from typing import Any, Literal

from ..errors import ErrorCode, InputError, ModelError
from ..languages import detect_language
from ..result import ApplyResult, ApplyStats, make_result
from ..text import Document, ensure_text
from .answer import AnswerText, read_request
from .templates import PromptTemplate, resolve_template
from .upstream import UpstreamPool, upstream_error

Api = Literal["auto", "chat", "completions"]
SCHEME = "openai:"
EXTRA_NEW_TOKENS = 256  # as in the in-process path: room beyond the prompt for the merged file
AFTER_STOP_EVENTS = 4  # events read after the stop marker, waiting for the server's finish event
CHARS_PER_TOKEN = 3  # without a tokenizer, a generous token estimate (code is ~3-4 chars per token)


class PlainText:
    """Stands in for a tokenizer without a chat template: the template renders plain text."""

    chat_template = None


class UpstreamModel:
    def __init__(self, pool: UpstreamPool, *, model: str | None, template: PromptTemplate, api: Api = "auto",
                 tokenizer: Any = None, name: str | None = None) -> None:
        self.pool = pool
        self.model = model  # the id sent in requests; None = the server's first model (GET /models)
        self.template = template
        self.tokenizer = tokenizer
        self.api: Api = ("completions" if tokenizer is not None else "chat") if api == "auto" else api
        if self.api == "completions" and tokenizer is None:
            raise ModelError("api 'completions' renders the prompt here and needs the model's tokenizer; "
                             "set FASTAPPLY_UPSTREAM_TOKENIZER (a folder or cached hub id) or use api 'chat'",
                             code=ErrorCode.INVALID_ARGUMENT)
        self.name = name or model or "upstream"
        # Chat: continue a prefilled assistant turn (vLLM/SGLang extension). Turned off for good when the
        # server rejects those fields (e.g. `transformers serve`); the echoed prefix is stripped then.
        self.prefill = True
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_lock = threading.Lock()

    def __repr__(self) -> str:
        urls = ",".join(e.url for e in self.pool.endpoints)
        return f"UpstreamModel({self.name!r}, url={urls!r}, api={self.api!r}, template={self.template.name!r})"

    @property
    def observer(self) -> Any:
        return self.pool.observer

    @observer.setter
    def observer(self, value: Any) -> None:
        self.pool.observer = value

    async def health(self) -> dict[str, str]:
        return await self.pool.check()

    # -- the request --------------------------------------------------------------------------------

    def _request(self, doc: Document, snippet: str, instruction: str | None, max_new_tokens: int | None,
                 temperature: float, top_p: float, seed: int | None) -> tuple[str, dict[str, Any], int]:
        """(path, body, max_tokens) for one merge."""
        t = self.template
        if self.api == "completions":
            prompt = t.prompt_text(self.tokenizer, doc.text, snippet, instruction)
            special = not getattr(self.tokenizer, "chat_template", None)
            prompt_tokens = len(self.tokenizer(prompt, add_special_tokens=special)["input_ids"])
            body: dict[str, Any] = {"prompt": prompt}
            path = "/completions"
        else:
            messages = [{"role": "user", "content": t.user_message(doc.text, snippet, instruction)}]
            if t.system:
                messages.insert(0, {"role": "system", "content": t.system})
            if t.answer_prefix and self.prefill:
                messages.append({"role": "assistant", "content": t.answer_prefix})
                body = {"messages": messages, "continue_final_message": True, "add_generation_prompt": False}
            else:
                body = {"messages": messages}
            prompt_tokens = sum(len(m["content"]) for m in messages) // CHARS_PER_TOKEN
            path = "/chat/completions"
        wanted = max_new_tokens if max_new_tokens is not None else prompt_tokens + EXTRA_NEW_TOKENS
        if wanted <= 0:
            raise InputError("max_new_tokens must be positive", code=ErrorCode.INVALID_ARGUMENT)
        body.update({"max_tokens": wanted, "temperature": temperature, "top_p": top_p, "stream": True,
                     "stream_options": {"include_usage": True}})
        if t.stop:  # the server stops there itself (the marker is then absent from the answer)
            body["stop"] = [t.stop]
        if seed is not None:
            body["seed"] = seed
        return path, body, wanted

    def _without_prefill(self, body: dict[str, Any]) -> Any:
        """The pool's second chance for a server that rejects the prefill fields (400/422 naming
        continue_final_message): the same request without them, and no prefill from then on."""

        def rewrite(status: int, message: str) -> tuple[str, dict[str, Any]] | None:
            if status not in (400, 422) or "continue_final_message" not in message:
                return None
            self.prefill = False
            plain = {k: v for k, v in body.items() if k not in ("continue_final_message", "add_generation_prompt")}
            plain["messages"] = [m for m in body["messages"] if m["role"] != "assistant"]
            return "prefill_unsupported", plain

        return rewrite if "continue_final_message" in body else None

    async def _model_id(self) -> str:
        if self.model is None:
            ids = await self.pool.model_ids()
            if not ids:
                raise upstream_error("the upstream serves no model (GET /models is empty)")
            self.model = ids[0]
        return self.model

    # -- async interface (the service) ----------------------------------------------------------------

    async def astream(self, original: str | bytes, update: str | bytes, *, instruction: str | None = None,
                      max_new_tokens: int | None = None, temperature: float = 0.0, top_p: float = 1.0,
                      seed: int | None = None, filename: str | None = None, language: str | None = None,
                      stats: ApplyStats | None = None, **_: Any) -> AsyncIterator[str]:
        """The merged file's text as the server streams it. Ends with an ApplyError (output_truncated,
        a failed check) or a ModelError `upstream_failed` rather than with a partial file.
        Other keywords of ApplyModel.stream (speculation, k_max) are the server's business and ignored."""
        doc, snippet = read_request(original, update)
        lang = detect_language(filename, doc.text, language)
        path, body, limit = self._request(doc, snippet, instruction, max_new_tokens, temperature, top_p, seed)
        body["model"] = await self._model_id()
        started = perf_counter()
        events = self.pool.events(path, body, rewrite=self._without_prefill(body))
        answer = AnswerText(self.template, doc, lang)
        prefix = _PrefixEcho(self.template.answer_prefix if self.api == "chat" else "")
        finish: str | None = None
        after_stop = -1  # events read after the batch that held the stop marker
        stats = stats if stats is not None else ApplyStats()
        try:
            async for batch in events:
                texts = []
                for event in batch:
                    if event.usage is not None:
                        stats.prompt_tokens = event.usage.prompt_tokens or 0
                        stats.generated_tokens = event.usage.completion_tokens or 0
                    for choice in event.choices:
                        texts.append(choice.new_text)
                        if choice.finish_reason:
                            finish = choice.finish_reason
                text = "".join(texts)
                if text:
                    if not stats.prefill_s:
                        stats.prefill_s = round(perf_counter() - started, 6)  # time to first text
                    code = answer.feed(prefix(text))  # one chunk per network read, however many tokens
                    if code:
                        yield code
                if answer.done:
                    # The stop marker came. A server that honours `stop` ends the stream right after
                    # (read to its end, so the call counts as complete); one that does not is cut off.
                    after_stop = 0 if after_stop < 0 else after_stop + len(batch)
                    if after_stop > AFTER_STOP_EVENTS:
                        break
        finally:
            await events.aclose()
        stats.decode_s = round(perf_counter() - started - stats.prefill_s, 6)
        stopped = answer.done  # the stop marker came (closing the answer marks every answer done)
        if finish is None and not stopped:
            raise upstream_error("the upstream ended the stream without a finish reason; the answer may be "
                                 "incomplete and was not used", endpoint=[e.url for e in self.pool.endpoints])
        for chunk in answer.finish(prefix.flush(), finished=stopped or finish != "length", max_new_tokens=limit):
            yield chunk

    async def amerge(self, original: str | bytes, update: str | bytes, **kwargs: Any) -> ApplyResult:
        started = perf_counter()
        stats = ApplyStats()
        chunks = self.astream(original, update, stats=stats, **kwargs)
        try:
            merged = "".join([chunk async for chunk in chunks])
        finally:
            await chunks.aclose()
        original_text = original if isinstance(original, str) else ensure_text(original, "original file")
        lang = detect_language(kwargs.get("filename"), original_text, kwargs.get("language"))
        return make_result(original_text, merged, method="model", language=lang, filename=kwargs.get("filename"),
                           started=started, stats=stats)

    # -- sync interface (library callers) ---------------------------------------------------------------

    def _background_loop(self) -> asyncio.AbstractEventLoop:
        with self._loop_lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="fastapply-upstream", daemon=True).start()
                self._loop = loop
            return self._loop

    def merge(self, original: str | bytes, update: str | bytes, **kwargs: Any) -> ApplyResult:
        loop = self._background_loop()
        return asyncio.run_coroutine_threadsafe(self.amerge(original, update, **kwargs), loop).result()

    def stream(self, original: str | bytes, update: str | bytes, **kwargs: Any) -> Iterator[str]:
        """Chunks of the merged file; closing the iterator closes the upstream connection."""
        loop = self._background_loop()
        chunks = self.astream(original, update, **kwargs)
        try:
            while True:
                try:
                    yield asyncio.run_coroutine_threadsafe(chunks.__anext__(), loop).result()
                except StopAsyncIteration:
                    return
        finally:
            asyncio.run_coroutine_threadsafe(chunks.aclose(), loop).result()


class _PrefixEcho:
    """Drops the answer prefix (e.g. `<updated-code>`) when a chat server ignored the prefilled
    assistant turn and wrote it itself; text is held only until it cannot be that prefix."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix.strip()
        self.pending: str | None = "" if self.prefix else None

    def __call__(self, text: str) -> str:
        if self.pending is None:
            return text
        self.pending += text
        head = self.pending.lstrip()
        if len(head) < len(self.prefix) and self.prefix.startswith(head):
            return ""  # could still become the prefix
        out, self.pending = self.pending, None
        if head.startswith(self.prefix):
            out = head[len(self.prefix):]
            out = out[1:] if out.startswith("\n") else out
        return out

    def flush(self) -> str:
        out, self.pending = self.pending or "", None
        return out


def parse_spec(spec: str) -> tuple[list[str], str | None]:
    """'openai:URL[,URL...][#MODEL]' -> (urls, model or None)."""
    rest = spec[len(SCHEME):] if spec.startswith(SCHEME) else spec
    urls_part, _, model = rest.partition("#")
    urls = [u for u in (part.strip() for part in urls_part.split(",")) if u]
    return urls, (model.strip() or None)


def load_upstream(spec: str, *, template: str | PromptTemplate | None = None, name: str | None = None,
                  api: Api | None = None, tokenizer: Any = None, api_key: str | None = None,
                  environ: dict[str, str] | None = None, **pool_options: Any) -> UpstreamModel:
    """An UpstreamModel for `openai:URL[,URL...][#MODEL]`. Options not given as keywords come from
    FASTAPPLY_UPSTREAM_{API_KEY, API, TOKENIZER, TEMPLATE, TIMEOUT_S, CONNECTIONS, RETRIES}."""
    env = os.environ if environ is None else environ

    def opt(key: str) -> str | None:
        return env.get("FASTAPPLY_UPSTREAM_" + key) or None

    urls, model = parse_spec(spec)
    if not urls:
        raise ModelError(f"{spec!r} names no upstream URL; write openai:http://host:8000/v1[#MODEL]",
                         code=ErrorCode.INVALID_ARGUMENT)
    for key, option, cast in (("TIMEOUT_S", "read_timeout_s", float), ("CONNECTIONS", "max_connections", int),
                              ("RETRIES", "retries", int)):
        if option not in pool_options and opt(key):
            try:
                pool_options[option] = cast(opt(key))
            except ValueError:
                raise ModelError(f"FASTAPPLY_UPSTREAM_{key}={opt(key)!r} is not a number",
                                 code=ErrorCode.INVALID_ARGUMENT) from None
    pool = UpstreamPool(urls, api_key=api_key or opt("API_KEY"), **pool_options)
    tok = tokenizer if tokenizer is not None else opt("TOKENIZER")
    if isinstance(tok, (str, os.PathLike)):
        tok = load_tokenizer(os.fspath(tok))
    chosen_api = api or opt("API") or "auto"
    if chosen_api not in ("auto", "chat", "completions"):
        raise ModelError(f"unknown upstream api {chosen_api!r}; use auto, chat or completions",
                         code=ErrorCode.INVALID_ARGUMENT)
    label = name or model
    return UpstreamModel(pool, model=model, template=resolve_template(template or opt("TEMPLATE"), label),
                         api=chosen_api, tokenizer=tok, name=label)  # type: ignore[arg-type]


def load_tokenizer(source: str) -> Any:
    """The model's tokenizer (for its chat template and token counts): a folder or a cached hub id."""
    try:
        from transformers import AutoTokenizer
    except ImportError as exc:
        raise ModelError("rendering the prompt here needs transformers: pip install 'fastapply[model]', "
                         "or use FASTAPPLY_UPSTREAM_API=chat", code=ErrorCode.MODEL_NOT_CONFIGURED) from exc
    from .loader import from_pretrained, locate

    path, gguf_file, hub = locate(source)
    extra = {"gguf_file": gguf_file} if gguf_file else {}
    return from_pretrained(AutoTokenizer, path, hub=hub, **extra)
