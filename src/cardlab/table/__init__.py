"""Playing a hand of poker: betting structures, forced bets, the hand's state machine
(streets, legal actions, pots), and hand histories in the PHH format."""

from cardlab.table.events import Event
from cardlab.table.pots import Pot
from cardlab.table.showdown import HandResult
from cardlab.table.state import HandState, Legal, Phase
from cardlab.table.structure import Betting, Stakes, TableGame

__all__ = [
    "Betting",
    "Event",
    "HandResult",
    "HandState",
    "Legal",
    "Phase",
    "Pot",
    "Stakes",
    "TableGame",
]
