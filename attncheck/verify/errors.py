"""Where in the user's file something went wrong, and the error that says so.

Every problem with the input — a missing file, binary data, an unknown macro, an
unbalanced brace, a step the engine cannot evaluate — becomes a :class:`VerifyError`
whose message starts with ``file:line:column``, so editors can jump to it.

>>> str(VerifyError("expected '=' after the expression", Location("notes.tex", 12, 5)))
"notes.tex:12:5: expected '=' after the expression"
"""

from __future__ import annotations

from dataclasses import dataclass

from derivations.errors import DerivationError

__all__ = ["Location", "VerifyError"]


@dataclass(frozen=True, order=True)
class Location:
    """A place in a file: 1-based line and column (columns count characters, not bytes)."""

    path: str
    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def as_json(self) -> dict[str, object]:
        return {"file": self.path, "line": self.line, "column": self.column}


class VerifyError(DerivationError):
    """Input that `attncheck verify` cannot check; the message names the place."""

    def __init__(self, message: str, location: Location) -> None:
        super().__init__(f"{location}: {message}")
        self.location = location
        self.reason = message
