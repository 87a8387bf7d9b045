"""What the compile tests need from the machine: skip on a user's quick run, fail in CI.

CI (.ci/run, with CI=true) installs TeX Live and poppler, so a missing tool there is a
broken CI, not a reason to skip.
"""

from __future__ import annotations

import os
import shutil

import pytest

from attncheck.tex import TEX_PACKAGES

__all__ = ["require_tools", "unavailable"]

INSTALL = f"apt-get install --no-install-recommends {TEX_PACKAGES} poppler-utils"


def unavailable(why: str) -> None:
    """Skip with ``why`` — or fail when the environment variable CI is set."""
    if os.environ.get("CI"):
        pytest.fail(f"CI is set, so this test must run, but {why}")
    pytest.skip(why)


def require_tools(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        unavailable(f"{', '.join(missing)} not installed (install: {INSTALL})")
