/// A short, stable digest of a text: 64-bit FNV-1a of its UTF-8, as 16 hexadecimal digits. For names derived from
/// a text (a saved playlist's id from its name) and checks that a text came back as written (a history journal's
/// lines); not for anything an adversary chooses to collide.
public enum TextDigest {
    public static func fnv1a(_ text: some StringProtocol) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
