"""Chat-completion dialects, Morph's large-file anchor tables and model names, over HTTP with the `openai` client."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import openai
import pytest
from svc_support import FakeModel, LiveServer

import fastapply
from fastapply.service import Settings
from fastapply.service import anchors as anchor_protocol

ORIGINAL = ("import os\n\n\ndef load_configuration_file(path):\n    with open(path) as handle:\n"
            "        return handle.read()\n\n\ndef save_configuration_file(path, text):\n"
            "    with open(path, 'w') as handle:\n        handle.write(text)\n")
UPDATE = "def load_configuration_file(path):\n    with open(path, encoding='utf-8') as handle:\n" \
         "        return handle.read()\n\n# ... existing code ...\n"
MERGED = fastapply.apply(ORIGINAL, UPDATE).merged_code


def client_for(server: LiveServer) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.url + "/v1", api_key="unused", max_retries=0)


def sdk_encode(original: str, ns: int = 0) -> str:
    """The <code> body @morphllm/morphsdk sends for a large file (its createAnchorCompactionPlan)."""
    ids: dict[str, int] = {}
    skeleton = []
    parts = re.split(r"(\r\n|\n|\r)", original)
    for i, part in enumerate(parts):
        if i % 2 or len(part) < 24:
            skeleton.append(part)
        else:
            skeleton.append(f"⟪M{ns}:{ids.setdefault(part, len(ids))}:line⟫")
    table = "\n".join(f"⟪M{ns}:{i}:line⟫={json.dumps(v, ensure_ascii=False)}" for v, i in ids.items())
    return "\n".join([f"⟪MORPH_DEFINITIONS_BEGIN_{ns}⟫", table, f"⟪MORPH_DEFINITIONS_END_{ns}⟫",
                      f"⟪MORPH_CODE_BEGIN_{ns}⟫", "".join(skeleton)])


def morph(code: str, update: str = UPDATE, instruction: str = "use utf-8") -> list[dict[str, str]]:
    return [{"role": "user", "content": f"<instruction>{instruction}</instruction>\n<code>{code}</code>\n"
             f"<update>{update}</update>"}]


def error_of(exc: openai.APIStatusError) -> dict:
    body = exc.body if isinstance(exc.body, dict) else {}
    return body.get("error", body)


def test_anchor_table_round_trip_with_the_sdk_expansion():
    original, table = anchor_protocol.decode(sdk_encode(ORIGINAL))
    assert original == ORIGINAL and table.kinds == {"line"}
    answer = anchor_protocol.compact(MERGED, table)
    # Unchanged long lines travel as placeholders, and the SDK's expansion gives the merged file.
    assert "⟪M0:" in answer and len(answer) < len(MERGED)
    assert anchor_protocol.expand(answer, table) == MERGED


@pytest.mark.parametrize("stream", [False, True])
def test_anchored_request_answers_what_expands_to_the_merge(server, stream):
    client = client_for(server).with_options(default_headers={"X-Morph-Apply-Context": "extralong"})
    note = "\n\nLARGE-FILE ANCHOR PROTOCOL:\nThe <code> block starts with an exact anchor definition table"
    messages = morph(sdk_encode(ORIGINAL), instruction="use utf-8" + note)
    _, table = anchor_protocol.decode(sdk_encode(ORIGINAL))
    if stream:
        chunks = client.chat.completions.create(model="morph-v3-large", messages=messages, stream=True)
        text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    else:
        text = client.chat.completions.create(model="morph-v3-large", messages=messages).choices[0].message.content
    assert anchor_protocol.expand(text, table) == MERGED


@pytest.mark.parametrize(("code", "says"), [
    ("⟪MORPH_DEFINITIONS_BEGIN_0⟫\n⟪M0:0:line⟫=\"x\"\n⟪MORPH_CODE_BEGIN_0⟫\nx\n", "DEFINITIONS_END_0"),
    ("⟪MORPH_DEFINITIONS_BEGIN_0⟫\n⟪M0:0:line⟫=not json\n⟪MORPH_DEFINITIONS_END_0⟫\n⟪MORPH_CODE_BEGIN_0⟫\n",
     "not a JSON string"),
    ("⟪MORPH_DEFINITIONS_BEGIN_0⟫\nM0:0=\"x\"\n⟪MORPH_DEFINITIONS_END_0⟫\n⟪MORPH_CODE_BEGIN_0⟫\n", "line 2"),
    ("⟪MORPH_DEFINITIONS_BEGIN_0⟫\n⟪M0:0:line⟫=\"x\"\n⟪MORPH_DEFINITIONS_END_0⟫\n⟪MORPH_CODE_BEGIN_0⟫\n"
     "⟪M0:7:line⟫\n", "⟪M0:7:line⟫"),
    ("⟪MORPH_DEFINITIONS_BEGIN_0⟫\n⟪M0:0:line⟫=\"x\"\n⟪M0:0:line⟫=\"y\"\n⟪MORPH_DEFINITIONS_END_0⟫\n"
     "⟪MORPH_CODE_BEGIN_0⟫\n", "twice"),
    ("⟪MORPH_DEFINITIONS_BEGIN_0⟫\n⟪M0:0:line⟫=\"x\"\n⟪MORPH_DEFINITIONS_END_0⟫\nskeleton\n", "CODE_BEGIN_0"),
])
def test_malformed_anchor_tables_are_400(server, code, says):
    with pytest.raises(openai.BadRequestError) as info:
        client_for(server).chat.completions.create(model="auto", messages=morph(code))
    error = error_of(info.value)
    assert error["code"] == "malformed_anchor_table" and says in error["message"]


def test_kortix_answer_is_tagged_and_honours_a_prefill(server):
    from fastapply.runtime.templates import FASTAPPLY

    assert FASTAPPLY.system is not None
    messages = [{"role": "system", "content": FASTAPPLY.system},
                {"role": "user", "content": FASTAPPLY.user_message(ORIGINAL, UPDATE, None)}]
    reply = client_for(server).chat.completions.create(model="auto", messages=messages)
    assert reply.choices[0].message.content == f"<updated-code>{MERGED}</updated-code>"
    prefilled = client_for(server).chat.completions.create(
        model="auto", messages=[*messages, {"role": "assistant", "content": "<updated-code>"}])
    assert prefilled.choices[0].message.content == f"{MERGED}</updated-code>"


def test_predicted_outputs_take_the_file_from_the_prediction(server):
    reply = client_for(server).chat.completions.create(
        model="gpt-4o-apply", prediction={"type": "content", "content": ORIGINAL},
        messages=[{"role": "system", "content": "Apply the edit."}, {"role": "user", "content": UPDATE}])
    assert reply.choices[0].message.content == MERGED and reply.model == "fastapply-structural"


def test_unknown_dialect_is_400_naming_the_accepted_shapes(server):
    with pytest.raises(openai.BadRequestError) as info:
        client_for(server).chat.completions.create(model="auto", messages=[
            {"role": "user", "content": "please fix my code"}])
    message = error_of(info.value)["message"]
    for shape in ("Morph", "Kortix", "ORIGINAL CODE", "Predicted Outputs"):
        assert shape in message


@pytest.mark.parametrize("name", ["morph-v2", "relace-apply-2", "Morph-V3-Large", "my-fast-apply", "auto"])
def test_apply_model_names_serve_as_auto(server, name):
    reply = client_for(server).chat.completions.create(model=name, messages=morph(ORIGINAL))
    assert reply.choices[0].message.content == MERGED and reply.model == "fastapply-structural"


def test_other_names_are_404(server):
    with pytest.raises(openai.NotFoundError):
        client_for(server).chat.completions.create(model="gpt-4o", messages=morph(ORIGINAL))


@pytest.fixture(scope="module")
def strict_server() -> Iterator[LiveServer]:
    server = LiveServer(Settings(executor="thread", log_level="error", strict_models=True, mcp=False)).start()
    try:
        yield server
    finally:
        server.stop()


def test_strict_models_restores_404(strict_server):
    with pytest.raises(openai.NotFoundError):
        client_for(strict_server).chat.completions.create(model="morph-v2", messages=morph(ORIGINAL))
    reply = client_for(strict_server).chat.completions.create(model="morph-v3-fast", messages=morph(ORIGINAL))
    assert reply.choices[0].message.content == MERGED  # configured aliases still work


def test_response_names_the_model_that_merged(server, fake_model, monkeypatch):
    from fastapply.errors import ErrorCode, MergeError
    from fastapply.service import engine as engine_module

    def refuse(job):
        raise MergeError("cannot place the snippet", code=ErrorCode.ANCHOR_NOT_FOUND)

    monkeypatch.setattr(engine_module, "structural_apply", refuse)
    raw = client_for(server).chat.completions.with_raw_response.create(model="morph-v2", messages=morph(ORIGINAL))
    reply = raw.parse()
    assert reply.model == fake_model.name and raw.headers["x-fastapply-engine"] == fake_model.name
    assert reply.choices[0].message.content == FakeModel.output(UPDATE)


def test_continue_prompt_with_the_template_indentation_kept(server):
    """A dedent that measures the interpolated code leaves the template's indentation on its lines and on
    each code block's first line; the parser takes it off again (evals.continue_filter)."""
    from evals import clients, continue_filter
    from evals.cases import load_cases

    picked = clients.sample(load_cases(), 4, seed=11)
    for case in picked:
        messages = continue_filter.apply_messages_indented(case.original, case.update)
        assert messages[0]["content"].startswith("        ORIGINAL CODE:\n        ```\n        ")
        text = client_for(server).chat.completions.create(model="fast-apply", messages=messages) \
            .choices[0].message.content
        want = clients.expected(case, with_filename=False).merged
        assert want is not None
        assert continue_filter.applied_file(text, "fast-apply") == continue_filter.as_continue_writes(want)


