//! Dates as pages write them, read into ISO 8601 (extended format): `2024-05-01T10:00:00+02:00`
//! stays as it is, `…-0500` becomes `…-05:00`,
//! `2024-05-01 10:00`, `2024/05/01`, `20240501`, `Wed, 01 May 2024 10:00:00 GMT`, `May 1, 2024`
//! and `1 May 2024` become `2024-05-01…`; a date of numbers whose day is past 12 is read in the
//! one order it can have (`10/29/2012`, `29.10.12`: two-digit years are 1969–2068, as POSIX
//! reads them). Day-month order is never guessed: `01/05/2024`, which means one date in Europe
//! and another in America, is not read.

/// `s` as an ISO 8601 date or date-time; `None` when it is not a date forest can read.
///
/// # Example
/// ```
/// use forest::metadata::iso_date;
/// assert_eq!(iso_date("2024-05-01T10:00:00Z").as_deref(), Some("2024-05-01T10:00:00Z"));
/// assert_eq!(iso_date("Wed, 01 May 2024 10:00:00 GMT").as_deref(), Some("2024-05-01T10:00:00Z"));
/// assert_eq!(iso_date("May 1, 2024").as_deref(), Some("2024-05-01"));
/// assert_eq!(iso_date("01/05/2024"), None);
/// assert_eq!(iso_date("November 20, 9999 7:00 PM"), None); // a placeholder for "never"
/// ```
pub fn iso_date(s: &str) -> Option<String> {
    let s = s.trim().trim_matches(['"', '\'']);
    iso(s).or_else(|| slashed(s)).or_else(|| compact(s)).or_else(|| worded(s)).or_else(|| numeric(s))
}

/// The first word of `s` that is a date of numbers in the one day-month order it can have:
/// `10/29/2012`, `29.10.2012`, `10-29-12` (`05/05/2024` too: both orders are one day).
fn numeric(s: &str) -> Option<String> {
    s.split(|c: char| c.is_whitespace() || c == ',').find_map(|w| {
        let w = w.trim_matches(|c: char| !c.is_ascii_digit());
        let sep = w.chars().find(|c| matches!(c, '/' | '.' | '-'))?;
        let mut parts = w.split(sep);
        let (a, b, y) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || a.len() > 2 || b.len() > 2 || !matches!(y.len(), 2 | 4) {
            return None;
        }
        let (a, b, y) = (num(a)?, num(b)?, num(y)?);
        let y = match y {
            0..=68 => 2000 + y,
            69..=99 => 1900 + y,
            _ => y,
        };
        match (a <= 12, b <= 12) {
            (true, false) => ymd(y, a, b),
            (false, true) => ymd(y, b, a),
            (true, true) if a == b => ymd(y, a, b),
            _ => None,
        }
    })
}

/// The years a page's date can have: a later one is a placeholder (`9999-12-31`, "never"), not
/// a date a page was written or changed.
const YEARS: std::ops::RangeInclusive<i64> = 1000..=2100;

/// A valid year ([`YEARS`]), month and day.
fn ymd(y: i64, m: i64, d: i64) -> Option<String> {
    let days = [31, if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    (YEARS.contains(&y) && (1..=12).contains(&m) && d >= 1 && d <= days[(m - 1) as usize]).then(|| format!("{y:04}-{m:02}-{d:02}"))
}

fn num(s: &str) -> Option<i64> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok()).flatten()
}

/// `2024-05-01`, with a time after `T` or a space (and a zone), written as ISO 8601's extended
/// format writes it ([`clock`]); a time that does not read leaves the day alone.
fn iso(s: &str) -> Option<String> {
    let date = s.get(..10)?;
    let mut parts = date.split('-');
    let (y, m, d) = (num(parts.next()?)?, num(parts.next()?)?, num(parts.next()?)?);
    let day = ymd(y, m, d)?;
    let rest = &s[10..];
    if rest.starts_with(|c: char| c.is_ascii_digit()) {
        return None; // a longer number
    }
    match rest.strip_prefix(['T', 't', ' ']).and_then(clock) {
        Some(time) => Some(format!("{day}T{time}")),
        None => Some(day),
    }
}

/// A time of day and its zone as ISO 8601's extended format writes them: `10:00`,
/// `10:00:00.250`, then `Z` (for `Z`, `z`, `UTC`, `UT` or `GMT`) or an offset (`+02:00` for
/// `+02:00`, `+0200` or `+02`); spaces between them dropped. `None` when `t` is not one.
fn clock(t: &str) -> Option<String> {
    let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    let two = |s: &str| (s.len() == 2).then(|| num(s)).flatten();
    let at = t.find(['+', '-', 'Z', 'z', 'U', 'G']).unwrap_or(t.len());
    let (time, zone) = t.split_at(at);
    let mut parts = time.splitn(3, ':');
    let (h, m) = (two(parts.next()?)?, two(parts.next()?)?);
    if h > 24 || m > 59 {
        return None;
    }
    let mut out = format!("{h:02}:{m:02}");
    if let Some(sec) = parts.next() {
        let (whole, frac) = sec.split_once(['.', ',']).map_or((sec, None), |(w, f)| (w, Some(f)));
        out.push_str(&format!(":{:02}", two(whole).filter(|&s| s <= 60)?));
        if let Some(f) = frac {
            num(f)?;
            out.push('.');
            out.push_str(f);
        }
    }
    match zone {
        "" => {}
        "Z" | "z" | "UTC" | "UT" | "GMT" => out.push('Z'),
        _ => {
            let (sign, offset) = (zone.get(..1)?, zone.get(1..)?.replace(':', ""));
            let (oh, om) = match offset.len() {
                2 => (two(&offset)?, 0),
                4 => (two(offset.get(..2)?)?, two(offset.get(2..)?)?),
                _ => return None,
            };
            if !matches!(sign, "+" | "-") || oh > 23 || om > 59 {
                return None;
            }
            out.push_str(&format!("{sign}{oh:02}:{om:02}"));
        }
    }
    Some(out)
}

