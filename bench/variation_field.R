# variation_field.R - R RandomFields side of the variation benchmark (bench/variation.cmake).
# Simulates the systematic field rfdse uses (spherical correlation, range PHI, on a ROWS x
# COLS grid of spacing 1/COLS domain widths) with circulant embedding, NFIELDS times, and
# prints the CPU seconds per field and the empirical semivariogram along the rows.
# Usage: Rscript variation_field.R ROWS COLS PHI NFIELDS
# Exit status 3 when RandomFields is not installed (the benchmark then skips).
args <- commandArgs(trailingOnly = TRUE)
rows <- as.integer(args[1]); cols <- as.integer(args[2])
phi <- as.numeric(args[3]); nfields <- as.integer(args[4])
if (!suppressWarnings(suppressMessages(requireNamespace("RandomFields", quietly = TRUE)))) quit(status = 3)
suppressMessages(library(RandomFields))
RFoptions(spConform = FALSE, seed = NA, printlevel = 0, cPrintlevel = 0)
x <- (0:(cols - 1)) / cols
y <- (0:(rows - 1)) / cols
model <- RPcirculant(RMspheric(var = 1, scale = phi))
z <- RFsimulate(model, x = x, y = y, grid = TRUE, n = 1) # first call: embedding and FFT plan
t <- system.time(z <- RFsimulate(model, x = x, y = y, grid = TRUE, n = nfields))
if (length(dim(z)) == 2) z <- array(z, c(dim(z), 1))
cat(sprintf("seconds_per_field %.6g\n", t[["user.self"]] / nfields))
# z is [x][y][field]; lag along x (the long side) in grid steps
for (d in 1:(cols %/% 2)) {
  diff <- z[(1 + d):cols, , , drop = FALSE] - z[1:(cols - d), , , drop = FALSE]
  cat(sprintf("%d %.6f\n", d, 0.5 * mean(diff^2)))
}
