import FoundationEssentials
import Glibc

extension Error {
    /// What went wrong with a file, in the system's words (`Permission denied`). FoundationEssentials' file
    /// errors carry the errno but no text of their own (full Foundation's localizedDescription needs ICU).
    public var fileErrorText: String {
        let posix = (self as? POSIXError) ?? ((self as? CocoaError)?.userInfo["NSUnderlyingError"] as? POSIXError)
        guard let code = posix?.code.rawValue else { return "\(self)" }
        return String(cString: strerror(code))
    }
}
