"""The whole scenario corpus: the held-out third and the tuned rest."""

from __future__ import annotations

from scenario_kit import Scenario
from scenarios_heldout import HELD_OUT

CORPUS: list[Scenario] = [*HELD_OUT]
