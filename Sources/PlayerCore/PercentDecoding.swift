/// `%XX` escapes of URIs, decoded byte by byte: for a queued file's fallback title (the core) and the path of
/// a `file:` URI (ControlAPI). Foundation's `removingPercentEncoding` would do, but its NSString path brought
/// CoreFoundation's string code into memory at the first track played.
public enum PercentDecoding {
    /// The bytes `text` stands for; nil when a `%` is not followed by two hex digits.
    public static func bytes(_ text: Substring.UTF8View) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var input = text.makeIterator()
        while let byte = input.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = input.next().flatMap(hexDigitValue), let low = input.next().flatMap(hexDigitValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexDigitValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
