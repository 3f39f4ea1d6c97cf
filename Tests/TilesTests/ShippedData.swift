/// Where the map data shipped in the repository lives (data/, from the data preparation
/// scripts), found from this source file so the tests run from any working directory.
enum ShippedData {
    static let directory: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // ShippedData.swift, TilesTests, Tests
        return parts.joined(separator: "/") + "/data"
    }()

    static var world: String { directory + "/world.mbtiles" }
    static var helsinki: String { directory + "/helsinki.mbtiles" }
}
