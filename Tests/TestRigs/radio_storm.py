#!/usr/bin/python3
"""A storm of OpenUri / Stop / Next / Play on an endless radio stream, counting the quaverds that die.

usage: radio_storm.py QUAVERD_BINARY MP3_FILE RUNS CALLS_PER_RUN [LOG_FOLDER]

Serves MP3_FILE (tags stripped, looped forever, ICY metadata when asked) on 127.0.0.1, then for each run
starts its own dbus-daemon and quaverd (fakesink output, its own HOME and XDG folders) and sends
CALLS_PER_RUN calls, one at a time, each chosen at random among OpenUri (the stream, under a fresh path),
Stop, Next and Play. After an OpenUri it waits until the server has the source's request, then up to 20 ms
(PACED=0 in the environment: it does not), so that how many sources are stopped mid-request does not depend
on the machine's load. A run ends early when quaverd leaves the bus. Prints one line per run and a total
("calls N deaths D"); exits 1 if any quaverd died. The logs of a run that died stay in LOG_FOLDER (default
$TMPDIR; with KEEP=1 in the environment every run's do). quaverd gets the environment too (GST_DEBUG, say).
Everything it starts is stopped by PID. Uses the server of test_servers.py beside it (mode radio).
"""
import os, random, shutil, signal, socket, subprocess, sys, tempfile, threading, time

import dbus

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_servers import Radio, Server, mp3_frames  # noqa: E402

PLAYER = "org.mpris.MediaPlayer2.Player"
NAME = "org.mpris.MediaPlayer2.quaver"


def start_bus(tmp):
    p = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1",
                        "--address=unix:path=%s/bus" % tmp], capture_output=True, text=True, timeout=30)
    addr, pid = p.stdout.split()[:2]
    return addr, int(pid)


def start_quaverd(binary, tmp, addr):
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=addr, HOME=tmp, LC_ALL="C.UTF-8",
               XDG_STATE_HOME=tmp + "/state", XDG_CACHE_HOME=tmp + "/cache", XDG_CONFIG_HOME=tmp + "/config",
               XDG_DATA_HOME=tmp + "/data", XDG_RUNTIME_DIR=tmp)
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        env.pop(var, None)
    log = open(tmp + "/quaverd.log", "w")
    q = subprocess.Popen([binary, "--output", "fakesink sync=true"], env=env, stdout=log, stderr=log,
                         stdin=subprocess.DEVNULL)
    bus = dbus.bus.BusConnection(addr)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and q.poll() is None:
        if bus.name_has_owner(NAME):
            return q, bus
        time.sleep(0.05)
    raise RuntimeError("quaverd did not take its bus name (see %s/quaverd.log)" % tmp)


class HeardRadio(Radio):
    """The radio, noting each path asked for (`heard`), so that the storm can wait for a source's request."""
    heard = set()
    arrived = threading.Condition()

    def handle(self):
        line = self.request.recv(4096, socket.MSG_PEEK).split(b"\r\n", 1)[0].split()
        with self.arrived:
            self.heard.add(line[1].decode("latin-1") if len(line) > 1 else "")
            self.arrived.notify_all()
        super().handle()

    @classmethod
    def wait_for(cls, path, seconds):
        with cls.arrived:
            cls.arrived.wait_for(lambda: path in cls.heard, seconds)


def open_and_wait(player, stream, rnd):
    """OpenUri of the stream under a fresh path; unless told not to (PACED=0), waits until its source has sent
    its request (5 s at most) and a few ms more, so that the next call stops it mid-request or mid-read
    whatever the machine's load."""
    path = "/radio/%d" % rnd.randrange(1 << 40)
    player.OpenUri(stream + path, timeout=60)
    if os.environ.get("PACED", "1") != "0":
        HeardRadio.wait_for(path, 5)
        time.sleep(rnd.random() * 0.02)


def storm(bus, q, stream, calls, rnd):
    """Sends up to `calls` calls; returns how many were answered before quaverd left, and whether it did."""
    player = dbus.Interface(bus.get_object(NAME, "/org/mpris/MediaPlayer2"), PLAYER)
    ops = [lambda: open_and_wait(player, stream, rnd),
           lambda: player.Stop(timeout=60), lambda: player.Next(timeout=60), lambda: player.Play(timeout=60)]
    for n in range(calls):
        try:
            rnd.choice(ops)()
        except dbus.exceptions.DBusException as e:
            if q.poll() is not None or e.get_dbus_name() in (
                    "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.ServiceUnknown",
                    "org.freedesktop.DBus.Error.Disconnected"):
                return n, True
    return calls, False


def run(binary, stream, calls, seed, logs):
    tmp = os.path.abspath(tempfile.mkdtemp(prefix="quaver-radio-storm-", dir=logs))
    bus_pid = q = None
    try:
        addr, bus_pid = start_bus(tmp)
        q, bus = start_quaverd(binary, tmp, addr)
        n, died = storm(bus, q, stream, calls, random.Random(seed))
        if not died:
            q.send_signal(signal.SIGTERM)
            try:
                code = q.wait(30)
            except subprocess.TimeoutExpired:
                code = "none 30 s after SIGTERM"
            print("run %d: %d calls, alive; exit %s" % (seed, n, code), flush=True)
            if not os.environ.get("KEEP"):
                shutil.rmtree(tmp, ignore_errors=True)
            return n, False
        q.wait(30)
        print("run %d: DIED after %d calls (exit %s); log %s/quaverd.log" % (seed, n, q.returncode, tmp), flush=True)
        return n, True
    finally:
        if q is not None and q.poll() is None:
            q.kill()
            q.wait()
        if bus_pid:
            try:
                os.kill(bus_pid, signal.SIGTERM)
            except ProcessLookupError:
                pass


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(3))  # run the finally blocks: stop what we started
    binary, mp3, runs, calls = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    logs = sys.argv[5] if len(sys.argv) > 5 else None
    Radio.frames = mp3_frames(mp3)
    server = Server(("127.0.0.1", 0), HeardRadio)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    stream = "http://127.0.0.1:%d" % server.server_address[1]
    total, deaths = 0, 0
    seed0 = random.randrange(1 << 20)
    for i in range(runs):
        n, died = run(binary, stream, calls, seed0 + i, logs)
        total, deaths = total + n, deaths + died
    print("calls %d deaths %d" % (total, deaths), flush=True)
    server.shutdown()
    return 1 if deaths else 0


if __name__ == "__main__":
    sys.exit(main())
