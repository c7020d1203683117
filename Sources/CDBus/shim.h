/* CDBus: the C headers of libdbus (pkg-config dbus-1) for Swift. A C interop module: it imports nothing of
   ours, and only the DBus wrapper (and CShims) may import it (docs/ARCHITECTURE.md, "Layers"). */
#include <dbus/dbus.h>
