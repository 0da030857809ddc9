"""The one front door to triggers: check them, show nudges, record answers.

* :meth:`TriggerService.check` evaluates every trigger and says why each fires
  or not (each metric's value against its threshold). It writes nothing but
  the derived baseline.
* :meth:`TriggerService.nudges` is what a surface the user already runs
  (``recap``, ``recover``, ``memory show``, an agent hook, MCP) calls: the
  firing triggers not snoozed, dismissed or answered in this session, as
  one-line suggestions with the command that acts on them. The first time a
  trigger is shown in a session it moves armed → shown (one audit row).
* :meth:`TriggerService.respond` records accept / dismiss / snooze.

Audit rows carry ``trigger {id, action, source}`` and nothing else; messages
come from policy, never from memory, and hold no memory text (P0 gate 2).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.registry import nearest
from vibflow.steps.triggers.baseline import Baseline, Rate
from vibflow.steps.triggers.conditions import LeafResult, evaluate
from vibflow.steps.triggers.metrics import METRICS, MetricInputs, Reading
from vibflow.steps.triggers.policy import TriggerRule, TriggersPolicy
from vibflow.steps.triggers.session import Action, Session, SessionFile, Status, roll

#: (trigger id, action, source) rows to append to the audit, in order.
TriggerAudit = Callable[[Sequence[tuple[str, Action, str]]], None]
SOURCE = re.compile(r"^[a-z][a-z0-9_.-]{0,63}$")
QUIET: frozenset[Status] = frozenset({"accepted", "dismissed", "snoozed", "ignored"})


@dataclass(frozen=True)
class TriggerResult:
    id: str
    rule: TriggerRule
    #: True fires, False does not, None: a metric it needs is not available.
    fires: bool | None
    leaves: tuple[LeafResult, ...]
    status: Status

    @property
    def shown_now(self) -> bool:
        return bool(self.fires) and self.rule.enabled and self.status not in QUIET

    def why(self) -> list[str]:
        return [leaf.explain() for leaf in self.leaves]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "enabled": self.rule.enabled,
            "fires": self.fires,
            "status": self.status,
            "would_show": self.shown_now,
            "message": self.rule.message,
            "action": self.rule.action,
            "command": self.rule.command,
            "conditions": [leaf.to_json() for leaf in self.leaves],
        }


@dataclass(frozen=True)
class Nudge:
    id: str
    message: str
    command: str

    def line(self) -> str:
        dismiss = f"vibflow triggers dismiss {self.id}"
        return f"Nudge: {self.message} Next: `{self.command}` (or `{dismiss}`)"

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "message": self.message, "command": self.command}


class Recommendation(NamedTuple):
    trigger: str
    shown: int
    ignored: int
    commands: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "trigger": self.trigger,
            "shown": self.shown,
            "ignored": self.ignored,
            "ignored_share": round(self.ignored / self.shown, 4) if self.shown else 0.0,
            "commands": list(self.commands),
        }


class TriggerService:
    def __init__(
        self,
        policy: TriggersPolicy,
        *,
        inputs: Callable[[datetime, datetime], MetricInputs],
        sessions: SessionFile,
        baseline: Baseline,
        audit: TriggerAudit,
        clock: Callable[[], datetime],
        agent_session: Callable[[], str | None] = lambda: None,
    ) -> None:
        self.policy = policy
        self._inputs = inputs
        self._sessions = sessions
        self._baseline = baseline
        self._audit = audit
        self._clock = clock
        self._agent_session = agent_session

    # -- evaluating -----------------------------------------------------------

    def _session(self, now: datetime) -> tuple[Session, list[str]]:
        return roll(
            self._sessions.load(),
            now,
            idle_minutes=self.policy.session_idle_minutes,
            agent_session=self._agent_session(),
        )

    def evaluate(
        self,
        session: Session,
        now: datetime,
        ids: Iterable[str] | None = None,
        *,
        complete: bool = True,
    ) -> list[TriggerResult]:
        """Every (or each named) trigger's verdict; each metric is read at most once
        (and, unless ``complete``, only as far as a verdict needs)."""
        wanted = sorted(self.policy.rules) if ids is None else list(ids)
        inputs = self._inputs(now, session.started)
        readings: dict[str, Reading] = {}

        def read(metric: str) -> Reading:
            if metric not in readings:
                readings[metric] = METRICS[metric].read(inputs)
            return readings[metric]

        out: list[TriggerResult] = []
        try:
            for trigger in wanted:
                rule = self.policy.rules[trigger]
                leaves: list[LeafResult] = []
                fires = evaluate(rule.when, read, rule.thresholds, leaves, complete=complete)
                status = session.status(trigger, now)
                out.append(TriggerResult(trigger, rule, fires, tuple(leaves), status))
        finally:
            inputs.repo.close()
        return out

    def check(self, ids: Iterable[str] | None = None) -> list[TriggerResult]:
        """Every trigger's verdict now, without recording anything."""
        now = self._clock()
        session, _ = self._session(now)
        return self.evaluate(session, now, ids)

    def explain(self, trigger: str) -> TriggerResult:
        return self.check([self.known(trigger)])[0]

    def known(self, trigger: str) -> str:
        if trigger not in self.policy.rules:
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"no trigger named '{trigger}'{nearest(trigger, self.policy.rules)}",
                hint="`vibflow triggers list` shows them.",
            )
        return trigger

    # -- the lifecycle --------------------------------------------------------

    def nudges(self, source: str) -> list[Nudge]:
        """The suggestions to print now (never blocking), recording each first showing."""
        source = _source(source)
        with self._sessions.locked():
            return self._nudges(source)

    def _nudges(self, source: str) -> list[Nudge]:
        now = self._clock()
        session, unanswered = self._session(now)
        rows: list[tuple[str, Action, str]] = [(t, "ignored", source) for t in unanswered]
        found: list[Nudge] = []
        # Only triggers that could be shown are evaluated, each only as far as needed.
        candidates = [
            t
            for t, r in sorted(self.policy.rules.items())
            if r.enabled and session.status(t, now) not in QUIET
        ]
        for result in self.evaluate(session, now, candidates, complete=False):
            if not result.shown_now:
                continue
            if result.status == "armed":
                session.move(result.id, "shown", now)
                rows.append((result.id, "shown", source))
            found.append(Nudge(result.id, result.rule.message, result.rule.command))
        self._sessions.save(session)
        if rows:
            self._audit(rows)
        return found

    def respond(self, trigger: str, action: Action, source: str) -> Status:
        """Accept, dismiss or snooze ``trigger`` for this session (it need not be shown yet)."""
        source = _source(source)
        self.known(trigger)
        if action not in {"accepted", "dismissed", "snoozed"}:
            raise VibflowError(ErrorCode.BAD_INPUT, "a trigger is accepted, dismissed or snoozed")
        with self._sessions.locked():
            return self._respond(trigger, action, source)

    def _respond(self, trigger: str, action: Action, source: str) -> Status:
        now = self._clock()
        session, unanswered = self._session(now)
        rows: list[tuple[str, Action, str]] = [(t, "ignored", source) for t in unanswered]
        status = session.status(trigger, now)
        if status in QUIET:
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"trigger '{trigger}' is already {status} in this session",
                hint="It comes back in the next session.",
            )
        if status == "armed":
            session.move(trigger, "shown", now)
            rows.append((trigger, "shown", source))
        until = now + timedelta(minutes=self.policy.snooze_minutes) if action == "snoozed" else None
        session.move(trigger, action, now, until=until)
        rows.append((trigger, action, source))
        self._sessions.save(session)
        self._audit(rows)
        return action

    # -- noise ------------------------------------------------------------------

    def recommendations(self) -> list[Recommendation]:
        """Triggers ignored more than the policy allows, with the commands that tune them."""
        limits = self.policy.ignored_rate
        rates = self._baseline.refresh(self._clock(), limits.window_days)
        return [
            _recommend(r, self.policy.rules[r.trigger])
            for r in rates
            if r.trigger in self.policy.rules
            and r.shown >= limits.min_shown
            and r.share > limits.max_share
        ]


def _recommend(rate: Rate, rule: TriggerRule) -> Recommendation:
    key = f"triggers.rules.{rate.trigger}"
    commands = [
        f"vibflow policy set {key}.thresholds.{name} {_raised(value)}"
        for name, value in sorted(rule.thresholds.items())
        if not isinstance(value, bool)
    ]
    commands.append(f"vibflow policy set {key}.enabled false")
    return Recommendation(rate.trigger, rate.shown, rate.ignored, tuple(commands))


def _raised(value: float) -> str:
    """A threshold half again as high (at least one more)."""
    if isinstance(value, int):
        return str(max(value + 1, round(value * 1.5)))
    return f"{value * 1.5:g}"


def _source(source: str) -> str:
    if not SOURCE.match(source):
        raise VibflowError(ErrorCode.INTERNAL, "a trigger source is a lower-case identifier")
    return source
