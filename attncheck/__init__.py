"""attncheck: a derivation checker for the lecture mathematics of Transformer attention."""

from attncheck.catalogue import CATALOGUE, Entry

__all__ = ["CATALOGUE", "Entry"]
__version__ = "0.1.0"
