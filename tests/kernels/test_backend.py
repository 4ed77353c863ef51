import subprocess
import sys
from pathlib import Path

import pytest
import torch

import fastapply.kernels as kernels


def test_backend_choice(monkeypatch):
    monkeypatch.delenv("FASTAPPLY_KERNELS", raising=False)
    assert kernels.backend("cpu") == "torch"
    monkeypatch.setenv("FASTAPPLY_KERNELS", "torch")
    assert kernels.backend("cpu") == "torch"
    if kernels.triton_available():
        monkeypatch.setenv("FASTAPPLY_KERNELS", "triton")
        monkeypatch.setenv("TRITON_INTERPRET", "1")
        assert kernels.backend("cpu") == "triton"
        monkeypatch.setenv("TRITON_INTERPRET", "0")
        assert kernels.backend("cpu") == "torch"  # compiled Triton cannot run CPU tensors
        monkeypatch.delenv("FASTAPPLY_KERNELS")
        assert kernels.backend("cuda") == "triton"


@pytest.mark.parametrize("choice", ["torch", "triton"])
def test_dispatch_gives_the_same_answer(monkeypatch, choice):
    if choice == "triton" and not kernels.triton_available():
        pytest.skip("triton is not installed")
    monkeypatch.setenv("FASTAPPLY_KERNELS", choice)
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    logits = torch.tensor([[[0.0, 2.0, 1.0], [3.0, 0.0, 0.0], [0.0, 0.0, 5.0]]])
    accepted, nxt = kernels.verify_greedy(logits, torch.tensor([[1, 0]]), torch.tensor([2]))
    assert (accepted.tolist(), nxt.tolist()) == ([2], [2])
    accepted, nxt = kernels.verify_sample(logits, torch.tensor([[1, 2]]), torch.tensor([2]), temperature=1.0,
                                          top_p=1.0, uniforms=torch.tensor([[0.0, 0.9999, 0.0, 0.0]]))
    assert accepted.tolist() == [1]  # p_1(2) is small: rejected by u = 0.9999
    assert nxt.tolist() == [0]  # inverse CDF at u = 0 picks the first token with mass; 2 was removed


def test_importing_kernels_does_not_import_triton():
    code = "import sys, fastapply.kernels; print('triton' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_checkout_never_shadows_hugging_faces_kernels_package():
    # transformers >= 5.25 requires Hugging Face's `kernels` and imports it by that name: run from
    # a checkout's root (pytest, `python -m evals...`), our kernels/ folder must not be what it finds
    root = Path(__file__).resolve().parents[2]
    code = "import importlib.util; s = importlib.util.find_spec('kernels'); print(s.origin if s else None)"
    origin = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                            check=True).stdout.strip()
    assert origin == "None" or root / "kernels" not in Path(origin).parents, origin
