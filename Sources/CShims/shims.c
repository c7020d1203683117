#include "CShims.h"

#include <string.h>

static quaver_glib_message_sink routed_sink;

static GLogWriterOutput quaver_glib_writer(GLogLevelFlags level, const GLogField *fields, gsize field_count,
                                           gpointer user_data) {
    (void)user_data;
    const char *domain = NULL;
    const char *message = NULL;
    long domain_length = 0;
    long length = 0;
    for (gsize i = 0; i < field_count; i++) {
        if (fields[i].value == NULL) continue;
        if (g_strcmp0(fields[i].key, "GLIB_DOMAIN") == 0) {
            domain = fields[i].value;
            domain_length = fields[i].length < 0 ? (long)strlen(domain) : (long)fields[i].length;
        } else if (g_strcmp0(fields[i].key, "MESSAGE") == 0) {
            message = fields[i].value;
            length = fields[i].length < 0 ? (long)strlen(message) : (long)fields[i].length;
        }
    }
    if (message != NULL) routed_sink(level & G_LOG_LEVEL_MASK, domain, domain_length, message, length);
    return G_LOG_WRITER_HANDLED;
}

void quaver_route_glib_messages(quaver_glib_message_sink sink) {
    routed_sink = sink;
    g_log_set_writer_func(quaver_glib_writer, NULL, NULL);
}
