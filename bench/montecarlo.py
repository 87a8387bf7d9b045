"""Benchmark of the Monte Carlo side; prints ratios measured in this one run.

    python bench/montecarlo.py

(a) i.i.d. path throughput as a fraction of raw ``standard_normal`` throughput, one
    thread (target ≥ 0.85): the path draws q and k, forms q·k and streams the
    statistics of Var(q·k); its throughput counts the normals it consumes.
(b) two-thread speed-up of the same path (target ≥ 1.7 on an idle 2-core machine).
(c) confidence-interval width per CPU-second, block design over i.i.d. design, for
    Var(q·k) at d = 512 (target ≥ 4): width × √(CPU seconds) of each, as a ratio.
(d) peak memory of 10⁸ products at d = 512 in the block design, measured in a fresh
    process (target < 500 MB), beside what the notes' untiled n = 10⁴ script needs.
(e) the per-operation costs the design choice uses (numeric.montecarlo.COSTS), measured.
"""

from __future__ import annotations

import math
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from derivations import Dot, Family, MeanIs, Model, Var, VarianceIs
from derivations.lecture import D_K
from numeric import estimate, point_for
from numeric.montecarlo import BLOCK, COSTS

#: Independent standard Gaussian q and k (the block design needs q ⟂ k).
MODEL = Model((Family("q", "normal"), Family("k", "normal")), dim=D_K)
STANDARD = (MeanIs("q"), MeanIs("k"), VarianceIs("q"), VarianceIs("k"))
Q, K = MODEL.family("q").base, MODEL.family("k").base
D = 512


def raw_normals_per_second(seconds: float = 1.5) -> float:
    rng = np.random.default_rng(0)
    buf = np.empty(1 << 21)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        rng.standard_normal(out=buf)
        n += buf.size
    return n / (time.perf_counter() - t0)


def iid_normals_per_second(threads: int, samples: int) -> float:
    p = point_for(MODEL, STANDARD, d=D)
    t0 = time.perf_counter()
    estimate(Var(Dot(Q, K)), p, seed=1, design="iid", units=samples, threads=threads)
    return 2 * D * samples / (time.perf_counter() - t0)


def width_per_cpu_second(design: str, units: int) -> tuple[float, float, float]:
    p = point_for(MODEL, STANDARD, d=D)
    c0 = time.process_time()
    est = estimate(Var(Dot(Q, K)), p, seed=2, design=design, units=units)
    cpu = time.process_time() - c0
    return est.se * math.sqrt(cpu), est.se, cpu


def peak_memory_mb(products: float) -> float:
    blocks = math.ceil(products / BLOCK**2)
    code = (
        "import resource; from derivations import Dot, Var; "
        "from bench.montecarlo import MODEL, STANDARD, Q, K; from numeric import estimate, point_for; "
        f"p = point_for(MODEL, STANDARD, d={D}); "
        f"e = estimate(Var(Dot(Q, K)), p, seed=3, design='block', units={blocks}); "
        "print(e.products, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    root = str(Path(__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=root)
    made, kb = out.stdout.split()
    assert int(made) >= products
    return int(kb) / 1024


def unit_costs() -> dict[str, float]:
    """Seconds per drawn normal, per matmul multiply-add and per streamed statistic."""
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((BLOCK, D)), rng.standard_normal((BLOCK, D))
    x = rng.standard_normal(1 << 20)
    timings = {}
    for name, work, count in (
        ("draw", lambda: rng.standard_normal(1 << 18), 1 << 18),
        ("mac", lambda: a @ b.T, BLOCK * BLOCK * D),
        ("stat", lambda: (x - 0.5).dot(x - 0.5), 1 << 20),
    ):
        t0, n = time.perf_counter(), 0
        while time.perf_counter() - t0 < 0.5:
            work()
            n += 1
        timings[name] = (time.perf_counter() - t0) / n / count
    return timings


def main() -> None:
    raw = raw_normals_per_second()
    one = iid_normals_per_second(1, 200_000)
    two = iid_normals_per_second(2, 200_000)
    print(f"(a) i.i.d. path / raw standard_normal, one thread: {one / raw:.2f}  "
          f"({one / 1e6:.0f} M vs {raw / 1e6:.0f} M normals/s; target ≥ 0.85)")
    print(f"(b) two-thread speed-up of the i.i.d. path:        {two / one:.2f}  (target ≥ 1.7)")
    w_iid, se_iid, cpu_iid = width_per_cpu_second("iid", 200_000)
    w_blk, se_blk, cpu_blk = width_per_cpu_second("block", 128)
    print(f"(c) CI width per CPU-second, block over i.i.d., d = {D}: {w_iid / w_blk:.1f}×  "
          f"(i.i.d. se {se_iid:.3g} in {cpu_iid:.1f} CPU-s; block se {se_blk:.3g} in "
          f"{cpu_blk:.1f} CPU-s; target ≥ 4)")
    mb = peak_memory_mb(1e8)
    untiled = 2 * 10_000**2 * 8 / 1e6 + 2 * 10_000 * 100 * 8 / 1e6
    print(f"(d) peak memory, 10⁸ products at d = {D}, block design: {mb:.0f} MB (target < 500 MB; "
          f"the notes' untiled n = 10⁴, d = 100 script holds ≥ {untiled:.0f} MB of arrays)")
    measured = unit_costs()
    print("(e) unit costs measured (used by the design choice): " + ", ".join(
        f"{k} {v * 1e9:.3g} ns ({COSTS[k] * 1e9:.3g} ns)" for k, v in measured.items()))
    print(f"    this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB peak")


if __name__ == "__main__":
    main()
