import ControlAPI
import DBus
import Foundation
import FoundationXML
import TestSupport
import XCTest

/// The Introspect XML, member by member, against the MPRIS 2.2 interfaces as the spec's XML declares them
/// (names, argument names, types and directions, property types and access).
final class IntrospectionTests: XCTestCase {
    static let root: Set<String> = [
        "method Raise()", "method Quit()",
        "property CanQuit b read", "property CanRaise b read", "property HasTrackList b read",
        "property Identity s read", "property DesktopEntry s read",
        "property SupportedUriSchemes as read", "property SupportedMimeTypes as read",
    ]
    static let player: Set<String> = [
        "method Next()", "method Previous()", "method Pause()", "method PlayPause()", "method Stop()", "method Play()",
        "method Seek(in Offset x)", "method SetPosition(in TrackId o, in Position x)", "method OpenUri(in Uri s)",
        "signal Seeked(Position x)",
        "property PlaybackStatus s read", "property LoopStatus s readwrite", "property Rate d readwrite",
        "property Shuffle b readwrite", "property Metadata a{sv} read", "property Volume d readwrite",
        "property Position x read", "property MinimumRate d read", "property MaximumRate d read",
        "property CanGoNext b read", "property CanGoPrevious b read", "property CanPlay b read",
        "property CanPause b read", "property CanSeek b read", "property CanControl b read",
    ]
    static let trackList: Set<String> = [
        "method GetTracksMetadata(in TrackIds ao, out Metadata aa{sv})",
        "method AddTrack(in Uri s, in AfterTrack o, in SetAsCurrent b)",
        "method RemoveTrack(in TrackId o)", "method GoTo(in TrackId o)",
        "signal TrackListReplaced(Tracks ao, CurrentTrack o)", "signal TrackAdded(Metadata a{sv}, AfterTrack o)",
        "signal TrackRemoved(TrackId o)", "signal TrackMetadataChanged(TrackId o, Metadata a{sv})",
        "property Tracks ao read", "property CanEditTracks b read",
    ]

    static let playlists: Set<String> = [
        "method ActivatePlaylist(in PlaylistId o)",
        "method GetPlaylists(in Index u, in MaxCount u, in Order s, in ReverseOrder b, out Playlists a(oss))",
        "signal PlaylistChanged(Playlist (oss))",
        "property PlaylistCount u read", "property Orderings as read", "property ActivePlaylist (b(oss)) read",
    ]

    func testInterfacesMatchTheSpecificationMemberByMember() throws {
        let daemon = try RunningDaemon()
        let xml = try daemon.call("Introspect", on: "org.freedesktop.DBus.Introspectable")[0].stringValue ?? ""
        let interfaces = try Self.members(of: xml)
        for (name, expected) in [(ControlAPI.rootInterface, Self.root), (ControlAPI.playerInterface, Self.player),
                                 (ControlAPI.trackListInterface, Self.trackList),
                                 (ControlAPI.playlistsInterface, Self.playlists)] {
            let actual = interfaces[name] ?? []
            XCTAssertEqual(actual.subtracting(expected).sorted(), [], "\(name): not in the spec")
            XCTAssertEqual(expected.subtracting(actual).sorted(), [], "\(name): missing")
        }
        XCTAssertNotNil(interfaces["org.freedesktop.DBus.Properties"])
    }

    /// One line per member, in the notation of the tables above.
    static func members(of xml: String) throws -> [String: Set<String>] {
        let document = try XMLDocument(xmlString: xml, options: [])
        var result: [String: Set<String>] = [:]
        for interface in try document.nodes(forXPath: "/node/interface").compactMap({ $0 as? XMLElement }) {
            var members: Set<String> = []
            for element in interface.children?.compactMap({ $0 as? XMLElement }) ?? [] {
                let name = element.attribute(forName: "name")?.stringValue ?? "?"
                let kind = element.name ?? "?"
                if kind == "property" {
                    let type = element.attribute(forName: "type")?.stringValue ?? "?"
                    members.insert("property \(name) \(type) \(element.attribute(forName: "access")?.stringValue ?? "?")")
                    continue
                }
                let arguments = (element.elements(forName: "arg")).map { arg -> String in
                    let direction = arg.attribute(forName: "direction")?.stringValue
                    let words = [kind == "method" ? (direction ?? "in") : direction,
                                 arg.attribute(forName: "name")?.stringValue, arg.attribute(forName: "type")?.stringValue]
                    return words.compactMap { $0 }.joined(separator: " ")
                }
                members.insert("\(kind) \(name)(\(arguments.joined(separator: ", ")))")
            }
            result[interface.attribute(forName: "name")?.stringValue ?? "?"] = members
        }
        return result
    }
}
