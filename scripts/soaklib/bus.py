"""The private bus, the daemon under test and a client session on it: what every mode shares."""
import math, os, random, signal, subprocess, threading, time, wave
from collections import deque

import dbus


NAME = "org.mpris.MediaPlayer2.quaver"
PATH = "/org/mpris/MediaPlayer2"
ROOT, PLAYER, TRACKLIST = "org.mpris.MediaPlayer2", "org.mpris.MediaPlayer2.Player", "org.mpris.MediaPlayer2.TrackList"
QUAVER, PROPS = "org.quaver.Quaver1", "org.freedesktop.DBus.Properties"
NO_TRACK = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
DEAD = ("org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.ServiceUnknown",
        "org.freedesktop.DBus.Error.Disconnected", "org.freedesktop.DBus.Error.NameHasNoOwner")
CALL_TIMEOUT = 10.0


class Died(Exception):
    pass


def make_fixtures(folder):
    """A short WAV of our own beside the given audio files, plus files that must be refused or fail."""
    os.makedirs(folder, exist_ok=True)
    write_tone(os.path.join(folder, "tone.wav"), 3, 2, 44100)
    write_tone(os.path.join(folder, "mono48k.wav"), 3, 1, 48000)  # caps change between the two
    with open(os.path.join(folder, "notes.txt"), "w") as f:
        f.write("not audio\n")
    with open(os.path.join(folder, "noise.mp3"), "wb") as f:
        f.write(random.Random(7).randbytes(40000))
    with open(os.path.join(folder, "tone.wav"), "rb") as src, open(os.path.join(folder, "cut.wav"), "wb") as dst:
        dst.write(src.read(3000))
    os.makedirs(os.path.join(folder, "a folder"), exist_ok=True)


