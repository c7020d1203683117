import ArgumentParser
struct DBusRoundTrip: ParsableCommand { func run() throws { print("not written yet") } }
