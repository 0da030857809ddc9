"""The memory review flow's steps (``flows/memory_review.yaml``): gather the
proposals, then act on one answer at a time — accept or edit (through the
memory write gate, the review itself being the confirmation), dismiss or
snooze — and say what changed.

Every write is idempotent, and an item's answer is marked in the journal's
item progress once it is applied, so a crash between two items resumes at the
next one with nothing applied twice. A refusal by the write gate (a conflict
inside the window, a contradiction, a bad path) does not fail the run: the
same item is shown again with the problem, both values included.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.registry import StepContext, StepResult
from vibflow.steps.memory.review import EDITABLE, Proposal, gather
from vibflow.steps.memory.review_marks import ReviewMarks
from vibflow.steps.memory.service import MemoryService

WRITER = "flow.memory_review"
#: A run's inputs add up across events; each answer clears them for the next item.
_CLEARED = {"text": None, "keep": None, "overwrite": None}
ANSWERS = ("accepted", "edited", "dismissed", "snoozed")


def _review(ctx: StepContext) -> dict[str, Any]:
    public = ctx.context.get("public", {})
    review = public.get("review") if isinstance(public, dict) else None
    if not isinstance(review, dict) or not isinstance(review.get("items"), list):
        raise VibflowError(ErrorCode.STEP_FAILED, "the review has no gathered proposals")
    return review


def _inputs(ctx: StepContext) -> dict[str, Any]:
    raw = ctx.context.get("inputs", {})
    return raw if isinstance(raw, dict) else {}


class ReviewSteps:
    def __init__(
        self, memory: MemoryService, marks: ReviewMarks, clock: Callable[[], datetime]
    ) -> None:
        self._memory = memory
        self._marks = marks
        self._clock = clock

    # -- gather ---------------------------------------------------------------

    def gather(self, _ctx: StepContext) -> StepResult:
        """Every proposal for this memory, minus those dismissed or still snoozed."""
        view = self._memory.read()
        now = self._clock()
        found = gather(
            view.state,
            view.freshness,
            now,
            skip=sorted(self._marks.skipped(now)),
            archive_days=self._memory.policy.caps.decision_archive_days,
        )
        review = {
            "items": [p.to_json() for p in found],
            "index": 0,
            "total": len(found),
            "answers": dict.fromkeys(ANSWERS, 0),
        }
        public: dict[str, Any] = {
            "review": review,
            "current": found[0].to_json() if found else None,
        }
        return StepResult(
            event="next" if found else "empty",
            outcome=f"{len(found)} proposal(s)",
            context={"public": public},
        )

    # -- answers --------------------------------------------------------------

    def _advance(self, ctx: StepContext, answer: str) -> StepResult:
        review = dict(_review(ctx))
        answers = dict(review.get("answers") or {})
        answers[answer] = int(answers.get(answer, 0)) + 1
        index = int(review["index"]) + 1
        review.update(index=index, answers=answers)
        items = review["items"]
        current = items[index] if index < len(items) else None
        return StepResult(
            event="next" if current is not None else "done",
            outcome=f"item {index} {answer}",
            context={"public": {"review": review, "current": current}, "inputs": _CLEARED},
        )

    def _again(self, ctx: StepContext, problem: str) -> StepResult:
        """Show the same item again, with what stopped it."""
        current = dict(_review(ctx)["items"][int(_review(ctx)["index"])])
        current["problem"] = problem
        return StepResult(
            event="again",
            outcome="item refused",
            context={"public": {"current": current}, "inputs": _CLEARED},
        )

    def _current(self, ctx: StepContext) -> Proposal:
        review = _review(ctx)
        return Proposal.from_json(review["items"][int(review["index"])])

    def accept(self, ctx: StepContext) -> StepResult:
        return self._apply(ctx, edited=False)

    def edit(self, ctx: StepContext) -> StepResult:
        return self._apply(ctx, edited=True)

    def _apply(self, ctx: StepContext, *, edited: bool) -> StepResult:
        item = self._current(ctx)
        answer = "edited" if edited else "accepted"
        if ctx.progress.is_done(item.key):  # applied before a crash: never twice
            return self._advance(ctx, answer)
        inputs = _inputs(ctx)
        text = inputs.get("text")
        text = text.strip() if isinstance(text, str) and text.strip() else None
        if edited and item.kind not in EDITABLE:
            return self._again(ctx, f"a {item.kind.replace('_', ' ')} has no text to edit")
        if edited and text is None:
            return self._again(ctx, "give the new text (--input text=...)")
        try:
            self._write(item, text, inputs)
        except VibflowError as exc:
            if exc.code is ErrorCode.INTERNAL:
                raise
            return self._again(ctx, exc.message + (f" {exc.hint}" if exc.hint else ""))
        ctx.progress.mark_done(item.key)
        return self._advance(ctx, answer)

    def _write(self, item: Proposal, text: str | None, inputs: dict[str, Any]) -> None:
        mem, w = self._memory, WRITER
        overwrite = str(inputs.get("overwrite", "")).lower() in ("yes", "true", "1")
        if item.kind == "contradiction":
            keep = inputs.get("keep") or item.other
            if keep not in (item.target, item.other):
                raise VibflowError(
                    ErrorCode.BAD_INPUT, f"keep is {item.target} or {item.other}, not {keep}"
                )
            drop = item.target if keep == item.other else item.other
            if drop is not None and any(d.id == drop for d in mem.read().state.decisions):
                mem.archive_decision(drop, writer=w, confirmed=True)
        elif item.kind == "confirm_intent":
            mem.set_intent(text or item.text or "", writer=w, confirmed=True, overwrite=overwrite)
        elif item.kind == "next_action":
            if text is None:
                raise VibflowError(
                    ErrorCode.BAD_INPUT, "the next action needs its text (--input text=...)"
                )
            mem.set_next(text, writer=w, confirmed=True, overwrite=overwrite)
        elif item.kind == "stale_verification":
            mem.drop_verification(item.target, writer=w, confirmed=True)
        elif item.kind == "explicit_file":
            mem.relevant(
                item.target,
                text or "confirmed in a memory review",
                writer=w,
                confirmed=True,
                overwrite=overwrite,
            )
        elif item.kind == "archive_decision" and any(
            d.id == item.target for d in mem.read().state.decisions
        ):
            mem.archive_decision(item.target, writer=w, confirmed=True)

    def dismiss(self, ctx: StepContext) -> StepResult:
        item = self._current(ctx)
        self._marks.dismiss(item.key, self._clock())
        return self._advance(ctx, "dismissed")

    def snooze(self, ctx: StepContext) -> StepResult:
        item = self._current(ctx)
        self._marks.snooze(item.key, self._clock())
        return self._advance(ctx, "snoozed")

    # -- result ---------------------------------------------------------------

    def result(self, ctx: StepContext) -> StepResult:
        public = ctx.context.get("public", {})
        review = public.get("review") if isinstance(public, dict) else None
        answers = dict(review.get("answers") or {}) if isinstance(review, dict) else {}
        total = int(review.get("total", 0)) if isinstance(review, dict) else 0
        seen = int(review.get("index", 0)) if isinstance(review, dict) else 0
        left = max(total - seen, 0)
        bullets = [f"{answers.get(a, 0)} {a}" for a in ANSWERS]
        if left:
            bullets.append(f"{left} not answered (stopped early)")
        headline = (
            "Memory review: nothing to review"
            if total == 0
            else f"Memory review: {total - left} of {total} proposal(s) answered"
        )
        recap = {
            "headline": headline,
            "bullets": bullets if total else ["memory has no open proposals"],
            "next_actions": ["vibflow memory show"] if total else [],
        }
        return StepResult(
            event="done",
            outcome=headline,
            context={"public": {"recap": recap, "current": None}},
        )