def write_tone(path, seconds, channels, rate):
    period = b"".join(int(8000 * math.sin(2 * math.pi * i / 100)).to_bytes(2, "little", signed=True) * channels
                      for i in range(100))  # 441 Hz at 44.1 kHz
    with wave.open(path, "wb") as w:
        w.setnchannels(channels); w.setsampwidth(2); w.setframerate(rate)
        w.writeframes(period * int(rate * seconds // 100))


class Daemon:
    def __init__(self, binary, tmp):
        self.tmp = tmp
        out = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1",
                              "--address=unix:path=%s/bus" % tmp], capture_output=True, text=True, timeout=10)
        self.address, pid = out.stdout.split()[:2]
        self.bus_pid = int(pid)
        env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=self.address, HOME=tmp, XDG_STATE_HOME=tmp + "/state",
                   XDG_CACHE_HOME=tmp + "/cache", XDG_CONFIG_HOME=tmp + "/config")
        env.pop("DBUS_SYSTEM_BUS_ADDRESS", None)
        self.log_path = tmp + "/quaverd.log"
        self.binary, self.env = binary, env
        self.bus = dbus.bus.BusConnection(self.address)
        self.start_again()

    def start_again(self):
        """Starts quaverd (again, on the same bus and folders) and waits until it owns its name."""
        self.process = subprocess.Popen([self.binary, "--output", "fakesink sync=true", "--bus-address", self.address],
                                        env=self.env, stdout=open(self.log_path, "a"), stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL)
        for _ in range(4000):
            if self.bus.name_has_owner(NAME):
                break
            if self.process.poll() is not None:
                raise RuntimeError("quaverd exited at start (see %s)" % self.log_path)
            time.sleep(0.002)
        else:
            raise RuntimeError("quaverd did not take its name")
        self.name_owned_at = time.monotonic()
        self.owner = self.bus.get_name_owner(NAME)

    def call(self, interface, member, signature, args, path=PATH, timeout=CALL_TIMEOUT):
        return self.bus.call_blocking(NAME, path, interface, member, signature, args, timeout=timeout)

    def alive(self):
        return self.process.poll() is None and self.bus.name_has_owner(NAME) and \
            self.bus.get_name_owner(NAME) == self.owner

    def status(self, name):
        with open("/proc/%d/status" % self.process.pid) as f:
            for line in f:
                if line.startswith(name + ":"):
                    return int(line.split()[1])
        return 0

    def fds(self):
        return len(os.listdir("/proc/%d/fd" % self.process.pid))

    def stop(self):
        """SIGTERM; returns the exit status (or a text when it does not exit in 10 s)."""
        code = None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                code = self.process.wait(10)
            except subprocess.TimeoutExpired:
                code = "no exit 10 s after SIGTERM"
        else:
            code = self.process.returncode
        return code

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        try:
            os.kill(self.bus_pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


class Session:
    """Sends calls, keeps the last 20 and the reply times; turns a dead daemon into Died."""

    def __init__(self, daemon, rnd, stacks=False):
        self.daemon, self.rnd, self.stacks = daemon, rnd, stacks
        self.stack_files = []
        self.recent = deque(maxlen=20)
        self.times = []
        self.calls = 0
        self.errors = 0
        self.answer_limit = CALL_TIMEOUT  # a slower answer is a hang (the mode sets it)
        # Memory and descriptors are compared from a point after the first tenth of the calls: by then
        # GStreamer has loaded the plugins and decoders the run uses, which is not growth.
        self.warmup = None
        self.baseline = None

    def send(self, interface, member, signature, args, path=PATH):
        text = "%s.%s(%s) %s" % (interface, member, signature, short(args))
        if path != PATH:
            text += " on " + path
        self.recent.append(text)
        started = time.monotonic()
        timers = [threading.Timer(after, self.write_stacks, [text]) for after in ((3, 8) if self.stacks else ())]
        for timer in timers:
            timer.start()
        try:
            reply = self.daemon.call(interface, member, signature, args, path=path)
        except dbus.exceptions.DBusException as e:
            self.times.append(time.monotonic() - started)
            if e.get_dbus_name() == "org.freedesktop.DBus.Error.NoReply" and self.daemon.alive():
                raise AssertionError("hang: no answer within %d s to %s" % (CALL_TIMEOUT, text))
            if e.get_dbus_name() in DEAD or not self.daemon.alive():
                raise Died(text)
            self.errors += 1
            reply = e
        else:
            self.times.append(time.monotonic() - started)
        finally:
            for timer in timers:
                timer.cancel()
        if self.times[-1] > self.answer_limit:
            raise AssertionError("hang: %.1f s for the answer to %s" % (self.times[-1], text))
        self.calls += 1
        if self.baseline is None and self.warmup is not None and self.calls >= self.warmup:
            self.baseline = (self.daemon.status("VmRSS"), self.daemon.fds())
        return reply

    def prop(self, interface, name):
        return self.send(PROPS, "Get", "ss", [interface, name])

    def write_stacks(self, waiting_for):
        """Timer thread, while a call waits: every thread's stack of quaverd as it is now (gdb)."""
        name = os.path.join(self.daemon.tmp, "stacks-%d.txt" % (len(self.stack_files) + 1))
        with open(name, "w") as out:
            out.write("waiting for %s\n" % waiting_for)
            out.flush()
            subprocess.run(["gdb", "-p", str(self.daemon.process.pid), "-batch", "-ex", "thread apply all bt"],
                           stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=60)
        self.stack_files.append(name)


def short(args):
    text = repr(args)
    return text if len(text) < 160 else text[:150] + "…(%d chars)" % len(text)


def queue_ids(s):
    tracks = s.send(QUAVER, "GetQueue", "", [])
    if isinstance(tracks, Exception):
        raise AssertionError("GetQueue failed: %s" % tracks)
    return [str(t[0]) for t in tracks[0]]



def wait_for(check, what, seconds=10):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError("%s did not happen within %d s" % (what, seconds))


# --- after every mode --------------------------------------------------------------------------------

def still_controllable(s, files):
    """Queue two good tracks, play, skip and seek: each must take effect."""
    s.send(QUAVER, "ReplaceQueue", "asb", [files[:2], True])
    wait_for(lambda: s.prop(PLAYER, "PlaybackStatus") == "Playing", "Play after the run")
    first = s.prop(PLAYER, "Metadata")["mpris:trackid"]
    s.send(PLAYER, "Next", "", [])
    wait_for(lambda: s.prop(PLAYER, "Metadata").get("mpris:trackid") != first, "Next after the run")
    wait_for(lambda: s.prop(PLAYER, "CanSeek"), "a seekable track after the run")
    s.send(PLAYER, "SetPosition", "ox", [s.prop(PLAYER, "Metadata")["mpris:trackid"], 1_000_000])
    wait_for(lambda: s.prop(PLAYER, "Position") >= 1_000_000, "SetPosition after the run")
