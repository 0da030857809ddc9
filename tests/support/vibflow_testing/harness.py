"""A front door for tests: the real CLI plus the test kit's steps and guards.

Run as ``python tests/support/vibflow_harness.py ARGS...``; it behaves exactly
like ``vibflow ARGS...`` with extra registrations.
"""

import sys

from vibflow_testkit import register

from vibflow.cli.app import run_cli

if __name__ == "__main__":
    sys.exit(run_cli(sys.argv[1:], registry_hook=register))
