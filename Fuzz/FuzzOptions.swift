/// libFuzzer target: the command-line parser, arguments split at NUL bytes.
///
/// Built by scripts/fuzz.sh together with Sources/MeridianApp/Options.swift alone (it imports
/// nothing), so it calls `Options.parse` exactly as `meridian` does. Every accepted command
/// line must also satisfy what the runners rely on.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOptions(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    guard let o = try? Options.parse(arguments) else { return 0 }
    if o.action == .run {
        precondition((1...16384).contains(o.width) && (1...16384).contains(o.height), "size out of range")
        precondition(o.scale.isFinite && o.scale >= 0.5 && o.scale <= 4, "scale out of range")
        if let z = o.zoom { precondition(z.isFinite && z >= 0 && z <= 22, "zoom out of range") }
        if let c = o.center { precondition(c.latitude.isFinite && c.longitude.isFinite, "centre not finite") }
        precondition(!o.headless || o.replay != nil, "headless without a trace")
    }
    return 0
}
