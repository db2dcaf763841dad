//! Figures: the evaluation charts of the Forest paper, written as standalone SVG files.
//!
//! [`box_chart`] draws the per-page F1 distribution of several methods (Fig. 4),
//! [`line_chart`] draws curves such as F1 against the number of training pages (Fig. 5/6) and
//! [`bar_chart`] draws precision, recall and F1 of several variants side by side (Fig. 7).
//! Every chart has a title, labelled axes, a y axis from 0 to 1 and a key that explains it
//! (a legend, or a one-line note under a box chart), so a newcomer can read it in a browser
//! without the paper at hand. Drawing uses `plotters` with its SVG backend only: text is written
//! as SVG `<text>` elements in the `sans-serif` family and laid out by the browser, so no font
//! file or system font library is needed. Text widths are estimated when the layout is made,
//! so the canvas grows with the number and length of names instead of letting them overlap.
//!
//! Values outside 0..=1 are drawn at the nearest edge of the y axis; NaN and infinite values
//! are skipped. A chart with nothing to draw at all is an error, a single empty series is not:
//! it keeps its place (or legend entry) and is marked "no data".

use std::path::Path;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::drawing::DrawingAreaErrorKind;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One box of a box chart: a method and its per-page values (F1 in 0..=1).
#[derive(Debug, Clone, PartialEq)]
pub struct BoxSeries {
    /// Method name, written under the box.
    pub name: String,
    /// One value per page; non-finite values are ignored.
    pub values: Vec<f64>,
}

/// One line of a line chart.
#[derive(Debug, Clone, PartialEq)]
pub struct LineSeries {
    /// Name shown in the legend.
    pub name: String,
    /// `(x, y)` points; joined in increasing x order, non-finite points are skipped.
    pub points: Vec<(f64, f64)>,
}

/// One group of a grouped bar chart: precision, recall, F1 of one variant.
#[derive(Debug, Clone, PartialEq)]
pub struct Bars {
    /// Variant name, written under its three bars.
    pub group: String,
    /// Precision in 0..=1.
    pub p: f64,
    /// Recall in 0..=1.
    pub r: f64,
    /// F1 in 0..=1.
    pub f1: f64,
}

// ---------------------------------------------------------------------------------------------
// Layout constants (plotters font sizes; the SVG font-size is this divided by 1.24).

const FONT: &str = "sans-serif";
const TITLE_SIZE: f64 = 28.0;
const DESC_SIZE: f64 = 20.0;
const TICK_SIZE: f64 = 17.0;
const NAME_SIZE: f64 = 18.0;
const SMALL_SIZE: f64 = 15.0;
const LEGEND_SIZE: f64 = 17.0;

const HEIGHT: u32 = 600;
const MARGIN: u32 = 20;
const Y_LABEL_AREA: u32 = 80;
/// Widest a category slot (box or bar group) gets; longer names are shortened with "…".
const MAX_SLOT: f64 = 220.0;
/// Widest a legend gets; longer names are shortened with "…".
const MAX_LEGEND: f64 = 320.0;

const TEXT: RGBColor = RGBColor(30, 30, 30);
const MUTED: RGBColor = RGBColor(95, 95, 95);
const GRID: RGBColor = RGBColor(225, 225, 225);

/// Tableau 10: distinct hues that stay apart for common colour blindness.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Any error plotters' SVG backend can report.
type DrawError = DrawingAreaErrorKind<std::io::Error>;
/// The root drawing area (pixel coordinates, origin top left).
type Root<'a> = DrawingArea<SVGBackend<'a>, Shift>;

// ---------------------------------------------------------------------------------------------
// Statistics.

/// The numbers one box shows.
#[derive(Debug, Clone, Copy, PartialEq)]
struct BoxStats {
    p09: f64,
    q1: f64,
    median: f64,
    q3: f64,
    p91: f64,
    mean: f64,
    n: usize,
}

/// Percentile `p` (0..=100) of sorted, non-empty `sorted`, by linear interpolation between
/// order statistics (numpy's default `linear` method).
fn percentile(sorted: &[f64], p: f64) -> f64 {
    debug_assert!(!sorted.is_empty());
    let h = (sorted.len() - 1) as f64 * (p / 100.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Box statistics of the finite values, `None` when there are none.
fn box_stats(values: &[f64]) -> Option<BoxStats> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(BoxStats {
        p09: percentile(&v, 9.0),
        q1: percentile(&v, 25.0),
        median: percentile(&v, 50.0),
        q3: percentile(&v, 75.0),
        p91: percentile(&v, 91.0),
        mean: v.iter().sum::<f64>() / v.len() as f64,
        n: v.len(),
    })
}

// ---------------------------------------------------------------------------------------------
// Text helpers.

/// Rough rendered width in pixels of `text` at plotters font `size` in a sans-serif face
/// (the SVG font-size is `size / 1.24`; an average glyph is about 0.6 em wide).
fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size / 1.24 * 0.6
}

