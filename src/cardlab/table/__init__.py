"""Playing a hand of poker: betting structures, forced bets, the hand's state machine
(streets, legal actions, pots), and hand histories in the PHH format."""

from cardlab.table.actions import Action, apply, legal_actions
from cardlab.table.events import Event
from cardlab.table.pots import Pot
from cardlab.table.session import Session
from cardlab.table.showdown import HandResult
from cardlab.table.state import HandState, Legal, Phase
from cardlab.table.structure import Betting, Stakes, TableGame
from cardlab.table.view import SeatView, seat_view

__all__ = [
    "Action",
    "Betting",
    "Event",
    "HandResult",
    "HandState",
    "Legal",
    "Phase",
    "Pot",
    "SeatView",
    "Session",
    "Stakes",
    "TableGame",
    "apply",
    "legal_actions",
    "seat_view",
]
