enum GesturesBench {
    static func run() {
        Bench.progress("gestures: not built yet")
    }
}
