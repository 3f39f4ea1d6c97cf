import CCairo
import Foundation
import Geo
import Render
import Tiles

/// `meridian-bench render`: frame times of the map renderer against Mapnik on the same data.
///
/// Twenty fixed viewports from the whole world down to Helsinki street level, at 1280x800,
/// 1920x1200 and 2560x1600 (buffer scale 1), over the shipped MBTiles files:
/// - `warm_pan_frame_ms`: a frame while a finger pans (tiles cached, whole-pixel compositing);
/// - `rotated_warm_pan_frame_ms` (1920x1200 only): the same pan with the map turned to bearing
///   37 (tiles composited into the box around the view, then turned in one pass);
/// - `cold_frame_ms`: the cache emptied, every visible tile read, decoded and drawn on all
///   cores, then composited (`drawSynchronously`); the peer is Mapnik AGG drawing the same
///   view from the same files (scripts/bench/mapnik_render.py), timed around `mapnik.render`
///   only, so Mapnik's figure leaves out reading and decoding while Meridian's includes them.
/// Each view gives one sample (cold: the best of 5 runs, for Mapnik too; warm: the median of
/// 30 pan frames); `median` and `p90` are over the 20 views.
enum RenderBench {
    struct View {
        var name: String
        var latitude: Double
        var longitude: Double
        var zoom: Double
    }

    static let views: [View] = [
        View(name: "world", latitude: 20, longitude: 0, zoom: 2),
        View(name: "europe", latitude: 52, longitude: 15, zoom: 4),
        View(name: "n-america", latitude: 45, longitude: -100, zoom: 3.5),
        View(name: "s-america", latitude: -20, longitude: -60, zoom: 3.5),
        View(name: "africa", latitude: 5, longitude: 20, zoom: 3.5),
        View(name: "asia", latitude: 40, longitude: 95, zoom: 3.5),
        View(name: "japan", latitude: 37, longitude: 138, zoom: 5.5),
        View(name: "indonesia", latitude: -2, longitude: 118, zoom: 5),
        View(name: "scandinavia", latitude: 63, longitude: 15, zoom: 5),
        View(name: "uk-ireland", latitude: 54, longitude: -4, zoom: 6),
        View(name: "aegean", latitude: 38, longitude: 25, zoom: 7),
        View(name: "caribbean", latitude: 16, longitude: -72, zoom: 6),
        View(name: "new-zealand", latitude: -41, longitude: 173, zoom: 6),
        View(name: "gulf-of-finland", latitude: 59.8, longitude: 25, zoom: 7.5),
        View(name: "southern-finland", latitude: 60.4, longitude: 24.9, zoom: 9),
        View(name: "helsinki-region", latitude: 60.2, longitude: 24.94, zoom: 11),
        View(name: "helsinki", latitude: 60.17, longitude: 24.944, zoom: 13),
        View(name: "helsinki-centre", latitude: 60.170, longitude: 24.944, zoom: 15),
        View(name: "helsinki-street", latitude: 60.1685, longitude: 24.9425, zoom: 16.5),
        View(name: "helsinki-block", latitude: 60.1699, longitude: 24.9384, zoom: 17.5),
    ]

    static let sizes: [(width: Int, height: Int)] = [(1280, 800), (1920, 1200), (2560, 1600)]
    static let dataFiles = ["data/world.mbtiles", "data/helsinki.mbtiles"]
    static let coldRuns = 5
    static let panFrames = 30
    static let rotatedSize = "1920x1200"
    static let rotatedBearing = 37.0

