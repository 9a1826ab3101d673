"""The lifetime of a sweep's dask client and cluster: closed, client first, however the
sweep ends — a Ctrl-C while they start, while the runs go on, or while they close — so
that ``Client.__del__`` finds nothing left to close at exit (where it would print a
traceback); a run going on stops once the sweep cancels its task; a closing worker lets
its heartbeat end before its connections go."""
import asyncio
import copy
import signal
import time
from types import SimpleNamespace

import distributed
import pytest
from distributed.core import Status
from tornado.ioloop import PeriodicCallback

from solver.model.io import examples_dir, load_model
from solver.sweeps.cluster import sweep_client
from solver.sweeps.heartbeat import HeartbeatDrained
from solver.sweeps.task import run_variant


@pytest.mark.parametrize("moment", ["start", "sweep", "close"])
def test_ctrl_c_at_any_moment_leaves_the_client_and_then_the_cluster_closed(moment, monkeypatch, interactive_sigint):
    """A real SIGINT at ``moment``: at the end of the client's start (before ``Client()``
    returns), inside the ``with`` block, or as the client begins to close."""
    made, closing_order = [], []

    class Client(distributed.Client):
        def start(self, **kwargs):
            made.append(self)
            super().start(**kwargs)
            if moment == "start":
                signal.raise_signal(signal.SIGINT)

        def close(self, *args, **kwargs):
            if self.status == "running":  # not again from __del__ once closed
                if moment == "close":
                    signal.raise_signal(signal.SIGINT)
                closing_order.append(("client", self.cluster.status))
            return super().close(*args, **kwargs)

    monkeypatch.setattr(distributed, "Client", Client)
    with pytest.raises(KeyboardInterrupt):
        with sweep_client(workers=1):
            if moment == "sweep":
                signal.raise_signal(signal.SIGINT)
    (client,) = made
    assert client.status == "closed"
    assert client.cluster.status == Status.closed
    assert closing_order == [("client", Status.running)]             # the client went first
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_run_going_on_stops_when_the_sweep_cancels_its_task():
    """One worker thread: a task submitted after the cancelled run can only start once the
    run has stopped, and the run alone would take many minutes (10^6 steps)."""
    long_run = copy.deepcopy(load_model(examples_dir() / "rod_impact_rigid.json"))
    long_run["solver"].update(end_time=1000.0, output_interval=100.0)
    with sweep_client(workers=1) as client:
        run = client.submit(run_variant, long_run, (), None, pure=False)
        deadline = time.monotonic() + 120
        while not _executing(client):
            assert time.monotonic() < deadline, "the run did not start"
            time.sleep(0.1)
        client.cancel(run)
        assert client.submit(int, "7", pure=False).result(timeout=120) == 7


def _executing(client) -> bool:
    """Whether a worker executes a task."""
    states = client.run(lambda dask_worker: [t.state for t in dask_worker.state.tasks.values()])
    return any("executing" in s for s in states.values())


def test_a_closing_worker_waits_for_its_heartbeat_going_on_and_starts_no_other():
    """The heartbeat waits for the scheduler's answer when the worker's teardown begins:
    teardown ends only after it, and the timer is stopped."""
    async def scenario():
        sent, answered, beats = asyncio.Event(), asyncio.Event(), []

        async def heartbeat():
            sent.set()
            await answered.wait()
            beats.append("answered")

        timer = PeriodicCallback(heartbeat, 1)
        worker = SimpleNamespace(periodic_callbacks={"heartbeat": timer})
        plugin = HeartbeatDrained()
        plugin.setup(worker)
        timer.start()
        await sent.wait()
        teardown = asyncio.ensure_future(plugin.teardown(worker))
        for _ in range(10):
            await asyncio.sleep(0)
        assert not teardown.done() and not timer.is_running()
        answered.set()
        await teardown
        assert beats == ["answered"]

    asyncio.run(scenario())
