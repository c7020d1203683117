import Foundation

/// The 16-bit PCM samples of a WAV file (interleaved), found by walking the RIFF chunks to "data".
/// Tests compare what the engine wrote with what went in.
public func wavSamples(_ url: URL) throws -> [Int16] {
    let bytes = [UInt8](try Data(contentsOf: url))
    func word(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
    guard bytes.count >= 12, String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF" else {
        throw TestHarnessError("\(url.path) is not a RIFF file")
    }
    var offset = 12
    while offset + 8 <= bytes.count {
        let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
        let size = word(offset + 4)
        if id == "data" {
            let end = min(bytes.count, offset + 8 + size)
            return stride(from: offset + 8, to: end - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
        }
        offset += 8 + size + (size & 1)
    }
    throw TestHarnessError("\(url.path) has no data chunk")
}
