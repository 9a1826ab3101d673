import time
from app.running.controller import RunController
from app.running.worker import RunWorker
from tests.app.test_run import long_slider_crank
def test_dbg(qtbot, monkeypatch):
    ev = []
    send = RunWorker._send
    monkeypatch.setattr(RunWorker, "_send", lambda self, *a: (ev.append(("send", time.perf_counter())), send(self, *a)))
    on_frame = RunController._on_frame
    def slow(self, frame):
        n0 = len(self._frames); time.sleep(3.0); ev.append(("slot", len(self._frames) - n0))
        if sum(1 for e in ev if e[0] == "slot") == 10: self.cancel()
        on_frame(self, frame)
    monkeypatch.setattr(RunController, "_on_frame", slow)
    c = RunController(); c.start(long_slider_crank())
    qtbot.waitUntil(lambda: not c.running, timeout=120000); c.wait()
    t0 = ev[0][1]
    print([(k, round(t - t0, 3)) for k, t in ev])
