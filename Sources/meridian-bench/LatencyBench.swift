enum LatencyBench {
    static func run() {
        Bench.progress("latency: not built yet")
    }
}
