import Gestures
import Input
import UI
#if canImport(Glibc)
import Glibc
#endif

/// `meridian-bench gestures`: a long, realistic input stream through Meridian's page as it
/// ships (`MeridianPage.handle`: the gesture graph, its actions, the camera), timed per input
/// frame. Figures:
/// - `ns_per_frame`: the whole stream (scrolls, map pans and pinches, double taps, quick zooms,
///   pin drags, button taps, mouse clicks, waits for timers), per frame handed to `handle`.
/// - `steady_ns_per_frame`: only the motion frames in the middle of running gestures.
/// - `allocs_per_frame` / `steady_allocs_per_frame`: heap allocations counted by
///   scripts/malloc-count.c when it is preloaded (scripts/count-gesture-allocs.sh); without it
///   this figure is skipped and stderr says so.
///
/// `MERIDIAN_GESTURES_STEADY_ONLY=1` plays only the steady segment, once (for instruction
/// counts: `valgrind --tool=callgrind --toggle-collect='*playSteady*' meridian-bench gestures`;
/// the collected instructions divided by its frames are the steady cost per frame).
enum GesturesBench {
    static func run() {
        if getenv("MERIDIAN_GESTURES_STEADY_ONLY") != nil {
            let stream = BenchStream.build(cycles: 1, on: BenchLayout(BenchLayout.page()))
            let calm = playSteady(stream, counter: MallocCounter())
            Bench.emit([("suite", "gestures"), ("metric", "steady_ns_per_frame"), ("frames", stream.steadyRange.count),
                        ("median", calm.ns / Double(stream.steadyRange.count)), ("runs", 1)])
            Bench.emit([("suite", "gestures"), ("metric", "steady_allocs_per_frame"), ("frames", stream.steadyRange.count),
                        ("median", Double(calm.allocations) / Double(stream.steadyRange.count)), ("total", calm.allocations), ("runs", 1)])
            return
        }
        let cycles = 400
        let stream = BenchStream.build(cycles: cycles, on: BenchLayout(BenchLayout.page()))
        let recognizerCount = BenchLayout.page().graph.all.count
        Bench.progress("gestures: \(stream.frames.count) frames (\(stream.steadyRange.count) steady), \(recognizerCount) recognizers")

        Bench.progress("gestures: the stream makes " + describeOutcome(stream))
        // Warm-up, then timed runs on fresh trees (actions move views and scroll the page).
        _ = play(stream, range: 0..<stream.frames.count)
        var all: [Double] = []
        var allCPU: [Double] = []
        var steady: [Double] = []
        var steadyCPU: [Double] = []
        var graphOnly: [Double] = []
        var graphOnlyCPU: [Double] = []
        let runs = 15
        for _ in 0..<runs {
            // Interleaved, so the page and the bare graph see the same machine.
            let whole = play(stream, range: 0..<stream.frames.count)
            all.append(whole.ns / Double(stream.frames.count))
            allCPU.append(whole.cpuNs / Double(stream.frames.count))
            let calm = playSteady(stream)
            steady.append(calm.ns / Double(stream.steadyRange.count))
            steadyCPU.append(calm.cpuNs / Double(stream.steadyRange.count))
            let bare = play(stream, range: 0..<stream.frames.count, graphOnly: true)
            graphOnly.append(bare.ns / Double(stream.frames.count))
            graphOnlyCPU.append(bare.cpuNs / Double(stream.frames.count))
        }
        Bench.emit([("suite", "gestures"), ("metric", "ns_per_frame"), ("recognizers", recognizerCount),
                    ("frames", stream.frames.count), ("median", Bench.quantile(all, 0.5)),
                    ("p90", Bench.quantile(all, 0.9)), ("runs", runs)])
        // The same runs in thread CPU time: on this shared 2-core machine other jobs stretch wall
        // time; CPU time shows what the gesture layer itself costs.
        Bench.emit([("suite", "gestures"), ("metric", "cpu_ns_per_frame"), ("recognizers", recognizerCount),
                    ("frames", stream.frames.count), ("median", Bench.quantile(allCPU, 0.5)),
                    ("p90", Bench.quantile(allCPU, 0.9)), ("runs", runs)])
        Bench.emit([("suite", "gestures"), ("metric", "steady_ns_per_frame"), ("recognizers", recognizerCount),
                    ("frames", stream.steadyRange.count), ("median", Bench.quantile(steady, 0.5)),
                    ("p90", Bench.quantile(steady, 0.9)), ("runs", runs)])
        Bench.emit([("suite", "gestures"), ("metric", "steady_cpu_ns_per_frame"), ("recognizers", recognizerCount),
                    ("frames", stream.steadyRange.count), ("median", Bench.quantile(steadyCPU, 0.5)),
                    ("p90", Bench.quantile(steadyCPU, 0.9)), ("runs", runs)])
        // The shipped graph alone: the same tree and recognizers with no actions bound, fed
        // straight to the GestureSystem (the gesture layer's own cost, without the page's camera).
        Bench.emit([("suite", "gestures"), ("metric", "graph_ns_per_frame"), ("recognizers", recognizerCount),
                    ("frames", stream.frames.count), ("median", Bench.quantile(graphOnly, 0.5)),
                    ("p90", Bench.quantile(graphOnly, 0.9)), ("runs", runs)])
        Bench.emit([("suite", "gestures"), ("metric", "graph_cpu_ns_per_frame"), ("recognizers", recognizerCount),
                    ("frames", stream.frames.count), ("median", Bench.quantile(graphOnlyCPU, 0.5)),
                    ("p90", Bench.quantile(graphOnlyCPU, 0.9)), ("runs", runs)])

        guard let counter = MallocCounter() else {
            Bench.progress("gestures: allocation count skipped (run scripts/count-gesture-allocs.sh to preload the counter)")
            return
        }
        let whole = play(stream, range: 0..<stream.frames.count, counter: counter)
        let calm = playSteady(stream, counter: counter)
        Bench.emit([("suite", "gestures"), ("metric", "allocs_per_frame"), ("method", "LD_PRELOAD malloc counter"),
                    ("frames", stream.frames.count), ("median", Double(whole.allocations) / Double(stream.frames.count)),
                    ("total", whole.allocations), ("runs", 1)])
        Bench.emit([("suite", "gestures"), ("metric", "steady_allocs_per_frame"), ("method", "LD_PRELOAD malloc counter"),
                    ("frames", stream.steadyRange.count), ("median", Double(calm.allocations) / Double(stream.steadyRange.count)),
                    ("total", calm.allocations), ("runs", 1)])
    }

