"""A worker plugin of the sweep's local cluster: a worker that closes lets its heartbeat
to the scheduler end before its connections go.

``distributed.Worker.close`` stops the heartbeat's timer, then closes the worker's
connections, under a heartbeat still waiting for the scheduler's answer; that heartbeat
then fails and the worker logs the failure as an error with a traceback (dask/distributed
issue 7105), the more often the busier the machine.  :meth:`HeartbeatDrained.teardown`
runs first in ``close`` (plugins are removed before the timers stop): it stops the timer
and waits for the heartbeat going on, so none is left when the connections close.
"""
from __future__ import annotations

import asyncio

from distributed import WorkerPlugin


class HeartbeatDrained(WorkerPlugin):
    """Keeps the heartbeat going on (if any) of its worker, and waits for it on teardown."""

    name = "flexmech-heartbeat-drained"

    def setup(self, worker) -> None:
        self._timer = worker.periodic_callbacks["heartbeat"]
        self._beating: set[asyncio.Future] = set()
        beat = self._timer.callback

        async def tracked_beat() -> None:
            future = asyncio.ensure_future(beat())
            self._beating.add(future)
            try:
                await future
            finally:
                self._beating.discard(future)

        self._timer.callback = tracked_beat

    async def teardown(self, worker) -> None:
        self._timer.stop()
        await asyncio.gather(*self._beating, return_exceptions=True)
