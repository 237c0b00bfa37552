"""Playing a hand of poker: betting structures, forced bets, the hand's state machine
(streets, legal actions, pots), and hand histories in the PHH format."""
