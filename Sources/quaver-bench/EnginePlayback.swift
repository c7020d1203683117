import ArgumentParser
struct EnginePlayback: ParsableCommand { func run() throws { print("not written yet") } }
