import Testing
@testable import Input

/// `text-input` trace lines (an on-screen keyboard's `zwp_text_input_v3` events): written and
/// read back the same, with text of any kind, and bad lines refused with their line number.
struct TextInputTraceTests {
    @Test func doneWithPreeditCommitAndDeleteRoundTrips() throws {
        let frames: [InputFrame] = [
            .textInput(time: 5, .focus(true)),
            .textInput(time: 10, .done(TextInputUpdate(preedit: "Sä #1", preeditCursor: 3, commit: "100% é", deleteBefore: 2, deleteAfter: 1))),
            .textInput(time: 12, .done(TextInputUpdate())),
            .textInput(time: 20, .focus(false)),
        ]
        let text = TraceFormat.text(for: frames)
        #expect(!text.contains("#1"), "a '#' would start a comment: it is escaped")
        let parsed = try TraceFormat.parse(text, file: "t")
        #expect(parsed.frames == frames)
    }

    @Test func badTextInputLinesNameTheLine() {
        for bad in ["10 text-input done commit %ZZ", "10 text-input done commit %C3", "10 text-input done delete -1 0",
                    "10 text-input done frobnicate x", "10 text-input wiggle"] {
            #expect(throws: TraceError.self) { try TraceFormat.parse("meridian-trace 1\n\(bad)\n", file: "t") }
            do {
                _ = try TraceFormat.parse("meridian-trace 1\n\(bad)\n", file: "t")
            } catch {
                #expect(error.line == 2, "\(bad): \(error)")
            }
        }
    }
}
