"""The run journal's tables (``.vibflow/runs.db``), as SQL.

``SCHEMA`` is schema version 1 (``PRAGMA user_version``); ``AUDIT_SCHEMA``
was added beside it without a new version because it is additive: an older
vibflow reads a file that has it, and a newer one adds it to a file that
lacks it.
"""

from __future__ import annotations

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE definitions (
    digest TEXT PRIMARY KEY,
    flow TEXT NOT NULL,
    body TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE runs (
    run_id TEXT PRIMARY KEY,
    flow TEXT NOT NULL,
    flow_version INTEGER NOT NULL,
    origin TEXT NOT NULL,
    definition_digest TEXT NOT NULL REFERENCES definitions(digest),
    policy_digest TEXT NOT NULL,
    status TEXT NOT NULL,
    state TEXT NOT NULL,
    context TEXT NOT NULL,
    blocked_reason TEXT,
    pending_event TEXT,
    pending_inputs TEXT,
    error TEXT,
    owner_pid INTEGER,
    owner_host TEXT,
    owner_started TEXT,
    owner_token TEXT,
    seq INTEGER NOT NULL,
    audited_seq INTEGER NOT NULL DEFAULT -1,
    attempt INTEGER NOT NULL DEFAULT 1,
    recap_id TEXT,
    parent_run TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE entries (
    run_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    from_state TEXT,
    event TEXT,
    to_state TEXT,
    guards TEXT NOT NULL,
    outcome TEXT NOT NULL,
    started_at TEXT,
    at TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TABLE items (
    run_id TEXT NOT NULL,
    state TEXT NOT NULL,
    key TEXT NOT NULL,
    done_at TEXT NOT NULL,
    PRIMARY KEY (run_id, state, key)
) WITHOUT ROWID;
CREATE TABLE recaps (
    recap_id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    subject_id TEXT NOT NULL,
    generated_at TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX recaps_by_subject ON recaps(subject_id, generated_at);
"""

# Added beside schema 1 (additive, so an older vibflow still reads the file):
# the audit log's last sequence number and hash, and the gaps found in it.
AUDIT_SCHEMA = """
CREATE TABLE IF NOT EXISTS audit_anchor (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    sequence INTEGER NOT NULL,
    hash TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS audit_gaps (
    anchored_sequence INTEGER NOT NULL,
    found_sequence INTEGER NOT NULL,
    detected_at TEXT NOT NULL
);
"""
