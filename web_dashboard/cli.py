"""The `azul-companion` console entry point.

Each subcommand lives in its own module under `web_dashboard.commands` and exposes
`register(subparsers)`, which adds its parser and sets `func(args) -> int` as the handler.
Errors a user can cause (bad files, bad arguments) are raised as `UserError` and printed as one
clear line, never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from web_dashboard.errors import UserError

# Subcommand modules, in the order `--help` lists them.
COMMAND_MODULES = (
    "web_dashboard.commands.demo",
    "web_dashboard.commands.run",
    "web_dashboard.commands.bench",
    "web_dashboard.commands.recognize",
    "web_dashboard.commands.markers",
    "web_dashboard.commands.lens",
    "web_dashboard.commands.replay",
    "web_dashboard.commands.simulate",
    "web_dashboard.commands.display_test",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="azul-companion",
        description="A table companion for Azul: reads the table, tracks the rules, keeps the score.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UserError as err:
        print(f"azul-companion {args.command}: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
