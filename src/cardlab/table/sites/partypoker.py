"""partypoker hand histories: the bracketed grammar of :mod:`.pacific`.

A hand starts ``#Game No : 11354414824`` (after a ``Game #... starts.`` line) and
``***** Hand History for Game ... *****``, then the stakes and game (``$20/$40 USD FL
Omaha Hi-Lo - Thursday, ...``; tournaments ``NL Texas Hold'em ... Trny: 1 Level: 2
Blinds(10/20)``), ``Seat 9 is the button``, the seats and the actions with bracketed
amounts (what each action adds), ``** Dealing Flop ** [ Qh, Kd, 6d ]`` and what each
won (``name wins $239 USD``, ``name wins 300 chips``). partypoker writes no rake and no
total pot.
"""

from __future__ import annotations

from cardlab.table.sites import pacific


class Reader(pacific.Reader):
    site = "partypoker"
