import CWaylandClient

/// A `wl_output`: its integer scale (the fallback when fractional scaling is not offered), its
/// current mode (the window's default size fits the screen; the refresh paces frames when there
/// is no presentation feedback), and when it goes away.
final class Output {
    let globalName: UInt32
    let version: UInt32
    let proxy: OpaquePointer
    private(set) var scale: Int32 = 1
    private var pendingScale: Int32 = 1
    /// The current mode in physical pixels and mHz (0 until the compositor says).
    private(set) var modeWidth: Int32 = 0
    private(set) var modeHeight: Int32 = 0
    private(set) var refreshMilliHertz: Int32 = 0
    /// `wl_output.transform`: odd values (90°, 270° and their flips) swap width and height.
    private(set) var transform: Int32 = 0
    var onChange: (() -> Void)?

    init(globalName: UInt32, version: UInt32, proxy: OpaquePointer) {
        self.globalName = globalName
        self.version = version
        self.proxy = proxy
        wl_output_add_listener(proxy, Output.listener.pointer, opaque(self))
    }

    /// The output's size in logical px as a window sees it (mode over scale, rotated), or nil
    /// before the compositor has sent a mode.
    var logicalSize: (width: Int, height: Int)? {
        guard modeWidth > 0, modeHeight > 0 else { return nil }
        let w = Int(modeWidth / scale), h = Int(modeHeight / scale)
        return transform % 2 == 1 ? (h, w) : (w, h)
    }

    func destroy() {
        if version >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
    }

    static let listener = ListenerTable(wl_output_listener(
        geometry: { data, _, _, _, _, _, _, _, _, transform in
            owner(data, as: Output.self)?.transform = max(0, min(transform, 7))
        },
        mode: { data, _, flags, width, height, refresh in
            guard let o = owner(data, as: Output.self), flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 else { return }
            o.modeWidth = max(0, min(width, 65536))
            o.modeHeight = max(0, min(height, 65536))
            o.refreshMilliHertz = max(0, min(refresh, 1_000_000))
        },
        done: { data, _ in
            guard let o = owner(data, as: Output.self) else { return }
            if o.scale != o.pendingScale {
                o.scale = o.pendingScale
                o.onChange?()
            }
        },
        scale: { data, _, factor in
            guard let o = owner(data, as: Output.self) else { return }
            // A compositor sending 0 or a negative scale is broken; treat it as 1 rather than divide by it.
            o.pendingScale = max(1, min(factor, 16))
            if o.version < 2 { o.scale = o.pendingScale }
        },
        name: { _, _, _ in },
        description: { _, _, _ in }
    ))
}
