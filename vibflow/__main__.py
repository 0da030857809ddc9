"""``python -m vibflow`` and the ``vibflow`` console script."""

from __future__ import annotations

import sys


def main() -> None:
    from vibflow.cli.app import run_cli

    sys.exit(run_cli(sys.argv[1:]))


if __name__ == "__main__":
    main()
