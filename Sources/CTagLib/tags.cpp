// The C++ half of CTagLib (see include/CTagLib.h): TagLib's FileRef and PropertyMap, and each format's own
// picture list for the cover flag.
#include "CTagLib.h"

#include <taglib/apefile.h>
#include <taglib/apetag.h>
#include <taglib/attachedpictureframe.h>
#include <taglib/fileref.h>
#include <taglib/tfilestream.h>
#include <taglib/flacfile.h>
#include <taglib/id3v2tag.h>
#include <taglib/mp4file.h>
#include <taglib/mpegfile.h>
#include <taglib/opusfile.h>
#include <taglib/tpropertymap.h>
#include <taglib/vorbisfile.h>
#include <taglib/wavfile.h>
#include <taglib/wavpackfile.h>

namespace {

// Files are opened read-only: TagLib's FileRef(path) opens read-write whenever it may, and closing a file opened
// for writing is an IN_CLOSE_WRITE to the folder watch (FolderWatch), so every file the scan read came back to
// it as a change: after a first index of 100 000 files the scanner stat'ed all 100 000 again, holding malloc's
// locks at SCHED_IDLE while the loop's calls waited for them (docs/library.md, "PlayQuery of everything").

bool hasAPIC(TagLib::ID3v2::Tag *tag) {
    return tag && !tag->frameListMap()["APIC"].isEmpty();
}

bool hasAPECover(TagLib::APE::Tag *tag) {
    return tag && tag->itemListMap().contains("COVER ART (FRONT)");
}

bool hasCover(TagLib::File *file) {
    if (auto flac = dynamic_cast<TagLib::FLAC::File *>(file))
        return !flac->pictureList().isEmpty() || hasAPIC(flac->ID3v2Tag());
    if (auto vorbis = dynamic_cast<TagLib::Ogg::Vorbis::File *>(file))
        return vorbis->tag() && !vorbis->tag()->pictureList().isEmpty();
    if (auto opus = dynamic_cast<TagLib::Ogg::Opus::File *>(file))
        return opus->tag() && !opus->tag()->pictureList().isEmpty();
    if (auto mpeg = dynamic_cast<TagLib::MPEG::File *>(file))
        return hasAPIC(mpeg->ID3v2Tag());
    if (auto mp4 = dynamic_cast<TagLib::MP4::File *>(file))
        return mp4->tag() && mp4->tag()->contains("covr");
    if (auto wav = dynamic_cast<TagLib::RIFF::WAV::File *>(file))
        return hasAPIC(wav->ID3v2Tag());
    if (auto wavpack = dynamic_cast<TagLib::WavPack::File *>(file))
        return hasAPECover(wavpack->APETag());
    return false;
}

int read(const char *path, quaver_tag_value_callback on_value, void *context, quaver_tag_info *info) {
    // Audio properties read "fast": from headers, without scanning the stream.
    TagLib::FileStream stream(path, true);
    TagLib::FileRef ref(&stream, true, TagLib::AudioProperties::Fast);
    if (ref.isNull() || !ref.file()->isValid()) return 0;
    // TagLib takes almost anything named .mp3 for MPEG; a file without a single audio frame has no rate.
    auto audio = ref.audioProperties();
    if (!audio || audio->sampleRate() <= 0) return 0;
    const TagLib::PropertyMap properties = ref.file()->properties();
    for (const auto &entry : properties) {
        const std::string key = entry.first.to8Bit(true);
        for (const auto &value : entry.second) on_value(key.c_str(), value.toCString(true), context);
    }
    info->length_ms = audio->lengthInMilliseconds();
    info->has_cover = hasCover(ref.file()) ? 1 : 0;
    return 1;
}

// The cover: a front cover when the file marks one, else the first picture.
bool giveFlacPicture(const TagLib::List<TagLib::FLAC::Picture *> &pictures, quaver_cover_callback on_cover, void *context) {
    TagLib::FLAC::Picture *chosen = nullptr;
    for (auto picture : pictures) {
        if (!chosen || picture->type() == TagLib::FLAC::Picture::FrontCover) chosen = picture;
        if (picture->type() == TagLib::FLAC::Picture::FrontCover) break;
    }
    if (!chosen) return false;
    const TagLib::ByteVector data = chosen->data();
    on_cover(reinterpret_cast<const unsigned char *>(data.data()), data.size(), chosen->mimeType().toCString(true), context);
    return true;
}

bool giveAPIC(TagLib::ID3v2::Tag *tag, quaver_cover_callback on_cover, void *context) {
    if (!tag) return false;
    TagLib::ID3v2::AttachedPictureFrame *chosen = nullptr;
    for (auto frame : tag->frameListMap()["APIC"]) {
        auto picture = dynamic_cast<TagLib::ID3v2::AttachedPictureFrame *>(frame);
        if (picture && (!chosen || picture->type() == TagLib::ID3v2::AttachedPictureFrame::FrontCover)) chosen = picture;
    }
    if (!chosen) return false;
    const TagLib::ByteVector data = chosen->picture();
    on_cover(reinterpret_cast<const unsigned char *>(data.data()), data.size(), chosen->mimeType().toCString(true), context);
    return true;
}

bool giveMP4Cover(TagLib::MP4::Tag *tag, quaver_cover_callback on_cover, void *context) {
    if (!tag || !tag->contains("covr")) return false;
    const TagLib::MP4::CoverArtList covers = tag->item("covr").toCoverArtList();
    if (covers.isEmpty()) return false;
    const TagLib::ByteVector data = covers.front().data();
    const char *mime = covers.front().format() == TagLib::MP4::CoverArt::PNG ? "image/png" : "image/jpeg";
    on_cover(reinterpret_cast<const unsigned char *>(data.data()), data.size(), mime, context);
    return true;
}

// APE's binary item is a file name, a NUL, then the image.
bool giveAPECover(TagLib::APE::Tag *tag, quaver_cover_callback on_cover, void *context) {
    if (!hasAPECover(tag)) return false;
    const TagLib::ByteVector item = tag->itemListMap()["COVER ART (FRONT)"].binaryData();
    const int nul = item.find('\0');
    if (nul < 0) return false;
    const TagLib::ByteVector data = item.mid(nul + 1);
    on_cover(reinterpret_cast<const unsigned char *>(data.data()), data.size(), "", context);
    return true;
}

bool readCover(const char *path, quaver_cover_callback on_cover, void *context) {
    TagLib::FileStream stream(path, true);
    TagLib::FileRef ref(&stream, false);
    if (ref.isNull() || !ref.file()->isValid()) return false;
    TagLib::File *file = ref.file();
    if (auto flac = dynamic_cast<TagLib::FLAC::File *>(file))
        return giveFlacPicture(flac->pictureList(), on_cover, context) || giveAPIC(flac->ID3v2Tag(), on_cover, context);
    if (auto vorbis = dynamic_cast<TagLib::Ogg::Vorbis::File *>(file))
        return vorbis->tag() && giveFlacPicture(vorbis->tag()->pictureList(), on_cover, context);
    if (auto opus = dynamic_cast<TagLib::Ogg::Opus::File *>(file))
        return opus->tag() && giveFlacPicture(opus->tag()->pictureList(), on_cover, context);
    if (auto mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) return giveAPIC(mpeg->ID3v2Tag(), on_cover, context);
    if (auto mp4 = dynamic_cast<TagLib::MP4::File *>(file)) return giveMP4Cover(mp4->tag(), on_cover, context);
    if (auto wav = dynamic_cast<TagLib::RIFF::WAV::File *>(file)) return giveAPIC(wav->ID3v2Tag(), on_cover, context);
    if (auto wavpack = dynamic_cast<TagLib::WavPack::File *>(file)) return giveAPECover(wavpack->APETag(), on_cover, context);
    return false;
}

}  // namespace

extern "C" int quaver_taglib_read_cover(const char *path, quaver_cover_callback on_cover, void *context) {
    try {
        return readCover(path, on_cover, context) ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

extern "C" int quaver_taglib_read(const char *path, quaver_tag_value_callback on_value, void *context,
                                  quaver_tag_info *info) {
    info->length_ms = 0;
    info->has_cover = 0;
    try {
        return read(path, on_value, context, info);
    } catch (...) {
        return 0;
    }
}
