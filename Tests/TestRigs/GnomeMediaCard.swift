import Foundation

/// One player's card in GNOME Shell 43's media section (the date menu), read and driven through `GnomeShell`.
///
/// The card lives in private fields of that version's date menu: `_messageList._mediaSection`, whose
/// `_players` map bus names to player objects and whose `_messages` are the cards, each holding its
/// `_player` (with `_busName`), `_icon`, `titleLabel`, `bodyLabel` and the three buttons. These expressions
/// name those internals, so they are the one place to change for another GNOME version.
public struct GnomeMediaCard {
    /// What the card shows.
    public struct State: Decodable, Equatable, CustomStringConvertible {
        public let title: String
        /// The body line: the artists joined by ", " ("Unknown artist" when the player sent none).
        public let artist: String
        /// The URI of the file the card's icon was set from; nil when it shows the generic icon.
        public let cover: String?
        /// Whether the shell has loaded that image: the icon's texture holds an image, not nothing (a
        /// missing or unreadable file leaves it empty). Loaded only while the card is on screen.
        public let coverLoaded: Bool
        /// The play/pause button shows "pause": the shell believes the player plays.
        public let playing: Bool

        public var description: String {
            "\(title) / \(artist) / \(cover ?? "no cover") loaded \(coverLoaded) playing \(playing)"
        }
    }

    public let busName: String
    private let shell: GnomeShell

    public init(busName: String, in shell: GnomeShell) {
        self.busName = busName
        self.shell = shell
    }

    static let section = "Main.panel.statusArea.dateMenu._messageList._mediaSection"
    /// A JavaScript expression for the card (undefined while there is none).
    public var card: String { "\(Self.section)._messages.find(message => message._player._busName === '\(busName)')" }

    /// Opens the date menu, where the media cards are; the shell loads a cover only once it is on screen.
    public func openMenu() throws {
        try shell.eval("Main.panel.statusArea.dateMenu.menu.open()")
    }

    /// What the card shows now; nil when there is no card.
    public func read() throws -> State? {
        let json = try shell.eval("""
            (() => {
                const card = \(card);
                if (!card) return null;
                const gicon = card._icon.gicon;
                const texture = card._icon.get_children()[0];
                const content = texture ? texture.get_content() : null;
                return {
                    title: card.titleLabel.text, artist: card.bodyLabel.text,
                    cover: gicon && gicon.file ? gicon.file.get_uri() : null,
                    coverLoaded: !!gicon && !!gicon.file && content instanceof imports.gi.St.ImageContent,
                    playing: card._playPauseButton.child.icon_name === 'media-playback-pause-symbolic',
                };
            })()
            """)
        return try JSONDecoder().decode(State?.self, from: Data(json.utf8))
    }

    /// Whether the shell keeps a player object for the bus name (it drops it when the name goes away).
    public func isListed() throws -> Bool {
        try shell.eval("\(Self.section)._players.has('\(busName)')") == "true"
    }

    /// Whether the card's buttons are on screen in the open date menu, the whole card inside the screen (what the
    /// shell's ScreenshotArea asks of an area: a card still being laid out was refused with "Invalid params").
    public func isOnScreen() throws -> Bool {
        try shell.eval("""
            (() => {
                const card = \(card);
                if (!card || !Main.panel.statusArea.dateMenu.menu.isOpen || !card.mapped || !card._playPauseButton.mapped)
                    return false;
                const [x, y] = card.get_transformed_position();
                const [width, height] = card.get_transformed_size();
                return x >= 0 && y >= 0 && width > 0 && height > 0
                    && x + width <= global.screen_width && y + height <= global.screen_height;
            })()
            """) == "true"
    }

    public enum Button: String {
        case previous = "_prevButton", playPause = "_playPauseButton", next = "_nextButton"
    }

    /// Clicks one of the card's buttons with the shell's virtual pointer.
    public func click(_ button: Button) throws {
        try shell.click("\(card).\(button.rawValue)")
    }

    public func screenshot(to file: URL) throws {
        try shell.screenshot(of: card, to: file)
    }

    /// From now on, keeps every state the shell's player object takes (title, artists, cover URL), which
    /// is what the card shows after each PropertiesChanged; `recordedStates` returns them.
    public func recordStates() throws {
        try shell.eval("""
            (() => {
                global._quaverTestSeen = [];
                \(card)._player.connect('changed', player => global._quaverTestSeen.push(
                    [player.trackTitle, player.trackArtists.join(', '), player.trackCoverUrl]));
            })()
            """)
    }

    /// Title, artists and cover URL of each state recorded since `recordStates`.
    public func recordedStates() throws -> [[String]] {
        try JSONDecoder().decode([[String]].self, from: Data(try shell.eval("global._quaverTestSeen").utf8))
    }
}
