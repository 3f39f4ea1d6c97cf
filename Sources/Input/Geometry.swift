// Input's positions are the shared geometry's `Point` (module Geometry); every importer of
// Input sees it as before.
@_exported import Geometry