/// `text` shortened with "…" so that it is at most `max_px` wide.
fn fit(text: &str, size: f64, max_px: f64) -> String {
    if text_width(text, size) <= max_px {
        return text.to_string();
    }
    let keep = ((max_px / (size / 1.24 * 0.6)) as usize).saturating_sub(1).max(1);
    let mut out: String = text.chars().take(keep).collect();
    out.push('…');
    out
}

fn style(size: f64, color: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    TextStyle { font: (FONT, size).into_font(), color: color.to_backend_color(), pos: Pos::new(h, v) }
}

/// Tick label of an axis value: integers without decimals, others with at most 3.
fn tick(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round())
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

// ---------------------------------------------------------------------------------------------
// Shared drawing.

/// Draws with `draw` on a white `width`×`height` canvas and writes the SVG to `path`
/// (creating its parent directory).
fn render(
    path: &Path,
    what: &str,
    (width, height): (u32, u32),
    draw: impl FnOnce(&Root<'_>) -> Result<(), DrawError>,
) -> crate::Result<()> {
    let io = |path: &Path, source: std::io::Error| crate::Error::Io { path: path.to_path_buf(), source };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE)
            .and_then(|()| draw(&root))
            .and_then(|()| root.present())
            .map_err(|e| io(path, std::io::Error::other(format!("drawing {what}: {e}"))))?;
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| io(path, e))?;
    }
    std::fs::write(path, svg).map_err(|e| io(path, e))
}

/// The title centered on top; returns the area under it.
fn titled<'a>(root: &Root<'a>, title: &str) -> Result<Root<'a>, DrawError> {
    let width = root.dim_in_pixel().0 as f64;
    root.margin(12, 0, 0, 0)
        .titled(&fit(title, TITLE_SIZE, width - 2.0 * MARGIN as f64), (FONT, TITLE_SIZE).into_font().color(&TEXT))
}

/// A marker shape, cycled through so that lines stay apart in grey print too.
fn draw_marker(root: &Root<'_>, (x, y): (i32, i32), shape: usize, color: RGBColor) -> Result<(), DrawError> {
    let fill = color.filled();
    let line = color.stroke_width(2);
    match shape % 8 {
        0 => root.draw(&Circle::new((x, y), 5, fill)),
        1 => root.draw(&Rectangle::new([(x - 5, y - 5), (x + 5, y + 5)], fill)),
        2 => root.draw(&Polygon::new(vec![(x, y - 7), (x + 6, y + 4), (x - 6, y + 4)], fill)),
        3 => root.draw(&Polygon::new(vec![(x, y - 7), (x + 7, y), (x, y + 7), (x - 7, y)], fill)),
        4 => root.draw(&Cross::new((x, y), 5, line)),
        5 => root.draw(&Circle::new((x, y), 5, line)),
        6 => root.draw(&Rectangle::new([(x - 5, y - 5), (x + 5, y + 5)], line)),
        _ => root.draw(&Polygon::new(vec![(x, y + 7), (x + 6, y - 4), (x - 6, y - 4)], fill)),
    }
}

/// What a legend entry shows before its name.
enum Key {
    /// A line with a marker (line chart).
    Line(RGBColor, usize),
    /// A filled square (bar chart).
    Swatch(RGBColor),
}

const LEGEND_ROW: i32 = 26;
const LEGEND_KEY: i32 = 34;

/// Canvas height that leaves room for a legend of `rows` entries beside the plot.
fn height_for_legend(rows: usize) -> u32 {
    let rows = u32::try_from(rows).unwrap_or(u32::MAX);
    let legend = (LEGEND_ROW as u32).saturating_mul(rows).saturating_add(12);
    HEIGHT.max(legend.saturating_add(160))
}

