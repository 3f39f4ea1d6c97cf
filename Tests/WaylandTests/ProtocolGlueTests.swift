import Glibc
import Testing

/// The committed wayland-scanner output must be exactly what the scanner makes of the
/// committed XML, so nobody edits generated code by hand and a protocol update is one script run.
@Suite struct ProtocolGlueTests {
    static let root: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)   // Tests/WaylandTests/<file>
        return parts.joined(separator: "/")
    }()

    func read(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var out = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            out += buf[0..<n]
            if n < buf.count { return out }
        }
    }

    @Test func committedGlueMatchesTheScannerOutput() throws {
        let out = "/tmp/meridian-glue-\(getpid())"
        let status = system("'\(Self.root)/scripts/generate-protocols.sh' --check '\(out)' >/dev/null 2>&1")
        #expect(status == 0, "scripts/generate-protocols.sh --check failed (is wayland-scanner installed?)")
        defer { _ = system("rm -rf '\(out)'") }
        let xmls = ["xdg-shell", "xdg-decoration-unstable-v1", "viewporter", "fractional-scale-v1",
                    "pointer-gestures-unstable-v1", "presentation-time"]
        for name in xmls {
            for (generated, committed) in [("\(out)/\(name)-protocol.c", "Sources/CProtocols/\(name)-protocol.c"),
                                           ("\(out)/include/\(name)-client-protocol.h",
                                            "Sources/CProtocols/include/\(name)-client-protocol.h")] {
                let fresh = try #require(read(generated), "scanner wrote no \(generated)")
                let ours = try #require(read("\(Self.root)/\(committed)"), "\(committed) is missing")
                let identical = fresh == ours
                #expect(identical, "\(committed) differs from wayland-scanner's output: run scripts/generate-protocols.sh")
            }
        }
    }

    @Test func everyProtocolXMLHasItsGlue() throws {
        guard let d = opendir("\(Self.root)/protocols") else {
            Issue.record("protocols/ is missing")
            return
        }
        defer { closedir(d) }
        var count = 0
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".xml") else { continue }
            count += 1
            let base = String(name.dropLast(4))
            #expect(read("\(Self.root)/Sources/CProtocols/\(base)-protocol.c") != nil, "no glue for \(name)")
        }
        #expect(count == 8)   // input-timestamps-unstable-v1 the eighth
    }
}
