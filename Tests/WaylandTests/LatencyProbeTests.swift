import Glibc
import Input
import Testing
@testable import Wayland

/// The latency log `meridian-bench latency` reads: one line per input frame, written by the
/// first commit that shows it.
@Suite struct LatencyProbeTests {
    let path = "/tmp/meridian-latency-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"

    func lines() -> [String] {
        guard let f = fopen(path, "r") else { return [] }
        defer { fclose(f) }
        var out = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            out += buf[0..<n]
            if n < buf.count { break }
        }
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func touch(_ t: Double) -> InputFrame { .touch(TouchFrame(time: t, changes: [.moved(id: 0, to: Point(x: 1, y: 2))])) }
    func pointer(_ t: Double) -> InputFrame { .pointer(PointerFrame(time: t)) }

    @Test func eachFrameIsReportedOnceByTheFirstCommitThatShowsIt() throws {
        defer { unlink(path) }
        let probe = try #require(LatencyProbe(path: path))
        probe.delivered(touch(1), at: 10, visible: true)
        probe.delivered(pointer(2), at: 12.5, visible: true)
        probe.drawing(at: 14)
        probe.committed(at: 15.25)
        probe.delivered(touch(3), at: 20, visible: true)
        probe.drawing(at: 21)
        probe.committed(at: 22.0006)
        probe.drawing(at: 30)
        probe.committed(at: 31)   // a redraw with no new input reports nothing
        probe.flush()
        #expect(lines() == ["10.000 15.250 touch 14.000 - 1.000 -", "12.500 15.250 pointer 14.000 - 2.000 -",
                           "20.000 22.001 touch 21.000 - 3.000 -"])
    }

    /// For the glide figures: with motion logging on, a commit that shows no input is a `motion`
    /// line timed from its drawing; a commit that shows input is logged as before.
    @Test func commitsWithoutInputAreMotionLinesWhenAskedFor() throws {
        defer { unlink(path) }
        let probe = try #require(LatencyProbe(path: path, logsMotion: true))
        probe.delivered(touch(1), at: 10, visible: true)
        probe.drawing(at: 14)
        probe.committed(at: 15)
        probe.drawing(at: 30)
        probe.committed(at: 31.5, sequence: 7, target: 33.3335)
        probe.presented(7, at: 33)
        probe.flush()
        // The last field is the vblank the pacer aimed the commit at.
        #expect(lines() == ["10.000 15.000 touch 14.000 - 1.000 -", "30.000 31.500 motion 30.000 33.000 30.000 33.334"])
    }

    @Test func framesThatChangeNothingOnScreenAreNotWaitedFor() throws {
        defer { unlink(path) }
        let probe = try #require(LatencyProbe(path: path))
        probe.delivered(touch(1), at: 10, visible: false)
        probe.drawing(at: 40)
        probe.committed(at: 41)
        probe.flush()
        #expect(lines().isEmpty, "a touch that changed nothing is not 31 ms of latency")
    }

    @Test func framesWhoseDrawingChangedNothingAreNotWaitedFor() throws {
        defer { unlink(path) }
        let probe = try #require(LatencyProbe(path: path))
        probe.delivered(touch(1), at: 10, visible: true)   // a lift: the app redraws, nothing moved
        probe.drawing(at: 11)
        probe.unchanged()
        probe.delivered(touch(2), at: 20, visible: true)
        probe.drawing(at: 28)
        probe.committed(at: 29)
        probe.flush()
        #expect(lines() == ["20.000 29.000 touch 28.000 - 2.000 -"], "the lift is not 19 ms of latency")
    }

    @Test func aFrameWaitingThroughABusyBufferIsReportedByTheCommitThatFinallyHappens() throws {
        defer { unlink(path) }
        let probe = try #require(LatencyProbe(path: path))
        probe.delivered(touch(1), at: 10, visible: true)
        probe.drawing(at: 11)   // every buffer busy: no commit followed
        probe.drawing(at: 27)
        probe.committed(at: 28)
        probe.flush()
        #expect(lines() == ["10.000 28.000 touch 27.000 - 1.000 -"])
    }

    @Test func aLogThatCannotBeWrittenLeavesTheProbeOff() {
        #expect(LatencyProbe(path: "/nonexistent-meridian-dir/latency.log") == nil)
    }

    @Test func withFeedbackEachFrameGetsThePresentationTimeOfTheFirstFrameShown() throws {
        defer { unlink(path) }
        let probe = try #require(LatencyProbe(path: path))
        probe.delivered(touch(9.5), at: 10, visible: true)
        probe.drawing(at: 11)
        probe.committed(at: 12, sequence: 1)
        probe.delivered(touch(12.5), at: 13, visible: true)
        probe.drawing(at: 13)
        probe.committed(at: 14, sequence: 2)   // replaces commit 1 before any vblank
        probe.discarded(1)                     // so frame 1 is first shown by commit 2
        probe.presented(2, at: 16.667)
        probe.delivered(touch(20), at: 20, visible: true)
        probe.drawing(at: 21)
        probe.committed(at: 22, sequence: 3)
        probe.flush()                          // the run ends before its feedback
        #expect(lines() == ["10.000 14.000 touch 13.000 16.667 9.500 -", "13.000 14.000 touch 13.000 16.667 12.500 -",
                            "20.000 22.000 touch 21.000 - 20.000 -"])
    }
}
