// CTagLib: what Quaver reads of TagLib 1.13, as a C interface. TagLib's own C API (tag_c.h) has title, artist,
// album, genre, year and track only; album artist, disc, composer, MusicBrainz ids and ReplayGain are in its
// C++ PropertyMap, and whether a cover is embedded in each format's own tag, so this shim reads them in C++.
#ifndef QUAVER_CTAGLIB_H
#define QUAVER_CTAGLIB_H

#ifdef __cplusplus
extern "C" {
#endif

/// Called once per value of each tag key (a key may have several values), with UTF-8 text. Both strings are
/// valid only during the call.
typedef void (*quaver_tag_value_callback)(const char *key, const char *value, void *context);

/// What a file's audio properties and pictures say.
typedef struct {
    /// Length in milliseconds; 0 when TagLib could not tell.
    int length_ms;
    /// 1 when a picture is embedded (FLAC/Ogg pictures, ID3v2 APIC, MP4 covr, APE cover art).
    int has_cover;
} quaver_tag_info;

/// Reads the file at `path` (a byte path, not necessarily UTF-8): every tag value through `on_value`, the rest
/// into `info`. Returns 0 when TagLib does not know the format, cannot read the file or finds no audio in it,
/// 1 otherwise. Never
/// throws (C++ exceptions stop here).
int quaver_taglib_read(const char *path, quaver_tag_value_callback on_value, void *context, quaver_tag_info *info);

/// Called once with the embedded picture's bytes and its MIME type as the tag gives it (may be empty); valid
/// only during the call.
typedef void (*quaver_cover_callback)(const unsigned char *data, unsigned int size, const char *mime_type, void *context);

/// Reads the front cover embedded in the file at `path` (or its first picture): FLAC and Ogg pictures, ID3v2
/// APIC (MP3, WAV), MP4 `covr`, APE "Cover Art (Front)" (WavPack). Returns 1 when one was passed to `on_cover`.
int quaver_taglib_read_cover(const char *path, quaver_cover_callback on_cover, void *context);

#ifdef __cplusplus
}
#endif

#endif
