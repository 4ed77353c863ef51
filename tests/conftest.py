import os

# Kernel tests run Triton's interpreter on the CPU; it must be set before triton is imported.
os.environ.setdefault("TRITON_INTERPRET", "1")
