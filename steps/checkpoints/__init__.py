"""Checkpoints: snapshots of the working tree stored as git commits.

Why refs in the user's repository (``refs/vibflow/checkpoints/<id>``) rather
than a self-contained store under ``.vibflow/``: the objects a checkpoint
needs are reachable from its ref, so the user's ``git gc --prune=now``,
rebases and amends never drop them (like ``refs/stash``), and unchanged
blobs are shared with the repository instead of copied — a checkpoint of a
20,000-file tree costs only its changed blobs and trees. A separate store
would have to copy every blob once (the peer's 83 MB per checkpoint), and an
alternates link back into the user's objects is not safe against their gc.
Measured in ``benchmarks/RESULTS.md``.
"""
