// The C++ half of CTagLib (see include/CTagLib.h): TagLib's FileRef and PropertyMap, and each format's own
// picture list for the cover flag.
#include "CTagLib.h"

#include <taglib/apefile.h>
#include <taglib/apetag.h>
#include <taglib/fileref.h>
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
    TagLib::FileRef ref(path, true, TagLib::AudioProperties::Fast);
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

}  // namespace

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
