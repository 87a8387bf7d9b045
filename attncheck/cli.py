"""The ``attncheck`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from attncheck.catalogue import CATALOGUE, Entry
from attncheck.text import needs_text, text
from derivations import DerivationError, DerivationVerdict

__all__ = ["main"]


def _verdict_json(v: DerivationVerdict) -> dict[str, object]:
    return {
        "title": v.derivation.title,
        "holds": v.holds,
        "steps": [
            {
                "lhs": text(s.lhs),
                "rhs": text(s.rhs),
                "reason": s.reason,
                "status": s.status.value,
                "needs": [sorted(map(str, n)) for n in s.needs],
                "residual": text(s.residual),
                "residual_given": text(s.residual_given),
            }
            for s in v.steps
        ],
    }


def _check_entry(entry: Entry) -> tuple[bool, list[str], dict[str, object]]:
    truth = entry.truth.check()
    lines = [f"{'✓' if truth.holds else '✗'} {entry.key}: {entry.truth.title} — "
             f"{needs_text(truth.conclusion)}"]
    if len(truth.steps) > 1:
        for n, s in enumerate(truth.steps, 1):
            lines.append(f"    step {n} ({s.reason}): {needs_text(s)}")
    ok = truth.holds
    twins = []
    for twin in entry.twins:
        tv = twin.check()
        rejected = not tv.holds
        ok &= rejected
        mark = "✓ rejected" if rejected else "✗ ACCEPTED"
        lines.append(f"  {mark} wrong twin: {twin.title} — {needs_text(tv.conclusion)}")
        twins.append({**_verdict_json(tv), "rejected": rejected})
    return ok, lines, {"key": entry.key, "ok": ok, "truth": _verdict_json(truth), "twins": twins}


def _cmd_check(args: argparse.Namespace) -> int:
    results = [_check_entry(e) for e in CATALOGUE]
    ok = all(r[0] for r in results)
    if args.json:
        json.dump({"ok": ok, "entries": [r[2] for r in results]}, sys.stdout,
                  ensure_ascii=False, indent=2)
        print()
    else:
        for _, lines, _ in results:
            print("\n".join(lines))
        n_twins = sum(len(e.twins) for e in CATALOGUE)
        print(f"{'OK' if ok else 'FAILED'}: {len(CATALOGUE)} results, {n_twins} wrong twins")
    return 0 if ok else 1


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="attncheck",
        description="Check the lecture mathematics of Transformer attention, symbolically and numerically.",
    )
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="check the lecture's catalogue of results and wrong twins")
    c.add_argument("--json", action="store_true", help="machine-readable output")
    c.set_defaults(func=_cmd_check)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except DerivationError as exc:
        print(f"attncheck: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
