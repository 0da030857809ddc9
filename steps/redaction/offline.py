"""Load detect-secrets without the HTTP client only its ``verify()`` uses.

detect-secrets' plugins import ``requests`` at module level for one purpose:
``verify()``, which sends a found key to its vendor's API to see whether it
is live. vibflow never verifies — a user's secret must not leave the machine
(DESIGN §4.7) — and calls only ``analyze_string``. Importing ``requests``
(with urllib3, charset-normalizer, ssl and http.client) was the largest single
cost of every command that redacts, so while detect-secrets' modules load,
the name ``requests`` is a stand-in whose every call refuses. The modules
keep that stand-in as their global; the name is given back right after, so
any later ``import requests`` in this process gets the real library. When
``requests`` is already loaded, nothing is replaced.
"""

from __future__ import annotations

import sys
import threading
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

_NAMES = ("requests", "requests.exceptions")
_LOCK = threading.Lock()


class VerificationRefused(RuntimeError):
    """Raised by every network call of the stand-in."""


def _refuse(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise VerificationRefused("vibflow never sends a found secret anywhere to verify it")


def stand_in() -> dict[str, types.ModuleType]:
    """The modules that answer for ``requests`` while detect-secrets loads."""
    exceptions = types.ModuleType("requests.exceptions")

    class RequestException(OSError):
        pass

    exceptions.RequestException = RequestException  # type: ignore[attr-defined]
    client = types.ModuleType("requests")
    client.__doc__ = "vibflow's stand-in for requests: detect-secrets may not verify."

    class Response:  # only ever named in annotations
        pass

    client.Response = Response  # type: ignore[attr-defined]
    client.exceptions = exceptions  # type: ignore[attr-defined]
    client.RequestException = RequestException  # type: ignore[attr-defined]
    for verb in ("request", "get", "post", "put", "patch", "delete", "head", "options"):
        setattr(client, verb, _refuse)
    return {"requests": client, "requests.exceptions": exceptions}


@contextmanager
def without_network_client() -> Iterator[None]:
    """Import detect-secrets modules inside this block."""
    with _LOCK:
        if "requests" in sys.modules:
            yield  # the real library is loaded already: nothing to save
            return
        ours = stand_in()
        sys.modules.update(ours)
        try:
            yield
        finally:
            for name in _NAMES:
                if sys.modules.get(name) is ours[name]:
                    del sys.modules[name]
