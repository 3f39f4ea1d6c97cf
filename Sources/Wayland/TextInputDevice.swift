import CProtocols
import CWaylandClient
import Input

/// `zwp_text_input_v3` for one seat: an on-screen keyboard (the compositor's input method)
/// types into the focused text field. Enabled while the app has a field with focus and the
/// compositor gave our surface text-input focus; the field's text, caret and place go with
/// every change. The input method's pre-edit, commit and delete requests arrive as one
/// `.textInput(.done)` frame per `done`, applied in the protocol's order by the field.
final class TextInputDevice {
    let proxy: OpaquePointer
    unowned let seat: Seat
    /// The compositor sent `enter` for our surface and no `leave` since.
    private var focused = false
    /// What the compositor was last told (nil: disabled).
    private var sent: TextInputRequest?
    private var pending = TextInputUpdate()

    init?(manager: OpaquePointer, seat: Seat) {
        guard let p = zwp_text_input_manager_v3_get_text_input(manager, seat.proxy) else { return nil }
        proxy = p
        self.seat = seat
        zwp_text_input_v3_add_listener(p, TextInputDevice.listener.pointer, opaque(self))
    }

    func destroy() { zwp_text_input_v3_destroy(proxy) }

    /// Tells the compositor about the app's field now: enable (with its text, caret and
    /// rectangle), a change, or disable. Nothing is sent when nothing changed.
    func update(_ request: TextInputRequest?) {
        guard focused, request != sent else { return }
        if let r = request {
            if sent == nil {
                zwp_text_input_v3_enable(proxy)
                zwp_text_input_v3_set_content_type(proxy, ZWP_TEXT_INPUT_V3_CONTENT_HINT_NONE.rawValue,
                                                   ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_NORMAL.rawValue)
            }
            // The protocol's limit is 4000 bytes; a name field's text is far shorter.
            zwp_text_input_v3_set_surrounding_text(proxy, r.text, Int32(clamping: r.cursor), Int32(clamping: r.cursor))
            zwp_text_input_v3_set_cursor_rectangle(proxy, Int32(r.x.rounded()), Int32(r.y.rounded()),
                                                   Int32(r.width.rounded()), Int32(r.height.rounded()))
        } else {
            zwp_text_input_v3_disable(proxy)
        }
        zwp_text_input_v3_commit(proxy)
        sent = request
    }

    private func focus(_ entered: Bool) {
        focused = entered
        // After enter the state starts afresh (the next update enables); after leave it is gone.
        sent = nil
        pending = TextInputUpdate()
        seat.deliver(.textInput(time: monotonicMilliseconds(), .focus(entered)))
    }

    private func done() {
        let update = pending
        pending = TextInputUpdate()
        seat.deliver(.textInput(time: monotonicMilliseconds(), .done(update)))
    }

    static let listener = ListenerTable(zwp_text_input_v3_listener(
        enter: { data, _, _ in owner(data, as: TextInputDevice.self)?.focus(true) },
        leave: { data, _, _ in owner(data, as: TextInputDevice.self)?.focus(false) },
        preedit_string: { data, _, text, begin, _ in
            guard let t = owner(data, as: TextInputDevice.self) else { return }
            t.pending.preedit = text.map { String(cString: $0) } ?? ""
            t.pending.preeditCursor = begin >= 0 ? Int(begin) : nil
        },
        commit_string: { data, _, text in
            guard let t = owner(data, as: TextInputDevice.self) else { return }
            t.pending.commit = text.map { String(cString: $0) } ?? ""
        },
        delete_surrounding_text: { data, _, before, after in
            guard let t = owner(data, as: TextInputDevice.self) else { return }
            t.pending.deleteBefore = Int(before)
            t.pending.deleteAfter = Int(after)
        },
        done: { data, _, _ in owner(data, as: TextInputDevice.self)?.done() }
    ))
}