/// Legend width for these names, capped at [`MAX_LEGEND`].
fn legend_width(names: &[&str]) -> f64 {
    let widest = names.iter().map(|n| text_width(n, LEGEND_SIZE)).fold(0.0, f64::max);
    (widest + LEGEND_KEY as f64 + 30.0).clamp(120.0, MAX_LEGEND)
}

/// A framed legend whose top left corner is at `(x, y)`.
fn draw_legend(root: &Root<'_>, (x, y): (i32, i32), width: i32, entries: &[(String, Key)]) -> Result<(), DrawError> {
    let height = LEGEND_ROW * entries.len() as i32 + 12;
    root.draw(&Rectangle::new([(x, y), (x + width, y + height)], WHITE.filled()))?;
    root.draw(&Rectangle::new([(x, y), (x + width, y + height)], MUTED.stroke_width(1)))?;
    let text_max = (width - LEGEND_KEY - 22) as f64;
    for (i, (name, key)) in entries.iter().enumerate() {
        let cy = y + 6 + LEGEND_ROW * i as i32 + LEGEND_ROW / 2;
        let kx = x + 10;
        match key {
            Key::Line(color, shape) => {
                root.draw(&PathElement::new(vec![(kx, cy), (kx + LEGEND_KEY - 6, cy)], color.stroke_width(2)))?;
                draw_marker(root, (kx + (LEGEND_KEY - 6) / 2, cy), *shape, *color)?;
            }
            Key::Swatch(color) => {
                root.draw(&Rectangle::new([(kx + 4, cy - 8), (kx + 20, cy + 8)], color.filled()))?;
            }
        }
        root.draw_text(
            &fit(name, LEGEND_SIZE, text_max),
            &style(LEGEND_SIZE, TEXT, HPos::Left, VPos::Center),
            (kx + LEGEND_KEY + 4, cy),
        )?;
    }
    Ok(())
}

/// Configures the mesh shared by all charts: horizontal grid lines, y ticks 0.0..1.0.
fn y_unit_mesh(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    x_label: Option<&str>,
    y_label: &str,
) -> Result<(), DrawError> {
    let y_fmt = |v: &f64| format!("{v:.1}");
    let x_fmt = |v: &f64| tick(*v);
    let mut mesh = chart.configure_mesh();
    mesh.y_labels(11)
        .y_label_formatter(&y_fmt)
        .y_desc(y_label)
        .bold_line_style(GRID.stroke_width(1))
        .light_line_style(TRANSPARENT)
        .axis_style(MUTED.stroke_width(1))
        .label_style((FONT, TICK_SIZE).into_font().color(&TEXT))
        .axis_desc_style((FONT, DESC_SIZE).into_font().color(&TEXT));
    match x_label {
        Some(x_label) => {
            mesh.disable_x_mesh().x_labels(10).x_label_formatter(&x_fmt).x_desc(x_label);
        }
        None => {
            mesh.disable_x_mesh().x_labels(0);
        }
    }
    mesh.draw()
}

/// Best split of `text` into two lines after a separator (`-`, `_`, `/`, `.`, `:` stay on the
/// first line, a space is dropped): the one whose wider line is narrowest.
fn split2(text: &str, size: f64) -> Option<(String, String)> {
    let chars: Vec<char> = text.chars().collect();
    (1..chars.len())
        .filter(|&i| matches!(chars[i - 1], '-' | '_' | '/' | '.' | ':' | ' '))
        .map(|i| {
            let a: String = chars[..i].iter().collect::<String>().trim_end().to_string();
            let b: String = chars[i..].iter().collect();
            (a, b)
        })
        .filter(|(a, b)| !a.is_empty() && !b.is_empty())
        .min_by(|x, y| {
            let wx = text_width(&x.0, size).max(text_width(&x.1, size));
            let wy = text_width(&y.0, size).max(text_width(&y.1, size));
            wx.total_cmp(&wy)
        })
}

/// Layout of the categories (boxes or bar groups) along the x axis.
struct Categories {
    /// Canvas width.
    width: u32,
    /// Width of one category in pixels.
    slot: f64,
    /// Each name as the one or two lines written under its category.
    labels: Vec<Vec<String>>,
    /// Most lines any name needs.
    lines: usize,
}

