//! Figures (placeholder until the plotting module lands).

use std::path::Path;

/// One box of a box chart.
pub struct BoxSeries {
    /// Method name.
    pub name: String,
    /// Per-page values.
    pub values: Vec<f64>,
}
/// One line of a line chart.
pub struct LineSeries {
    /// Series name.
    pub name: String,
    /// Points.
    pub points: Vec<(f64, f64)>,
}
/// One group of bars.
pub struct Bars {
    /// Group name.
    pub group: String,
    /// Precision.
    pub p: f64,
    /// Recall.
    pub r: f64,
    /// F1.
    pub f1: f64,
}
/// Box chart.
pub fn box_chart(_path: &Path, _title: &str, _y: &str, _series: &[BoxSeries]) -> Result<(), String> {
    Ok(())
}
/// Line chart.
pub fn line_chart(_path: &Path, _title: &str, _x: &str, _y: &str, _series: &[LineSeries]) -> Result<(), String> {
    Ok(())
}
/// Bar chart.
pub fn bar_chart(_path: &Path, _title: &str, _groups: &[Bars]) -> Result<(), String> {
    Ok(())
}
