"""failing: valid calls on media that passes the open check and fails when played, the queue modelled and checked."""
import os, random, shutil, socket, threading, time

import dbus

from soaklib.bus import NO_TRACK, PLAYER, PROPS, QUAVER, TRACKLIST, write_tone


class SilentServer:
    """An HTTP server on 127.0.0.1 that fails in two ways: /silent accepts and never answers; any other path
    answers 200 audio/mpeg with 64 KB of noise and hangs up."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.held, self.closing = [], threading.Event()
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        noise = random.Random(11).randbytes(65536)
        while not self.closing.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            try:
                connection.settimeout(2)
                request = connection.recv(4096)
                if b" /silent" in request.split(b"\r\n")[0]:
                    self.held.append(connection)  # open until close(): the daemon waits for an answer
                    continue
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: audio/mpeg\r\nContent-Length: 1000000\r\n\r\n" + noise)
            except OSError:
                pass
            connection.close()

    def close(self):
        self.closing.set()
        self.listener.close()
        for connection in self.held:
            connection.close()


def make_failing_media(folder, audio, port):
    """Media that passes the open check and fails once played: the start of a real file cut short, a real
    header over noise, unreachable and misbehaving servers. `text.flac` and `empty.ogg` pass only in batches
    too long for their contents to be looked at. Returns (failing URIs, URIs refused when checked)."""
    failing = ["file://%s/cut.wav" % folder, "http://127.0.0.1:9/refused.flac",
               "http://127.0.0.1:%d/silent/stalled.ogg" % port, "http://127.0.0.1:%d/noise.mp3" % port]
    noise = random.Random(13).randbytes(60000)
    for uri in audio:
        with open(uri[len("file://"):], "rb") as f:
            head = f.read(4096)
        name = os.path.basename(uri[len("file://"):])
        for prefix, body in (("cut ", head), ("garbled ", head[:600] + noise)):
            with open(os.path.join(folder, prefix + name), "wb") as f:
                f.write(body)
            failing.append("file://" + os.path.join(folder, prefix + name))
    with open(os.path.join(folder, "text.flac"), "w") as f:
        f.write("a text file renamed .flac\n")
    open(os.path.join(folder, "empty.ogg"), "wb").close()
    return failing, ["file://%s/text.flac" % folder, "file://%s/empty.ogg" % folder]


class QueueModel:
    """What the queue must hold after the calls sent since it was last read: `known` in this order, `placed`
    somewhere (added after a current track that events may have changed), and at most `unnamed` tracks we
    have no id for (OpenUri and AddTrack answer none). `opened` tracks may leave at any time: an opened file
    that fails before it plays is taken out again."""

    def __init__(self):
        self.reset([])

    def reset(self, ids):
        self.known, self.placed, self.unnamed, self.opened = ids, set(), 0, set()

    def add(self, ids, where):
        if where == "start":
            self.known[:0] = ids
        elif where == "end":
            self.known += ids
        else:
            self.placed.update(ids)

    def remove(self, ids):
        self.known = [i for i in self.known if i not in ids]
        self.placed -= set(ids)

    def move(self, id, after):
        if id == after:  # after itself: stays where it is
            return
        if id in self.known and (after == NO_TRACK or after in self.known):
            self.known.remove(id)
            self.known.insert(0 if after == NO_TRACK else self.known.index(after) + 1, id)
        elif id in self.known or id in self.placed:  # after a track not named yet: somewhere
            self.remove([id])
            self.placed.add(id)

    def check(self, got, current):
        """Raises when `got` (ids in queue order) and `current` break what the calls said; then adopts `got`."""
        if len(set(got)) != len(got):
            raise AssertionError("a track is queued twice: %s" % got)
        staying = [i for i in self.known if i not in self.opened]
        if [i for i in got if i in staying] != staying:
            raise AssertionError("queue %s, expected %s in this order" % (got, staying))
        if not self.placed - self.opened <= set(got):
            raise AssertionError("added tracks missing: %s not in %s" % (sorted(self.placed - set(got)), got))
        if len(set(got) - set(self.known) - self.placed) > self.unnamed:
            raise AssertionError("queue %s holds tracks nobody added (expected %s, %s and %d more at most)"
                                 % (got, self.known, sorted(self.placed), self.unnamed))
        if (current == NO_TRACK) != (not got) or (got and current not in got):
            raise AssertionError("current track %s with the queue %s" % (current, got))
        opened = self.opened & set(got)
        self.reset(list(got))
        self.opened = opened


def failing_ops(s, good, failing, unchecked, folder):
    """Valid calls, half of them naming media that fails, as `(weight, call)`; each keeps `model` up to date."""
    rnd, model = s.rnd, QueueModel()
    vanishing = []  # copies of a good file, queued, later deleted or overwritten with text

    def queue():
        reply = s.send(QUAVER, "GetQueue", "", [])
        if isinstance(reply, Exception):
            raise AssertionError("GetQueue failed: %s" % reply)
        return [str(t[0]) for t in reply[0]], str(reply[1])

    def check():
        model.check(*queue())

    def any_track():
        ids, current = queue()
        if not ids:
            return NO_TRACK
        if rnd.random() < 0.6 and current in ids:  # the current track or the next: where failures hurt
            return ids[min(ids.index(current) + rnd.randint(0, 1), len(ids) - 1)]
        return rnd.choice(ids)

    def media(n):
        pool = good + failing + vanishing
        return [rnd.choice(failing if rnd.random() < 0.5 else pool) for _ in range(n)]

    def vanish_later():
        name = "%s/vanishing %d.wav" % (folder, len(vanishing))
        shutil.copyfile(folder + "/blip.wav", name)
        vanishing.append("file://" + name)
        return vanishing[-1]

    def spoil():
        """Deletes a queued copy, or overwrites it with text, or cuts it short, maybe while it plays."""
        if vanishing:
            path = rnd.choice(vanishing)[len("file://"):]
            how = rnd.randrange(3)
            if not os.path.exists(path):
                return
            if how == 0:
                os.unlink(path)
            elif how == 1:
                with open(path, "w") as f:
                    f.write("no longer audio\n")
            else:
                os.truncate(path, rnd.choice([0, 44, 3000]))

    def ok(reply):
        return not isinstance(reply, Exception)

    def add():
        where = rnd.choice(["end", "next", "start"])
        uris = media(rnd.randint(1, 4)) + ([vanish_later()] if rnd.random() < 0.3 else [])
        reply = s.send(QUAVER, "AddTracks", "assb", [uris, where, rnd.random() < 0.3])
        if ok(reply):
            model.add([str(i) for i in reply], where)

    def add_unchecked():
        """More than 64 files are queued without their contents looked at: a text file gets in."""
        uris = [rnd.choice(good + failing + unchecked) for _ in range(rnd.randint(65, 80))]
        reply = s.send(QUAVER, "AddTracks", "assb", [uris, "end", rnd.random() < 0.5])
        if ok(reply):
            model.add([str(i) for i in reply], "end")

    def replace():
        reply = s.send(QUAVER, "ReplaceQueue", "asb", [media(rnd.randint(1, 5)), rnd.random() < 0.6])
        if ok(reply):
            model.reset([str(i) for i in reply])

    def remove():
        id = any_track()
        if ok(s.send(QUAVER, "RemoveTracks", "ao", [[dbus.ObjectPath(id)]])):
            model.remove([id])

    def move():
        id, after = any_track(), rnd.choice([NO_TRACK, any_track()])
        if ok(s.send(QUAVER, "MoveTrack", "oo", [id, after])):
            model.move(id, after)

    def clear():
        if ok(s.send(QUAVER, "Clear", "", [])):
            model.reset([])

    def open_uri():
        if ok(s.send(PLAYER, "OpenUri", "s", [media(1)[0]])):
            model.unnamed += 1
            model.opened.add(queue()[1])  # current now, unless it failed already (then the track before)

    def add_track():
        if ok(s.send(TRACKLIST, "AddTrack", "sob", [media(1)[0], any_track(), rnd.random() < 0.5])):
            model.unnamed += 1

    def near_the_end():
        """A position just before the end, so that the track after it starts (gaplessly) now."""
        meta = s.prop(PLAYER, "Metadata")
        if isinstance(meta, dict) and "mpris:length" in meta:
            s.send(PLAYER, "SetPosition", "ox", [meta["mpris:trackid"], max(0, int(meta["mpris:length"]) - 60_000)])

    def wait():
        """Events need time: a failure, an end, a gapless switch land between our calls."""
        time.sleep(rnd.choice([0.01, 0.05, 0.2, 0.5]))

    def setting(name, value):
        return lambda: s.send(PROPS, "Set", "ssv", [PLAYER, name, value()])

    ops = [(6, add), (1, add_unchecked), (3, replace), (4, remove), (3, move), (1, clear), (4, open_uri), (2, add_track),
           (5, lambda: s.send(TRACKLIST, "GoTo", "o", [any_track()])), (4, near_the_end), (6, wait), (2, spoil),
           (5, lambda: s.send(PLAYER, rnd.choice(["Play", "Play", "Pause", "PlayPause", "Stop", "Next", "Previous"]), "", [])),
           (3, setting("Shuffle", lambda: dbus.Boolean(rnd.random() < 0.5))),
           (3, setting("LoopStatus", lambda: rnd.choice(["None", "Track", "Playlist"]))),
           (1, setting("Rate", lambda: dbus.Double(rnd.choice([0.5, 1.0, 2.0]))))]
    return ops, check, model


def run_failing(s, files, calls, deadline):
    folder = os.path.dirname(files[0][len("file://"):])
    write_tone(folder + "/blip.wav", 0.4, 2, 44100)  # ends every 0.4 s: many switches into what follows
    good = ["file://%s/blip.wav" % folder] + files
    server = SilentServer()
    try:
        # files: our two tones, then the --fixtures audio, whose beginnings make the best broken files.
        failing, unchecked = make_failing_media(folder, files[2:] or files[:1], server.port)
        ops, check, model = failing_ops(s, good, failing, unchecked, folder)
        weights = [w for w, _ in ops]
        s.send(QUAVER, "ReplaceQueue", "asb", [[], False])
        for n in range(calls):
            if time.monotonic() > deadline:
                break
            s.rnd.choices(ops, weights)[0][1]()
            if n % 25 == 24:
                check()
                if len(model.known) > 40 and not isinstance(s.send(QUAVER, "Clear", "", []), Exception):
                    model.reset([])
        check()
        # Plain modes again: what the checks afterwards expect of Next and SetPosition.
        for name, value in (("Shuffle", dbus.Boolean(False)), ("LoopStatus", "None"), ("Rate", dbus.Double(1.0))):
            s.send(PROPS, "Set", "ssv", [PLAYER, name, value])
    finally:
        server.close()
