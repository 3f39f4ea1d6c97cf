import Input

/// A one-line text field's editing state: the text, the caret, and an input method's pre-edit.
/// It knows nothing of the page or of drawing, so any row, dialog or test can hold one.
///
/// Hardware keys come as keysym names with the text xkbcommon made of them (compose and dead
/// keys already applied); an on-screen keyboard's changes come as `TextInputUpdate`s
/// (`zwp_text_input_v3`, byte offsets in UTF-8). The caret counts characters (grapheme
/// clusters), so Backspace removes what the user sees as one letter.
public struct TextFieldState: Sendable, Equatable {
    public private(set) var text: String
    /// The caret, in characters from the start of `text`.
    public private(set) var cursor: Int
    /// The input method's composing text at the caret, shown underlined; "" for none.
    public private(set) var preedit = ""
    /// The text when editing began: what Escape goes back to.
    public let original: String

    /// Names longer than this are cut (a pasted paragraph is no place name).
    public static let maximumLength = 200

    public init(text: String) {
        self.text = text
        original = text
        cursor = text.count
    }

    public enum Outcome: Sendable, Equatable {
        /// The text or the caret changed.
        case edited
        /// Enter: keep the text.
        case committed
        /// Escape: forget the edit.
        case cancelled
        /// Not a key for the field (Tab, Ctrl+Z, arrows up and down): the page handles it.
        case ignored
    }

    /// A hardware key. Releases and keys with Ctrl, Alt or Logo are not the field's.
    public mutating func handle(_ key: KeyEvent) -> Outcome {
        guard key.state != .released else {
            return ["Return", "KP_Enter", "Escape"].contains(key.keysym) || key.text?.isEmpty == false ? .edited : .ignored
        }
        if !key.modifiers.intersection([.control, .alt, .logo]).isEmpty { return .ignored }
        switch key.keysym {
        case "Return", "KP_Enter": return .committed
        case "Escape": return .cancelled
        case "Left", "KP_Left": cursor = max(0, cursor - 1)
        case "Right", "KP_Right": cursor = min(text.count, cursor + 1)
        case "Home", "KP_Home": cursor = 0
        case "End", "KP_End": cursor = text.count
        case "BackSpace":
            guard cursor > 0 else { return .edited }
            let i = text.index(text.startIndex, offsetBy: cursor - 1)
            text.remove(at: i)
            cursor -= 1
        case "Delete", "KP_Delete":
            guard cursor < text.count else { return .edited }
            text.remove(at: text.index(text.startIndex, offsetBy: cursor))
        default:
            // Printable text only: control characters (Tab, Escape's ESC) are not typed.
            guard let t = key.text, !t.isEmpty, t.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) else {
                return .ignored
            }
            insert(t)
        }
        return .edited
    }

    /// Inserts at the caret and moves the caret after it (after a combining mark that joined
    /// the character before it, too: the caret is found again by bytes).
    public mutating func insert(_ s: String) {
        let room = TextFieldState.maximumLength - text.count
        guard room > 0 else { return }
        var bytes = Array(text.utf8)
        let caret = byteOffset(ofCharacter: cursor)
        let piece = Array(String(s.prefix(room)).utf8)
        bytes.insert(contentsOf: piece, at: caret)
        setText(bytes, caretByte: caret + piece.count)
    }

    /// An input method's change (`zwp_text_input_v3.done`), in the protocol's order.
    public mutating func apply(_ u: TextInputUpdate) {
        preedit = ""
        var bytes = Array(text.utf8)
        var caret = byteOffset(ofCharacter: cursor)
        let start = max(0, caret - max(0, u.deleteBefore)), end = min(bytes.count, caret + max(0, u.deleteAfter))
        bytes.removeSubrange(start..<end)
        caret = start
        let commit = Array(u.commit.utf8)
        bytes.insert(contentsOf: commit, at: caret)
        caret += commit.count
        setText(bytes, caretByte: caret)
        preedit = u.preedit
    }

    /// `bytes` as the text (invalid UTF-8 repaired), the caret at the character boundary at or
    /// after `caretByte`.
    private mutating func setText(_ bytes: [UInt8], caretByte: Int) {
        let before = String(decoding: bytes.prefix(caretByte), as: UTF8.self)
        var new = String(decoding: bytes, as: UTF8.self)
        if new.count > TextFieldState.maximumLength { new = String(new.prefix(TextFieldState.maximumLength)) }
        text = new
        var n = 0, used = 0
        for c in new {
            if used >= before.utf8.count { break }
            used += c.utf8.count
            n += 1
        }
        cursor = n
    }

    /// The UTF-8 offset of character `n` of the text.
    public func byteOffset(ofCharacter n: Int) -> Int {
        text.prefix(max(0, n)).utf8.count
    }

    /// What `zwp_text_input_v3.set_surrounding_text` sends: the text and the caret in bytes.
    public var surrounding: (text: String, cursor: Int) { (text, byteOffset(ofCharacter: cursor)) }

    /// The text as drawn: the pre-edit shown at the caret.
    public var displayed: (text: String, preeditRange: Range<Int>?, caret: Int) {
        guard !preedit.isEmpty else { return (text, nil, cursor) }
        var shown = text
        shown.insert(contentsOf: preedit, at: text.index(text.startIndex, offsetBy: cursor))
        return (shown, cursor..<(cursor + preedit.count), cursor + preedit.count)
    }
}
