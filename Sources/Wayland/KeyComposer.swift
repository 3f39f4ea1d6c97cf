import CXKBCommon
import Glibc

/// Turns key presses into text the way xkbcommon says: the keymap's symbol, then the compose
/// table of the user's locale (`LC_ALL`, `LC_CTYPE`, `LANG`; dead keys and the Compose key),
/// through `xkb_compose`. The live keyboard and the headless replay use the same one, so a
/// recorded `dead_acute`, `e` types "é" in both.
public final class KeyComposer {
    private let context: OpaquePointer?
    private let table: OpaquePointer?
    private let state: OpaquePointer?

    public init() {
        context = xkb_context_new(XKB_CONTEXT_NO_FLAGS)
        var locale = "C"
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let v = getenv(name), v.pointee != 0 {
                locale = String(cString: v)
                break
            }
        }
        var t = context.flatMap { xkb_compose_table_new_from_locale($0, locale, XKB_COMPOSE_COMPILE_NO_FLAGS) }
        // An unknown locale still gets the default table rather than no dead keys at all.
        if t == nil, let context { t = xkb_compose_table_new_from_locale(context, "C", XKB_COMPOSE_COMPILE_NO_FLAGS) }
        table = t
        state = t.flatMap { xkb_compose_state_new($0, XKB_COMPOSE_STATE_NO_FLAGS) }
    }

    deinit {
        if let state { xkb_compose_state_unref(state) }
        if let table { xkb_compose_table_unref(table) }
        if let context { xkb_context_unref(context) }
    }

    /// A key was pressed: its text, "" while a sequence is under way (or was cancelled), or
    /// `plain()` (the keymap's own text for the key) when no sequence is involved.
    func press(_ sym: xkb_keysym_t, plain: () -> String) -> String {
        guard let state else { return plain() }
        guard xkb_compose_state_feed(state, sym) == XKB_COMPOSE_FEED_ACCEPTED else { return plain() }
        switch xkb_compose_state_get_status(state) {
        case XKB_COMPOSE_COMPOSING:
            return ""
        case XKB_COMPOSE_COMPOSED:
            var buffer = [CChar](repeating: 0, count: 64)
            let n = xkb_compose_state_get_utf8(state, &buffer, buffer.count)
            xkb_compose_state_reset(state)
            return n > 0 ? KeyComposer.string(buffer) : ""
        case XKB_COMPOSE_CANCELLED:
            xkb_compose_state_reset(state)
            return ""
        default:
            return plain()
        }
    }

    /// The text of a key press given by keysym name (a replayed trace), composed; nil for an
    /// unknown name.
    public func press(keysymNamed name: String) -> String? {
        let sym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)
        guard sym != 0 else { return nil }
        return press(sym) { KeyComposer.text(of: sym) }
    }

    /// What the keysym alone types (no compose); "" for none.
    public static func text(ofKeysymNamed name: String) -> String {
        text(of: xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS))
    }

    static func text(of sym: xkb_keysym_t) -> String {
        var buffer = [CChar](repeating: 0, count: 16)
        let n = xkb_keysym_to_utf8(sym, &buffer, buffer.count)
        return n > 0 ? string(buffer) : ""
    }

    static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
