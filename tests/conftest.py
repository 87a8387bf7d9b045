import sys
from pathlib import Path

# tests/brute.py is a helper module of the tests, importable as `brute`.
sys.path.insert(0, str(Path(__file__).parent))
