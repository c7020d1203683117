import Foundation

/// Files whose tags are built to hurt a player: a 1 MB title, 10 000 artists, invalid UTF-8 with NULs,
/// a cover that is not an image (FLAC, Vorbis comments and a PICTURE block written byte by byte), and a
/// 50 MB cover (MP3 with an ID3v2.3 APIC frame: a FLAC block cannot exceed 16 MiB). The audio is a short
/// tone made by sox, flac and lame, so every file plays.
public struct HostileMedia {
    public let directory: URL
    /// Tagged like any file (title, artist, a small PNG cover): the yardstick.
    public var normal: URL { directory.appendingPathComponent("normal.flac") }
    public var hugeTitle: URL { directory.appendingPathComponent("huge title.flac") }
    public var manyArtists: URL { directory.appendingPathComponent("many artists.flac") }
    public var invalidText: URL { directory.appendingPathComponent("invalid text.flac") }
    public var notAnImage: URL { directory.appendingPathComponent("not an image.flac") }
    public var hugeCover: URL { directory.appendingPathComponent("huge cover.mp3") }
    public var all: [URL] { [normal, hugeTitle, manyArtists, invalidText, notAnImage, hugeCover] }

    public static let hugeTitleBytes = 1 << 20
    public static let artistCount = 10_000
    public static let hugeCoverBytes = 50 << 20
    /// Text that says "this is not an image" to anyone reading the art folder.
    public static let notAnImageBytes = Array("<html>this is not an image</html>\n".utf8)

    public init(in directory: URL, seconds: Int = 3) throws {
        self.directory = directory
        let tone = directory.appendingPathComponent("tone.wav")
        try Fixtures.run("sox", ["-q", "-n", "-r", "22050", "-c", "1", "-b", "16", tone.path, "synth", "\(seconds)",
                                 "sine", "440", "vol", "0.3"])
        let bare = directory.appendingPathComponent("bare.flac")
        try Fixtures.run("flac", ["-s", "-f", "-o", bare.path, tone.path])
        let audio = try FLACFile(Data(contentsOf: bare))
        let png = [UInt8](Fixtures.coverPNG)
        try audio.with(comments: ["TITLE=Normal", "ARTIST=Someone"].map { Array($0.utf8) },
                       picture: ("image/png", png)).write(to: normal)
        try audio.with(comments: [Array("TITLE=".utf8) + [UInt8](repeating: UInt8(ascii: "T"), count: Self.hugeTitleBytes)])
            .write(to: hugeTitle)
        try audio.with(comments: [Array("TITLE=Many".utf8)] + (0..<Self.artistCount).map { Array("ARTIST=Artist \($0)".utf8) })
            .write(to: manyArtists)
        let invalid: [UInt8] = Array("TITLE=bad ".utf8) + [0xFF, 0xFE, 0xC3, 0x28, 0x00, 0x41, 0xED, 0xA0, 0x80, 0x42]
        try audio.with(comments: [invalid, Array("ARTIST=nul".utf8) + [0, 0, 0x43]]).write(to: invalidText)
        try audio.with(comments: [Array("TITLE=Fake cover".utf8)], picture: ("image/png", Self.notAnImageBytes))
            .write(to: notAnImage)
        let mp3 = directory.appendingPathComponent("bare.mp3")
        try Fixtures.run("lame", ["--silent", "-b", "64", tone.path, mp3.path])
        let cover = png + [UInt8](repeating: 0, count: Self.hugeCoverBytes - png.count)
        try (ID3v2.tag(title: "Huge cover", picture: ("image/png", cover)) + Data(contentsOf: mp3)).write(to: hugeCover)
    }
}

/// A FLAC file as its STREAMINFO block and its audio frames, to write again with other metadata.
private struct FLACFile {
    let streamInfo: Data
    let frames: Data

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.starts(with: Array("fLaC".utf8)) else { throw TestHarnessError("not a FLAC file") }
        var offset = 4
        var info: Data?
        while true {
            let header = bytes[offset]
            let length = Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if header & 0x7F == 0 { info = Data(bytes[(offset + 4)..<(offset + 4 + length)]) }
            offset += 4 + length
            if header & 0x80 != 0 { break }
        }
        guard let info else { throw TestHarnessError("FLAC without STREAMINFO") }
        streamInfo = info
        frames = Data(bytes[offset...])
    }

    /// STREAMINFO, a VORBIS_COMMENT block with `comments` as raw bytes, an optional PICTURE, then the audio.
    func with(comments: [[UInt8]], picture: (mime: String, data: [UInt8])? = nil) -> Data {
        var vorbis = Self.le32(6) + Array("quaver".utf8) + Self.le32(comments.count)
        for comment in comments { vorbis += Self.le32(comment.count) + comment }
        var blocks: [(type: UInt8, body: [UInt8])] = [(0, [UInt8](streamInfo)), (4, vorbis)]
        if let picture {
            var body = Self.be32(3) + Self.be32(picture.mime.utf8.count) + Array(picture.mime.utf8) + Self.be32(0)
            body += Self.be32(4) + Self.be32(4) + Self.be32(24) + Self.be32(0) + Self.be32(picture.data.count) + picture.data
            blocks.append((6, body))
        }
        var out = Data("fLaC".utf8)
        for (index, block) in blocks.enumerated() {
            let last: UInt8 = index == blocks.count - 1 ? 0x80 : 0
            out += [last | block.type, UInt8(block.body.count >> 16 & 0xFF), UInt8(block.body.count >> 8 & 0xFF),
                    UInt8(block.body.count & 0xFF)]
            out += block.body
        }
        return out + frames
    }

    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
    static func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(value >> (8 * $0) & 0xFF) } }
}

/// An ID3v2.3 tag with a title (TIT2) and a front cover (APIC).
private enum ID3v2 {
    static func tag(title: String, picture: (mime: String, data: [UInt8])) -> Data {
        let titleFrame = frame("TIT2", [0] + Array(title.utf8))
        let apic = frame("APIC", [0] + Array(picture.mime.utf8) + [0, 3, 0] + picture.data)
        let body = titleFrame + apic
        return Data(Array("ID3".utf8) + [3, 0, 0] + syncsafe(body.count) + body)
    }

    private static func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + (0..<4).reversed().map { UInt8(body.count >> (8 * $0) & 0xFF) } + [0, 0] + body
    }

    private static func syncsafe(_ value: Int) -> [UInt8] {
        (0..<4).reversed().map { UInt8(value >> (7 * $0) & 0x7F) }
    }
}
