// meridian-bench SUITE: prints progress on stderr and one JSON object per figure on stdout
// (contracts.md section 4). Each suite lives in its own file.
#if canImport(Glibc)
import Glibc
#endif

let suites: [(name: String, run: () -> Void)] = [
    ("gestures", GesturesBench.run),
    ("render", RenderBench.run),
    ("latency", LatencyBench.run),
    ("tiles", TilesBench.run),
    ("places", PlacesBench.run),
]

let args = CommandLine.arguments.dropFirst()
guard let which = args.first, which == "all" || suites.contains(where: { $0.name == which }) else {
    let names = suites.map(\.name).joined(separator: "|")
    Bench.progress("usage: meridian-bench \(names)|all")
    exit(2)
}
for suite in suites where which == "all" || suite.name == which {
    suite.run()
}
