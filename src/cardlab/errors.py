"""The one error hierarchy of cardlab.

Every error a user can cause is a :class:`CardlabError`, itself a :class:`ValueError`,
whose message says what was expected and quotes what was given. The command line turns
them into one line on stderr and exit code 2.
"""


class CardlabError(ValueError):
    """Base class of every error caused by bad input to cardlab."""


class CardError(CardlabError):
    """A card that cannot be parsed, is not in the deck, or is repeated."""


class DeckError(CardlabError):
    """An unknown deck name or an invalid deck definition."""


class RuleError(CardlabError):
    """An unknown or invalid rule-set option."""


class HandError(CardlabError):
    """A hand of the wrong size or otherwise impossible for the request."""


class GameError(CardlabError):
    """An illegal move, an unknown game, or a request the game cannot answer."""


class ActionError(GameError):
    """An action the hand does not allow now: out of turn, a wrong amount, a card
    not held. The hand is left as it was."""


class HistoryError(CardlabError):
    """A malformed hand history (PHH): bad TOML, a missing or mistyped field, a bad action."""


class StoreError(CardlabError):
    """A hand store that cannot be opened (corrupt, newer, not cardlab's) or a bad record."""
