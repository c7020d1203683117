"""Tags music files for the library tests with mutagen (python3-mutagen): `tag_files.py LIST.json`, where the
list holds {"path": ..., "tags": {"TITLE": [...], ...}} with TagLib's unified keys; each format gets them in
its own tag (Vorbis comments, ID3v2, MP4 atoms, APEv2)."""
import json
import sys

import mutagen
from mutagen.apev2 import APEv2
from mutagen.id3 import ID3, TALB, TCOM, TCON, TDRC, TIT2, TPE1, TPE2, TPOS, TRCK, TXXX, UFID, APIC
from mutagen.mp4 import MP4, MP4FreeForm
from mutagen.wave import WAVE

ID3_FRAMES = {"TITLE": TIT2, "ARTIST": TPE1, "ALBUM": TALB, "ALBUMARTIST": TPE2, "TRACKNUMBER": TRCK,
              "DISCNUMBER": TPOS, "DATE": TDRC, "GENRE": TCON, "COMPOSER": TCOM}
MP4_ATOMS = {"TITLE": "\xa9nam", "ARTIST": "\xa9ART", "ALBUM": "\xa9alb", "ALBUMARTIST": "aART",
             "DATE": "\xa9day", "GENRE": "\xa9gen", "COMPOSER": "\xa9wrt"}
APE_KEYS = {"TITLE": "Title", "ARTIST": "Artist", "ALBUM": "Album", "ALBUMARTIST": "Album Artist",
            "TRACKNUMBER": "Track", "DISCNUMBER": "Disc", "DATE": "Year", "GENRE": "Genre", "COMPOSER": "Composer"}


def id3(tags, frames):
    for key, values in tags.items():
        if key in ID3_FRAMES:
            frames.add(ID3_FRAMES[key](encoding=3, text=values))
        elif key == "MUSICBRAINZ_TRACKID":
            frames.add(UFID(owner="http://musicbrainz.org", data=values[0].encode()))
        else:
            frames.add(TXXX(encoding=3, desc=key, text=values))


def tag(path, tags):
    kind = path.rsplit(".", 1)[-1].lower()
    if kind in ("flac", "ogg", "opus"):
        f = mutagen.File(path)
        for key, values in tags.items():
            f[key] = values
        f.save()
    elif kind == "mp3":
        frames = ID3()
        id3(tags, frames)
        frames.save(path)
    elif kind == "wav":
        f = WAVE(path)
        f.add_tags()
        id3(tags, f.tags)
        f.save()
    elif kind in ("m4a", "mp4"):
        f = MP4(path)
        for key, values in tags.items():
            if key in MP4_ATOMS:
                f[MP4_ATOMS[key]] = values
            elif key == "TRACKNUMBER":
                f["trkn"] = [(int(values[0]), 0)]
            elif key == "DISCNUMBER":
                f["disk"] = [(int(values[0]), 0)]
            else:
                name = {"MUSICBRAINZ_TRACKID": "MusicBrainz Track Id"}.get(key, key)
                f["----:com.apple.iTunes:" + name] = [MP4FreeForm(v.encode()) for v in values]
        f.save()
    elif kind == "wv":
        f = APEv2()
        for key, values in tags.items():
            f[APE_KEYS.get(key, key)] = values
        f.save(path)
    else:
        raise SystemExit("no tagging for " + path)


for item in json.load(open(sys.argv[1])):
    tag(item["path"], item["tags"])
