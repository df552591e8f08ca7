"""The benchmark driver scripts/bench.sh runs (tests/bench/bench.py)."""
