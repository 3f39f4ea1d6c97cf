/// libFuzzer target: the trace parser on arbitrary text.
///
/// Built by scripts/fuzz.sh together with Sources/Input, so it calls `TraceFormat` directly.
/// Beyond "never crash": a trace that parses must write back to text that parses to the
/// same frames, since `--record` writes what `--replay` later reads.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let trace = try? TraceFormat.parse(text) else { return 0 }
    let written = TraceFormat.text(for: trace.frames)
    do {
        let again = try TraceFormat.parse(written, file: "<rewritten>")
        if again.frames != trace.frames {
            fatalError("round trip changed the frames:\n\(written)")
        }
    } catch {
        fatalError("a written trace does not parse: \(error)\n\(written)")
    }
    return 0
}
