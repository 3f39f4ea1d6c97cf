import Input
import Wayland

/// Runs the app in a window under the current compositor.
public enum LiveRunner {
    public static func run(_ options: Options) -> Int32 {
        WaylandClient.routeTerminationSignalsToTheLoop()   // before the tile workers start
        // Bad --data or --style files exit 2 before anything talks to the compositor.
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
        let core = AppCore(options: options, mapData: data, synchronousTiles: false, scale: 1)
        defer { core.renderer.map?.cache.shutDown() }
        let app = LiveApp(core: core, recorder: recorder)
        var window = WindowOptions()
        window.width = options.width
        window.height = options.height
        window.fullscreen = options.fullscreen
        window.fitScreen = !options.sizeGiven
        do {
            try client.run(app, options: window)
        } catch {
            printError("meridian: \(error)")
            return 1
        }
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

    init(core: AppCore, recorder: TraceRecorder?) {
        self.core = core
        self.recorder = recorder
    }

    func handle(_ frame: InputFrame) {
        recorder?.record(frame)
        core.handle(frame)
    }

    func resize(to geometry: WindowGeometry) {
        core.resize(width: Double(geometry.width), height: Double(geometry.height), scale: geometry.scale)
    }

    var needsFrame: Bool { core.needsFrame }

    func damage(width: Int, height: Int, geometry: WindowGeometry) -> [PixelRect]? {
        guard let changed = core.pendingDamage else { return nil }
        guard let r = Canvas.pixelRect(changed, scale: geometry.scale, width: width, height: height) else { return [] }
        return [PixelRect(x: r.x, y: r.y, width: r.w, height: r.h)]
    }

    func draw(into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
              geometry: WindowGeometry, clip: [PixelRect]?) {
        Canvas.draw(core, into: pixels, width: width, height: height, stride: stride, scale: geometry.scale,
                    clip: clip.map { $0.map { (x: $0.x, y: $0.y, w: $0.width, h: $0.height) } })
    }

    var nextDeadline: Double? { core.nextDeadline }
    func advance(to time: Double) { core.advance(to: time) }
    var wakeupFileDescriptors: [Int32] { core.tileWakeupDescriptor.map { [$0] } ?? [] }
    func wakeup(_ fd: Int32) { core.tilesReady() }
    func setSuspended(_ suspended: Bool) {}
}
