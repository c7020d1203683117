"""kill and stall (benchmarks): restarts after kill -9, and one client's wait while another queues many files."""
import os, random, threading, time

import dbus

from soaklib.bus import CALL_TIMEOUT, Daemon, NAME, PATH, PLAYER, PROPS, QUAVER, Session, queue_ids, wait_for, write_tone


def run_kill(binary, tmp, files, rounds):
    """kill -9 while playing, `rounds` times; returns the restart times and the worst position loss."""
    write_tone(tmp + "/long.wav", 600, 2, 44100)  # kills come every ~1.5 s: one track lasts them all
    files = ["file://%s/long.wav" % tmp] + files
    daemon = Daemon(binary, tmp)
    s = Session(daemon, random.Random(0))
    s.send(QUAVER, "ReplaceQueue", "asb", [files, True])
    spawn_to_name, spawn_to_queue, worst_loss = [], [], 0.0
    try:
        for round in range(rounds):
            start = s.prop(PLAYER, "Position")
            wait_for(lambda: s.prop(PLAYER, "PlaybackStatus") == "Playing" and s.prop(PLAYER, "Position") > start + 1_200_000,
                     "playing, round %d" % (round + 1))
            current, position = s.prop(PLAYER, "Metadata")["mpris:trackid"], s.prop(PLAYER, "Position")
            daemon.process.kill()
            daemon.process.wait()
            spawned = time.monotonic()
            daemon.start_again()
            spawn_to_name.append(daemon.name_owned_at - spawned)
            wait_for(lambda: len(queue_ids(s)) == len(files), "the queue restored, round %d" % (round + 1))
            spawn_to_queue.append(time.monotonic() - spawned)
            if s.prop(PLAYER, "Metadata").get("mpris:trackid") != current:
                raise AssertionError("round %d: the current track was not restored" % (round + 1))
            worst_loss = max(worst_loss, (position - s.prop(PLAYER, "Position")) / 1e6)
            s.send(PLAYER, "Play", "", [])
    finally:
        daemon.close()
    return spawn_to_name, spawn_to_queue, worst_loss


def run_stall(binary, tmp, source, count):
    """One AddTracks of `count` links to `source` while another client polls; the longest wait, in s."""
    os.makedirs(tmp + "/many")
    uris = []
    for i in range(count):
        os.symlink(source, "%s/many/%06d.wav" % (tmp, i))
        uris.append("file://%s/many/%06d.wav" % (tmp, i))
    daemon = Daemon(binary, tmp)
    poller = dbus.bus.BusConnection(daemon.address)
    worst, done = [0.0], threading.Event()

    def poll():
        while not done.is_set():
            started = time.monotonic()
            poller.call_blocking(NAME, PATH, PROPS, "Get", "ss", [PLAYER, "PlaybackStatus"], timeout=CALL_TIMEOUT)
            worst[0] = max(worst[0], time.monotonic() - started)
            time.sleep(0.005)
    try:
        # The first answers of a fresh daemon wait for its start-up: warm the poller up first.
        poller.call_blocking(NAME, PATH, PROPS, "Get", "ss", [PLAYER, "PlaybackStatus"], timeout=CALL_TIMEOUT)
        time.sleep(1)
        thread = threading.Thread(target=poll)
        started = time.monotonic()
        thread.start()
        daemon.call(QUAVER, "AddTracks", "assb", [uris, "end", False], timeout=300)
        added = time.monotonic() - started
        time.sleep(1)
        done.set()
        thread.join()
    finally:
        daemon.close()
    return added, worst[0]
