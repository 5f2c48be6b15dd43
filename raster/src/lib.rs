//! csir-raster
