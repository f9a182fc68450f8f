"""RFP review engine: plain Python, no UI."""

import os

# llama.cpp and torch share one OpenMP runtime, which reads this once at load: spinning
# worker threads make generation about 6x slower whenever another process uses the cores.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
