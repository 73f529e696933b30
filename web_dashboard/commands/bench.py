"""`azul-companion bench {rules,...} [--json]`: print the figures the issues ask for."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os

from web_dashboard.errors import UserError


def pin_to_core(core: int | None = None) -> None:
    """Run this process on `core` only (by default the first it may run on): the targets are stated for one core,
    and pinning keeps a 2-core machine's noise out of the figures."""
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0)) if core is None else core})
        except OSError:
            pass


def bench_rules(args: argparse.Namespace) -> dict:
    from tracker.bench import rules_figures

    return dataclasses.asdict(rules_figures(seconds=args.seconds))


def bench_vision(args: argparse.Namespace) -> dict:
    from web_dashboard.vision_bench import bench_vision as figures

    return figures(args)


def bench_dashboard(args: argparse.Namespace) -> dict:
    from web_dashboard.loadtest import bench_dashboard as figures

    return figures(args)


def bench_pipeline(args: argparse.Namespace) -> dict:
    from web_dashboard.pipeline_bench import pipeline_figures

    if args.games is not None and args.games < 1:
        raise UserError("--games must be at least 1")
    if args.jobs < 1:
        raise UserError("--jobs must be at least 1")
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [0]
    if args.jobs > len(cores):
        raise UserError(f"--jobs {args.jobs}: the bench may use {len(cores)} core(s) here, and each game is "
                        "played on a core of its own")
    return pipeline_figures(args.games or 6, verbose=not args.json, cores=cores[:args.jobs])


def bench_soak(args: argparse.Namespace) -> dict:
    from web_dashboard.soak import soak_figures

    if args.hours <= 0:
        raise UserError("--hours must be positive")
    return soak_figures(args.hours, verbose=not args.json)


BENCHES = {
    "rules": (bench_rules, "complete random games per second and legal-move enumeration time"),
    "vision": (bench_vision, "recognition error rates, occlusion recall, ms per 720p/1080p frame"),
    "pipeline": (bench_pipeline, "rendered games through recognition and the move tracker, against the truth"),
    "dashboard": (bench_dashboard, "50 live screens + 100 reads/s: p99, fps"),
    "soak": (bench_soak, "hours of recorded games replayed through one process: resident memory over time"),
}


def register(subparsers) -> None:
    parser = subparsers.add_parser("bench", help="run a benchmark and print its figures")
    parser.add_argument("which", choices=sorted(BENCHES), help="what to measure")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measured loop (default 3)")
    parser.add_argument("--games", type=int, default=None, help="number of games (pipeline bench)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="pipeline bench: games played at once, each in a process on a core of its own (default 1)")
    parser.add_argument("--hours", type=float, default=2.0, help="hours of recording to replay (soak bench, default 2)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.seconds <= 0:
        raise UserError("--seconds must be positive")
    if args.which != "pipeline" or args.jobs == 1:  # the pipeline bench pins its own workers
        pin_to_core()
    figures = BENCHES[args.which][0](args)
    if args.json:
        print(json.dumps(figures))
    else:
        width = max(map(len, figures))
        for key, value in figures.items():
            shown = f"{value:,.2f}" if isinstance(value, float) else str(value)
            print(f"{key:<{width}}  {shown}")
    return 0
