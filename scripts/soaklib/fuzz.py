"""fuzz: random and malformed calls on every member of every interface quaverd exports."""
import math, os, time

import dbus

from soaklib.bus import NO_TRACK, PATH, PLAYER, PROPS, QUAVER, ROOT, TRACKLIST, queue_ids


MEMBERS = [  # (interface, member, signature)
    (ROOT, "Raise", ""), (PLAYER, "Next", ""), (PLAYER, "Previous", ""), (PLAYER, "Pause", ""),
    (PLAYER, "PlayPause", ""), (PLAYER, "Stop", ""), (PLAYER, "Play", ""), (PLAYER, "Seek", "x"),
    (PLAYER, "SetPosition", "ox"), (PLAYER, "OpenUri", "s"), (TRACKLIST, "GetTracksMetadata", "ao"),
    (TRACKLIST, "AddTrack", "sob"), (TRACKLIST, "RemoveTrack", "o"), (TRACKLIST, "GoTo", "o"),
    (PROPS, "Get", "ss"), (PROPS, "GetAll", "s"), (PROPS, "Set", "ssv"),
    ("org.freedesktop.DBus.Introspectable", "Introspect", ""), ("org.freedesktop.DBus.Peer", "Ping", ""),
    ("org.freedesktop.DBus.Peer", "GetMachineId", ""), (QUAVER, "GetQueue", ""), (QUAVER, "GetQueueRange", "uu"),
    (QUAVER, "AddTracks", "assb"), (QUAVER, "ReplaceQueue", "asb"), (QUAVER, "RemoveTracks", "ao"),
    (QUAVER, "MoveTrack", "oo"), (QUAVER, "Clear", ""), (QUAVER, "GetTrackStatistics", ""),
]
# Members that change the queue when their arguments are right: the fuzzer gives them only wrong ones,
# so the queue it checks must stay exactly as it was.
QUEUE_EDITS = {"OpenUri", "AddTrack", "RemoveTrack", "AddTracks", "ReplaceQueue", "RemoveTracks", "MoveTrack", "Clear"}
PROPERTY_NAMES = ["PlaybackStatus", "LoopStatus", "Rate", "Shuffle", "Metadata", "Volume", "Position", "MinimumRate",
                  "MaximumRate", "CanGoNext", "CanPlay", "CanSeek", "CanControl", "Identity", "Tracks", "State",
                  "QueueLength", "Version", "Equalizer", "EqualizerPreset", "EqualizerPresets", "BufferedRanges", "Crossfade",
                  "WaitingReason", "LastErrorKind", "Nope", "", "x" * 300]
INTERFACES = [ROOT, PLAYER, TRACKLIST, QUAVER, PROPS, "org.example.Nope", "", "a.b"]


