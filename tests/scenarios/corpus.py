"""The whole scenario corpus: the held-out third and the tuned rest."""

from __future__ import annotations

from scenario_kit import Scenario
from scenarios_heldout import HELD_OUT
from scenarios_tuned import TUNED

CORPUS: list[Scenario] = [*TUNED, *HELD_OUT]
