//! The bench's figures as text: medians and percentiles, ratios, the cells of a table
//! (milliseconds, ratios, thousands, marks against a target) and the table itself. The
//! figures ([`super::report`]) and the first view ([`super::first_view`]) both print with them.

use std::fmt;

/// The median (the mean of the two middle values for an even count); `None` when empty.
pub(in crate::bench) fn median(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let mut values: Vec<f64> = values.into_iter().collect();
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    })
}

/// The nearest-rank percentile `p` (0–100): the smallest value with at least `p`% of the values
/// at or below it; `None` when empty.
pub(in crate::bench) fn percentile(values: &[f64], p: f64) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = (p / 100.0 * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// `numerator / denominator`, when both are known and the denominator is above 0.
pub(in crate::bench) fn ratio(numerator: Option<f64>, denominator: Option<f64>) -> Option<f64> {
    match (numerator, denominator) {
        (Some(n), Some(d)) if d > 0.0 => Some(n / d),
        _ => None,
    }
}

/// One line of the table: a label, a cell per column, the target.
pub struct Row {
    label: String,
    cells: Vec<String>,
    target: String,
}

impl Row {
    /// A row of `cells` under `label`, with `target` beside them.
    pub fn new(label: &str, cells: Vec<String>, target: &str) -> Row {
        Row {
            label: label.to_owned(),
            cells,
            target: target.to_owned(),
        }
    }
}

/// Writes rows under a header line, every column as wide as its widest cell.
pub(in crate::bench) fn write_table(
    f: &mut fmt::Formatter<'_>,
    rows: &[Row],
    headers: &[String],
) -> fmt::Result {
    let width = |s: &str| s.chars().count();
    let label_width = rows.iter().map(|r| width(&r.label)).max().unwrap_or(0);
    let column_widths: Vec<usize> = (0..headers.len())
        .map(|i| {
            rows.iter()
                .map(|r| r.cells.get(i).map_or(0, |c| width(c)))
                .chain([width(&headers[i])])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let pad = |text: &str, to: usize| " ".repeat(to.saturating_sub(width(text)));
    let mut line = |label: &str, cells: &[String], target: &str| -> fmt::Result {
        write!(f, "{label}{}", pad(label, label_width))?;
        for (cell, &w) in cells.iter().zip(&column_widths) {
            write!(f, "   {}{cell}", pad(cell, w))?;
        }
        writeln!(f, "   {target}")
    };
    line("", headers, "target")?;
    for row in rows {
        line(&row.label, &row.cells, &row.target)?;
    }
    Ok(())
}

pub(in crate::bench) fn mark(met: bool) -> &'static str {
    if met { "✓" } else { "✗" }
}

pub(in crate::bench) fn with_mark(cell: String, met: Option<bool>) -> String {
    match met {
        Some(met) => format!("{cell} {}", mark(met)),
        None => cell,
    }
}

pub(in crate::bench) fn ms(value: Option<f64>) -> String {
    match value {
        Some(v) if v < 100.0 => format!("{v:.1} ms"),
        Some(v) => format!("{} ms", thousands(v.round() as u64)),
        None => "n/a".to_owned(),
    }
}

pub(in crate::bench) fn pair(values: Option<[f64; 2]>) -> String {
    match values {
        Some([a, b]) => format!("{a:.1} / {b:.1} ms"),
        None => "n/a".to_owned(),
    }
}

pub(in crate::bench) fn times(value: Option<f64>) -> String {
    value.map_or("n/a".to_owned(), |v| format!("{v:.2}×"))
}

pub(in crate::bench) fn megabytes(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / 1_000_000.0)
}

/// `1234567` → `1,234,567`.
pub(in crate::bench) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        let cases: [(&[f64], Option<f64>); 4] = [
            (&[], None),
            (&[3.0], Some(3.0)),
            (&[5.0, 1.0, 3.0], Some(3.0)),
            (&[4.0, 1.0, 3.0, 2.0], Some(2.5)),
        ];
        for (values, expected) in cases {
            assert_eq!(median(values.iter().copied()), expected, "{values:?}");
        }
    }

    #[test]
    fn nearest_rank_percentiles() {
        let values: Vec<f64> = (1..=40).map(f64::from).collect();
        let cases = [
            (50.0, 20.0),
            (95.0, 38.0),
            (100.0, 40.0),
            (0.0, 1.0),
            (1.0, 1.0),
        ];
        for (p, expected) in cases {
            assert_eq!(percentile(&values, p), Some(expected), "p{p}");
        }
        assert_eq!(percentile(&[], 95.0), None);
        assert_eq!(percentile(&[7.0], 95.0), Some(7.0));
    }

    #[test]
    fn formats() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(ms(Some(12.345)), "12.3 ms");
        assert_eq!(ms(Some(1234.6)), "1,235 ms");
        assert_eq!(ms(None), "n/a");
        assert_eq!(times(Some(1.234)), "1.23×");
    }
}
