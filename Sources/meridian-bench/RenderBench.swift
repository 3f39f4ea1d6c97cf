enum RenderBench {
    static func run() {
        Bench.progress("render: not built yet")
    }
}
