"""Whether an address given for a sweep is a dask scheduler that answers, asked before any
dask client touches it.

A dask client waits without bound on a listener that accepts the connection and never
speaks, and reads whatever a listener of another protocol sends as frame lengths (an
HTTP server's reply asks it to allocate exabytes).  A dask endpoint speaks first: on a
new connection it sends its handshake, one message of dask's TCP framing — a
little-endian unsigned 64-bit length, then that many bytes holding the frame count and
the frame lengths (``distributed.protocol.utils.pack_frames_prelude``).  The probe
connects over plain TCP, waits a bounded time for those first bytes and checks that
they frame a message of sensible size, then closes.

Addresses are ``tcp://host:port`` or ``host:port``; other schemes (``tls://``,
``ucx://``, ``inproc://``, ``ws://``) need settings a sweep does not take and are
refused when the address is read (:func:`scheduler_endpoint`).
"""
from __future__ import annotations

import socket
import struct
import time

from .spec import SweepError

#: seconds for the TCP connection, and again for the scheduler's first words
ANSWER_TIMEOUT_S = 10
#: the largest handshake a scheduler sends (bytes); it is a few hundred
HANDSHAKE_MAX = 1 << 20
#: the largest frame count a handshake has
FRAMES_MAX = 64


def scheduler_endpoint(address: str) -> tuple[str, int]:
    """``(host, port)`` of a scheduler address, or :class:`SweepError` naming what is wrong.

    >>> scheduler_endpoint("tcp://head:8786")
    ('head', 8786)
    >>> scheduler_endpoint("[::1]:8786")
    ('::1', 8786)
    """
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme != "tcp":
        raise SweepError([f"scheduler {address}: only tcp:// addresses are supported (a {scheme}:// scheduler "
                          "needs security or transport settings a sweep does not take)"])
    host, _sep, port = rest.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise SweepError([f"scheduler {address}: write tcp://HOST:PORT (a port from 1 to 65535)"])
    return host, int(port)


def probe_scheduler(address: str, timeout: float | None = None) -> None:
    """Raise :class:`SweepError` unless ``address`` accepts a TCP connection within
    ``timeout`` seconds (default :data:`ANSWER_TIMEOUT_S`) and then sends a dask
    handshake within ``timeout`` more."""
    timeout = ANSWER_TIMEOUT_S if timeout is None else timeout
    host, port = scheduler_endpoint(address)
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            first = _receive(sock, 16, time.monotonic() + timeout)
    except TimeoutError:
        raise SweepError([f"scheduler {address}: no connection within {timeout:g} s"]) from None
    except OSError as exc:
        raise SweepError([f"scheduler {address}: cannot connect ({exc.strerror or exc})"]) from None
    if first is None:
        raise SweepError([f"scheduler {address}: accepted the connection but said nothing within {timeout:g} s "
                          "(a dask scheduler answers at once); is it a scheduler, and is it alive?"])
    if not _is_handshake(first):
        raise SweepError([f"scheduler {address}: answered, but not as a dask scheduler does (another "
                          "service listens there?)"])


def _receive(sock: socket.socket, count: int, deadline: float) -> bytes | None:
    """Up to ``count`` bytes, all that came before ``deadline`` or before the peer
    closed; None when nothing came."""
    data = b""
    while len(data) < count:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        sock.settimeout(left)
        try:
            chunk = sock.recv(count - len(data))
        except TimeoutError:
            break
        if not chunk:
            break
        data += chunk
    return data or None


def _is_handshake(first: bytes) -> bool:
    """Whether ``first`` (the connection's first 16 bytes) opens a dask message: a total
    length of a sensible size, then a frame count of one to :data:`FRAMES_MAX`."""
    if len(first) < 16:
        return False
    total, frames = struct.unpack("<QQ", first)
    return 16 <= total <= HANDSHAKE_MAX and 1 <= frames <= FRAMES_MAX and 8 * (frames + 1) <= total
