"""The catalogue: every true result holds, every wrong twin is rejected, and the CLI says so."""

from __future__ import annotations

import json

import pytest

from attncheck.catalogue import CATALOGUE, Entry
from attncheck.cli import main


@pytest.mark.parametrize("entry", CATALOGUE, ids=[e.key for e in CATALOGUE])
def test_truth_holds_and_every_twin_is_rejected(entry: Entry) -> None:
    assert entry.twins, f"{entry.key} has no wrong twin"
    truth = entry.truth.check()
    assert truth.holds, f"{entry.key}: {[(s.reason, s.residual_given) for s in truth.steps]}"
    for twin in entry.twins:
        v = twin.check()
        assert not v.holds, f"wrong twin accepted: {twin.title}"
        assert v.conclusion.residual_given != 0


def test_check_command_lists_every_result_and_twin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    for e in CATALOGUE:
        assert e.truth.title in out
        for t in e.twins:
            assert f"✓ rejected wrong twin: {t.title}" in out
    assert "step 3 (regroup): holds given {E(k_i) = 0, E(q_i) = 0}" in out
    assert out.rstrip().endswith(f"OK: {len(CATALOGUE)} results, {sum(len(e.twins) for e in CATALOGUE)} wrong twins")


def test_check_json_is_parseable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True
    chain = next(e for e in data["entries"] if e["key"] == "var-qk-single")
    assert chain["truth"]["steps"][2]["needs"] == [["E(k_i) = 0", "E(q_i) = 0"]]
    assert all(t["rejected"] for e in data["entries"] for t in e["twins"])