    static func run() {
        let paths = dataFiles.filter { FileManager.default.fileExists(atPath: $0) }
        guard !paths.isEmpty else {
            Bench.progress("render: no map data (\(dataFiles.joined(separator: ", "))); run from the repository root")
            return
        }
        var sources: [any VectorTileSource] = []
        var attributions: [MapAttribution] = []
        for path in paths {
            do {
                let source = try MBTilesSource(path: path)
                sources.append(source)
                attributions.append(contentsOf: MapAttribution.of(source))
            } catch {
                Bench.progress("render: \(error)")
                return
            }
        }
        // For profiling one view: MERIDIAN_RENDER_VIEWS=helsinki-street,europe; MERIDIAN_RENDER_PEER=0 skips Mapnik;
        // MERIDIAN_RENDER_WARM=0 skips the pan frames (a profile of cold frames only).
        let env = ProcessInfo.processInfo.environment
        let only = env["MERIDIAN_RENDER_VIEWS"].map { Set($0.split(separator: ",").map(String.init)) }
        let views = Self.views.filter { only?.contains($0.name) ?? true }
        Bench.progress("render: data \(paths.joined(separator: " + ")); \(views.count) views; \(ProcessInfo.processInfo.activeProcessorCount) cores")
        let withPeer = env["MERIDIAN_RENDER_PEER"] != "0" && MapnikPeer.ensureInstalled()
        let withWarm = env["MERIDIAN_RENDER_WARM"] != "0"
        // MERIDIAN_RENDER_ROTATED_ONLY=1: only the 1920x1200 pan figures (north up and turned),
        // one untimed cold frame per view instead of the cold figure.
        let rotatedOnly = env["MERIDIAN_RENDER_ROTATED_ONLY"] == "1"
        // MERIDIAN_RENDER_KEEP_TURNED=0: turn every rotated pan frame afresh (the path before the
        // kept turned frame), for an A/B in one binary.
        let keepTurned = env["MERIDIAN_RENDER_KEEP_TURNED"] != "0"
        // MERIDIAN_RENDER_PAN_STEP=10: pan frames move 10 px (and half that down) instead of 3.
        let panStep = env["MERIDIAN_RENDER_PAN_STEP"].flatMap(Double.init).flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 3
        let withoutLabels = env["MERIDIAN_RENDER_LABELS_AB"] == "1"
        // MERIDIAN_RENDER_MAPLIBRE=0 skips the MapLibre Native peer.
        let maplibre = env["MERIDIAN_RENDER_MAPLIBRE"] != "0" ? MapLibrePeer.python() : nil
        let styleFiles = ["data/styles/world.json", "data/styles/openmaptiles.json"]

        // MERIDIAN_RENDER_SIZES=1920x1200 limits the sizes (a profile of one size).
        let onlySizes = env["MERIDIAN_RENDER_SIZES"].map { Set($0.split(separator: ",").map(String.init)) }
        for size in sizes {
            let label = "\(size.width)x\(size.height)"
            if rotatedOnly, label != rotatedSize { continue }
            if let onlySizes, !onlySizes.contains(label) { continue }
            // Mapnik draws this size's views right before Meridian does, so both see the same
            // machine load (other processes on a shared machine shift both by the same amount).
            let viewList = views.map { [$0.name, $0.latitude, $0.longitude, MapRenderer.crispZoom($0.zoom, scale: 1)] as [Any] }
            let peer = withPeer ? MapnikPeer.measure(sources: paths, sizes: [[size.width, size.height]],
                                                     views: views.map { [$0.name, $0.latitude, $0.longitude, $0.zoom] as [Any] }) : [:]
            let mlPeer = maplibre.map { MapLibrePeer.measure(python: $0, layers: zip(styleFiles, paths).map { [$0, $1] },
                                                              sizes: [[size.width, size.height]], views: viewList) } ?? [:]
            let rasterizer = TileRasterizer(sources: sources)
            var renderer = MapRenderer(cache: TileCache(rasterizer: rasterizer, scale: 1, byteBudget: 64 << 20),
                                       attributions: attributions)
            renderer.keepsTurnedFrames = keepTurned
            // The same map without labels, timed alternately with it (MERIDIAN_RENDER_LABELS_AB=1):
            // what the labels cost, side by side under the same machine load.
            var unlabelled = TileRasterizer(sources: sources)
            unlabelled.extractsLabels = false
            var plain = MapRenderer(cache: TileCache(rasterizer: unlabelled, scale: 1, byteBudget: 64 << 20), attributions: attributions)
            plain.showsLabels = false
            var coldPlain: [Double] = [], warmPlain: [Double] = [], warmPlainCPU: [Double] = []
            let style = rasterizer.style.name
            guard let target = RasterImage(width: size.width, height: size.height), let cr = cairo_create(target.surface) else {
                Bench.progress("render: cannot allocate a \(label) frame")
                return
            }
            defer { cairo_destroy(cr) }
            var cold: [Double] = [], warm: [Double] = [], peerTimes: [Double] = [], mlTimes: [Double] = []
            var rotatedWarm: [Double] = [], warmCPU: [Double] = [], rotatedCPU: [Double] = []
            var placement: [(view: String, ms: Double, labels: Int)] = []
            for view in views {
                // A settled map sits at a crisp zoom (MapRenderer.crispZoom: within 0.3 % of the
                // view's zoom), as the UI leaves it when a pinch ends.
                let camera = MapCamera(center: Coordinate(latitude: view.latitude, longitude: view.longitude),
                                       zoom: MapRenderer.crispZoom(view.zoom, scale: 1),
                                       size: ViewSize(width: Double(size.width), height: Double(size.height)))
                var runs: [Double] = [], plainRuns: [Double] = []
                for run in 0..<(rotatedOnly ? 1 : coldRuns) {
                    // With the labels-off map as well, the two take turns going first.
                    for labelled in withoutLabels ? (run % 2 == 0 ? [true, false] : [false, true]) : [true] {
                        let r = labelled ? renderer : plain
                        r.cache.removeAll()
                        r.resetLabels()
                        let t0 = Bench.now()
                        r.drawSynchronously(camera, into: cr)
                        let ms = Double(Bench.now() - t0) / 1e6
                        if labelled { runs.append(ms) } else { plainRuns.append(ms) }
                    }
                }
                if withoutLabels {
                    coldPlain.append(plainRuns.min() ?? .nan)
                    if withWarm {
                        let (wall, cpu) = panFrames(plain, camera, cr)
                        warmPlain.append(wall)
                        warmPlainCPU.append(cpu)
                    }
                    plain.cache.removeAll()
                }
                // Best of the runs, for both renderers: on a shared machine other processes only
                // ever add time, and the 2-core parallel draw feels them more than Mapnik does.
                cold.append(runs.min() ?? .nan)
                // Placement alone, from scratch, over the tiles the cold frame left cached.
                let placed = (0..<coldRuns).map { _ in renderer.placeLabelsFromScratch(camera) }
                placement.append((view.name, Bench.quantile(placed.map(\.ms), 0.5), placed.first?.count ?? 0))
                if withWarm {
                    let (wall, cpu) = panFrames(renderer, camera, cr, step: panStep)
                    warm.append(wall)
                    warmCPU.append(cpu)
                }
                if withWarm, label == rotatedSize {
                    var turned = camera
                    turned.bearing = rotatedBearing
                    let (wall, cpu) = panFrames(renderer, turned, cr, step: panStep)
                    rotatedWarm.append(wall)
                    rotatedCPU.append(cpu)
                }
                if let p = peer[label]?[view.name] { peerTimes.append(p) }
                if let p = mlPeer[label]?[view.name] { mlTimes.append(p) }
                let off = withoutLabels ? String(format: " (no labels: cold %.2f, warm %.3f)", coldPlain.last ?? 0, warmPlain.last ?? 0) : ""
                Bench.progress(String(format: "render %@ %-17@ cold %7.2f ms  warm pan %5.3f ms  labels %4d placed in %5.2f ms  mapnik %@  maplibre %@%@",
                                      label, view.name, cold.last ?? 0, warm.last ?? 0, placement.last?.labels ?? 0, placement.last?.ms ?? 0,
                                      peer[label]?[view.name].map { String(format: "%7.2f ms", $0) } ?? "-",
                                      mlPeer[label]?[view.name].map { String(format: "%7.2f ms", $0) } ?? "-", off))
            }
            if withWarm {
                Bench.emit([("suite", "render"), ("metric", "warm_pan_frame_ms"), ("size", label), ("style", style),
                            ("median", Bench.quantile(warm, 0.5)), ("p90", Bench.quantile(warm, 0.9)), ("runs", warm.count),
                            ("cpu_median", Bench.quantile(warmCPU, 0.5))])
            }
            if !rotatedWarm.isEmpty {
                Bench.emit([("suite", "render"), ("metric", "rotated_warm_pan_frame_ms"), ("size", label), ("bearing", rotatedBearing),
                            ("median", Bench.quantile(rotatedWarm, 0.5)), ("p90", Bench.quantile(rotatedWarm, 0.9)), ("runs", rotatedWarm.count),
                            ("cpu_median", Bench.quantile(rotatedCPU, 0.5))])
            }
            var coldFields: [(String, Any)] = [("suite", "render"), ("metric", "cold_frame_ms"), ("size", label), ("style", style),
                                               ("median", Bench.quantile(cold, 0.5)), ("p90", Bench.quantile(cold, 0.9)), ("runs", cold.count)]
            if peerTimes.count == views.count {
                let peerMedian = Bench.quantile(peerTimes, 0.5)
                coldFields += [("peer", "mapnik-agg"), ("peer_median", peerMedian), ("ratio", peerMedian / Bench.quantile(cold, 0.5))]
            }
            if !rotatedOnly { Bench.emit(coldFields) }
            if withoutLabels {
                Bench.emit([("suite", "render"), ("metric", "cold_frame_ms"), ("size", label), ("labels", "off"),
                            ("median", Bench.quantile(coldPlain, 0.5)), ("p90", Bench.quantile(coldPlain, 0.9)), ("runs", coldPlain.count)])
                if withWarm {
                    Bench.emit([("suite", "render"), ("metric", "warm_pan_frame_ms"), ("size", label), ("labels", "off"),
                                ("median", Bench.quantile(warmPlain, 0.5)), ("p90", Bench.quantile(warmPlain, 0.9)), ("runs", warmPlain.count),
                                ("cpu_median", Bench.quantile(warmPlainCPU, 0.5))])
                }
            }
            // Per settled view; the densest view (most labels placed) is named with its own time.
            if let dense = placement.max(by: { $0.labels < $1.labels }) {
                Bench.emit([("suite", "render"), ("metric", "label_placement_ms"), ("size", label),
                            ("median", Bench.quantile(placement.map(\.ms), 0.5)), ("p90", Bench.quantile(placement.map(\.ms), 0.9)),
                            ("runs", placement.count), ("dense_view", dense.view), ("dense_labels", dense.labels), ("dense_ms", dense.ms)])
            }
            if mlTimes.count == views.count {
                let mlMedian = Bench.quantile(mlTimes, 0.5)
                Bench.emit([("suite", "render"), ("metric", "cold_frame_ms"), ("size", label), ("style", style),
                            ("median", Bench.quantile(cold, 0.5)), ("p90", Bench.quantile(cold, 0.9)), ("runs", cold.count),
                            ("peer", "maplibre-native-llvmpipe"), ("peer_median", mlMedian), ("ratio", mlMedian / Bench.quantile(cold, 0.5))])
            }
            renderer.cache.shutDown()
            plain.cache.shutDown()
        }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        Bench.emit([("suite", "render"), ("metric", "peak_rss_mb"), ("median", Double(usage.ru_maxrss) / 1024), ("runs", 1)])
    }

