"""The whole scenario corpus: the held-out third and the tuned rest; and the fresh
batches written after the tuning, reported apart (``FRESH_BATCHES``: batch → when
it was written, as the report labels it)."""

from __future__ import annotations

from scenario_kit import Scenario
from scenarios_fresh import FRESH
from scenarios_fresh2 import FRESH2
from scenarios_fresh3 import FRESH3
from scenarios_fresh4 import FRESH4
from scenarios_fresh5 import FRESH5
from scenarios_fresh6 import FRESH6
from scenarios_fresh7 import FRESH7
from scenarios_fresh8 import FRESH8
from scenarios_fresh9 import FRESH9
from scenarios_fresh10 import FRESH10
from scenarios_fresh11 import FRESH11
from scenarios_fresh12 import FRESH12
from scenarios_fresh13 import FRESH13
from scenarios_fresh14 import FRESH14
from scenarios_fresh15 import FRESH15
from scenarios_heldout import HELD_OUT
from scenarios_tuned import TUNED

CORPUS: list[Scenario] = [*TUNED, *HELD_OUT]

#: Every fresh batch, in the order written.
ALL_FRESH: list[Scenario] = [
    *FRESH,
    *FRESH2,
    *FRESH3,
    *FRESH4,
    *FRESH5,
    *FRESH6,
    *FRESH7,
    *FRESH8,
    *FRESH9,
    *FRESH10,
    *FRESH11,
    *FRESH12,
    *FRESH13,
    *FRESH14,
    *FRESH15,
]
FRESH_BATCHES: dict[int, str] = {
    1: "after the first tuning",
    2: "before the second",
    3: "blind, after the second",
    4: "blind, after the third",
    5: "blind, after the fourth",
    6: "blind, after the sixth",
    7: "blind, during the seventh",
    8: "blind, during the eighth",
    9: "blind, after the eighth",
    10: "blind, after the ninth",
    11: "blind, after the tenth",
    12: "blind, after the eleventh",
    13: "blind, after the twelfth",
    14: "blind, after the thirteenth",
    15: "blind, after the fourteenth",
}
