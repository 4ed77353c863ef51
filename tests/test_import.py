import subprocess
import sys


def test_import_does_not_pull_heavy_modules():
    code = ("import sys, fastapply; heavy = [m for m in ('torch', 'transformers', 'triton', 'litestar', "
            "'uvicorn', 'tree_sitter') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
