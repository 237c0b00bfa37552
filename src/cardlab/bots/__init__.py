"""Players that are programs: the :class:`Bot` protocol and the bots cardlab ships."""

from cardlab.bots.base import BOTS, Bot, RandomBot, StationBot, get_bot

__all__ = ["BOTS", "Bot", "RandomBot", "StationBot", "get_bot"]
