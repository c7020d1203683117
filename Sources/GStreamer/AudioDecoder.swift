import CGStreamerLibraries

extension Element {
    /// Whether the element is built on GstAudioDecoder (`gst_audio_decoder_get_type`), as the decoders playbin
    /// plugs for music are (flacdec, vorbisdec, mpg123audiodec, opusdec, avdec_*). Only once GStreamer's
    /// libraries are loaded: on an element of a running pipeline.
    public var isAudioDecoder: Bool { isInstance(of: quaver_gst_audio_decoder_get_type()) }
}
