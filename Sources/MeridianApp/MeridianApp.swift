import Input
public enum MeridianApp {
    public static func main() {}
}
