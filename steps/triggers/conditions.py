"""A trigger's condition: a tree of ``{metric, op, value}`` leaves under
``all`` / ``any`` / ``not`` — data, never code, and never ``eval``.

Validation happens node by node (each bad node is its own located error, so
a file with several mistakes lists all of them): a leaf names a registered
metric and one of six operators, and compares with a value of the metric's
kind — a number for a count, ``true``/``false`` for a yes/no — either inline
(``value``) or by name from the trigger's ``thresholds`` (``threshold``),
which is what a project tunes.

Evaluation is pure and three-valued: a leaf whose metric is not available is
*unknown*, ``all`` is false as soon as one part is false, ``any`` true as soon
as one part is true, and a trigger fires only when its tree is plainly true.
"""

from __future__ import annotations

import difflib
import operator
from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from vibflow.steps.triggers.metrics import METRICS, Reading, Unavailable, Value

OPS: dict[str, Callable[[Any, Any], bool]] = {
    ">": operator.gt,
    ">=": operator.ge,
    "<": operator.lt,
    "<=": operator.le,
    "==": operator.eq,
    "!=": operator.ne,
}
OP_WORDS = {
    ">": "above",
    ">=": "at least",
    "<": "below",
    "<=": "at most",
    "==": "equal to",
    "!=": "not",
}


def _nearest(word: str, known: list[str]) -> str:
    near = difflib.get_close_matches(word, known, n=3, cutoff=0.5)
    return f" (nearest: {', '.join(near)})" if near else f" (known: {', '.join(known)})"


class Condition(BaseModel):
    """One node: a leaf (``metric``, ``op``, ``value`` or ``threshold``) or exactly
    one of ``all`` / ``any`` (a list of nodes) / ``not`` (one node)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    all_: list[Condition] | None = Field(default=None, alias="all", min_length=1)
    any_: list[Condition] | None = Field(default=None, alias="any", min_length=1)
    not_: Condition | None = Field(default=None, alias="not")
    metric: str | None = None
    op: str | None = None
    value: Any = None
    threshold: str | None = Field(default=None, pattern=r"^[a-z][a-z0-9_]{0,63}$")

    @field_validator("metric")
    @classmethod
    def _known_metric(cls, name: str | None) -> str | None:
        if name is not None and name not in METRICS:
            raise ValueError(f"unknown metric '{name}'{_nearest(name, sorted(METRICS))}")
        return name

    @field_validator("op")
    @classmethod
    def _known_op(cls, op: str | None) -> str | None:
        if op is not None and op not in OPS:
            raise ValueError(f"unknown operator '{op}'{_nearest(op, list(OPS))}")
        return op

    @model_validator(mode="after")
    def _shape(self) -> Condition:
        kinds = [
            k
            for k, v in (
                ("all", self.all_),
                ("any", self.any_),
                ("not", self.not_),
                ("metric", self.metric),
            )
            if v is not None
        ]
        if len(kinds) != 1:
            raise ValueError(
                "a condition is one leaf {metric, op, value} or one of all / any / not"
                + (f", found {' and '.join(kinds)} together" if kinds else ", found none of them")
            )
        if self.metric is None:
            stray = [k for k in ("op", "value", "threshold") if getattr(self, k) is not None]
            if stray:
                raise ValueError(
                    f"'{stray[0]}' belongs in a leaf beside 'metric', not beside {kinds[0]}"
                )
            return self
        if self.op is None:
            raise ValueError(f"the leaf on '{self.metric}' needs an 'op' ({', '.join(OPS)})")
        if (self.value is None) == (self.threshold is None):
            raise ValueError(
                f"the leaf on '{self.metric}' needs either 'value' or 'threshold', not both"
            )
        if self.value is not None:
            check_value(self.metric, self.op, self.value)
        return self

    def leaves(self) -> Iterator[Condition]:
        if self.metric is not None:
            yield self
        for child in [*(self.all_ or []), *(self.any_ or []), *([self.not_] if self.not_ else [])]:
            yield from child.leaves()


def check_value(metric: str, op: str, value: Any) -> None:
    """Refuse a comparison of a metric with a value of the wrong kind."""
    spec = METRICS[metric]
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"metric '{metric}' is yes/no: compare it with true or false")
        if op not in {"==", "!="}:
            raise ValueError(f"metric '{metric}' is yes/no: use == or != (not '{op}')")
    elif isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"metric '{metric}' counts {spec.unit}: compare it with a number")


class LeafResult(NamedTuple):
    metric: str
    op: str
    threshold: Value
    threshold_name: str | None
    reading: Reading
    #: True, False, or None when the metric is not available.
    holds: bool | None

    def explain(self) -> str:
        unit = METRICS[self.metric].unit
        want = f"{OP_WORDS[self.op]} {_show(self.threshold)}"
        if isinstance(self.reading, Unavailable):
            return f"{self.metric}: not available — {self.reading.reason} (needs {want})"
        verdict = "yes" if self.holds else "no"
        shown = _show(self.reading) + ("" if unit == "yes/no" else f" {unit}")
        return f"{self.metric} = {shown} (needs {want}): {verdict}"

    def to_json(self) -> dict[str, Any]:
        available = not isinstance(self.reading, Unavailable)
        return {
            "metric": self.metric,
            "unit": METRICS[self.metric].unit,
            "op": self.op,
            "threshold": self.threshold,
            "threshold_name": self.threshold_name,
            "value": self.reading if available else None,
            "available": available,
            "reason": None if available else self.reading.reason,  # type: ignore[union-attr]
            "holds": self.holds,
        }


def _show(value: Reading) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def evaluate(
    node: Condition,
    read: Callable[[str], Reading],
    thresholds: Mapping[str, Value],
    out: list[LeafResult],
    *,
    complete: bool = True,
) -> bool | None:
    """The node's truth (None: unknown), appending each leaf's result to ``out``.

    ``complete`` reads every leaf (to explain each); otherwise ``all`` stops at
    its first false part and ``any`` at its first true one, so a cheap metric
    listed first spares reading a costly one."""
    if node.metric is not None and node.op is not None:
        name = node.threshold
        want: Value = thresholds[name] if name is not None else node.value
        reading = read(node.metric)
        holds = None if isinstance(reading, Unavailable) else OPS[node.op](reading, want)
        out.append(LeafResult(node.metric, node.op, want, name, reading, holds))
        return holds
    if node.not_ is not None:
        inner = evaluate(node.not_, read, thresholds, out, complete=complete)
        return None if inner is None else not inner
    decisive = node.all_ is None  # any: True decides; all: False decides
    parts: list[bool | None] = []
    for child in node.all_ or node.any_ or []:
        parts.append(evaluate(child, read, thresholds, out, complete=complete))
        if not complete and parts[-1] is decisive:
            break
    if node.all_ is not None:
        return False if False in parts else (None if None in parts else True)
    return True if True in parts else (None if None in parts else False)
