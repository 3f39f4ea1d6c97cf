import Geo
import Glibc
import Places

// places-save-loop FILE: opens the places file and saves it for ever, alternating between two
// versions (every place renamed "A <n>" or "B <n>" and moved a little), until it is killed.
// PlacesTests.CrashSafetyTests kills it with SIGKILL at random moments and checks that FILE is
// always one whole version. It prints "ready" once the first save is on disk.
//
// places-save-loop --file-size-limit BYTES FILE: renames the first place and saves once with
// the process's file size limit (RLIMIT_FSIZE) set to BYTES, as a full disk would refuse the
// write; prints the save's result. The test checks the file and its folder are as they were.

/// One line, unbuffered: the test reads "ready" through a pipe.
func say(_ line: String, to fd: Int32) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--file-size-limit", let limit = UInt64(arguments[2]) {
    let document: PlacesDocument
    do {
        document = try PlacesDocument(path: arguments[3])
    } catch {
        say("places-save-loop: \(error)", to: 2)
        exit(2)
    }
    // Past the limit write() fails with EFBIG instead of the process getting SIGXFSZ.
    signal(SIGXFSZ, SIG_IGN)
    var rl = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
    guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &rl) == 0, let first = document.places.first else { exit(1) }
    document.rename(first.id, to: String(repeating: "a long new name ", count: 64))
    let result = document.save()
    say("\(result) dirty=\(document.isDirty)", to: 1)
    exit(0)
}
guard arguments.count == 2 else {
    say("usage: places-save-loop FILE", to: 2)
    exit(2)
}
let document: PlacesDocument
do {
    document = try PlacesDocument(path: arguments[1])
} catch {
    say("places-save-loop: \(error)", to: 2)
    exit(2)
}
let original = document.places
var round = 0
while true {
    let letter = round % 2 == 0 ? "A" : "B"
    for (n, place) in original.enumerated() {
        document.rename(place.id, to: "\(letter) \(n)")
        let shift = round % 2 == 0 ? 0.001 : 0
        document.move(place.id, to: Coordinate(latitude: place.coordinate.latitude + shift, longitude: place.coordinate.longitude))
    }
    let result = document.save()
    guard result == .saved else {
        say("places-save-loop: \(result)", to: 2)
        exit(1)
    }
    if round == 0 {
        say("ready", to: 1)
    }
    round += 1
}
