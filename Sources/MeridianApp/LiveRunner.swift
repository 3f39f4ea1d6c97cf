import Gestures
import Input
import Places
import Wayland

/// Runs the app in a window under the current compositor.
public enum LiveRunner {
    public static func run(_ options: Options) -> Int32 {
        WaylandClient.routeTerminationSignalsToTheLoop()   // before the tile workers start
        // A places file that cannot be read stops us before any window opens, and so do bad
        // --data or --style files: exit 2 before anything talks to the compositor.
        guard case .opened(let session) = DocumentSession.report(options) else { return 2 }
        guard case .loaded(let data) = MapData.load(for: options) else { return 2 }
        let client: WaylandClient
        do {
            client = try WaylandClient()
        } catch {
            printError("meridian: \(error)")
            return 1
        }
        if options.verbose {
            let bound = client.boundVersions.sorted { $0.key < $1.key }.map { "\($0.key) v\($0.value)" }
            printError("meridian: bound " + bound.joined(separator: ", "))
        }
        var recorder: TraceRecorder?
        if let path = options.record {
            do {
                recorder = try TraceRecorder(path: path, start: monotonicMilliseconds())
            } catch {
                printError("meridian: \(error)")
                return 1
            }
        }
        defer { recorder?.close() }
        let view = session.flatMap { ViewState.load(for: $0.document.path, paths: .current) }
        let core = AppCore(options: options, mapData: data, synchronousTiles: false, scale: 1, session: session, view: view)
        defer { core.renderer.map?.cache.shutDown() }
        let watch = session.flatMap { FolderWatch(file: $0.document.path) }
        let app = LiveApp(core: core, recorder: recorder, watch: watch)
        var window = WindowOptions()
        window.width = options.width
        window.height = options.height
        window.fullscreen = options.fullscreen
        window.fitScreen = !options.sizeGiven
        do {
            try client.run(app, options: window)
        } catch {
            core.finish()
            printError("meridian: \(error)")
            return 1
        }
        core.finish()
        core.saveView()
        if let out = options.stateOut {
            do {
                try OutputFile.write(out, text: StateDump.json(core))
            } catch {
                printError("meridian: \(error)")
                return 1
            }
        }
        return 0
    }
}

/// Adapts the app to the Wayland layer's expectations.
final class LiveApp: WaylandApp {
    let core: AppCore
    let recorder: TraceRecorder?
    /// Another program saving the places file wakes the loop through this.
    let watch: FolderWatch?

    init(core: AppCore, recorder: TraceRecorder?, watch: FolderWatch? = nil) {
        self.core = core
        self.recorder = recorder
        self.watch = watch
    }

    func handle(_ frame: InputFrame) {
        recorder?.record(frame)
        core.handle(frame)
    }

    func resize(to geometry: WindowGeometry) {
        core.resize(width: Double(geometry.width), height: Double(geometry.height), scale: geometry.scale)
    }

    var needsFrame: Bool { core.needsFrame }

    func damage(width: Int, height: Int, geometry: WindowGeometry) -> FrameDamage? {
        func pixels(_ r: Gestures.Rect) -> PixelRect? {
            Canvas.pixelRect(r, scale: geometry.scale, width: width, height: height).map { PixelRect(x: $0.x, y: $0.y, width: $0.w, height: $0.h) }
        }
        let scale = geometry.scale
        // A scroll is copied only by whole buffer pixels from a whole-pixel position: then the
        // copied rows are what drawing them anew would give, to the byte. The page keeps its
        // drawn offset on the device pixel grid (PageScroller), so glides and bounces are too.
        if let s = core.pendingScroll, let rows = Self.wholePixels(s.dy * scale), Self.wholePixels(s.from * scale) != nil {
            return FrameDamage(scroll: rows, rects: s.rects.compactMap(pixels))
        }
        guard let changed = core.pendingDamage else { return nil }
        return FrameDamage(rects: pixels(changed).map { [$0] } ?? [])
    }

    /// `v` as an integer when it is one, to within the rounding of a logical offset on the grid
    /// of a fractional scale (k / 1.5 * 1.5 may miss k by an ulp; cairo's fixed point does not).
    static func wholePixels(_ v: Double) -> Int? {
        guard v.isFinite, abs(v) < 1e9, abs(v.rounded() - v) < 1e-6 else { return nil }
        return Int(v.rounded())
    }

    func draw(into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
              geometry: WindowGeometry, clip: [PixelRect]?) {
        Canvas.draw(core, into: pixels, width: width, height: height, stride: stride, scale: geometry.scale,
                    clip: clip.map { $0.map { (x: $0.x, y: $0.y, w: $0.width, h: $0.height) } })
    }

    var textInput: TextInputRequest? { core.page.textInputRequest }

    var nextDeadline: Double? { core.nextDeadline }
    func advance(to time: Double) { core.advance(to: time) }
    var wakeupFileDescriptors: [Int32] { [core.tileWakeupDescriptor, watch?.fileDescriptor].compactMap { $0 } }

    func wakeup(_ fd: Int32) {
        if let watch, fd == watch.fileDescriptor {
            if watch.drain() { core.documentFileChanged() }
        } else {
            core.tilesReady()
        }
    }
    /// A phone shell suspends a window it may kill next: edits waiting for their save go now.
    func setSuspended(_ suspended: Bool) {
        if suspended { core.finish() }
    }
}
