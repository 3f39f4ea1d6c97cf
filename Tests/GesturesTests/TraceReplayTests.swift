import Gestures
import Input
import XCTest

/// A trace file (contracts.md §2) drives the gesture layer on virtual time, exactly as the
/// headless runner will: the same trace gives the same gestures at the same moments.
final class TraceReplayTests: XCTestCase {
    private let trace = """
        meridian-trace 1
        # a single tap on the map, then a double tap and drag (quick zoom), then a page scroll on the list
        0     touch down 0 116 720
        0     touch frame
        50    touch up 0
        50    touch frame
        1000  touch down 1 116 720
        1000  touch frame
        1040  touch up 1
        1040  touch frame
        1140  touch down 1 118 722
        1140  touch frame
        1150  touch motion 1 118 770
        1150  touch frame
        1160  touch motion 1 118 870
        1160  touch frame
        1170  touch up 1
        1170  touch frame
        2000  touch down 2 400 1150
        2000  touch frame
        2010  touch motion 2 400 1100
        2010  touch frame
        2020  touch motion 2 400 1000
        2020  touch frame
        2030  touch up 2
        2030  touch frame
        """

    /// Plays the trace on a fresh page; returns the log with the virtual time of each entry.
    private func replay() throws -> [String] {
        let parsed = try TraceFormat.parse(trace)
        let page = ComposedPage()
        let system = GestureSystem(root: page.window)
        var stamped: [String] = []
        var seen = 0
        func stamp() {
            while seen < page.log.count {
                stamped.append("\(page.log[seen]) @\(system.now)")
                seen += 1
            }
        }
        for frame in parsed.frames {
            // The live loop and the headless runner both run due timers before the next input.
            while let d = system.nextDeadline, d <= frame.time {
                system.advance(to: d)
                stamp()
            }
            system.handle(frame)
            stamp()
        }
        system.advance(to: parsed.endTime + 10_000)
        stamp()
        return stamped + ["scrollY \(page.scrollY)", "zoom \(page.mapZoom)"]
    }

    func testATraceReplaysToTheSameGesturesAtTheSameTimes() throws {
        let first = try replay()
        XCTAssertEqual(first, ["mapTap @350.0", "observedTap @350.0", "quickZoom @1150.0",
                               "scrollY 138.0", "zoom \(11 + 100.0 / 100)"])
        XCTAssertEqual(try replay(), first)
    }
}
