"""The memory service: every read and write of project memory goes here.

Usable without the CLI (the recovery planner reads it). Writes pass the
write gate, have their text redacted before storage, are stamped with the
writer and time, keep the caps, and are saved atomically under the lock.
Collaborators that would touch the outside world — repository facts, the
path contract, the secret/privacy redactor and the audit sink — are passed
in, so this package itself never runs a command or writes outside the store.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from vibflow.engine.clock import stamp as clock_stamp
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.memory import gate
from vibflow.steps.memory.caps import apply_caps
from vibflow.steps.memory.facts import NoFacts, RepoFacts
from vibflow.steps.memory.freshness import Freshness, assess, cascade_intent_change
from vibflow.steps.memory.models import (
    ActiveIntent,
    Decision,
    EventKind,
    MemoryState,
    NextAction,
    ObservedEvent,
    RelevantFile,
    Risk,
    Verification,
)
from vibflow.steps.memory.policy import MemoryPolicy
from vibflow.steps.memory.store import MemoryStore

# Imported where a write needs them (contradiction checks, imports, the
# did-you-mean of a removal): a read — the recovery preview's — never does.

#: Structured identifiers in observed context, by the exact shape they must have.
IDENTIFIER_FIELDS: dict[str, re.Pattern[str]] = {
    "sha": re.compile(r"[0-9a-f]{7,64}"),
    "checkpoint_id": re.compile(r"ckpt_[0-9a-f]{32}"),
    "run_id": re.compile(r"run_[0-9a-f]{32}"),
    "plan_id": re.compile(r"rec_[0-9a-f]{32}"),
}

#: text -> (redacted text, {"secret_hits": n, "privacy_hits": n, ...})
Redactor = Callable[[str], tuple[str, Mapping[str, int]]]
#: user path -> project-relative POSIX path (raises VibflowError on a bad path)
PathNormalizer = Callable[[str], str]
#: (event, result, counts) -> None; writes one count-only audit row
AuditSink = Callable[[str, str, Mapping[str, int]], None]


@dataclass(frozen=True)
class MemoryView:
    state: MemoryState
    freshness: Freshness
    read_only: bool
    warning: str | None


@dataclass(frozen=True)
class WriteResult:
    state: MemoryState
    redaction: Mapping[str, int]
    warning: str | None = None
    #: Things the writer should know that did not stop the write (a path not in the tree).
    notices: tuple[str, ...] = ()
    #: The project-relative path a relevant-file write was about.
    path: str | None = None


def _no_redaction(text: str) -> tuple[str, Mapping[str, int]]:
    return text, {}


class MemoryService:
    def __init__(
        self,
        store: MemoryStore,
        *,
        policy: MemoryPolicy | None = None,
        facts: RepoFacts | None = None,
        redactor: Redactor = _no_redaction,
        normalize_path: PathNormalizer | None = None,
        audit: AuditSink | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.store = store
        self.policy = policy or MemoryPolicy()
        self.facts: RepoFacts = facts or NoFacts()
        self._redact = redactor
        self._normalize = normalize_path
        self._audit = audit
        self._clock = clock

    # -- reading --------------------------------------------------------------

    def read(self) -> MemoryView:
        loaded = self.store.load()
        return MemoryView(
            loaded.state,
            assess(loaded.state, self.facts, self.policy, now=self._clock()),
            loaded.read_only,
            loaded.warning,
        )

    # -- writing --------------------------------------------------------------

    def _write(
        self,
        field: gate.Field_,
        writer: str,
        confirmed: bool,
        change: Callable[..., MemoryState],
        *,
        texts: Sequence[str] = (),
        existing: Callable[[MemoryState], Any] = lambda _state: None,
        existing_text: Callable[[Any], str | None] = lambda _entry: None,
        overwrite: bool = False,
        overwrite_command: str | None = None,
        extra_counts: Mapping[str, int] | None = None,
        check: Callable[[MemoryState, str], None] | None = None,
        precise: bool = False,
    ) -> WriteResult:
        now = self._clock()
        # A verification is compared with file times (freshness.order), so its time is
        # kept as finely as the clock gives it; every other record reads well in seconds.
        stamp = (
            clock_stamp(now)
            if precise
            else now.isoformat(timespec="seconds").replace("+00:00", "Z")
        )
        cleaned: list[str] = []
        counts: dict[str, int] = dict(extra_counts or {})
        for text in texts:
            red, c = self._redact(text)
            cleaned.append(red)
            for key, value in c.items():
                counts[key] = counts.get(key, 0) + value
        with self.store.locked() as loaded:
            state = loaded.state
            current = existing(state)
            try:
                gate.check_write(
                    state,
                    field=field,
                    writer=writer,
                    confirmed=confirmed,
                    read_only=loaded.read_only,
                    policy=self.policy,
                    now=now,
                    existing=current,
                    existing_text=existing_text(current),
                    proposed_text=cleaned[0] if cleaned else None,
                    overwrite=overwrite,
                    overwrite_command=overwrite_command,
                )
                if check is not None:
                    check(state, cleaned[0] if cleaned else "")
            except VibflowError:
                self._emit("memory_write", "refused", counts)
                raise
            new_state = apply_caps(change(state, stamp, *cleaned), self.policy.caps, now=now)
            self.store.save(new_state)
        self._emit("memory_write", "ok", counts)
        return WriteResult(new_state, counts, loaded.warning)

    def _emit(self, event: str, result: str, counts: Mapping[str, int]) -> None:
        if self._audit is not None:
            self._audit(event, result, counts)

    def set_intent(
        self, text: str, *, writer: str = "cli", confirmed: bool = False, overwrite: bool = False
    ) -> WriteResult:
        text = gate.check_text(text, "the intent", ActiveIntent, "text")
        head = self.facts.head()

        def change(state: MemoryState, stamp: str, clean: str) -> MemoryState:
            intent = ActiveIntent(
                text=clean, last_updated=stamp, updated_by=writer, head_at_update=head
            )
            return cascade_intent_change(state).model_copy(update={"active_intent": intent})

        return self._write(
            "active_intent",
            writer,
            confirmed,
            change,
            texts=[text],
            existing=lambda s: s.active_intent,
            existing_text=lambda e: e.text if e else None,
            overwrite=overwrite,
            overwrite_command=f'vibflow memory intent "{gate.quoted(text)}" --yes --overwrite',
        )

    def propose_intent(self, text: str, *, writer: str) -> WriteResult:
        """Automatic proposals never replace a confirmed intent."""
        text = gate.check_text(text, "the proposed intent", ActiveIntent, "text")

        def change(state: MemoryState, stamp: str, clean: str) -> MemoryState:
            if state.active_intent is not None and not state.active_intent.proposed:
                return state
            return state.model_copy(
                update={
                    "active_intent": ActiveIntent(
                        text=clean, proposed=True, last_updated=stamp, updated_by=writer
                    )
                }
            )

        return self._write("observed_context", writer, True, change, texts=[text])

    def decide(
        self,
        text: str,
        *,
        writer: str = "cli",
        confirmed: bool = False,
        replaces: str | None = None,
    ) -> WriteResult:
        """Record a decision. One that contradicts a recorded decision is not
        added beside it: the writer says which stands (``replaces`` archives
        the earlier one), or the memory review asks."""
        text = gate.check_text(text, "the decision", Decision, "text")

        def check(state: MemoryState, clean: str) -> None:
            from vibflow.steps.memory.decision_rules import refuse_unclear

            refuse_unclear(state.decisions, clean, text, replaces)

        def change(state: MemoryState, stamp: str, clean: str) -> MemoryState:
            decision = Decision(text=clean, last_updated=stamp, created_at=stamp, updated_by=writer)
            kept = [d for d in state.decisions if d.id != replaces]
            archived = [d for d in state.decisions if d.id == replaces]
            return state.model_copy(
                update={
                    "decisions": [*kept, decision],
                    "archived_decisions": [*state.archived_decisions, *archived],
                }
            )

        return self._write("decisions", writer, confirmed, change, texts=[text], check=check)

    def archive_decision(
        self, decision_id: str, *, writer: str = "cli", confirmed: bool = False
    ) -> WriteResult:
        """Move a decision to the archive (kept, no longer active)."""

        def check(state: MemoryState, _clean: str) -> None:
            if not any(d.id == decision_id for d in state.decisions):
                raise VibflowError(
                    ErrorCode.BAD_INPUT, f"there is no active decision {decision_id}"
                )

        def change(state: MemoryState, _stamp: str) -> MemoryState:
            moved = [d for d in state.decisions if d.id == decision_id]
            return state.model_copy(
                update={
                    "decisions": [d for d in state.decisions if d.id != decision_id],
                    "archived_decisions": [*state.archived_decisions, *moved],
                }
            )

        return self._write("decisions", writer, confirmed, change, check=check)

    def relevant(
        self,
        path: str,
        why: str,
        *,
        writer: str = "cli",
        confirmed: bool = False,
        overwrite: bool = False,
    ) -> WriteResult:
        why = gate.check_text(why, f"the reason {path} is relevant", RelevantFile, "why")
        rel = self._normalize(path) if self._normalize else path
        explicit = [f for f in self.read().state.relevant_files if f.source == "explicit"]
        if len(explicit) >= self.policy.caps.relevant_files and all(
            f.path != rel for f in explicit
        ):
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"memory already holds {len(explicit)} explicit relevant files (the cap)",
                hint="Remove one you no longer need before adding another.",
            )

        def change(state: MemoryState, stamp: str, clean: str) -> MemoryState:
            entry = RelevantFile(
                path=rel, why=clean, source="explicit", last_updated=stamp, updated_by=writer
            )
            others = [f for f in state.relevant_files if f.path != rel]
            return state.model_copy(update={"relevant_files": [*others, entry]})

        written = self._write(
            "relevant_files",
            writer,
            confirmed,
            change,
            texts=[why],
            existing=lambda s: next(
                (f for f in s.relevant_files if f.path == rel and f.source == "explicit"), None
            ),
            existing_text=lambda e: e.why if e else None,
            overwrite=overwrite,
            overwrite_command=f'vibflow memory relevant {rel} "..." --yes --overwrite',
        )
        # Recorded all the same: a file you are about to create is relevant too,
        # but a typo should not pass unnoticed.
        notices = written.notices
        if self.facts.exists(rel) is False:
            notices = (*notices, f"{rel} does not exist in the work tree (recorded anyway)")
        return dataclasses.replace(written, notices=notices, path=rel)

    def forget_relevant(
        self, path: str, *, writer: str = "cli", confirmed: bool = False
    ) -> WriteResult:
        """Remove ``path`` from the relevant files (explicit and observed entries alike)."""
        rel = self._normalize(path) if self._normalize else path
        listed = [f.path for f in self.read().state.relevant_files]
        if rel not in listed:
            import difflib

            close = difflib.get_close_matches(rel, listed, n=1, cutoff=0.6)
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"{rel} is not one of the relevant files"
                + (f" (did you mean {close[0]}?)" if close else ""),
                hint="`vibflow memory show` lists them.",
            )

        def change(state: MemoryState, stamp: str) -> MemoryState:
            del stamp
            kept = [f for f in state.relevant_files if f.path != rel]
            return state.model_copy(update={"relevant_files": kept})

        return dataclasses.replace(
            self._write("relevant_files", writer, confirmed, change), path=rel
        )

    def set_next(
        self, text: str, *, writer: str = "cli", confirmed: bool = False, overwrite: bool = False
    ) -> WriteResult:
        text = gate.check_text(text, "the next action", NextAction, "text")

        def change(state: MemoryState, stamp: str, clean: str) -> MemoryState:
            return state.model_copy(
                update={
                    "next_action": NextAction(text=clean, last_updated=stamp, updated_by=writer)
                }
            )

        return self._write(
            "next_action",
            writer,
            confirmed,
            change,
            texts=[text],
            existing=lambda s: s.next_action,
            existing_text=lambda e: e.text if e else None,
            overwrite=overwrite,
            overwrite_command=f'vibflow memory next "{gate.quoted(text)}" --yes --overwrite',
        )

    def verify(
        self,
        command: str,
        result: Literal["pass", "fail"],
        *,
        files: Sequence[str] = (),
        writer: str = "cli",
        explicit: bool = True,
    ) -> WriteResult:
        command = gate.check_text(command, "the command", Verification, "command")
        related = [self._normalize(f) if self._normalize else f for f in files]

        def change(state: MemoryState, stamp: str, clean: str) -> MemoryState:
            entry = Verification(
                command=clean,
                result=result,
                timestamp=stamp,
                last_updated=stamp,
                updated_by=writer,
                source="explicit" if explicit else "observed",
                related_files=related,
                scope_unknown=not related,
            )
            return state.model_copy(update={"verification": [*state.verification, entry]})

        return self._write("verification", writer, True, change, texts=[command], precise=True)

    def drop_verification(
        self, verification_id: str, *, writer: str = "cli", confirmed: bool = False
    ) -> WriteResult:
        """Remove a recorded check (a stale one nobody will rerun); gone already is fine."""

        def change(state: MemoryState, _stamp: str) -> MemoryState:
            kept = [v for v in state.verification if v.id != verification_id]
            return state.model_copy(update={"verification": kept})

        return self._write("verification", writer, confirmed, change)

    def risk(
        self,
        text: str,
        *,
        writer: str = "cli",
        kind: Literal["warning", "skipped_check", "assumption", "redaction_note"] = "warning",
    ) -> WriteResult:
        text = gate.check_text(text, "the risk", Risk, "text")

        def change(state: MemoryState, stamp: str, clean: str) -> MemoryState:
            entry = Risk(text=clean, kind=kind, last_updated=stamp, updated_by=writer)
            return state.model_copy(update={"risks": [*state.risks, entry]})

        return self._write("risks", writer, True, change, texts=[text])

    def observe(
        self,
        kind: EventKind,
        detail: Mapping[str, Any],
        *,
        writer: str = "hook",
    ) -> WriteResult:
        """Append observed context: the only write automatic capture may make.

        Identifier fields (a commit sha, a checkpoint or run id) are checked
        against their exact shape instead of redacted — a 40-hex sha would
        otherwise look like a secret; every other text value — in lists too —
        is redacted by the gate (:func:`gate.clean_detail`).
        """
        for key, value in detail.items():
            shape = IDENTIFIER_FIELDS.get(key)
            if shape is not None and not (isinstance(value, str) and shape.fullmatch(value)):
                raise VibflowError(ErrorCode.BAD_INPUT, f"observed field '{key}' is malformed")
        clean_detail, counts = gate.clean_detail(
            detail, redact=self._redact, identifiers=IDENTIFIER_FIELDS
        )

        def change(state: MemoryState, stamp: str) -> MemoryState:
            event = ObservedEvent(kind=kind, at=stamp, source=writer, detail=clean_detail)
            return state.model_copy(update={"observed_context": [*state.observed_context, event]})

        return self._write("observed_context", writer, True, change, extra_counts=counts)

    def import_legacy(self, raw: Mapping[str, Any], *, confirmed: bool = False) -> WriteResult:
        """Merge a legacy VibeLign work_memory.json (spec Appendix A).

        The imported entries pass the write gate like any other write: the
        confirmation it asks of intent-shaping fields, and :func:`gate.admit`'s
        redaction and path contract for every entry (a bad path is left out
        and reported in the result's warning, never stored).
        """
        from vibflow.steps.memory.merging import merge_import
        from vibflow.steps.memory.migrations import migrate_v0_to_v1

        admitted = gate.admit(
            MemoryState.model_validate(migrate_v0_to_v1(raw)),
            redact=self._redact,
            normalize=self._normalize,
            identifiers=IDENTIFIER_FIELDS,
        )

        def change(state: MemoryState, stamp: str) -> MemoryState:
            del stamp
            return merge_import(state, admitted.state, sum(admitted.dropped.values()))

        result = self._write("decisions", "import", confirmed, change, extra_counts=admitted.counts)
        notice = admitted.notice()
        if notice is None:
            return result
        warning = f"{result.warning}; {notice}" if result.warning else notice
        return WriteResult(result.state, result.redaction, warning)
