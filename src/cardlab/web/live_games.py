"""Games in progress (Open Seven games, showdown deals), kept in memory by random id;
capped: the least recently used are forgotten. Not the hand store (:mod:`cardlab.store`)."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Generic, TypeVar

from cardlab.errors import GameError

T = TypeVar("T")


class LiveGames(Generic[T]):
    """At most ``capacity`` values by random id; using a value keeps it fresh."""

    def __init__(self, what: str, capacity: int = 1000) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be positive: {capacity!r}")
        self.what = what
        self.capacity = capacity
        self._items: OrderedDict[str, T] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def add(self, value: T) -> str:
        key = secrets.token_urlsafe(9)
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)
        return key

    def get(self, key: str) -> T:
        with self._lock:
            value = self._items.get(key)
            if value is None:
                raise GameError(f"unknown {self.what} id (finished long ago?): {key!r}")
            self._items.move_to_end(key)
            return value

    def put(self, key: str, value: T) -> None:
        with self._lock:
            if key not in self._items:
                raise GameError(f"unknown {self.what} id (finished long ago?): {key!r}")
            self._items[key] = value
            self._items.move_to_end(key)
