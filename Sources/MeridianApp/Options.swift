import Style

/// The command line (contracts.md section 1), parsed without Foundation.
public struct Options: Equatable, Sendable {
    public var headless = false
    public var replay: String?
    public var record: String?
    public var stateOut: String?
    public var screenshot: String?
    public var width = 800
    public var height = 1280
    public var scale = 1.0
    public var center: (latitude: Double, longitude: Double)?
    public var zoom: Double?
    public var data: [String] = []
    /// `--style FILE`: a MapLibre style JSON drawn instead of the shipped styles.
    public var style: String?
    /// `--language TAG`: labels prefer the data's names in this language (`name:TAG`).
    public var language: String?
    public var showHitAreas = false
    public var showTouches = false
    public var fullscreen = false
    /// `--size` was given: the window asks for exactly that, whatever the screen.
    public var sizeGiven = false
    public var verbose = false
    /// `--no-rotate`: the map always keeps north up.
    public var noRotate = false
    /// The places file named on the command line (`meridian FILE.geojson`); nil opens the default one.
    public var document: String?
    public var action: Action = .run

    public enum Action: Equatable, Sendable { case run, help, version }

    public init() {}

    public static func == (a: Options, b: Options) -> Bool {
        a.headless == b.headless && a.replay == b.replay && a.record == b.record && a.stateOut == b.stateOut
            && a.screenshot == b.screenshot && a.width == b.width && a.height == b.height && a.scale == b.scale
            && a.center?.latitude == b.center?.latitude && a.center?.longitude == b.center?.longitude
            && a.zoom == b.zoom && a.data == b.data && a.showHitAreas == b.showHitAreas && a.showTouches == b.showTouches
            && a.fullscreen == b.fullscreen && a.verbose == b.verbose && a.action == b.action
            && a.sizeGiven == b.sizeGiven && a.style == b.style && a.language == b.language
            && a.noRotate == b.noRotate && a.document == b.document
    }

    public static let version = "0.1.0"

    public static let usage = """
        usage: meridian [options] [FILE]                run under the current Wayland compositor
               meridian --headless --replay FILE [...]  run the same app with no compositor, from a trace
               meridian --help | --version

        FILE: a places file (GeoJSON, .geojson) to open and edit; default
              $XDG_DATA_HOME/meridian/places.geojson, created from the shipped sample.
              A map file (.mbtiles, .pmtiles) opens as --data does.

        options:
          --size WxH           window size in logical px (default 800x1280, a portrait tablet,
                               live: shrunk to fit the screen)
          --scale S            buffer scale for --headless: 1, 2 or fractional like 1.5
          --center LAT,LON     initial map centre
          --zoom Z             initial map zoom (Web Mercator, 256-px tiles)
          --data PATH          vector MBTiles to show; repeat to layer several (default: the shipped data)
          --style FILE         MapLibre style JSON to draw with (default: the shipped style of each file's schema)
          --language TAG       label names in this language where the map has them (name:TAG), e.g. sv, ja, sr
          --show-hit-areas     draw every tap target's enlarged hit area
          --show-touches       draw a marker under every finger and the pointer
          --fullscreen         live: ask for fullscreen, without decorations (kiosks, phone shells)
          --record FILE        live: write every input frame received to FILE (trace format 1)
          --replay FILE        headless: feed FILE's events at their timestamps
          --state-out FILE     write the state dump (JSON): headless after the replay settles, live at exit
          --screenshot FILE    headless: write the final frame as PNG
          --verbose            print the protocol versions bound, the gesture arena trace
                               (also MERIDIAN_GESTURE_TRACE=1) and other details on stderr
          --no-rotate          keep north up: no two-finger, touchpad, Shift+arrow or right-drag rotation

        exit status: 0 success, 2 bad usage or bad input file, 1 runtime failure
        """

    /// Parses `arguments` (without the program name).
    public static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var o = Options()
        var i = 0
        func value(_ flag: String) throws(UsageError) -> String {
            i += 1
            guard i < arguments.count else { throw UsageError("\(flag) needs a value") }
            return arguments[i]
        }
        while i < arguments.count {
            let arg = arguments[i]
            switch arg {
            case "--help", "-h": o.action = .help
            case "--version": o.action = .version
            case "--headless": o.headless = true
            case "--fullscreen": o.fullscreen = true
            case "--show-hit-areas": o.showHitAreas = true
            case "--show-touches": o.showTouches = true
            case "--verbose", "-v": o.verbose = true
            case "--no-rotate": o.noRotate = true
            case "--replay": o.replay = try value(arg)
            case "--record": o.record = try value(arg)
            case "--state-out": o.stateOut = try value(arg)
            case "--screenshot": o.screenshot = try value(arg)
            case "--data": o.data.append(try value(arg))
            case "--style": o.style = try value(arg)
            case "--language":
                let v = try value(arg)
                guard LabelLanguage.isTag(v) else {
                    throw UsageError("--language wants a language tag like sv, ja or zh-Hant, got '\(v)'")
                }
                o.language = v
            case "--size":
                let v = try value(arg)
                let parts = v.split(separator: "x", omittingEmptySubsequences: false)
                guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16384).contains(w),
                      (1...16384).contains(h)
                else { throw UsageError("--size wants WxH with each side 1…16384, got '\(v)'") }
                o.width = w
                o.height = h
                o.sizeGiven = true
            case "--scale":
                let v = try value(arg)
                guard let s = Double(v), s.isFinite, s >= 0.5, s <= 4 else {
                    throw UsageError("--scale wants a number from 0.5 to 4, got '\(v)'")
                }
                o.scale = s
            case "--center":
                let v = try value(arg)
                let parts = v.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]),
                      abs(lat) <= 90, abs(lon) <= 180
                else { throw UsageError("--center wants LAT,LON in degrees (|lat| ≤ 90, |lon| ≤ 180), got '\(v)'") }
                o.center = (lat, lon)
            case "--zoom":
                let v = try value(arg)
                guard let z = Double(v), z.isFinite, z >= 0, z <= 22 else {
                    throw UsageError("--zoom wants a number from 0 to 22, got '\(v)'")
                }
                o.zoom = z
            default:
                if arg.hasPrefix("-") && arg != "-" { throw UsageError("unknown option '\(arg)'") }
                try o.addPositional(arg)
            }
            i += 1
        }
        if o.action != .run { return o }
        if o.headless {
            guard o.replay != nil else { throw UsageError("--headless needs --replay FILE") }
            if o.record != nil { throw UsageError("--record is for live runs, not --headless") }
        } else {
            for (flag, set) in [("--replay", o.replay != nil),
                                ("--screenshot", o.screenshot != nil)] where set {
                throw UsageError("\(flag) needs --headless")
            }
            if o.scale != 1 { throw UsageError("--scale is for --headless; live runs take the compositor's scale") }
        }
        return o
    }
}

extension Options {
    /// A file named without an option: a places document or a map, told apart by its extension
    /// (a file manager passes whatever the user opened).
    mutating func addPositional(_ path: String) throws(UsageError) {
        let lower = path.lowercased()
        if lower.hasSuffix(".mbtiles") || lower.hasSuffix(".pmtiles") {
            data.append(path)
        } else if lower.hasSuffix(".geojson") || lower.hasSuffix(".json") {
            guard document == nil else { throw UsageError("only one places file can be opened, got '\(document ?? "")' and '\(path)'") }
            document = path
        } else {
            throw UsageError("'\(path)' is neither a places file (.geojson) nor a map (.mbtiles, .pmtiles)")
        }
    }
}

/// Bad usage: exit status 2 with this message.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}
