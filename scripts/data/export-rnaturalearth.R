# Writes Natural Earth 50m countries and coastline from the Debian package r-cran-rnaturalearthdata
# as plain text, because the package stores them as R `sp` objects that nothing outside R can read.
# Usage: Rscript export-rnaturalearth.R OUTDIR
# Format (one record per line, tab-separated, coordinates with 7 decimals = about 1 cm):
#   F <TAB> name            starts a feature
#   P <TAB> 0|1             starts a polygon ring (1 = hole) of the current feature
#   L                       starts a line part of the current feature
#   <lon> <TAB> <lat>       a vertex of the current ring or line part
suppressPackageStartupMessages(library(sp))
args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 1) stop("usage: Rscript export-rnaturalearth.R OUTDIR")
outdir <- args[[1]]

vertices <- function(m) paste(sprintf("%.7f", m[, 1]), sprintf("%.7f", m[, 2]), sep = "\t")

write_polygons <- function(obj, path) {
  out <- character(0)
  names <- as.character(obj@data$name)
  for (i in seq_along(obj@polygons)) {
    out <- c(out, paste("F", names[[i]], sep = "\t"))
    for (ring in obj@polygons[[i]]@Polygons) {
      out <- c(out, paste("P", if (ring@hole) "1" else "0", sep = "\t"), vertices(ring@coords))
    }
  }
  writeLines(enc2utf8(out), path, useBytes = TRUE)
}

write_lines <- function(obj, path) {
  out <- character(0)
  for (i in seq_along(obj@lines)) {
    out <- c(out, "F\t")
    for (part in obj@lines[[i]]@Lines) out <- c(out, "L", vertices(part@coords))
  }
  writeLines(out, path, useBytes = TRUE)
}

write_polygons(rnaturalearthdata::countries50, file.path(outdir, "countries50.txt"))
write_lines(rnaturalearthdata::coastline50, file.path(outdir, "coastline50.txt"))
