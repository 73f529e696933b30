"""The event bus between the runtime (game, camera, drivers) and the web clients.

Publishers never wait for a browser: each subscriber has a small bounded queue, and a subscriber that falls
behind loses its *oldest* queued messages (every state message is a full snapshot, so the newest one is all a
slow client needs). The bus also keeps the latest message of each kind, so a client that (re)connects gets the
current picture at once instead of waiting for the next change.
"""

from __future__ import annotations

import json
import queue
import threading
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Message:
    kind: str  # "state", "camera", "alert", ...
    data: dict
    seq: int

    def sse(self) -> bytes:
        """The message as one server-sent event."""
        body = json.dumps(self.data, separators=(",", ":"))
        return f"id: {self.seq}\nevent: {self.kind}\ndata: {body}\n\n".encode()


@dataclass
class Subscription:
    bus: EventBus
    queue: queue.Queue[Message]
    dropped: int = 0

    def get(self, timeout: float) -> Message | None:
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self.bus.unsubscribe(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclass
class EventBus:
    queue_size: int = 16
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _subscribers: list[Subscription] = field(default_factory=list)
    _latest: dict[str, Message] = field(default_factory=dict)
    _seq: int = 0

    def publish(self, kind: str, data: dict) -> Message:
        with self._lock:
            self._seq += 1
            message = Message(kind, data, self._seq)
            self._latest[kind] = message
            subscribers = list(self._subscribers)
        for sub in subscribers:
            _put_dropping_oldest(sub, message)
        return message

    def latest(self, kind: str) -> Message | None:
        with self._lock:
            return self._latest.get(kind)

    def subscribe(self, replay: bool = True) -> Subscription:
        """A new subscription; with `replay`, it starts with the latest message of every kind."""
        sub = Subscription(self, queue.Queue(self.queue_size))
        with self._lock:
            if replay:
                for message in sorted(self._latest.values(), key=lambda m: m.seq):
                    _put_dropping_oldest(sub, message)
            self._subscribers.append(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            if sub in self._subscribers:
                self._subscribers.remove(sub)

    @property
    def subscriber_count(self) -> int:
        with self._lock:
            return len(self._subscribers)


def _put_dropping_oldest(sub: Subscription, message: Message) -> None:
    while True:
        try:
            sub.queue.put_nowait(message)
            return
        except queue.Full:
            try:
                sub.queue.get_nowait()
                sub.dropped += 1
            except queue.Empty:
                pass
