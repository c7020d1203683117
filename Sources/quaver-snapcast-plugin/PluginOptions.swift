/// The command line snapserver gives its control script: `--stream=<id> --snapcast-port=<port>
/// --snapcast-host=<host>`, then the stream's `controlscriptparams`. Only `--bus-address=<address>` is ours
/// (quaverd's bus when it is not the session bus); the rest is accepted and not needed.
struct PluginOptions {
    var busAddress: String?

    init(arguments: [String]) {
        for argument in arguments where argument.hasPrefix("--bus-address=") {
            busAddress = String(argument.dropFirst("--bus-address=".count))
        }
    }
}
