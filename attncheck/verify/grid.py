"""A matrix a note writes out (``bmatrix``, ``pmatrix``) with its shape kept: the worked
example's arithmetic of attention (Q Kᵀ, S/√d_k, a row-wise softmax, A V) done as matrices.

The parser keeps a written matrix as a :class:`Grid` while it is multiplied, added, scaled,
transposed or given to softmax; as a side of '=' it becomes the entry list that the checker
compares entry by entry.  SymPy's ``Mul`` is commutative, so a product of two matrices must
be taken here, while the order of the factors is still the note's.

>>> from sympy import Rational
>>> q = Grid.of([[1, 0], [0, 1]])
>>> k = Grid.of([[1, 2], [3, 4]])
>>> times(q, transposed(k)).rows()
[[1, 3], [2, 4]]
>>> times(Grid.of([[1, 2]]), Grid.of([[3], [4]]))
11
>>> softmax_rows(Grid.of([[0, 0]])).rows()
[[1/2, 1/2]]
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sympy import Add, Expr, ImmutableMatrix, Integer, exp

__all__ = ["Grid", "GridError", "MAX_PRODUCT_TERMS", "added", "scaled", "softmax_rows", "times",
           "transposed"]

#: The most multiplications one product of written matrices may take: a note's worked example
#: is a few rows by a few columns (a 4×4 by 4×4 product is 64); a column of 100 times a row of
#: 100 is no example, and SymPy's exact arithmetic grows with every entry.
MAX_PRODUCT_TERMS = 5_000


class GridError(ValueError):
    """Arithmetic the written matrices do not allow (shapes that do not fit)."""


@dataclass(frozen=True)
class Grid:
    """A matrix written out entry by entry; a column vector is n×1, a row 1×n."""

    matrix: ImmutableMatrix
    #: the letter the note gave it (Q = [1 0; 0 1]), "" for a matrix written in place
    name: str = ""

    @classmethod
    def of(cls, rows: Sequence[Sequence[Expr | int]]) -> Grid:
        return cls(ImmutableMatrix(rows))

    @property
    def shape(self) -> tuple[int, int]:
        return self.matrix.shape

    @property
    def is_vector(self) -> bool:
        return 1 in self.shape

    def rows(self) -> list[list[Expr]]:
        return self.matrix.tolist()

    def entries(self) -> list[Expr]:
        """The entries row after row (a vector's, in order)."""
        return list(self.matrix)

    def entry(self, indices: Sequence[Expr]) -> Expr | None:
        """The entry at (row, column) numbered from 1 — A_{12} written as one number too —
        or None where the indices are no entry of it."""
        if len(indices) == 1 and indices[0].is_Integer and 10 < indices[0] < 100:
            indices = [Integer(int(indices[0]) // 10), Integer(int(indices[0]) % 10)]
        rows, cols = self.shape
        if len(indices) != 2 or not all(i.is_Integer for i in indices) or \
                not (1 <= indices[0] <= rows and 1 <= indices[1] <= cols):
            return None
        return self.matrix[int(indices[0]) - 1, int(indices[1]) - 1]

    def size(self) -> str:
        return "×".join(map(str, self.shape))


def _fitted(b: Grid, a: Grid) -> Grid:
    """``b`` in ``a``'s shape where both are vectors of one length (a note that writes a row
    where it added a column means the same entries); else ``b`` as it is."""
    if a.is_vector and b.is_vector and len(a.entries()) == len(b.entries()):
        return Grid(b.matrix.reshape(*a.shape))
    return b


def added(a: Grid, b: Grid, sign: int) -> Grid:
    """a + b (sign 1) or a − b (sign −1), entry by entry."""
    b = _fitted(b, a)
    if a.shape != b.shape:
        raise GridError(f"a {a.size()} matrix plus a {b.size()} one")
    return Grid(a.matrix + sign * b.matrix)


def scaled(a: Grid, c: Expr) -> Grid:
    """c · a: a number (or a scalar expression) times every entry."""
    return Grid(a.matrix.applyfunc(lambda e: c * e))


def times(a: Grid, b: Grid, dot: bool = False) -> Grid | Expr:
    """The matrix product a b (a 1×1 result is its number).  ``dot``: the two were written
    with a product sign (·), which between two vectors of one length is their dot product
    whatever way each is written."""
    (r, m), (n, c) = a.shape, b.shape
    if m != n and dot and a.is_vector and b.is_vector and len(a.entries()) == len(b.entries()):
        return Add(*(x * y for x, y in zip(a.entries(), b.entries())))
    # a gradient written as a column before a matrix (∂L/∂a ∂a/∂z), or as a row after one:
    # the vector it stands for, turned — the only product the two make
    if m != n and m == 1 and r == n and c > 1:
        a, (r, m) = transposed(a), (1, r)
    elif m != n and n == 1 and c == m and r > 1:
        b, (n, c) = transposed(b), (c, 1)
    if m != n:
        raise GridError(f"a {a.size()} matrix times a {b.size()} one: the shapes do not fit")
    if r * m * c > MAX_PRODUCT_TERMS:
        raise GridError(f"a {a.size()} by {b.size()} product of written matrices is too large "
                        f"to check (over {MAX_PRODUCT_TERMS} multiplications)")
    out = a.matrix * b.matrix
    return out[0, 0] if out.shape == (1, 1) else Grid(ImmutableMatrix(out))


def transposed(a: Grid) -> Grid:
    return Grid(a.matrix.T)


def softmax_rows(a: Grid) -> Grid:
    """softmax of a written matrix: of each row (the attention weights of each query, the way
    softmax(QKᵀ/√d_k) is taken), exactly — e^{a_ij}/Σ_k e^{a_ik}.  A column vector is one
    vector of scores, taken whole."""
    if a.shape[1] == 1:
        return transposed(softmax_rows(transposed(a)))
    rows = []
    for row in a.rows():
        total = Add(*(exp(e) for e in row))
        rows.append([exp(e) / total for e in row])
    return Grid.of(rows)
