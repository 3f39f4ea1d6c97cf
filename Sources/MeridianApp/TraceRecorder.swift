import Glibc
import Input
import Wayland

/// `--record FILE`: every input frame received live, in the trace format, with times counted
/// from the start of the run. Lines are flushed per frame so a crash loses at most one.
final class TraceRecorder {
    private let file: UnsafeMutablePointer<FILE>
    private let path: String
    private let start: Double
    private var lastTime = 0.0
    private(set) var failed = false

    init(path: String, start: Double) throws(OutputFile.Failure) {
        guard let f = fopen(path, "w") else {
            throw OutputFile.Failure(description: "cannot record to \(path): \(String(cString: strerror(errno)))")
        }
        file = f
        self.path = path
        self.start = start
        fputs("# recorded by meridian \(Options.version)\n" + TraceFormat.header + "\n", f)
    }

    func record(_ frame: InputFrame) {
        guard !failed else { return }
        // Times must not go backwards in a trace, whatever the compositor's clock did.
        lastTime = max(lastTime, frame.time - start)
        for line in TraceFormat.lines(for: frame, startTime: frame.time - lastTime) {
            if fputs(line + "\n", file) < 0 { failed = true }
        }
        if fflush(file) != 0 { failed = true }
        if failed { printError("meridian: recording to \(path) failed: \(String(cString: strerror(errno))); input still works") }
    }

    func close() { fclose(file) }
}
