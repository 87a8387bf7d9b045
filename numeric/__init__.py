"""attncheck's numeric side: evaluates the symbolic side's expressions at concrete points."""

__all__: list[str] = []
