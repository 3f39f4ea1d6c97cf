import Input
import Testing
import UI

/// The name field's editing rules on their own, as a user typing sees them.
struct TextFieldTests {
    func press(_ f: inout TextFieldState, _ keysym: String, text: String? = nil, _ mods: Modifiers = []) -> TextFieldState.Outcome {
        f.handle(KeyEvent(time: 0, keysym: keysym, state: .pressed, modifiers: mods, text: text))
    }

    @Test func backspaceRemovesWhatLooksLikeOneLetter() {
        var f = TextFieldState(text: "Cafe\u{301} 👍🏽")   // é as e + combining acute; a toned emoji
        #expect(f.cursor == 6)
        _ = press(&f, "BackSpace")
        #expect(f.text == "Cafe\u{301} ")
        _ = press(&f, "Left"); _ = press(&f, "BackSpace")
        #expect(f.text == "Caf ")
        #expect(f.cursor == 3)
    }

    @Test func aCombiningMarkTypedAfterALetterLeavesTheCaretAfterBoth() {
        var f = TextFieldState(text: "e")
        _ = press(&f, "dead_acute", text: "\u{301}")
        #expect(f.text == "e\u{301}" && f.cursor == 1)
        _ = press(&f, "x", text: "x")
        #expect(f.text == "e\u{301}x")
    }

    @Test func ctrlKeysAndControlCharactersAreNotTyped() {
        var f = TextFieldState(text: "a")
        #expect(press(&f, "z", text: "z", [.control]) == .ignored)
        #expect(press(&f, "Tab", text: "\t") == .ignored)
        #expect(press(&f, "Return", text: "\r") == .committed)
        #expect(press(&f, "Escape", text: "\u{1b}") == .cancelled)
        #expect(f.text == "a")
    }

    @Test func anInputMethodDeletesByBytesAroundTheCaretThenCommitsThenShowsItsPreedit() {
        var f = TextFieldState(text: "Häme")   // ä is two bytes
        _ = press(&f, "Left")                  // caret before "e"
        f.apply(TextInputUpdate(preedit: "ö", commit: "ll", deleteBefore: 3, deleteAfter: 1))
        // "Häm|e": 3 bytes before the caret are "äm", 1 after is "e"; then "ll"; then the pre-edit.
        #expect(f.text == "Hll")
        #expect(f.cursor == 3)
        #expect(f.preedit == "ö")
        #expect(f.displayed.text == "Hllö")
        #expect(f.surrounding.cursor == 3)
        f.apply(TextInputUpdate(commit: "ö"))
        #expect(f.text == "Hllö" && f.preedit.isEmpty)
        #expect(f.surrounding.text == "Hllö" && f.surrounding.cursor == 5)
    }

    @Test func aDeleteReachingPastTheTextIsClampedAndNamesStayBounded() {
        var f = TextFieldState(text: "ab")
        f.apply(TextInputUpdate(deleteBefore: 99, deleteAfter: 99))
        #expect(f.text.isEmpty && f.cursor == 0)
        f.insert(String(repeating: "x", count: 500))
        #expect(f.text.count == TextFieldState.maximumLength)
    }
}