/// Lays out `names` in slots at least `min_slot` wide (and wide enough for `other_px` of
/// other text); names too long for [`MAX_SLOT`] go on two lines, shortened with "…" if still
/// too long. `extra` is added to the canvas width (room for a legend).
fn categories(names: &[&str], min_slot: f64, other_px: f64, extra: f64) -> Categories {
    const PAD: f64 = 30.0;
    let one = |n: &str| text_width(n, NAME_SIZE) + PAD;
    let two =
        |n: &str| split2(n, NAME_SIZE).map(|(a, b)| text_width(&a, NAME_SIZE).max(text_width(&b, NAME_SIZE)) + PAD);
    let need = names
        .iter()
        .map(|n| if one(n) <= MAX_SLOT { one(n) } else { two(n).map_or(one(n), |t| t.min(one(n))) })
        .fold(0.0, f64::max);
    let slot = need.max(other_px + PAD).clamp(min_slot, MAX_SLOT);
    let labels: Vec<Vec<String>> = names
        .iter()
        .map(|n| {
            if one(n) <= slot {
                return vec![n.to_string()];
            }
            match split2(n, NAME_SIZE) {
                Some((a, b)) => vec![fit(&a, NAME_SIZE, slot - 8.0), fit(&b, NAME_SIZE, slot - 8.0)],
                None => vec![fit(n, NAME_SIZE, slot - 8.0)],
            }
        })
        .collect();
    let lines = labels.iter().map(Vec::len).max().unwrap_or(1);
    let plot = (slot * names.len() as f64).max(560.0);
    let width = (plot + (Y_LABEL_AREA + 2 * MARGIN) as f64 + extra).ceil() as u32;
    Categories { width, slot, labels, lines }
}

/// Height of one line of category names.
const NAME_LINE: i32 = 22;

/// Writes the lines of a category name centered under `(x, y)` (a point on the x axis);
/// returns the y under the last line.
fn draw_name(root: &Root<'_>, lines: &[String], (x, y): (i32, i32)) -> Result<i32, DrawError> {
    let mut y = y + 10;
    for line in lines {
        root.draw_text(line, &style(NAME_SIZE, TEXT, HPos::Center, VPos::Top), (x, y))?;
        y += NAME_LINE;
    }
    Ok(y)
}

// ---------------------------------------------------------------------------------------------
// The charts.

/// The key of a box chart, written under it (on two lines when the chart is narrow).
const BOX_NOTE: [&str; 5] = [
    "box: 25th–75th percentile",
    "thick line: median",
    "dot: mean",
    "whiskers: 9th–91st percentile",
    "n: number of pages",
];

