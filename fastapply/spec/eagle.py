"""An EAGLE draft head (Li et al., EAGLE-1/2 layout): drafts tokens from the target model's own features.

The head reads the pair (feature f_t, embedding of token x_{t+1}) at each position t, where f_t is the
target's last hidden state (after its final norm), and predicts f_{t+1}:

    f_hat_{t+1} = layer(fc([embed(x_{t+1}); f_t]))        next token = argmax lm_head(f_hat_{t+1})

`fc` is a 2H -> H projection and `layer` one decoder layer of the target's own architecture (the
target's decoder-layer class built from its config, so Llama, Qwen2 and SmolLM2 work), without its input
norm, as EAGLE does. The embeddings and the LM head are the target's, shared and frozen, never copied.
The checkpoint layout is EAGLE's: config.json (the target's config with one layer) plus `fc.*` and
`layers.0.*` weights, so heads trained with the EAGLE authors' code for Llama or Qwen2 targets load.

Reduced draft vocabulary (as EAGLE-3): a head may predict over N << V of the target's tokens (the most
frequent in its training answers) with a small N x H LM head of its own, initialised from the target's
rows; `d2t` maps draft ids to target ids (EAGLE-3's convention: target id = i + d2t[i]) and `t2d` marks
the target tokens in the draft vocabulary. Tokens outside it are never drafted, which costs acceptance
only where the target writes a rare token; verification stays the target's, so the output is unchanged.

Cost: one head position is one decoder layer plus one LM-head matmul, O(H^2 + N H + H n) for n cached
positions and a draft vocabulary of N (V without one); drafting k tokens costs k of them. With
SmolLM2-135M (V = 49152, H = 576) the full LM head is ~7x the decoder layer's multiply-adds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import torch
from torch import nn

from ..errors import ErrorCode, ModelError

SUPPORTED = ("llama", "qwen2")  # model types whose decoder layer the head reuses
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")
# Keys an EAGLE checkpoint may carry besides the head: the target's own tensors, shared instead.
SHARED_KEYS = ("embed_tokens.weight", "lm_head.weight")


def incompatible(message: str, **details: Any) -> ModelError:
    return ModelError(message, code=ErrorCode.HEAD_INCOMPATIBLE, details=details)


def _cache_kwarg(layer: nn.Module) -> str:
    import inspect

    params = inspect.signature(type(layer).forward).parameters
    return "cache" if "cache" in params else "past_key_values"


class EagleHead(nn.Module):
    """fc + one decoder layer; `forward` maps (token embeddings, features) to predicted features."""

    def __init__(self, config: Any, layer_class: type, rotary_class: type, *, input_norm: bool = False) -> None:
        super().__init__()
        config._attn_implementation = "sdpa"
        self.config = config
        hidden = config.hidden_size
        self.fc = nn.Linear(2 * hidden, hidden, bias=True)
        self.layers = nn.ModuleList([layer_class(config, 0)])
        if not input_norm:  # EAGLE-1/2 drop the first layer's input norm: fc's output is already scaled
            self.layers[0].input_layernorm = nn.Identity()
        self.rotary_emb = rotary_class(config=config)
        self._cache_kw = _cache_kwarg(self.layers[0])
        self.lm_head: nn.Linear | None = None  # the draft vocabulary's own LM head (None: the target's)

    @property
    def draft_vocab_size(self) -> int | None:
        return None if self.lm_head is None else self.lm_head.out_features

    def set_draft_vocab(self, target_ids: torch.Tensor, rows: torch.Tensor) -> None:
        """Predict over `target_ids` only (N distinct target ids), with an LM head initialised from `rows`
        ([N, H], the target's LM-head rows for those ids)."""
        ids = torch.as_tensor(target_ids, dtype=torch.long).flatten()
        self.lm_head = nn.Linear(rows.shape[1], len(ids), bias=False)
        with torch.no_grad():
            self.lm_head.weight.copy_(rows)
        self.register_buffer("d2t", ids - torch.arange(len(ids)))  # EAGLE-3: target id = i + d2t[i]
        t2d = torch.zeros(self.config.vocab_size, dtype=torch.bool)
        t2d[ids] = True
        self.register_buffer("t2d", t2d)
        self.register_buffer("target_ids", ids, persistent=False)

    def logits(self, features: torch.Tensor, target_lm_head: nn.Module) -> torch.Tensor:
        """Logits over the draft vocabulary (the target's whole vocabulary when the head has none)."""
        return (self.lm_head if self.lm_head is not None else target_lm_head)(features)

    def to_target(self, index: int) -> int:
        """The target's token id for index `index` of `logits`."""
        return index if self.lm_head is None else int(self.target_ids[index])

    def forward(self, embeds: torch.Tensor, features: torch.Tensor, positions: torch.Tensor,
                cache: Any = None) -> torch.Tensor:
        """embeds, features: [B, n, H]; positions: [B, n] absolute positions (the cache holds all before
        them). Returns the predicted next features [B, n, H]."""
        x = self.fc(torch.cat([embeds, features], dim=-1))
        n = x.shape[1]
        mask = None
        if n > 1:  # causal over the new positions, full over the cached ones (SDPA boolean: True = attend)
            past = cache.get_seq_length() if cache is not None else 0
            mask = torch.ones(n, past + n, dtype=torch.bool, device=x.device).tril(past)[None, None]
        kwargs = {self._cache_kw: cache, "use_cache": cache is not None}
        out = self.layers[0](x, attention_mask=mask, position_ids=positions,
                             position_embeddings=self.rotary_emb(x, positions), **kwargs)
        return out[0] if isinstance(out, tuple) else out


def target_parts(target: Any) -> tuple[nn.Module, nn.Module, nn.Module]:
    """(decoder stack, input embeddings, LM head) of a transformers causal LM."""
    return target.get_decoder(), target.get_input_embeddings(), target.get_output_embeddings()


def head_config_for(target: Any, overrides: dict[str, Any] | None = None) -> Any:
    """The target's config with one layer (and the head's own attention/MLP sizes when given)."""
    from transformers import AutoConfig

    values = target.config.to_dict()
    values.update(overrides or {})
    values["num_hidden_layers"] = 1
    values.pop("layer_types", None)  # per-layer lists sized for the target's depth
    model_type = values.pop("model_type")
    return AutoConfig.for_model(model_type, **values)


def new_head(target: Any, *, seed: int | None = None, draft_vocab: list[int] | None = None) -> EagleHead:
    """A freshly initialised head for `target` (random weights; train it with fastapply.spec.train).
    `draft_vocab`: target token ids the head may draft (its own LM head starts as the target's rows)."""
    model_type = target.config.model_type
    if model_type not in SUPPORTED:
        raise incompatible(f"no draft head for {model_type!r} targets; supported: {', '.join(SUPPORTED)}",
                           model_type=model_type)
    decoder = target.get_decoder()
    if seed is not None:
        torch.manual_seed(seed)
    head = EagleHead(head_config_for(target), type(decoder.layers[0]), type(decoder.rotary_emb))
    std = getattr(target.config, "initializer_range", 0.02)
    for module in head.modules():
        if isinstance(module, nn.Linear):
            nn.init.normal_(module.weight, std=std)
            if module.bias is not None:
                nn.init.zeros_(module.bias)
    if draft_vocab is not None:
        ids = _checked_vocab(torch.tensor(list(draft_vocab), dtype=torch.long), target.config.vocab_size)
        head.set_draft_vocab(ids, target.get_output_embeddings().weight.detach()[ids].float())
    param = next(target.parameters())
    return head.to(device=param.device, dtype=param.dtype).eval()


def _checked_vocab(ids: torch.Tensor, vocab_size: int) -> torch.Tensor:
    if ids.numel() == 0 or int(ids.min()) < 0 or int(ids.max()) >= vocab_size or len(set(ids.tolist())) != len(ids):
        raise incompatible(f"a draft vocabulary must be distinct token ids in [0, {vocab_size})",
                           field="d2t", vocab_size=vocab_size)
    return ids


def save_head(head: EagleHead, folder: str | Path, *, extra: dict[str, Any] | None = None) -> Path:
    """Write config.json + model.safetensors (the head's own weights only: fc and the layer)."""
    from safetensors.torch import save_file

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    config = head.config.to_dict()
    if head.draft_vocab_size is not None:
        config["draft_vocab_size"] = head.draft_vocab_size  # EAGLE-3's key
    config["eagle"] = {"version": 1, "input_norm": not isinstance(head.layers[0].input_layernorm, nn.Identity),
                       **(extra or {})}
    state = {k: v.detach().contiguous().cpu() for k, v in head.state_dict().items()}
    save_file(state, str(out / "model.safetensors"))
    (out / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return out


def _read_weights(folder: Path) -> dict[str, torch.Tensor]:
    for name in WEIGHT_FILES:
        path = folder / name
        if not path.exists():
            continue
        try:
            if name.endswith(".safetensors"):
                from safetensors.torch import load_file

                return load_file(str(path))
            return torch.load(path, map_location="cpu", weights_only=True)
        except Exception as exc:  # a corrupt or truncated file
            raise ModelError(f"cannot read draft head weights {path}: {exc}", code=ErrorCode.MODEL_FAILED) from exc
    raise ModelError(f"{folder} has no {' or '.join(WEIGHT_FILES)}", code=ErrorCode.MODEL_NOT_FOUND)


def _model_type(config: dict[str, Any]) -> str | None:
    if config.get("model_type"):
        return str(config["model_type"])
    for arch in config.get("architectures") or []:
        for known in SUPPORTED:
            if str(arch).lower().startswith(known):
                return known
    return None


def load_head(folder: str | Path, target: Any) -> EagleHead:
    """Load a head saved by `save_head` or published in EAGLE-1/2's layout, for `target`.

    A head that does not fit the target (architecture, hidden size, vocabulary, weight shapes) is refused
    with `head_incompatible`: a mismatched head would only ever draft garbage."""
    path = Path(folder).expanduser()
    config_path = path / "config.json"
    if not config_path.exists():
        raise ModelError(f"draft head {str(path)!r} has no config.json", code=ErrorCode.MODEL_NOT_FOUND)
    try:
        config = json.loads(config_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot read {config_path}: {exc}", code=ErrorCode.MODEL_FAILED) from exc
    want = target.config
    model_type = _model_type(config)
    if model_type != want.model_type:
        raise incompatible(f"the draft head is for {model_type!r} models, the target is {want.model_type!r}",
                           head=model_type, target=want.model_type)
    for key in ("hidden_size", "vocab_size"):
        if config.get(key) != getattr(want, key):
            raise incompatible(f"the draft head's {key} is {config.get(key)}, the target's is "
                               f"{getattr(want, key)}", field=key, head=config.get(key), target=getattr(want, key))
    state = _read_weights(path)
    draft_ids = _draft_vocab(config, state, want.vocab_size)
    for key in SHARED_KEYS:  # EAGLE checkpoints may bundle the target's embeddings: check, then share
        if draft_ids is not None and key == "lm_head.weight":
            continue  # the draft vocabulary's own LM head, not the target's
        tensor = state.pop(key, None)
        if tensor is not None and tuple(tensor.shape) != (want.vocab_size, want.hidden_size):
            raise incompatible(f"the draft head's {key} has shape {tuple(tensor.shape)}", field=key)
    sizes = {k: config[k] for k in ("num_attention_heads", "num_key_value_heads", "intermediate_size",
                                     "head_dim", "rms_norm_eps", "rope_theta", "rope_parameters",
                                     "attention_bias", "mlp_bias", "hidden_act") if k in config}
    head_config = head_config_for(target, sizes)
    decoder = target.get_decoder()
    head = EagleHead(head_config, type(decoder.layers[0]), type(decoder.rotary_emb),
                     input_norm="layers.0.input_layernorm.weight" in state)
    if draft_ids is not None:
        head.set_draft_vocab(draft_ids, torch.zeros(len(draft_ids), want.hidden_size))
        state.setdefault("t2d", head.t2d)  # optional in a checkpoint: it follows from d2t
    try:
        head.load_state_dict(state, strict=True)
    except RuntimeError as exc:  # missing, unexpected or mis-shaped tensors
        raise incompatible(f"the draft head's weights do not fit a one-layer {model_type} head for this "
                           f"target: {exc}") from exc
    param = next(target.parameters())
    return head.to(device=param.device, dtype=param.dtype).eval()


def _draft_vocab(config: dict[str, Any], state: dict[str, torch.Tensor], vocab_size: int) -> torch.Tensor | None:
    """The target ids of a checkpoint's draft vocabulary (None: it drafts over the whole vocabulary); a
    map that disagrees with itself, its config or the target's vocabulary is refused."""
    if "d2t" not in state:
        return None
    d2t = state["d2t"].long()
    ids = _checked_vocab(d2t + torch.arange(len(d2t)), vocab_size)
    if config.get("draft_vocab_size") not in (None, len(ids)):
        raise incompatible(f"the draft head's d2t has {len(ids)} entries, its config says "
                           f"{config.get('draft_vocab_size')}", field="draft_vocab_size")
    t2d = state.get("t2d")
    if t2d is not None and (t2d.shape != (vocab_size,) or not torch.equal(t2d.nonzero().flatten(), ids.sort().values)):
        raise incompatible("the draft head's t2d does not match its d2t and the target's vocabulary", field="t2d")
    return ids