    /// What the stream does to the page, so a reader can see the benchmark exercises the arena.
    private static func describeOutcome(_ stream: BenchStream) -> String {
        let page = BenchLayout.page()
        var counts: [String: Int] = [:]
        for r in page.graph.all {
            r.onStateChange = { r in
                if r.state == .began || (r.state == .ended && r is TapGestureRecognizer) { counts[r.name, default: 0] += 1 }
            }
        }
        for f in stream.frames { page.handle(f) }
        page.advance(to: (stream.frames.last?.time ?? 0) + 10_000)
        return counts.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
    }

    /// Feeds `range` of the stream to a fresh page; returns the time taken (and allocations made).
    private static func play(_ stream: BenchStream, range: Range<Int>, counter: MallocCounter? = nil, graphOnly: Bool = false)
        -> (ns: Double, cpuNs: Double, allocations: Int) {
        let page = BenchLayout.page()
        if graphOnly { page.graph.unbindActions() }
        let frames = stream.frames
        let before = counter?.count() ?? 0
        let start = Bench.now(), startCPU = Bench.threadCPUTime()
        if graphOnly {
            for i in range { page.gestures.handle(frames[i]) }
        } else {
            for i in range { page.handle(frames[i]) }
        }
        let ns = Double(Bench.now() - start), cpuNs = Double(Bench.threadCPUTime() - startCPU)
        let allocations = Int((counter?.count() ?? 0) - before)
        withExtendedLifetime(page) {}
        return (ns, cpuNs, allocations)
    }

    /// Sets up the gestures before the steady segment untimed, then times the segment.
    private static func playSteady(_ stream: BenchStream, counter: MallocCounter? = nil) -> (ns: Double, cpuNs: Double, allocations: Int) {
        let page = BenchLayout.page()
        let frames = stream.frames
        for i in 0..<stream.steadyRange.lowerBound { page.handle(frames[i]) }
        let before = counter?.count() ?? 0
        let start = Bench.now(), startCPU = Bench.threadCPUTime()
        for i in stream.steadyRange { page.handle(frames[i]) }
        let ns = Double(Bench.now() - start), cpuNs = Double(Bench.threadCPUTime() - startCPU)
        let allocations = Int((counter?.count() ?? 0) - before)
        withExtendedLifetime(page) {}
        return (ns, cpuNs, allocations)
    }
}

/// `meridian_malloc_count` from scripts/malloc-count.c, when it is preloaded.
struct MallocCounter {
    private let function: @convention(c) () -> UInt64

    init?() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "meridian_malloc_count") else { return nil }
        function = unsafeBitCast(symbol, to: (@convention(c) () -> UInt64).self)
    }

    func count() -> UInt64 { function() }
}