/// Fig. 4 style: one box per series; whiskers at the 9th and 91st percentiles, box at 25th–75th, line at the median (percentiles by linear interpolation between order statistics, like numpy's default); y axis 0..1; the mean shown as a dot; series names on the x axis.
///
/// Under each name the chart writes the number of (finite) values and their mean; a note at
/// the bottom explains the box. A series without finite values keeps its place, marked
/// "no data". Errors (no series at all, drawing or writing failed) name `path`.
pub fn box_chart(path: &Path, title: &str, y_label: &str, series: &[BoxSeries]) -> crate::Result<()> {
    if series.is_empty() {
        return Err(crate::Error::Invalid(format!("box chart {}: no series to draw", path.display())));
    }
    let stats: Vec<Option<BoxStats>> = series.iter().map(|s| box_stats(&s.values)).collect();
    let subs: Vec<String> = stats
        .iter()
        .map(|s| match s {
            Some(s) => format!("n={} · mean {:.3}", s.n, s.mean),
            None => "n=0".to_string(),
        })
        .collect();
    let sub_px = subs.iter().map(|s| text_width(s, SMALL_SIZE)).fold(0.0, f64::max);
    let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
    let Categories { width, slot, labels, lines } = categories(&names, 110.0, sub_px, 0.0);
    let n = series.len() as f64;

    render(path, "box chart", (width, HEIGHT), |root| {
        let (body, note) = root.split_vertically(HEIGHT - 44);
        let body = titled(&body, title)?;
        let mut chart = ChartBuilder::on(&body)
            .margin(MARGIN)
            .x_label_area_size(30 + NAME_LINE as u32 * (lines as u32 + 1))
            .y_label_area_size(Y_LABEL_AREA)
            .build_cartesian_2d(-0.5..n - 0.5, 0.0..1.0)?;
        y_unit_mesh(&mut chart, None, y_label)?;

        let (xs, _) = chart.plotting_area().get_pixel_range();
        let px_per_unit = f64::from(xs.end - xs.start) / n;
        // Box half-width: 30% of the slot, but never wider than 45 px.
        let half = 0.3f64.min(45.0 / px_per_unit);
        let at = |x: f64, y: f64| chart.backend_coord(&(x, y.clamp(0.0, 1.0)));

        for (i, st) in stats.iter().enumerate() {
            let c = i as f64;
            let (name_x, name_y) = at(c, 0.0);
            let below = draw_name(root, &labels[i], (name_x, name_y))?;
            root.draw_text(
                &fit(&subs[i], SMALL_SIZE, slot - 8.0),
                &style(SMALL_SIZE, MUTED, HPos::Center, VPos::Top),
                (name_x, below + 2),
            )?;
            let Some(st) = st else {
                root.draw_text("no data", &style(SMALL_SIZE, MUTED, HPos::Center, VPos::Bottom), at(c, 0.03))?;
                continue;
            };
            let color = PALETTE[i % PALETTE.len()];
            let edge = color.stroke_width(2);
            let dark = TEXT.stroke_width(1);
            // Whiskers with caps.
            for (end, inner) in [(st.p09, st.q1), (st.p91, st.q3)] {
                root.draw(&PathElement::new(vec![at(c, end), at(c, inner)], dark))?;
                let cap = half * 0.5;
                root.draw(&PathElement::new(vec![at(c - cap, end), at(c + cap, end)], dark))?;
            }
            // Box (at least 2 px high so that a degenerate box is still visible).
            let (x0, mut y0) = at(c - half, st.q3);
            let (x1, mut y1) = at(c + half, st.q1);
            if y1 - y0 < 2 {
                y0 -= 1;
                y1 += 1;
            }
            root.draw(&Rectangle::new([(x0, y0), (x1, y1)], color.mix(0.35).filled()))?;
            root.draw(&Rectangle::new([(x0, y0), (x1, y1)], edge))?;
            // Median and mean.
            root.draw(&PathElement::new(vec![at(c - half, st.median), at(c + half, st.median)], TEXT.stroke_width(3)))?;
            let m = at(c, st.mean);
            root.draw(&Circle::new(m, 6, WHITE.filled()))?;
            root.draw(&Circle::new(m, 4, TEXT.filled()))?;
        }

        let lines: &[&str] = if text_width(BOX_NOTE.join(" · ").as_str(), SMALL_SIZE) + 40.0 < width as f64 {
            &[&BOX_NOTE.join(" · ")]
        } else {
            &[&BOX_NOTE[..3].join(" · "), &BOX_NOTE[3..].join(" · ")]
        };
        let top = if lines.len() == 1 { 16 } else { 6 };
        for (k, line) in lines.iter().enumerate() {
            note.draw_text(
                line,
                &style(SMALL_SIZE, MUTED, HPos::Center, VPos::Center),
                (width as i32 / 2, top + 20 * k as i32),
            )?;
        }
        Ok(())
    })
}

/// Fig. 5/6 style: lines with markers, legend, x and y axis labels; y axis 0..1; x from the data.
///
/// Each series gets its own colour and marker shape; points are joined in increasing x order.
/// The legend sits to the right of the plot, so it never covers data. A series without finite
/// points is listed in the legend as "(no data)". Errors (no series at all, drawing or writing
/// failed) name `path`.
pub fn line_chart(path: &Path, title: &str, x_label: &str, y_label: &str, series: &[LineSeries]) -> crate::Result<()> {
    if series.is_empty() {
        return Err(crate::Error::Invalid(format!("line chart {}: no series to draw", path.display())));
    }
    let lines: Vec<Vec<(f64, f64)>> = series
        .iter()
        .map(|s| {
            let mut pts: Vec<(f64, f64)> =
                s.points.iter().copied().filter(|(x, y)| x.is_finite() && y.is_finite()).collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            pts
        })
        .collect();
    let (lo, hi) =
        lines.iter().flatten().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &(x, _)| (lo.min(x), hi.max(x)));
    let (lo, hi) = if lo > hi {
        (0.0, 1.0) // no point at all: an empty frame.
    } else if hi - lo < 1e-12 {
        (lo - 1.0, hi + 1.0)
    } else {
        (lo, hi)
    };
    let pad = (hi - lo) * 0.04;
    let x_range = (lo - pad)..(hi + pad);
    if !(x_range.start.is_finite() && x_range.end.is_finite()) {
        return Err(crate::Error::Invalid(format!("line chart {}: x values too large to draw", path.display())));
    }

    let names: Vec<String> = series
        .iter()
        .zip(&lines)
        .map(|(s, l)| if l.is_empty() { format!("{} (no data)", s.name) } else { s.name.clone() })
        .collect();
    let legend_w = legend_width(&names.iter().map(String::as_str).collect::<Vec<_>>());
    let width = (820.0 + legend_w).ceil() as u32;
    let height = height_for_legend(series.len());

    render(path, "line chart", (width, height), |root| {
        let body = titled(root, title)?;
        let (plot_area, _) = body.split_horizontally(width - legend_w as u32 - 10);
        let mut chart = ChartBuilder::on(&plot_area)
            .margin(MARGIN)
            .x_label_area_size(58)
            .y_label_area_size(Y_LABEL_AREA)
            .build_cartesian_2d(x_range.clone(), 0.0..1.0)?;
        y_unit_mesh(&mut chart, Some(x_label), y_label)?;
        let at = |x: f64, y: f64| chart.backend_coord(&(x, y.clamp(0.0, 1.0)));

        let mut entries = Vec::new();
        for (i, (line, name)) in lines.iter().zip(names).enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let pixels: Vec<(i32, i32)> = line.iter().map(|&(x, y)| at(x, y)).collect();
            root.draw(&PathElement::new(pixels.clone(), color.stroke_width(2)))?;
            for p in pixels {
                draw_marker(root, p, i, color)?;
            }
            entries.push((name, Key::Line(color, i)));
        }
        let (xs, ys) = chart.plotting_area().get_pixel_range();
        draw_legend(root, (xs.end + 16, ys.start), legend_w as i32, &entries)
    })
}

