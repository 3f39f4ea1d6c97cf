/// What an input method (an on-screen keyboard, through `zwp_text_input_v3`) sent, applied at
/// its `done` event as one change: the pre-edit replaced, text around the caret deleted, a
/// commit string inserted, a new pre-edit shown (the protocol's order).
public struct TextInputUpdate: Sendable, Equatable {
    /// The text being composed, shown at the caret and not yet part of the text; "" for none.
    public var preedit: String
    /// The caret inside the pre-edit, in UTF-8 bytes from its start; nil hides it.
    public var preeditCursor: Int?
    /// Text to insert at the caret.
    public var commit: String
    /// UTF-8 bytes to delete before and after the caret (the pre-edit not counted).
    public var deleteBefore: Int
    public var deleteAfter: Int

    public init(preedit: String = "", preeditCursor: Int? = nil, commit: String = "", deleteBefore: Int = 0, deleteAfter: Int = 0) {
        self.preedit = preedit
        self.preeditCursor = preeditCursor
        self.commit = commit
        self.deleteBefore = deleteBefore
        self.deleteAfter = deleteAfter
    }
}

/// `zwp_text_input_v3` events, as the rest of the program sees them.
public enum TextInputEvent: Sendable, Equatable {
    /// The surface gained (true) or lost text-input focus: the field may enable it now.
    case focus(Bool)
    case done(TextInputUpdate)
}

/// What the app wants of an on-screen keyboard while one of its text fields has focus
/// (`zwp_text_input_v3.enable` while there is one, `disable` when it goes).
public struct TextInputRequest: Sendable, Equatable {
    public var text: String
    /// The caret, in UTF-8 bytes into `text`.
    public var cursor: Int
    /// The field, in window px (`set_cursor_rectangle`: the keyboard keeps clear of it).
    public var x, y, width, height: Double

    public init(text: String, cursor: Int, field: (x: Double, y: Double, width: Double, height: Double)) {
        self.text = text
        self.cursor = cursor
        (x, y, width, height) = field
    }
}
