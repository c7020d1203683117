#ifndef QUAVER_CTAGLIBLOADER_H
#define QUAVER_CTAGLIBLOADER_H

/* CTagLib (TagLib 1.13 behind a small C interface) is built as a shared object of ours, libquaver-taglib.so, and
   loaded on first use: TagLib is C++, and libtag with the shared libstdc++ it links cost 2 MB resident from
   start-up on when linked, though only the library's scan reads tags with it. The types come from CTagLib's
   header; every call goes through the functions below, never to CTagLib directly (the program does not link it). */
/* C interop: only the TagLib wrapper may import this module (docs/ARCHITECTURE.md, "Layers"). */
#include "../../CTagLib/include/CTagLib.h"

/* Loads libquaver-taglib.so once per process (pthread_once), from $ORIGIN/../lib/quaver (installed) or $ORIGIN
   (the build folder), $ORIGIN being the running program's folder. 1 on success; otherwise
   quaver_tags_load_error() says why. */
int quaver_tags_load(void);
const char *quaver_tags_load_error(void);

/* quaver_taglib_read and quaver_taglib_read_cover (CTagLib.h), once quaver_tags_load() returned 1. */
int quaver_tags_read(const char *path, quaver_tag_value_callback on_value, void *context, quaver_tag_info *info);
int quaver_tags_read_cover(const char *path, quaver_cover_callback on_cover, void *context);

#endif
