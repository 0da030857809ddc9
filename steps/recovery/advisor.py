"""The read-only recovery advisor: collect, plan, redact, record.

Used by ``vibflow recover --explain/--preview`` and by the recover flow's
steps. It reads git, checkpoints and memory, and writes only inside
``.vibflow/recovery/`` (the redacted last preview, drift labels) and the
audit rail. The work tree and git are never written.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.recovery import planner, signals
from vibflow.steps.recovery.breaker import BreakerState, LabelStore
from vibflow.steps.recovery.checkpoint_base import earlier_sources, without_drift
from vibflow.steps.recovery.corrections import CorrectionStore, Label, judge
from vibflow.steps.recovery.early_listing import Listing, listing_pool
from vibflow.steps.recovery.models import AgentTurnNote, RecoveryPlan, RedactionSummary
from vibflow.steps.recovery.options import before_drift, earlier_hint, epoch
from vibflow.steps.recovery.policy import RecoveryPolicy
from vibflow.steps.recovery.scratch import scratch_index
from vibflow.steps.workspace.git import Git

if TYPE_CHECKING:
    from vibflow.steps.checkpoints.models import CheckpointMeta
    from vibflow.steps.checkpoints.store import CheckpointStore
    from vibflow.steps.memory.service import MemoryService
    from vibflow.steps.paths.policy import PathPolicy
    from vibflow.steps.recovery.evidence_yours import TurnRecords, Turns
    from vibflow.steps.recovery.git_memo import AdviceCache

#: Why restore options cannot run while the feature flag is off.
APPLY_DISABLED = (
    "restoring files is switched off; set VIBFLOW_RECOVERY_APPLY=1 in the environment to enable it"
)


@dataclass(frozen=True)
class Advice:
    plan: RecoveryPlan
    payload: dict[str, Any]  # the redacted plan, as shown to anyone outside the process
    counts: Mapping[str, int]

    def audit_facts(self) -> dict[str, Any]:
        changed = {c.path for c in self.plan.changed if not c.generated}
        zoned = {z.path for z in self.plan.intent_zone}
        return {
            "paths_count": {
                "in_zone": len(zoned & changed),
                "drift": len(self.plan.drift_candidates),
                "total": len(changed),
            },
            "circuit_breaker_state": self.plan.circuit_breaker_state,
            "redaction": {
                "secret_hits": self.counts.get("secret_hits", 0),
                "privacy_hits": self.counts.get("privacy_hits", 0),
                "summarized_fields": self.counts.get("summarized_fields", 0),
                "omitted_fields": self.counts.get("omitted_fields", 0),
            },
        }


class RecoveryAdvisor:
    def __init__(
        self,
        root: Path,
        state_dir: Path,
        *,
        checkpoints: CheckpointStore,
        memory: MemoryService | None,
        policy: RecoveryPolicy,
        generated: PathPolicy,
        redact_payload: Callable[[Any], tuple[Any, Mapping[str, int]]],
        clock: Callable[[], str],
        apply_enabled: bool = False,
        last_turn: Callable[[], AgentTurnNote | None] | None = None,
        cache: AdviceCache | None = None,
        own_files: Callable[[], Mapping[str, str]] | None = None,
        turns: TurnRecords | None = None,
        early: Listing | None = None,
    ) -> None:
        self.root = root
        # The git listings a fresh command started before loading vibflow (used once).
        self._early = early
        # Files vibflow itself wrote that still hold only its change (path → why).
        self._own_files = own_files
        # A long-lived process passes what it may keep between requests (git_memo);
        # without it every answer is computed afresh.
        self.git = cache.git if cache is not None else Git(root)
        self._held = cache.held if cache is not None else None
        self._pinned = cache.files if cache is not None else None
        self._last_listings = cache.listings if cache is not None else None
        self.dir = state_dir / "recovery"
        self._checkpoints = checkpoints
        self._memory = memory
        self._policy = policy
        self._generated = generated
        self._redact = redact_payload
        self._clock = clock
        self._apply_enabled = apply_enabled
        self._last_turn = last_turn
        # The agent hooks' recent turns (oldest first): they tell your edits from its.
        self._turns = turns
        self.labels = LabelStore(self.dir / "drift_labels.jsonl")
        self.corrections = CorrectionStore(self.dir / "corrections.json")
        self._last: Advice | None = None

    def breaker(self) -> BreakerState:
        return self.labels.state()

    def advise(self) -> Advice:
        # HEAD is read beside the checkpoints' refs: two git reads, one wait.
        heading = listing_pool().submit(self.git.head)
        view = self._memory.read() if self._memory is not None else None
        checkpoints = self._checkpoints.all()
        recorded = self._turns() if self._turns is not None else []
        turns = None
        if recorded:  # loaded only with turn records: a project without hooks never pays
            from vibflow.steps.recovery.evidence_yours import Turns

            turns = Turns(recorded, checkpoints)
        found, plan = self._plan(view, checkpoints, turns, heading.result)
        older = before_drift(
            checkpoints,
            plan.safe_checkpoint_candidate,
            found.mtimes,
            [d.path for d in plan.drift_candidates],
        )
        if older is not None:
            # The safe point holds some of the drift: plan again from the checkpoints
            # taken before it began (rare, so the second read is paid only then).
            found, plan = self._plan(view, older, turns, heading.result)
        fewer = self._without_held_drift(checkpoints, found, plan)
        if fewer is not None:
            # Judged by content this time: the turn's checkpoint holds drift as it is now.
            found, plan = self._plan(view, fewer, turns, heading.result)
        proved = self._before_the_turns(checkpoints, turns, found, plan)
        if proved is not None:
            # Your checkpoint holds drift the turn records prove the agent made:
            # plan again from the start of the turns that made it.
            again, replanned = self._plan(view, proved[1], turns, heading.result)
            chosen = replanned.safe_checkpoint_candidate
            if chosen is not None and chosen.checkpoint_id == proved[0].checkpoint_id:
                found, plan = again, _explained(replanned, proved[2], proved[3])
        plan = self._with_earlier_source(checkpoints, found, plan)
        payload, counts = self._redact(plan.model_dump(mode="json"))
        summary = RedactionSummary(
            secret_hits=counts.get("secret_hits", 0),
            privacy_hits=counts.get("privacy_hits", 0),
            summarized_fields=counts.get("summarized_fields", 0),
        )
        plan = plan.model_copy(update={"redaction": summary})
        payload["redaction"] = summary.model_dump(mode="json")
        self._last = Advice(plan, payload, counts)
        return self._last

    def _plan(
        self,
        view: Any,
        checkpoints: Sequence[CheckpointMeta],
        turns: Turns | None,
        read_head: Callable[[], str | None],
    ) -> tuple[signals.Signals, RecoveryPlan]:
        early, self._early = self._early, None
        # The scratch index lives until the late line counts that read it are done.
        # An early listing is closed once the plan is made, taken or not.
        closing = contextlib.closing(early) if early is not None else contextlib.nullcontext()
        with scratch_index(self.dir) as index, closing:
            found = signals.collect(
                self.root,
                self.git,
                checkpoints=checkpoints,
                memory_view=view,
                categories=self._policy.categories,
                generated=self._generated,
                scratch_index=index,
                corrections=self.corrections.for_intent(_intent_text(view)),
                rules=self._policy.generated,
                zone_policy=self._policy.zone,
                held=self._held,
                pinned=self._pinned,
                own=self._own_files() if self._own_files is not None else None,
                turns=turns,
                read_head=read_head,
                last=self._last_listings,
                early=early,
            )
            try:
                plan = planner.plan(
                    found,
                    dict(self._policy.categories),
                    self.breaker(),
                    apply_blocked_reason=None if self._apply_enabled else APPLY_DISABLED,
                    never_stored=self._never_stored([c.path for c in found.changed]),
                    path_policy=self._generated,
                )
                plan = signals.counted(plan, found)
            finally:
                signals.settle(found)
        return found, self._with_last_turn(plan)

    def _without_held_drift(
        self, checkpoints: Sequence[CheckpointMeta], found: signals.Signals, plan: RecoveryPlan
    ) -> list[CheckpointMeta] | None:
        """The checkpoints to plan again from when the safe point is an agent turn's
        checkpoint that already holds drift candidates exactly as they are now (its
        ``settled`` files): a restore from it would leave that drift where it is. None
        when the safe point stands."""
        holding = _held_by_safe_point(checkpoints, found, plan)
        if holding is None or holding[0].reason != "agent_turn" or not holding[1]:
            return None
        meta, held = holding
        return without_drift(self.git, checkpoints, meta, held)

    def _before_the_turns(
        self,
        checkpoints: Sequence[CheckpointMeta],
        turns: Turns | None,
        found: signals.Signals,
        plan: RecoveryPlan,
    ) -> tuple[CheckpointMeta, list[CheckpointMeta], str, str] | None:
        """When the safe point still holds drift candidates as they are now (a
        checkpoint you took, or a turn's that could not be stepped back from by content
        without passing yours), the start of the agent's turns that made them, as the
        turn records prove it (``turn_proof``), and the checkpoints to plan again from
        (those taken no later). None when nothing is proved."""
        holding = _held_by_safe_point(checkpoints, found, plan)
        if turns is None or holding is None or holding[0].reason == "sandwich" or not holding[1]:
            return None
        meta, held = holding
        drift = {d.path for d in plan.drift_candidates}
        from vibflow.steps.recovery.turn_proof import before_the_turns

        start = before_the_turns(
            self.root,
            self.git,
            turns,
            meta,
            [c for c in found.changed if c.path in drift],
            held,
            found.head,
            found.mtimes,
            self._held,
        )
        made = epoch(start.created_at) if start is not None else None
        if start is None or made is None:
            return None
        shown = ", ".join(sorted(held)[:3]) + (
            f" and {len(held) - 3} more" if len(held) > 3 else ""
        )
        why = (
            f"checkpoint {meta.checkpoint_id} already holds the changes to {shown} as "
            "they are now; the agent hooks' turn records show the agent's own tools wrote "
            "the out-of-scope files in its turns since this one, and nothing changed them "
            "between or after those turns, so restoring them from it undoes only the "
            "agent's work there"
        )
        earlier = [m for m in checkpoints if (t := epoch(m.created_at)) is not None and t <= made]
        return start, earlier, why, meta.checkpoint_id

    def _with_earlier_source(
        self, checkpoints: Sequence[CheckpointMeta], found: signals.Signals, plan: RecoveryPlan
    ) -> RecoveryPlan:
        """When the safe point — a checkpoint the user took, never stepped back past —
        already holds drift candidates as they are now (they changed before it was
        taken), the partial restore leaves them; it then names the newest earlier
        checkpoint that does not hold them, and the command restoring them from it,
        for the user to choose. Nothing is chosen for them."""
        holding = _held_by_safe_point(checkpoints, found, plan)
        if holding is None:
            return plan
        # A rename is left to the options: restoring one of its names alone loses it.
        # A name no restore can write would only have its command refused.
        skip = {c.path for c in found.changed if c.status == "renamed"}
        skip.update(left.path for left in plan.left_out)
        meta, held = holding[0], [p for p in holding[1] if p not in skip]
        if not held:
            return plan
        sources = earlier_sources(self.git, checkpoints, meta, held)
        if not sources:
            return plan
        return plan.model_copy(update={"options": [earlier_hint(o, sources) for o in plan.options]})

    def _with_last_turn(self, plan: RecoveryPlan) -> RecoveryPlan:
        """The plan with the agent's last turn noted (files outside the intent zone
        counted only when there is an intent)."""
        note = self._last_turn() if self._last_turn is not None else None
        if note is None:
            return plan
        if plan.intent:
            zone = {z.path for z in plan.intent_zone}
            note = note.model_copy(
                update={"outside_intent": sum(1 for p in note.files if p not in zone)}
            )
        return plan.model_copy(update={"agent_last_turn": note})

    def _never_stored(self, paths: list[str]) -> dict[str, str]:
        """Of ``paths``, those no checkpoint stores because of their name (a likely
        secret), each with why in words."""
        from vibflow.steps.checkpoints.models import Skipped

        out = {}
        for path in paths:
            rule = self._checkpoints.secrets.name_rule(path)
            if rule is not None:
                out[path] = Skipped(path=path, reason="secret_name", detail=rule).why
        return out

    def cached(self, plan_id: str | None) -> Advice | None:
        """The advice this process made for ``plan_id``, if it still has it."""
        last = self._last
        return last if last is not None and plan_id and last.plan.plan_id == plan_id else None

    def record_preview(self, advice: Advice) -> Path:
        """Keep the redacted plan as ``.vibflow/recovery/last_preview.json``."""
        self.dir.mkdir(parents=True, exist_ok=True)
        target = self.dir / "last_preview.json"
        body = {"recorded_at": self._clock(), "plan": advice.payload}
        # Not flushed to disk: a lost preview only means the next one is recomputed. One
        # line: json's C encoder writes it, where an indented one costs four times the CPU
        # (~7 ms for a 600-file plan, paid after every warm server's preview). ASCII: a
        # file name that is not UTF-8 (kept as surrogate escapes) is written as \u
        # escapes, which read back to the same name, where UTF-8 cannot encode it.
        atomic_write(target, json.dumps(body) + "\n", durable=False)
        return target

    def last_preview(self) -> dict[str, Any] | None:
        try:
            data = json.loads((self.dir / "last_preview.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        plan = data.get("plan") if isinstance(data, dict) else None
        return plan if isinstance(plan, dict) else None

    def feedback(self, plan_id: str, correct: list[str], wrong: list[str]) -> FeedbackOutcome:
        """Record which labels of the latest preview were right or wrong: every
        verdict feeds the circuit breaker; a wrong one is also remembered for the
        active intent, so its next plans label the path as the user said."""
        last = self.last_preview()
        if last is None or last.get("plan_id") != plan_id:
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                "feedback applies to the latest preview, and this plan id is not it",
                hint="Run `vibflow recover --preview` and give feedback on its plan id.",
            )
        verdicts = judge(last, correct, wrong)
        at = self._clock()
        state = self.labels.record(plan_id, [(v.path, v.correct) for v in verdicts], at)
        fixes = {v.path: v.correction for v in verdicts if v.correction is not None}
        view = self._memory.read() if self._memory is not None else None
        intent = _intent_text(view)
        if intent:
            self.corrections.remember(intent, fixes, at)
        # The drift-label P0 count (audit summary): judged here against memory's
        # explicit files as they stood at the preview, not the planner's own zone,
        # so a planner that let an explicit file into drift is caught.
        explicit = _explicit_at(last, view, self._preview_recorded_at())
        drifted = [v for v in verdicts if v.labelled == "drift"]
        counts = {
            "judged": len(verdicts),
            "wrong_drift": sum(1 for v in drifted if not v.correct),
            "explicit_as_drift": sum(1 for v in drifted if v.path in explicit),
        }
        return FeedbackOutcome(state, fixes if intent else {}, bool(fixes) and not intent, counts)

    def _preview_recorded_at(self) -> str:
        try:
            data = json.loads((self.dir / "last_preview.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return ""
        at = data.get("recorded_at") if isinstance(data, dict) else None
        return at if isinstance(at, str) else ""


@dataclass(frozen=True)
class FeedbackOutcome:
    state: BreakerState
    remembered: dict[str, Label]  # path → the label the next plans of this intent give it
    not_remembered: bool  # corrections given, but no active intent to remember them for
    #: Count-only: labels judged, drift labels judged wrong, drift labels on explicit files.
    labels: Mapping[str, int] = field(default_factory=dict)


def _explicit_at(plan: Mapping[str, Any], view: Any, recorded_at: str) -> set[str]:
    """The explicit relevant files when the preview was made: the plan's explicit
    zone, and memory's explicit files stamped no later than the preview."""
    found = {
        z.get("path")
        for z in plan.get("intent_zone") or []
        if isinstance(z, dict) and z.get("source") == "explicit"
    }
    state = getattr(view, "state", None)
    for f in getattr(state, "relevant_files", None) or []:
        if f.source == "explicit" and (not recorded_at or f.last_updated <= recorded_at):
            found.add(f.path)
    return {p for p in found if isinstance(p, str)}


