import Testing
@testable import Tiles

/// The MBTiles `center` row ("lon,lat[,zoom]", what tilemaker and GDAL write) is where `--data`
/// opens a file without `--center`; a damaged one is ignored (the file still opens, on its
/// bounds), never refused.
@Suite struct MBTilesCenterTests {
    static let base = ["format": "pbf", "minzoom": "0", "maxzoom": "14"]

    static func center(_ text: String?) throws -> MBTilesMetadata.Center? {
        var values = base
        values["center"] = text
        return try MBTilesMetadata.parse(values, file: "city.mbtiles", tableZooms: { (0, 14) }).center
    }

    @Test func aCentreWithAZoomIsReadAsLongitudeLatitudeZoom() throws {
        let c = try #require(try Self.center("24.9443,60.1716,14"))
        #expect(c.longitude == 24.9443 && c.latitude == 60.1716 && c.zoom == 14)
        let spaced = try #require(try Self.center(" 24.9443 , 60.1716 "))
        #expect(spaced.longitude == 24.9443 && spaced.latitude == 60.1716 && spaced.zoom == nil)
    }

    @Test(arguments: ["", "abc", "24.9", "200,60,3", "24,95", "nan,60", "inf,1,2"])
    func aDamagedCentreIsIgnoredAndTheFileStillOpens(_ text: String) throws {
        #expect(try Self.center(text) == nil)
    }
}
