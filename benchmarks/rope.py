"""Throughput of posenc's apply_rope against a plain copy and the two reference formulas.

Usage: python benchmarks/rope.py [--shape 1 32 4096 128] [--repeats 15] [--write benchmarks/results/rope.md]

Everything runs in one process on the same float32 tensor, interleaved with each other, so the ratios
are meaningful on a shared machine even when the absolute numbers wander. Effective throughput counts
the bytes read plus the bytes written (2 x the tensor's size), as for a copy. The floor is a copy into a
new tensor, since apply_rope returns a new tensor too; a copy into an existing tensor, which skips the
allocation and its page faults, is shown beside it, and compares with apply_rope's ``out=``. Below the table,
the three speed targets of the performance appendix, each with its ratio from this run.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from pathlib import Path

import numpy as np
import torch

from posenc.angle_tables import rotation_angles
from posenc.rotary import apply_rope


def reference_formulas(seq: int, d: int):
    """The two formulas found in reference code, written inline, with their tables precomputed."""
    angles = torch.from_numpy(rotation_angles(np.arange(seq), d)).float()  # (seq, d/2)
    cos_half, sin_half = torch.cat([angles.cos()] * 2, -1), torch.cat([angles.sin()] * 2, -1)
    rotation = torch.polar(torch.ones_like(angles), angles)  # e^{i m theta_j}

    def hugging_face_rotate_half(x):
        x1, x2 = x[..., : d // 2], x[..., d // 2 :]
        return x * cos_half + torch.cat((-x2, x1), dim=-1) * sin_half

    def meta_complex(x):
        z = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
        return torch.view_as_real(z * rotation).flatten(-2).type_as(x)

    return hugging_face_rotate_half, meta_complex


def variants(shape):
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(0))
    x_np = x.numpy()
    hf, meta = reference_formulas(shape[-2], shape[-1])
    out, out_np = torch.empty_like(x), np.empty_like(x_np)
    return {
        "torch copy (floor)": lambda: torch.empty_like(x).copy_(x),
        "torch copy into an existing tensor": lambda: out.copy_(x),
        "posenc torch, interleaved": lambda: apply_rope(x),
        "posenc torch, interleaved, out=": lambda: apply_rope(x, out=out),
        "posenc torch, half": lambda: apply_rope(x, layout="half"),
        "Meta complex form (torch)": lambda: meta(x),
        "HF rotate_half (torch)": lambda: hf(x),
        "numpy copy (floor)": lambda: x_np.copy(),
        "numpy copy into an existing array": lambda: np.copyto(out_np, x_np),
        "posenc numpy, interleaved": lambda: apply_rope(x_np),
        "posenc numpy, interleaved, out=": lambda: apply_rope(x_np, out=out_np),
        "posenc numpy, half": lambda: apply_rope(x_np, layout="half"),
    }, 2 * x.numel() * x.element_size()


def measure(functions, repeats: int) -> dict[str, list[float]]:
    """Seconds per call in each round; the variants take turns, so that drift hits all of them alike."""
    for f in functions.values():
        f()  # warm up: allocations, caches, lazy imports
    times = {name: [] for name in functions}
    for _ in range(repeats):
        for name, f in functions.items():
            start = time.perf_counter()
            f()
            times[name].append(time.perf_counter() - start)
    return times


def speed_against(times: dict[str, list[float]], name: str, floor: str) -> float:
    """Median over rounds of floor time / variant time, each round's pair measured moments apart."""
    return statistics.median(f / t for f, t in zip(times[floor], times[name], strict=True))


def report(times: dict[str, list[float]], nbytes: int, shape) -> str:
    floors = ["torch copy (floor)", "torch copy into an existing tensor", "Meta complex form (torch)"]
    lines = [
        f"Shape {tuple(shape)}, float32, {torch.get_num_threads()} torch threads, "
        f"{platform.machine()} / {platform.processor() or 'cpu'}, torch {torch.__version__}, numpy {np.__version__}; "
        f"{len(times[floors[0]])} rounds, medians (a speed ratio is the median of the rounds' ratios).",
        "",
        "| variant | ms per call | effective GB/s | × torch copy | × copy into an existing tensor "
        "| × Meta complex form |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, t in times.items():
        median = statistics.median(t)
        ratios = " | ".join(f"{speed_against(times, name, floor):.2f}" for floor in floors)
        lines.append(f"| {name} | {median * 1e3:.1f} | {nbytes / median / 1e9:.2f} | {ratios} |")
    return "\n".join(lines + ["", *targets(times)]) + "\n"


TARGETS = [  # (what, variant, against, the target in words)
    ("apply_rope against Hugging Face's rotate_half", "posenc torch, interleaved", "HF rotate_half (torch)",
     "at least 3x"),
    ("apply_rope against Meta's complex form", "posenc torch, interleaved", "Meta complex form (torch)",
     "level, about 1x"),
    ("apply_rope with out= against a copy into an existing tensor", "posenc torch, interleaved, out=",
     "torch copy into an existing tensor", "at least 0.5x"),
]


def targets(times: dict[str, list[float]]) -> list[str]:
    """One line per target of the performance appendix: the speed ratio measured in this run, and the target."""
    return [f"- {what}: {speed_against(times, variant, against):.2f}x (target: {target})"
            for what, variant, against, target in TARGETS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", type=int, nargs="+", default=[1, 32, 4096, 128])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--write", help="also write the markdown table to this file")
    args = parser.parse_args()
    functions, nbytes = variants(args.shape)
    table = report(measure(functions, args.repeats), nbytes, args.shape)
    print(table)
    if args.write:
        Path(args.write).write_text(table, encoding="utf-8")


if __name__ == "__main__":
    main()