class Fuzzer:
    def __init__(self, s, odd_uris):
        self.s, self.rnd, self.odd_uris = s, s.rnd, odd_uris

    def value(self, code, depth=0):
        r = self.rnd
        if code == "s":  # huge strings only outside arrays: a message over the bus's limit disconnects us
            return dbus.String(r.choice(["", "x" * r.choice([1, 1000, 300_000 if depth == 0 else 10]), "\u202e\x1b[2J",
                                         "é" * 50, r.choice(self.odd_uris), "None", "Track", "Playlist", "file://",
                                         "next", "end"]))
        if code == "o":
            return dbus.ObjectPath(r.choice(["/", NO_TRACK, "/org/quaver/Track/0", "/org/quaver/Track/99999999999",
                                             "/a/b/c" * 50, PATH]))
        if code == "x":
            return dbus.Int64(r.choice([0, -1, 2**63 - 1, -2**63, 10**12, r.randint(-2**40, 2**40)]))
        if code == "u":
            return dbus.UInt32(r.choice([0, 1, 2**32 - 1, r.randint(0, 100)]))
        if code == "d":
            return dbus.Double(r.choice([math.nan, math.inf, -math.inf, 0.0, -0.0, 1e308, -1.0, 0.5, 2.0, 3.0]))
        if code == "b":
            return dbus.Boolean(r.random() < 0.5)
        if code == "i":
            return dbus.Int32(r.randint(-2**31, 2**31 - 1))
        if code == "y":
            return dbus.Byte(r.randint(0, 255))
        if code == "as":
            n = r.choice([0, 1, 3, 20_000]) if depth == 0 else 1
            return dbus.Array([self.value("s", depth + 1) for _ in range(n)], signature="s")
        if code == "ao":
            n = r.choice([0, 1, 5, 10_000]) if depth == 0 else 1
            return dbus.Array([self.value("o", depth + 1) for _ in range(n)], signature="o")
        if code == "v":
            inner = r.choice(["s", "d", "b", "x", "as", "i", "y", "a{sv}", "(si)", "v"]) if depth < 2 else "s"
            return self.variant(inner, depth + 1)
        raise ValueError(code)

    def variant(self, code, depth):
        if code == "a{sv}":
            return dbus.Dictionary({"k": dbus.String("v")}, signature="sv", variant_level=1)
        if code == "(si)":
            return dbus.Struct(("a", dbus.Int32(1)), signature="si", variant_level=1)
        if code == "v":
            return dbus.String("nested", variant_level=2)
        v = self.value(code, depth)
        return type(v)(v, variant_level=1) if not isinstance(v, dbus.Array) else dbus.Array(v, signature=v.signature,
                                                                                              variant_level=1)

    def split(self, signature):
        out, i = [], 0
        while i < len(signature):
            j = i + 2 if signature[i] == "a" else i + 1
            out.append(signature[i:j])
            i = j
        return out

    def wrong_signature(self, right):
        r = self.rnd
        codes = self.split(right)
        choice = r.randrange(4)
        if choice == 0 and codes:            # one argument missing
            codes.pop(r.randrange(len(codes)))
        elif choice == 1:                    # one argument too many
            codes.append(r.choice(["s", "x", "d", "as"]))
        else:                                # wrong types
            codes = [r.choice(["s", "o", "x", "u", "d", "b", "i", "y", "as", "ao", "v"]) for _ in codes or [0]]
        wrong = "".join(codes)
        return wrong if wrong != right else wrong + "s"

    def one(self):
        r = self.rnd
        interface, member, signature = r.choice(MEMBERS)
        path = PATH
        roll = r.random()
        if member == "Set" and roll < 0.5:   # Set with a right outer signature but any value type
            args = [r.choice(INTERFACES[:4]), r.choice(PROPERTY_NAMES), self.value("v")]
            return self.s.send(interface, member, "ssv", args)
        if member in ("Get", "GetAll") and roll < 0.5:
            args = [r.choice(INTERFACES)] + ([r.choice(PROPERTY_NAMES)] if member == "Get" else [])
            return self.s.send(interface, member, signature, args)
        if roll < 0.08:
            interface = r.choice(INTERFACES)
        elif roll < 0.12:
            member = r.choice(["Nope", "Quit2", "", "OpenUri" * 3])
        elif roll < 0.15:
            path = r.choice(["/", "/org/mpris", "/org/mpris/MediaPlayer2/x"])
        if member in QUEUE_EDITS or r.random() < 0.45:
            signature = self.wrong_signature(signature)
        args = [self.value(code) for code in self.split(signature)]
        try:
            return self.s.send(interface, member or "X", signature, args, path=path)
        except (TypeError, ValueError):
            return None  # a message dbus-python itself refuses to build (not a call we sent)


def run_fuzz(s, files, calls, deadline):
    s.send(QUAVER, "ReplaceQueue", "asb", [files, False])
    expected = queue_ids(s)
    tmp = os.path.dirname(files[0][len("file://"):])
    odd = ["fd://0", "appsrc://", "http://[::1]:9/x.mp3", "file://" + tmp + "/a%20folder", "file://" + tmp + "/notes.txt",
           "file://" + tmp + "/cut.wav", "file://" + tmp + "/noise.mp3", "file:///dev/zero", "file:///etc/passwd",
           "data:,x", "file:///nonexistent.flac", "http://", "https://user:pw@[::1]:9/a.ogg", "\x7f", "file://%00"]
    f = Fuzzer(s, odd)
    for n in range(calls):
        if time.monotonic() > deadline:
            break
        f.one()
        if n % 500 == 499:
            got = queue_ids(s)
            if got != expected:
                raise AssertionError("after %d fuzzed calls the queue changed: %s → %s" % (n + 1, expected, got))
