// libquaver-taglib.so holds no Swift code, but swiftc links every library it makes with swiftrt.o, whose
// constructor registers the library's Swift sections (none here) with the Swift runtime, and names libswiftCore.so
// as needed, which an installed Quaver does not have (the program carries its runtime inside). These two, which do
// nothing, stand in for the runtime's (hidden: seen only inside this library), so that `make build` can drop that
// entry (patchelf) and the library loads without any Swift runtime of its own.

extern "C" __attribute__((visibility("hidden"))) void swift_addNewDSOImage(const void *) {}

extern "C" __attribute__((visibility("hidden"))) bool _swift_backtrace_isThunkFunction(const char *) { return false; }