/// `2024/05/01` (year first only).
fn slashed(s: &str) -> Option<String> {
    let mut parts = s.split('/');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    (y.len() == 4 && parts.next().is_none()).then_some(())?;
    ymd(num(y)?, num(m)?, num(d)?)
}

/// `20240501`.
fn compact(s: &str) -> Option<String> {
    (s.len() == 8).then_some(())?;
    ymd(num(s.get(..4)?)?, num(s.get(4..6)?)?, num(s.get(6..)?)?)
}

const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/// A month's number from its English name or abbreviation (`Sept.` included).
pub(super) fn month(w: &str) -> Option<i64> {
    let w = w.trim_end_matches('.').to_ascii_lowercase();
    if w.len() < 3 {
        return None;
    }
    let i = MONTHS.iter().position(|m| w.starts_with(m))?;
    let full = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"][i];
    (full.starts_with(&w) || w == "sept").then_some(i as i64 + 1)
}

/// `May 1, 2024`, `1 May 2024`, `Wed, 01 May 2024 10:00:00 GMT` (RFC 2822: its time and zone
/// kept), `1st May 2024`.
fn worded(s: &str) -> Option<String> {
    let words: Vec<&str> = s.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    let day_of = |w: &str| num(w.trim_end_matches(|c: char| c.is_ascii_alphabetic())).filter(|d| (1..=31).contains(d));
    let (mut y, mut m, mut d, mut at) = (None, None, None, None);
    for (i, w) in words.iter().enumerate() {
        if m.is_none() {
            if let Some(n) = month(w) {
                m = Some(n);
                continue;
            }
        }
        if let (None, Some(n)) = (y, num(w).filter(|n| YEARS.contains(n))) {
            y = Some(n);
            at = Some(i);
            continue;
        }
        if let (None, Some(n)) = (d, day_of(w)) {
            d = Some(n);
        }
    }
    let day = ymd(y?, m?, d?)?;
    // RFC 2822's time and zone after the year: `10:00:00 GMT`, `10:00:00 +0200`.
    let rest = &words[at? + 1..];
    let Some(time) = rest.first().filter(|t| t.len() == 8 && t.as_bytes()[2] == b':' && t.as_bytes()[5] == b':') else { return Some(day) };
    let zone = rest.get(1).copied().unwrap_or("");
    match clock(&format!("{time}{zone}")).or_else(|| clock(time)) {
        Some(t) => Some(format!("{day}T{t}")),
        None => Some(day),
    }
}

#[cfg(test)]
mod tests {
    use super::iso_date;

    #[test]
    fn dates_pages_write_read_as_iso() {
        for (raw, iso) in [
            ("2024-05-01", Some("2024-05-01")),
            ("2024-05-01T10:00:00+02:00", Some("2024-05-01T10:00:00+02:00")),
            ("2024-05-01 10:00:00", Some("2024-05-01T10:00:00")),
            ("2024-05-01T10:00:00-0500", Some("2024-05-01T10:00:00-05:00")),
            ("2024-05-01T10:00:00.250+02", Some("2024-05-01T10:00:00.250+02:00")),
            ("2024-05-01 10:00:00 UTC", Some("2024-05-01T10:00:00Z")),
            ("\"2024-05-01T10:00Z\"", Some("2024-05-01T10:00Z")),
            ("2024-05-01UTC10:00:00+00:00", Some("2024-05-01")),
            ("2024-05-01T25:00:00", Some("2024-05-01")),
            ("2024-05-011", None),
            ("2024/05/01", Some("2024-05-01")),
            ("20240501", Some("2024-05-01")),
            ("Wed, 01 May 2024 10:00:00 +0200", Some("2024-05-01T10:00:00+02:00")),
            ("Wed, 01 May 2024 10:00:00 GMT", Some("2024-05-01T10:00:00Z")),
            ("May 1, 2024", Some("2024-05-01")),
            ("1st May 2024", Some("2024-05-01")),
            ("Sept. 30, 2023", Some("2023-09-30")),
            ("Updated March 3, 2021 at 5:00 p.m.", Some("2021-03-03")),
            ("2024-02-30", None),
            ("01/05/2024", None),
            ("10/29/2012", Some("2012-10-29")),
            ("Posted 29.10.12 by Ann", Some("2012-10-29")),
            ("05/05/2024", Some("2024-05-05")),
            ("11/5/12", None),
            ("version 1.13.2", None),
            ("12/31/99", Some("1999-12-31")),
            ("yesterday", None),
            ("Mayday 2024", None),
        ] {
            assert_eq!(iso_date(raw).as_deref(), iso, "{raw}");
        }
    }

    #[test]
    fn any_text_reads_without_panic() {
        // Eight bytes that are not eight characters, a time whose digits are not ASCII.
        for raw in ["ab€€", "2024年5月", "«»«»", "ab€cd", "１２３４５６７８"] {
            assert_eq!(iso_date(raw), None, "{raw}");
        }
        // A day whose time does not read is the day alone.
        for raw in ["2024-05-01Té:xé", "2024-05-01 1é:00", "2024-05-01T10:00+0é:00", "2024-05-01T10:00:0€"] {
            assert_eq!(iso_date(raw).as_deref(), Some("2024-05-01"), "{raw}");
        }
    }
}
