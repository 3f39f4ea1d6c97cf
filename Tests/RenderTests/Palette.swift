/// Colours of the shipped styles (data/styles/*.json) the tests look for at known pixels:
/// the world and OpenMapTiles styles share one palette.
enum Palette {
    static let land: UInt32 = 0xF2EFE9
    static let water: UInt32 = 0xA8CBE0
    static let park: UInt32 = 0xCFE5C0
    static let building: UInt32 = 0xDBD2CA
    static let motorway: UInt32 = 0xF7CC8F
    static let background: UInt32 = 0xA8CBE0
}
