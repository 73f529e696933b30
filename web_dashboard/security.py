"""Who may change the game, and how requests are kept honest.

- Loopback clients (the laptop the companion runs on) may act without the token. Any other client must present
  the token printed at start-up for every state-changing request, as the `X-Azul-Token` header or the cookie
  set by opening the dashboard once with `?token=...`. Viewing from the network needs the token too unless the
  user chose `--open-viewing`.
- CSRF: every state-changing request must carry the page's CSRF value in the `X-CSRF-Token` header. A foreign
  page can neither read that value nor send a custom header cross-site without a CORS preflight, which this
  app never grants; a mismatching `Origin` is refused as well.
- DNS rebinding: while bound to loopback, only loopback host names are served.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from dataclasses import dataclass, field

TOKEN_HEADER = "X-Azul-Token"
TOKEN_COOKIE = "azul_token"
CSRF_HEADER = "X-CSRF-Token"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")


def is_loopback(address: str | None) -> bool:
    if not address:
        return False
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Security:
    token: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    open_viewing: bool = False  # network clients may watch without the token
    bound_to_loopback: bool = True
    _csrf_key: bytes = field(default_factory=lambda: secrets.token_bytes(32))

    def token_ok(self, presented: str | None) -> bool:
        return bool(presented) and hmac.compare_digest(presented.encode(), self.token.encode())

    def csrf_value(self) -> str:
        # One value per server run, derived from a secret; pages embed it, scripts send it back.
        return hmac.new(self._csrf_key, b"azul-companion csrf", hashlib.sha256).hexdigest()

    def csrf_ok(self, presented: str | None) -> bool:
        return bool(presented) and hmac.compare_digest(presented.encode(), self.csrf_value().encode())

    def host_allowed(self, host: str | None) -> bool:
        if not self.bound_to_loopback:
            return True
        if not host:
            return False
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return name in LOOPBACK_HOSTS
