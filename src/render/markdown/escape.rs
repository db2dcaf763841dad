//! CommonMark escaping: what keeps literal text literal (backslashes where a character would
//! start syntax, percent-encoding in link destinations) and the bare URLs GFM would link.

use std::borrow::Cow;

/// The bare URL GFM would link in `word`, if any: (start, end, is it a `www.` one). An
/// `http://`, `https://` or `ftp://` one follows no letter, a `www.` one starts the word or
/// follows `*`, `_`, `~` or `(` (as cmark-gfm has it); it ends before `<`, `>` or an
/// entity-like `&`, and before trailing punctuation.
pub(super) fn find_url(word: &str) -> Option<(usize, usize, bool)> {
    if !word.contains("://") && !word.as_bytes().windows(4).any(|w| w.eq_ignore_ascii_case(b"www.")) {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    let start = ["https://", "http://", "ftp://", "www."]
        .iter()
        .filter_map(|p| {
            let www = *p == "www.";
            let at = lower.match_indices(p).map(|(i, _)| i).find(|&i| match word[..i].chars().last() {
                None => true,
                Some(c) if www => matches!(c, '*' | '_' | '~' | '('),
                Some(c) => !c.is_ascii_alphabetic(),
            })?;
            Some((at, *p))
        })
        .min()?;
    let (at, prefix) = start;
    let stop = word[at..]
        .char_indices()
        .find(|&(i, c)| matches!(c, '<' | '>') || (c == '&' && entity_like(&word[at + i + 1..])));
    let mut end = stop.map_or(word.len(), |(i, _)| at + i);
    loop {
        let url = &word[at..end];
        match url.chars().last() {
            Some(c @ ('?' | '!' | '.' | ',' | ':' | '*' | '_' | '~' | '\'' | '"' | ';')) => end -= c.len_utf8(),
            Some(')') if url.matches(')').count() > url.matches('(').count() => end -= 1,
            _ => break,
        }
    }
    let url = &word[at..end];
    let ok = url.len() > prefix.len() && !url.chars().any(|c| c.is_control() || c.is_whitespace());
    ok.then_some((at, end, prefix == "www."))
}

/// Append `word` escaped so that CommonMark reads it as literal text (in a `www.` URL,
/// `url`, `_` and `~` are left as they are: GFM links such words as written).
pub(super) fn escape_text(out: &mut String, word: &str, table: bool, url: bool) {
    for (k, c) in word.char_indices() {
        let escape = match c {
            '_' | '~' => !url,
            '\\' | '`' | '*' | '[' | ']' | '<' | '>' => true,
            '|' => table,
            '&' => entity_like(&word[k + 1..]),
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
}

/// Does `rest` (what follows a `&`) start like a character reference (`amp;`, `#38;`)?
pub(super) fn entity_like(rest: &str) -> bool {
    let rest = rest.strip_prefix('#').unwrap_or(rest);
    let n = rest.bytes().take_while(u8::is_ascii_alphanumeric).count();
    n > 0 && rest.as_bytes().get(n) == Some(&b';')
}

/// A paragraph line escaped where its start would begin a heading, list, rule, setext
/// underline or table row.
pub(super) fn escape_line_start(line: &str) -> Cow<'_, str> {
    let b = line.as_bytes();
    match b.first() {
        Some(b'#' | b'+' | b'-' | b'=' | b'|') => Cow::Owned(format!("\\{line}")),
        Some(b'0'..=b'9') => {
            let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
            if matches!(b.get(digits), Some(b'.' | b')')) && matches!(b.get(digits + 1), None | Some(b' ')) {
                Cow::Owned(format!("{}\\{}", &line[..digits], &line[digits..]))
            } else {
                Cow::Borrowed(line)
            }
        }
        _ => Cow::Borrowed(line),
    }
}

/// Append `url` as a link destination: characters that would end it or be read as
/// escapes are percent-encoded, parentheses backslash-escaped, `|` escaped in tables.
pub(super) fn push_destination(out: &mut String, url: &str, table: bool) {
    for c in url.chars() {
        match c {
            '(' | ')' => {
                out.push('\\');
                out.push(c);
            }
            '|' if table => out.push_str("\\|"),
            '<' | '>' | '\\' | '`' => percent_encode(out, c),
            c if c.is_whitespace() || c.is_control() => percent_encode(out, c),
            c => out.push(c),
        }
    }
}

pub(super) fn percent_encode(out: &mut String, c: char) {
    let mut buf = [0u8; 4];
    for b in c.encode_utf8(&mut buf).bytes() {
        out.push_str(&format!("%{b:02X}"));
    }
}

/// The formulas in `t`: `$…$` and `$$…$$` spans (as pandoc reads them: the opening dollar
/// after a space or the start and before a non-space, the closing one after a non-space and
/// before no digit; and, so that prices stay text, the opening one before no digit), by byte
/// range, dollars included.
pub(super) fn math_spans(t: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let opens = b[i] == b'$' && (i == 0 || b[i - 1].is_ascii_whitespace());
        if !opens {
            i += 1;
            continue;
        }
        let fence = if b.get(i + 1) == Some(&b'$') { 2 } else { 1 };
        let from = i + fence;
        if b.get(from).is_none_or(|c| c.is_ascii_whitespace() || c.is_ascii_digit() || *c == b'$') {
            i += fence;
            continue;
        }
        let close = (from + 1..b.len()).find(|&j| {
            b[j] == b'$'
                && !b[j - 1].is_ascii_whitespace()
                && b[j - 1] != b'\\'
                && (fence == 1 || b.get(j + 1) == Some(&b'$'))
                && !b.get(j + fence).is_some_and(u8::is_ascii_digit)
        });
        match close {
            Some(j) => {
                out.push((i, j + fence));
                i = j + fence;
            }
            None => i = from,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn formulas_are_dollar_spans_as_pandoc_reads_them_prices_are_not() {
        assert_eq!(super::math_spans("cost $5-$6, and $x$ or $ y$"), vec![(16, 19)]);
        assert_eq!(super::math_spans("$$a+b$$ then $c$"), vec![(0, 7), (13, 16)]);
    }
}
