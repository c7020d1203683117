"""storm: valid calls as fast as one client sends them, in every mix."""
import os
import time

import dbus

from soaklib.bus import NO_TRACK, PLAYER, PROPS, QUAVER, TRACKLIST, queue_ids


def storm_ops(s, files):
    rnd = s.rnd

    def current():
        meta = s.prop(PLAYER, "Metadata")
        return str(meta.get("mpris:trackid", NO_TRACK)) if isinstance(meta, dict) else NO_TRACK

    def some_id():
        ids = s.prop(TRACKLIST, "Tracks")
        return str(rnd.choice(ids)) if ids and not isinstance(ids, Exception) else NO_TRACK

    def let_an_overlap_start():
        """Plays from the start of the current track with crossfade on, sending only reads for 1.5 s: the overlap
        of the soak's 3 s tones is armed in their first half second and starts at 2 s, so the call after this
        one lands before or inside it."""
        s.send(PROPS, "Set", "ssv", [QUAVER, "Crossfade", dbus.Double(1)])
        s.send(PLAYER, "SetPosition", "ox", [current(), 0])
        s.send(PLAYER, "Play", "", [])
        until = time.monotonic() + rnd.uniform(1.0, 2.5)
        while time.monotonic() < until:
            s.send(PROPS, "Get", "ss", [PLAYER, rnd.choice(["Metadata", "Position", "PlaybackStatus"])])

    return {
        "open": [lambda: s.send(PLAYER, "OpenUri", "s", [rnd.choice(files)])],
        "transport": [lambda m=m: s.send(PLAYER, m, "", []) for m in
                      ("Play", "Pause", "PlayPause", "Stop", "Next", "Previous")],
        "seek": [lambda: s.send(PLAYER, "Seek", "x", [rnd.randint(-40_000_000, 40_000_000)]),
                 lambda: s.send(PLAYER, "SetPosition", "ox", [current(), rnd.randint(0, 5_000_000)])],
        "rate": [lambda: s.send(PROPS, "Set", "ssv", [PLAYER, "Rate", dbus.Double(rnd.choice([0.5, 1.0, 1.5, 2.0]))])],
        "volume": [lambda: s.send(PROPS, "Set", "ssv", [PLAYER, "Volume", dbus.Double(rnd.random())])],
        "loop": [lambda: s.send(PROPS, "Set", "ssv", [PLAYER, "LoopStatus", rnd.choice(["None", "Track", "Playlist"])]),
                 lambda: s.send(PROPS, "Set", "ssv", [PLAYER, "Shuffle", dbus.Boolean(rnd.random() < 0.5)])],
        "tracklist": [lambda: s.send(TRACKLIST, "AddTrack", "sob", [rnd.choice(files), some_id(), rnd.random() < 0.3]),
                      lambda: s.send(TRACKLIST, "RemoveTrack", "o", [some_id()]),
                      lambda: s.send(TRACKLIST, "GoTo", "o", [some_id()]),
                      lambda: s.send(TRACKLIST, "GetTracksMetadata", "ao", [[some_id()]])],
        "equalizer": [lambda: s.send(PROPS, "Set", "ssv", [QUAVER, "EqualizerPreset",
                                                          rnd.choice(["flat", "bass", "voice", "loudness", "off"])]),
                      lambda: s.send(PROPS, "Set", "ssv", [QUAVER, "Equalizer", dbus.Array(
                          [dbus.Double(rnd.uniform(-24, 12)) for _ in range(11)], signature="d")])],
        # Crossfade changes and seeks; "overlap" lets an overlap start, so that the storm's next call meets it.
        "crossfade": [lambda: s.send(PROPS, "Set", "ssv", [QUAVER, "Crossfade", dbus.Double(rnd.choice([0, 0.5, 1, 1.5, 12]))]),
                      lambda: s.send(PLAYER, "SetPosition", "ox", [current(), rnd.randint(0, 10_000_000)])],
        "overlap": [let_an_overlap_start],
        "queue": [lambda: s.send(QUAVER, "AddTracks", "assb", [rnd.sample(files, 2), rnd.choice(["end", "next", "start"]),
                                                               rnd.random() < 0.2]),
                  lambda: s.send(QUAVER, "MoveTrack", "oo", [some_id(), some_id()]),
                  lambda: s.send(QUAVER, "RemoveTracks", "ao", [[some_id()]]),
                  lambda: s.send(QUAVER, "GetQueueRange", "uu", [0, 5])],
    }


STORM_MIXES = [("open", "rate"), ("open", "seek"), ("transport", "rate"), ("open", "transport", "seek"),
               ("tracklist", "transport", "seek"), ("queue", "transport", "rate", "loop"),
               ("open", "transport", "equalizer"),
               ("open", "transport", "seek", "rate", "volume", "loop", "tracklist", "queue", "equalizer", "crossfade"),
               # Last: its overlaps take a second or two each, and the deadline may end it.
               ("open", "transport", "seek", "crossfade", "overlap")]

# The storm's daemon fades (briefly), so that every pause, stop, play and skip it sends ramps, and the next call
# comes in the middle of a fade. It crossfades from the start, 1 s (the soak's 3 s tones are armed for an overlap
# in their first half second), and the storm changes that.
STORM_SETTINGS = "[playback]\nfade-on-pause-ms = 150\nfade-on-skip-ms = 100\ncrossfade-seconds = 1\n"


def write_storm_settings(tmp):
    os.makedirs(os.path.join(tmp, "config", "quaver"), exist_ok=True)
    with open(os.path.join(tmp, "config", "quaver", "config.toml"), "w") as settings:
        settings.write(STORM_SETTINGS)


def run_storm(s, files, calls, deadline):
    ops = storm_ops(s, files)
    per_mix = max(1, calls // len(STORM_MIXES))
    for mix in STORM_MIXES:
        pool = [op for kind in mix for op in ops[kind]]
        for _ in range(per_mix):
            if time.monotonic() > deadline:
                return
            s.rnd.choice(pool)()
            if s.calls % 500 == 0:
                queue_ids(s)  # must answer
