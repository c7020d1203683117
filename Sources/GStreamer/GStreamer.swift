// Filled by the GStreamer wrapper work.
import CGStreamer
import CGLib
import CShims
import EventLoop