def test_html_tables_answer_with_the_file_itself():
    # For HTML the SDK anchors tags and text runs, not lines: the answer is the merged page verbatim,
    # which its expansion passes through unchanged.
    page = "<!doctype html>\n<html><body><p class=\"lead-paragraph\">Welcome to the status page</p></body></html>\n"
    code = ("⟪MORPH_DEFINITIONS_BEGIN_3⟫\n⟪M3:0:p⟫=\"<p class=\\\"lead-paragraph\\\">\"\n"
            "⟪M3:1:text⟫=\"Welcome to the status page\"\n⟪MORPH_DEFINITIONS_END_3⟫\n⟪MORPH_CODE_BEGIN_3⟫\n"
            "<!doctype html>\n<html><body>⟪M3:0:p⟫⟪M3:1:text⟫</p></body></html>\n")
    original, table = anchor_protocol.decode(code)
    assert original == page and table.kinds == {"p", "text"}
    merged = page.replace("Welcome", "Hello")
    answer = anchor_protocol.compact(merged, table)
    assert answer == merged and anchor_protocol.expand(answer, table) == merged
    with pytest.raises(Exception) as info:  # placeholder text in the merged file cannot round-trip
        anchor_protocol.compact(merged + "⟪M3:9:x⟫\n", table)
    assert getattr(info.value, "code", "") == "malformed_anchor_table"
