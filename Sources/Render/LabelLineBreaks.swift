import CLineBreak
import Synchronization

/// Where a point label's text breaks into lines at `text-max-width`.
///
/// The places a line may end are Unicode's (UAX #14, through ICU's line-break iterator): after
/// a space, between two ideographs or kana, after a hyphen, never before closing punctuation
/// or a small kana, never inside a number; a line feed (or another mandatory break) always
/// ends a line. Of those places, the ones taken make lines of about equal width, as MapLibre
/// wraps labels: the text's width is shared out over the fewest lines of at most the maximum
/// width, and the breaks are chosen to keep every line near that share (the squared
/// difference summed over the lines, a last line shorter than the share counting half and a
/// longer one double), rather than filling each line as far as it goes.
enum LabelLineBreaks {
    /// One stretch of text between two break opportunities, in logical order: its text, and
    /// whether a line must end after it.
    struct Segment: Equatable {
        var text: Substring
        var hard: Bool
    }

    /// `text` cut at every break opportunity UAX #14 gives, for the rules of `locale` ("" for
    /// the root rules); nil when ICU cannot make an iterator. The segments' texts, joined, are
    /// `text` again; each keeps its trailing spaces (and the line feed that ends it).
    static func segments(_ text: String, locale: String) -> [Segment]? {
        let units = Array(text.utf16)
        guard !units.isEmpty else { return [] }
        guard let breaker = take(locale) else { return nil }
        defer { give(breaker, locale) }
        return units.withUnsafeBufferPointer { buffer -> [Segment]? in
            guard let base = buffer.baseAddress, meridian_line_breaker_set_text(breaker, base, Int32(buffer.count)) != 0 else { return nil }
            var out: [Segment] = []
            var start = text.utf16.startIndex
            while true {
                let next = meridian_line_breaker_next(breaker)
                guard next > 0 else { break }
                let end = text.utf16.index(text.utf16.startIndex, offsetBy: Int(next))
                // Offsets are UTF-16 units at scalar boundaries (ICU never breaks a surrogate pair).
                guard let a = start.samePosition(in: text.unicodeScalars), let b = end.samePosition(in: text.unicodeScalars) else { return nil }
                out.append(Segment(text: Substring(text.unicodeScalars[a..<b]), hard: meridian_line_breaker_is_hard(breaker) != 0))
                start = end
            }
            // The end of the text is a break whatever its rule: nothing follows it.
            if var last = out.popLast() {
                last.hard = false
                out.append(last)
            }
            return out
        }
    }

    /// Which segments end a line: the indices of the segments after which a line breaks (the
    /// last segment's end is not listed). `ink[i]` is segment i's width without its trailing
    /// spaces, `full[i]` with them, `limit` the maximum line width; every segment marked
    /// `hard` ends a line.
    static func balanced(ink: [Double], full: [Double], hard: [Bool], limit: Double) -> [Int] {
        let n = ink.count
        guard n > 1, limit > 0 else { return [] }
        let total = full.reduce(0, +)
        let lines = max(1, (total / limit).rounded(.up))
        let target = total / lines
        func badness(_ width: Double, last: Bool) -> Double {
            let ragged = (width - target) * (width - target)
            guard last else { return ragged }
            return width < target ? ragged / 2 : ragged * 2
        }
        // x[k]: the ink from the text's start to the end of segment k (spaces not counted, as
        // a line's trailing spaces are not drawn).
        var x = [Double](repeating: 0, count: n)
        var sum = 0.0
        for i in 0..<n {
            sum += ink[i]
            x[i] = sum
        }
        // best[k]: the least badness of lines ending with a break after segment k; prior[k]:
        // the break before that line (-1: the text's start).
        var best = [Double](repeating: 0, count: n)
        var prior = [Int](repeating: -1, count: n)
        var floor = -1  // the last mandatory break: no line may reach back past it
        for k in 0..<n {
            let last = k == n - 1
            var chosen = floor
            var lowest = badness(x[k] - (floor >= 0 ? x[floor] : 0), last: last) + (floor >= 0 ? best[floor] : 0)
            if floor + 1 < k {
                for p in (floor + 1)..<k {
                    let b = badness(x[k] - x[p], last: last) + best[p]
                    // Ties go to the later break, as MapLibre's do.
                    if b <= lowest {
                        lowest = b
                        chosen = p
                    }
                }
            }
            best[k] = lowest
            prior[k] = chosen
            if hard[k] && !last { floor = k }
        }
        var breaks: [Int] = []
        var k = prior[n - 1]
        while k >= 0 {
            breaks.append(k)
            k = prior[k]
        }
        return breaks.reversed()
    }

    // MARK: iterators

    /// ICU iterators by locale, made once (opening one reads its rules) and lent to one
    /// thread at a time; held as integers because the pointers are not `Sendable`.
    private static let idle = Mutex<[String: [UInt]]>([:])
    private static let keptPerLocale = 8

    private static func take(_ locale: String) -> UnsafeMutableRawPointer? {
        if let kept = idle.withLock({ $0[locale]?.popLast() }) { return UnsafeMutableRawPointer(bitPattern: kept) }
        return locale.withCString { meridian_line_breaker($0) }
    }

    private static func give(_ breaker: UnsafeMutableRawPointer, _ locale: String) {
        let kept = idle.withLock { table -> Bool in
            guard table[locale, default: []].count < keptPerLocale else { return false }
            table[locale, default: []].append(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(breaker))))
            return true
        }
        if !kept { meridian_line_breaker_close(breaker) }
    }
}