    /// The median time of a pan, wall clock and this thread's CPU time (on a shared machine
    /// the CPU time is the steadier figure): the first frame fills the cache for a slightly
    /// larger view, then `panFrames` frames move the map a few pixels each way, as a finger does.
    static func panFrames(_ renderer: MapRenderer, _ camera: MapCamera, _ cr: OpaquePointer, step size: Double = 3) -> (wall: Double, cpu: Double) {
        var margin = camera
        // Past the renderer's kept turned frame's margin too (a turned pan keeps its margin's tiles).
        let grow = Double(64 + 2 * MapRenderer.turnedFrameMargin) + 10 * max(size - 3, 0)
        margin.size = ViewSize(width: camera.size.width + grow, height: camera.size.height + grow)
        renderer.cache.renderNow(renderer.tiles(for: margin))
        var moving = camera
        var times: [Double] = [], cpu: [Double] = []
        for i in 0..<panFrames {
            let step = i % 10 < 5 ? size : -size
            moving.pan(by: ScreenPoint(x: step, y: step / 2))
            let t0 = Bench.now(), c0 = Bench.threadCPUTime()
            renderer.draw(moving, into: cr, moving: true)
            times.append(Double(Bench.now() - t0) / 1e6)
            cpu.append(Double(Bench.threadCPUTime() - c0) / 1e6)
        }
        return (Bench.quantile(times, 0.5), Bench.quantile(cpu, 0.5))
    }
}
