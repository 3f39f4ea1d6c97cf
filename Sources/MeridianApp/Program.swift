import Glibc
import Input
import Wayland

/// The program: parses the command line and hands over to the live or headless runner.
public enum MeridianApp {
    public static func main() -> Never {
        exit(run(Array(CommandLine.arguments.dropFirst())))
    }

    /// The exit status for these arguments (contracts.md section 1).
    public static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            printError("meridian: \(error)")
            printError("Try 'meridian --help'.")
            return 2
        }
        switch options.action {
        case .help:
            print(Options.usage)
            return 0
        case .version:
            print("meridian \(Options.version)")
            return 0
        case .run:
            return options.headless ? HeadlessRunner.run(options) : LiveRunner.run(options)
        }
    }
}