def _intent_text(view: Any) -> str | None:
    intent = view.state.active_intent if view is not None else None
    text = getattr(intent, "text", None)
    return text if isinstance(text, str) and text.strip() else None


def _explained(plan: RecoveryPlan, why: str, passed: str) -> RecoveryPlan:
    """``plan`` with the reason its safe point is not the newest that predates the
    change, and its full rollback held back: the turn records prove the drift
    candidates only, and a full rollback from there would also undo in-scope edits
    made before checkpoint ``passed`` — yours, perhaps. Rolling everything back to
    that checkpoint stays one command."""
    chosen = plan.safe_checkpoint_candidate
    if chosen is None:
        return plan
    held_back = (
        f"it would reach back past checkpoint {passed} and undo in-scope edits made "
        f"before it; to roll everything back to that checkpoint: "
        f"`vibflow checkpoint restore {passed}`"
    )
    options = [
        o.model_copy(update={"blocked_reason": held_back}) if o.level == 4 else o
        for o in plan.options
    ]
    return plan.model_copy(
        update={
            "safe_checkpoint_candidate": chosen.model_copy(update={"why": why}),
            "options": options,
        }
    )


def _held_by_safe_point(
    checkpoints: Sequence[CheckpointMeta], found: signals.Signals, plan: RecoveryPlan
) -> tuple[CheckpointMeta, list[str]] | None:
    """The safe point's checkpoint and the drift candidates it already holds as they
    are now (its ``settled`` files: a restore from it leaves them); None when the safe
    point is not the checkpoint the signals compared with."""
    chosen = plan.safe_checkpoint_candidate
    base = found.base
    if chosen is None or base is None or base.checkpoint_id != chosen.checkpoint_id:
        return None
    meta = next((m for m in checkpoints if m.checkpoint_id == chosen.checkpoint_id), None)
    if meta is None:
        return None
    return meta, [d.path for d in plan.drift_candidates if d.path in base.settled]
