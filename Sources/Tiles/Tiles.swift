// The Tiles module; see docs/ARCHITECTURE.md.
