import Input
import Wayland

/// Runs the app in a window under the current compositor.
public enum LiveRunner {
    public static func run(_ options: Options) -> Int32 {
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
        let app = LiveApp(scene: Scene(width: Double(options.width), height: Double(options.height)), recorder: recorder)
        var window = WindowOptions()
        window.width = options.width
        window.height = options.height
        window.fullscreen = options.fullscreen
        do {
            try client.run(app, options: window)
        } catch {
            printError("meridian: \(error)")
            return 1
        }
        if let out = options.stateOut {
            do {
                try OutputFile.write(out, text: StateDump.json(scene: app.scene, scale: app.scale))
            } catch {
                printError("meridian: \(error)")
                return 1
            }
        }
        return 0
    }
}

/// Adapts the scene to the Wayland layer's expectations.
final class LiveApp: WaylandApp {
    let scene: Scene
    let recorder: TraceRecorder?
    private(set) var scale = 1.0

    init(scene: Scene, recorder: TraceRecorder?) {
        self.scene = scene
        self.recorder = recorder
    }

    func handle(_ frame: InputFrame) {
        recorder?.record(frame)
        scene.handle(frame)
    }

    func resize(to geometry: WindowGeometry) {
        scale = geometry.scale
        scene.resize(width: Double(geometry.width), height: Double(geometry.height))
    }

    var needsFrame: Bool { scene.needsFrame }

    func draw(into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
              geometry: WindowGeometry) -> [PixelRect]? {
        guard let changed = Canvas.draw(scene, into: pixels, width: width, height: height, stride: stride,
                                        scale: geometry.scale)
        else { return nil }
        guard let r = Canvas.pixelRect(changed, scale: geometry.scale, width: width, height: height) else { return [] }
        return [PixelRect(x: r.x, y: r.y, width: r.w, height: r.h)]
    }

    var nextDeadline: Double? { scene.nextDeadline }
    func advance(to time: Double) { scene.advance(to: time) }
    var wakeupFileDescriptors: [Int32] { [] }
    func wakeup(_ fd: Int32) {}
    func setSuspended(_ suspended: Bool) {}
}
