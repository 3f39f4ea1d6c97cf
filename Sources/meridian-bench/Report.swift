#if canImport(Glibc)
import Glibc
#endif

/// Helpers every suite uses to measure and report.
enum Bench {
    /// CPU time this thread has used, in nanoseconds: unlike the wall clock, it leaves out the
    /// time other processes of a shared machine held the core.
    static func threadCPUTime() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Monotonic time in nanoseconds.
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    static func progress(_ s: String) {
        let line = s + "\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    /// The q-quantile (0…1) of `values`, nearest-rank.
    static func quantile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((q * Double(sorted.count - 1)).rounded())
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// One JSON line on stdout. `fields` keep their order; numbers are printed with 4 decimals at most.
    static func emit(_ fields: [(String, Any)]) {
        var parts: [String] = []
        for (k, v) in fields {
            let value: String
            switch v {
            case let d as Double: value = d.isFinite ? format(d) : "null"
            case let i as Int: value = String(i)
            case let s as String: value = "\"" + s.replacingEscapes() + "\""
            default: value = "\"\(v)\""
            }
            parts.append("\"\(k)\": \(value)")
        }
        print("{" + parts.joined(separator: ", ") + "}")
        fflush(nil)
    }

    static func format(_ d: Double) -> String {
        let r = (d * 10_000).rounded() / 10_000
        return r == r.rounded() && abs(r) < 1e15 ? String(Int64(r)) : String(r)
    }
}

extension String {
    fileprivate func replacingEscapes() -> String {
        var out = ""
        for c in self {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }
}
