"""Memory migrations: pure functions from schema version N to N + 1.

Version 0 is the legacy VibeLign ``work_memory.json`` (no ``schema_version``).
``migrate_v0_to_v1`` applies spec Appendix A: user-authored entries become
explicit, auto-captured ones observed; verification without a file scope is
kept but marked ``stale`` and ``scope_unknown``; recent events become observed
context and are never promoted to decisions; successful guard/explain
summaries become observed verification, warnings become risks; a missing
intent may be *proposed* from the latest decision (never confirmed); unknown
fields are kept under ``unknown_fields``.

The legacy format was never published as a schema, so item shapes are read
tolerantly: a plain string or a mapping with any of the usual key spellings
(``text``/``decision``/``content``, ``timestamp``/``at``/``created_at``, ...).
Nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from vibflow.steps.memory.models import SCHEMA_VERSION, now_iso

Raw = dict[str, Any]

_V1_FIELDS = {
    "schema_version",
    "active_intent",
    "decisions",
    "relevant_files",
    "verification",
    "risks",
    "next_action",
    "observed_context",
    "archived_decisions",
    "unknown_fields",
}
_LEGACY_KNOWN = {
    "decisions",
    "verification",
    "relevant_files",
    "recent_events",
    "checkpoints",
    "active_intent",
    "intent",
    "next_action",
    "risks",
    "guard_summaries",
    "explain_summaries",
}
_USER_SOURCES = {"user", "explicit", "manual", "cli", "human", "confirmed"}


def _listed(raw: Mapping[str, Any], key: str) -> list[Any]:
    """``raw[key]`` when it is a list; anything else (a number, a string, an object
    where a list belongs) holds no items."""
    value = raw.get(key)
    return value if isinstance(value, list) else []


def _first(item: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        value = item.get(key)
        if value not in (None, ""):
            return value
    return None


def _text(item: Any, *keys: str) -> str | None:
    if isinstance(item, str):
        return item.strip() or None
    if isinstance(item, Mapping):
        value = _first(item, *keys)
        return str(value).strip() if value is not None else None
    return None


def _when(item: Any) -> str:
    if isinstance(item, Mapping):
        value = _first(item, "timestamp", "at", "time", "created_at", "updated_at", "date")
        if isinstance(value, str) and value:
            return value
    return now_iso()


def _files(item: Any) -> list[str]:
    if not isinstance(item, Mapping):
        return []
    value = _first(item, "related_files", "files", "scope", "paths")
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(v) for v in value if isinstance(v, str) and v]
    return []


def _result(value: Any) -> tuple[str, str | None]:
    text = str(value or "").strip()
    low = text.lower()
    if low in {"pass", "passed", "ok", "success", "green", "true"}:
        return "pass", None
    if low in {"fail", "failed", "error", "red", "false"}:
        return "fail", None
    return "unknown", text[:200] or None


def migrate_v0_to_v1(raw: Mapping[str, Any]) -> Raw:
    """Legacy VibeLign work_memory.json → MemoryState v1 (as plain data)."""
    out: Raw = {
        "schema_version": 1,
        "decisions": [],
        "relevant_files": [],
        "verification": [],
        "risks": [],
        "observed_context": [],
        "archived_decisions": [],
    }
    _legacy_decisions(raw, out)
    _legacy_files(raw, out)
    _legacy_verification(raw, out)
    for item in [*_listed(raw, "recent_events"), *_listed(raw, "checkpoints")]:
        _legacy_event(item, out)
    for item in [*_listed(raw, "guard_summaries"), *_listed(raw, "explain_summaries")]:
        _legacy_summary(item, out)
    _legacy_singletons(raw, out)
    unknown = {k: v for k, v in raw.items() if k not in _LEGACY_KNOWN and k != "schema_version"}
    if unknown:
        out["unknown_fields"] = unknown
    return out


def _legacy_decisions(raw: Mapping[str, Any], out: Raw) -> None:
    for item in _listed(raw, "decisions"):
        text = _text(item, "text", "decision", "content", "summary")
        if text:
            when = _when(item)
            out["decisions"].append(
                {
                    "text": text[:2000],
                    "last_updated": when,
                    "created_at": when,
                    "updated_by": "import",
                }
            )


def _legacy_files(raw: Mapping[str, Any], out: Raw) -> None:
    for item in _listed(raw, "relevant_files"):
        path = _text(item, "path", "file", "name")
        if not path:
            continue
        origin, why = "user", ""
        if isinstance(item, Mapping):
            origin = str(_first(item, "source", "origin", "added_by", "by") or "user").lower()
            why = (_text(item, "why", "reason", "note", "description") or "")[:500]
        out["relevant_files"].append(
            {
                "path": path,
                "why": why,
                "source": "explicit" if origin in _USER_SOURCES else "observed",
                "last_updated": _when(item),
                "updated_by": "import",
            }
        )


def _legacy_verification(raw: Mapping[str, Any], out: Raw) -> None:
    for item in _listed(raw, "verification"):
        command = _text(item, "command", "cmd", "name", "check")
        if not command:
            continue
        status = item.get("result", item.get("status")) if isinstance(item, Mapping) else ""
        result, result_text = _result(status)
        files = _files(item)
        out["verification"].append(
            {
                "command": command[:500],
                "result": result,
                "result_text": result_text,
                "timestamp": _when(item),
                "source": "observed",
                "related_files": files,
                "scope_unknown": not files,
                "stale": not files,
                "last_updated": _when(item),
                "updated_by": "import",
            }
        )


def _legacy_singletons(raw: Mapping[str, Any], out: Raw) -> None:
    for item in _listed(raw, "risks"):
        text = _text(item, "text", "risk", "warning", "message")
        if text:
            out["risks"].append(
                {
                    "text": text[:1000],
                    "kind": "warning",
                    "last_updated": _when(item),
                    "updated_by": "import",
                }
            )
    intent_raw = raw.get("active_intent") or raw.get("intent")
    intent = _text(intent_raw, "text", "intent", "goal")
    if intent:
        # A legacy intent was never confirmed through vibflow: keep it proposed.
        out["active_intent"] = {
            "text": intent[:2000],
            "proposed": True,
            "updated_by": "import",
            "last_updated": _when(intent_raw),
        }
    elif out["decisions"]:
        out["active_intent"] = {
            "text": out["decisions"][-1]["text"],
            "proposed": True,
            "updated_by": "import",
        }
    next_action = _text(raw.get("next_action"), "text", "action")
    if next_action:
        out["next_action"] = {"text": next_action[:1000], "updated_by": "import"}


def _legacy_event(item: Any, out: Raw) -> None:
    kind_raw = (
        str(_first(item, "kind", "type", "event") or "").lower()
        if isinstance(item, Mapping)
        else ""
    )
    detail: dict[str, Any] = {}
    if "checkpoint" in kind_raw or (isinstance(item, Mapping) and "checkpoint_id" in item):
        kind = "checkpoint"
        if isinstance(item, Mapping):
            for key in ("checkpoint_id", "id", "message"):
                if isinstance(item.get(key), str):
                    detail[key] = item[key][:200]
    elif "commit" in kind_raw:
        kind = "commit"
        sha = _text(item, "sha", "commit", "hash")
        if sha:
            detail["sha"] = sha[:64]
    else:
        kind = "legacy_event"
        if kind_raw:
            detail["legacy_kind"] = kind_raw[:60]
        text = _text(item, "summary", "text", "message", "description")
        if text:
            detail["summary"] = text[:300]
    out["observed_context"].append(
        {"kind": kind, "at": _when(item), "source": "import", "detail": detail}
    )


def _legacy_summary(item: Any, out: Raw) -> None:
    status = (
        str(_first(item, "status", "result") or "").lower() if isinstance(item, Mapping) else ""
    )
    text = _text(item, "summary", "text", "message", "command") or "guard/explain check"
    files = _files(item)
    if status in {"pass", "passed", "ok", "success", "clean"}:
        out["verification"].append(
            {
                "command": text[:500],
                "result": "pass",
                "timestamp": _when(item),
                "source": "observed",
                "related_files": files,
                "scope_unknown": not files,
                "stale": False,
                "last_updated": _when(item),
                "updated_by": "import",
            }
        )
    else:
        kind = "skipped_check" if "skip" in status else "warning"
        out["risks"].append(
            {"text": text[:1000], "kind": kind, "last_updated": _when(item), "updated_by": "import"}
        )


MIGRATIONS: dict[int, Callable[[Mapping[str, Any]], Raw]] = {0: migrate_v0_to_v1}


def version_of(raw: Mapping[str, Any]) -> int:
    value = raw.get("schema_version", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


def migrate(raw: Mapping[str, Any]) -> Raw:
    """Chain migrations up to the current version; fields v1 does not know are
    moved into ``unknown_fields`` (round-tripped, never dropped)."""
    data: Raw = dict(raw)
    version = version_of(data)
    while version < SCHEMA_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise ValueError(f"no migration from schema_version {version}")
        data = step(data)
        version = version_of(data)
    extra = {k: v for k, v in data.items() if k not in _V1_FIELDS}
    if extra:
        data = {k: v for k, v in data.items() if k in _V1_FIELDS}
        data["unknown_fields"] = {**(data.get("unknown_fields") or {}), **extra}
    return data