/// Fig. 7 style: for each group three bars (P, R, F1) side by side, legend, y axis 0..1.
///
/// Each bar carries its value on top; a non-finite value leaves its bar out, marked "n/a".
/// The legend sits to the right of the plot. Errors (no group at all, drawing or writing
/// failed) name `path`.
pub fn bar_chart(path: &Path, title: &str, groups: &[Bars]) -> crate::Result<()> {
    if groups.is_empty() {
        return Err(crate::Error::Invalid(format!("bar chart {}: no groups to draw", path.display())));
    }
    let metrics = [("Precision", PALETTE[0]), ("Recall", PALETTE[1]), ("F1", PALETTE[2])];
    let legend_w = legend_width(&metrics.iter().map(|m| m.0).collect::<Vec<_>>());
    let names: Vec<&str> = groups.iter().map(|g| g.group.as_str()).collect();
    let Categories { width, labels, lines, .. } = categories(&names, 150.0, 0.0, legend_w + 10.0);
    let n = groups.len() as f64;

    render(path, "bar chart", (width, HEIGHT), |root| {
        let body = titled(root, title)?;
        let (plot_area, _) = body.split_horizontally(width - legend_w as u32 - 10);
        let mut chart = ChartBuilder::on(&plot_area)
            .margin(MARGIN)
            .margin_top(MARGIN + 14) // room for the value over a bar at 1.0
            .x_label_area_size(22 + NAME_LINE as u32 * lines as u32)
            .y_label_area_size(Y_LABEL_AREA)
            .build_cartesian_2d(-0.5..n - 0.5, 0.0..1.0)?;
        y_unit_mesh(&mut chart, None, "score")?;
        let at = |x: f64, y: f64| chart.backend_coord(&(x, y.clamp(0.0, 1.0)));

        let (xs, ys) = chart.plotting_area().get_pixel_range();
        let px_per_unit = f64::from(xs.end - xs.start) / n;
        // Each bar: 26% of the slot, at most 60 px.
        let bar = 0.26f64.min(60.0 / px_per_unit);
        for (i, g) in groups.iter().enumerate() {
            let c = i as f64;
            draw_name(root, &labels[i], at(c, 0.0))?;
            for (k, (value, (_, color))) in [g.p, g.r, g.f1].into_iter().zip(metrics).enumerate() {
                let mid = c + (k as f64 - 1.0) * bar;
                if !value.is_finite() {
                    root.draw_text("n/a", &style(SMALL_SIZE, MUTED, HPos::Center, VPos::Bottom), at(mid, 0.0))?;
                    continue;
                }
                let (x0, y0) = at(mid - bar * 0.45, value);
                let (x1, y1) = at(mid + bar * 0.45, 0.0);
                root.draw(&Rectangle::new([(x0, y0), (x1, y1)], color.filled()))?;
                root.draw_text(
                    &format!("{value:.2}"),
                    &style(SMALL_SIZE, TEXT, HPos::Center, VPos::Bottom),
                    (at(mid, 0.0).0, y0 - 3),
                )?;
            }
        }
        let entries: Vec<(String, Key)> =
            metrics.iter().map(|(name, color)| (name.to_string(), Key::Swatch(*color))).collect();
        draw_legend(root, (xs.end + 16, ys.start), legend_w as i32, &entries)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_svg(path: &Path) -> String {
        let svg = std::fs::read_to_string(path).expect("chart file written");
        assert!(svg.trim_start().starts_with("<svg"), "not an SVG: {}", &svg[..svg.len().min(80)]);
        assert!(svg.trim_end().ends_with("</svg>"));
        svg
    }

    /// Where to keep the test SVGs for a look (`FOREST_FIGURES_DIR`), else a temp dir.
    fn out_dir() -> (Option<tempfile::TempDir>, std::path::PathBuf) {
        match std::env::var_os("FOREST_FIGURES_DIR") {
            Some(d) => (None, d.into()),
            None => {
                let t = tempfile::tempdir().expect("temp dir");
                let p = t.path().to_path_buf();
                (Some(t), p)
            }
        }
    }

    /// Deterministic pseudo-random values in 0..=1 around `center`.
    fn values(seed: u64, n: usize, center: f64, spread: f64) -> Vec<f64> {
        let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (0..n)
            .map(|_| {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let u = (s >> 11) as f64 / (1u64 << 53) as f64;
                let w = (u - 0.5) * 2.0;
                (center + spread * w * w.abs()).clamp(0.0, 1.0)
            })
            .collect()
    }

    #[test]
    fn percentiles_match_numpy_linear() {
        let v = [1.0, 2.0, 3.0, 4.0, 10.0];
        assert_eq!(percentile(&v, 50.0), 3.0);
        assert_eq!(percentile(&v, 25.0), 2.0);
        assert!((percentile(&v, 9.0) - 1.36).abs() < 1e-12); // numpy: 1.36
        assert!((percentile(&v, 91.0) - 7.84).abs() < 1e-12); // numpy: 7.84
        assert_eq!(percentile(&[0.5], 91.0), 0.5);
        let st = box_stats(&[f64::NAN, 0.2, 0.4, f64::INFINITY]).expect("finite values");
        assert_eq!((st.n, st.median), (2, 0.30000000000000004));
        assert!(box_stats(&[f64::NAN]).is_none());
    }

    #[test]
    fn box_chart_writes_svg() {
        let (_keep, dir) = out_dir();
        let path = dir.join("box.svg");
        let names =
            ["forest-tfidf", "forest-bm25", "boilerpipe", "readability", "justext", "fulltext", "newspaper", "goose"];
        let series: Vec<BoxSeries> = names
            .iter()
            .enumerate()
            .map(|(i, n)| BoxSeries { name: n.to_string(), values: values(i as u64, 150, 0.9 - 0.08 * i as f64, 0.4) })
            .collect();
        box_chart(&path, "F1 per page, by method", "F1 (2-gram, per page)", &series).expect("box chart");
        let svg = read_svg(&path);
        for n in names.iter().chain(["F1 per page, by method"].iter()) {
            assert!(svg.contains(n), "missing {n}");
        }
    }

    #[test]
    fn box_chart_tolerates_empty_and_nan() {
        let (_keep, dir) = out_dir();
        let path = dir.join("box-empty.svg");
        let series = vec![
            BoxSeries { name: "forest-tfidf".into(), values: vec![0.8, 0.9, f64::NAN, 0.95] },
            BoxSeries { name: "broken".into(), values: vec![] },
            BoxSeries { name: "all-nan".into(), values: vec![f64::NAN] },
            BoxSeries { name: "one".into(), values: vec![0.5] },
        ];
        box_chart(&path, "Partial data", "F1", &series).expect("box chart");
        let svg = read_svg(&path);
        assert!(svg.contains("broken") && svg.contains("no data"));
        let err = box_chart(&dir.join("none.svg"), "t", "F1", &[]).expect_err("no series");
        assert!(err.to_string().contains("none.svg"), "{err}");
    }

    #[test]
    fn line_chart_writes_svg() {
        let (_keep, dir) = out_dir();
        let path = dir.join("line.svg");
        let series: Vec<LineSeries> = ["forest-tfidf", "forest-bm25", "boilerpipe", "fulltext"]
            .iter()
            .enumerate()
            .map(|(i, n)| LineSeries {
                name: n.to_string(),
                points: (1..=10).map(|k| (k as f64, 0.95 - 0.1 * i as f64 - 0.3 / k as f64)).collect(),
            })
            .collect();
        line_chart(&path, "F1 against training pages", "pages per site used for learning", "mean F1", &series)
            .expect("line chart");
        let svg = read_svg(&path);
        for n in ["forest-tfidf", "boilerpipe", "fulltext", "F1 against training pages", "mean F1"] {
            assert!(svg.contains(n), "missing {n}");
        }
    }

    #[test]
    fn line_chart_tolerates_empty_and_nan() {
        let (_keep, dir) = out_dir();
        let path = dir.join("line-empty.svg");
        let series = vec![
            LineSeries { name: "single".into(), points: vec![(3.0, 0.7), (f64::NAN, 0.2), (4.0, f64::INFINITY)] },
            LineSeries { name: "empty".into(), points: vec![] },
        ];
        line_chart(&path, "Sparse", "x", "y", &series).expect("line chart");
        assert!(read_svg(&path).contains("empty (no data)"));
        let only_empty = vec![LineSeries { name: "nothing".into(), points: vec![(f64::NAN, f64::NAN)] }];
        line_chart(&dir.join("line-nothing.svg"), "Nothing", "x", "y", &only_empty).expect("empty frame");
        assert!(line_chart(&dir.join("x.svg"), "t", "x", "y", &[]).is_err());
    }

    #[test]
    fn bar_chart_writes_svg() {
        let (_keep, dir) = out_dir();
        let path = dir.join("bars.svg");
        let groups = vec![
            Bars { group: "all signifiers".into(), p: 0.91, r: 0.88, f1: 0.89 },
            Bars { group: "no structure".into(), p: 0.85, r: 0.80, f1: 0.82 },
            Bars { group: "no content".into(), p: 0.70, r: 0.93, f1: 0.79 },
            Bars { group: "tf-idf only".into(), p: 1.0, r: 0.05, f1: f64::NAN },
        ];
        bar_chart(&path, "Ablation: signifier families", &groups).expect("bar chart");
        let svg = read_svg(&path);
        for n in ["all signifiers", "no content", "Precision", "Recall", "F1", "Ablation: signifier families", "n/a"] {
            assert!(svg.contains(n), "missing {n}");
        }
        assert!(bar_chart(&dir.join("b.svg"), "t", &[]).is_err());
    }

    #[test]
    fn many_and_long_names_fit() {
        let (_keep, dir) = out_dir();
        let names: Vec<String> =
            (0..12)
                .map(|i| {
                    if i % 4 == 3 {
                        format!("a-very-long-method-name-with-options-{i}")
                    } else {
                        format!("method-{i}")
                    }
                })
                .collect();
        let boxes: Vec<BoxSeries> = names
            .iter()
            .enumerate()
            .map(|(i, n)| BoxSeries { name: n.clone(), values: values(i as u64, 40, 0.5, 0.5) })
            .collect();
        box_chart(&dir.join("box-many.svg"), "Twelve methods", "F1", &boxes).expect("box chart");
        let svg = read_svg(&dir.join("box-many.svg"));
        assert!(svg.contains("method-10") && svg.contains("a-very-long-method-"), "long names split");
        let lines: Vec<LineSeries> = names
            .iter()
            .enumerate()
            .map(|(i, n)| LineSeries {
                name: n.clone(),
                points: (0..6).map(|k| (k as f64 * 0.2, (0.3 + 0.05 * i as f64 + 0.02 * k as f64).min(1.0))).collect(),
            })
            .collect();
        line_chart(&dir.join("line-many.svg"), "Twelve lines", "threshold", "F1", &lines).expect("line chart");
        assert!(read_svg(&dir.join("line-many.svg")).contains("method-10"));
    }

    #[test]
    fn unwritable_path_is_an_error_naming_it() {
        let (_keep, dir) = out_dir();
        let blocker = dir.join("file-not-dir");
        std::fs::write(&blocker, "x").expect("write blocker");
        let path = blocker.join("chart.svg");
        let err =
            bar_chart(&path, "t", &[Bars { group: "g".into(), p: 0.5, r: 0.5, f1: 0.5 }]).expect_err("unwritable");
        assert!(err.to_string().contains("chart.svg"), "{err}");
    }
}
