//! FiveFilters site configs: the per-site rule files of Full-Text RSS and wallabag/graby
//! (`example.com.txt`, github.com/fivefilters/ftr-site-config), read, written, applied, and
//! made from an induced wrapper.
//!
//! A site config is one directive per line, `name: value`; `#` starts a comment line:
//!
//! ```text
//! # example.com
//! body: //div[@class='article-body']
//! title: //h1
//! strip: //div[@class='share']
//! strip_id_or_class: related
//! strip_image_src: pixel.gif
//! test_url: https://example.com/2024/03/story.html
//! ```
//!
//! [`SiteConfig::parse`] reads one (leniently, as Full-Text RSS does: what forest cannot use is a
//! [`Warning`], only an XPath that does not compile is an error); its `Display` writes one.
//! [`ConfigApplier`] applies one as an [`Extractor`](crate::Extractor): the first `body` XPath
//! that selects text gives the block, `strip`, `strip_id_or_class` and `strip_image_src` cut
//! parts of it, `title` puts a headline that stands before the block first, and a page no `body`
//! matches goes to the single-page extractor, as Full-Text RSS's `autodetect_on_failure` does.
//! [`export`] writes an induced [`Wrapper`](crate::Wrapper) as a site config and checks, on the
//! sample pages, that the config gives the text the wrapper gives.
//!
//! XPaths are evaluated by sxd-xpath on the cleaned page (`dfs` on every element, see
//! [`Doc::to_xml`](crate::clean::Doc::to_xml)), parsed once per page. The cleaned page has no
//! `<script>`, `<meta>` or `<link>`, and of `<head>` only `<title>`: rules that look there select
//! nothing. Adjacent text nodes (which the XML parser splits at entity references) are merged
//! first, so `text()` tests see the text nodes of the page.

mod apply;
mod export;

pub use apply::ConfigApplier;
pub use export::export;

use crate::{Error, Result};
use std::fmt;
use std::path::Path;

/// The directives of a site config that forest reads and writes; each may be given several
/// times (tried in order for `body`, `title`, `date` and `author`; all applied for the strips).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SiteConfig {
    /// Comment lines, without the `#` and one space after it; written first.
    pub comments: Vec<String>,
    /// XPaths of the article block: the first that selects elements with text wins.
    pub body: Vec<String>,
    /// XPaths of the headline: the first element selected, if it stands before the block.
    pub title: Vec<String>,
    /// XPaths of the publication date (string or node text).
    pub date: Vec<String>,
    /// XPaths of the authors (string or node texts).
    pub author: Vec<String>,
    /// XPaths of what to cut from the block (elements, or text nodes).
    pub strip: Vec<String>,
    /// Cut elements whose `id` or `class` contains this string.
    pub strip_id_or_class: Vec<String>,
    /// Cut `img` elements whose `src` contains this string.
    pub strip_image_src: Vec<String>,
    /// Full-Text RSS's `prune` (its own boilerplate removal): kept for Full-Text RSS; forest
    /// never prunes.
    pub prune: Option<bool>,
    /// Full-Text RSS's `tidy` (HTML Tidy before parsing): kept for Full-Text RSS; forest cleans
    /// every page with html5ever.
    pub tidy: Option<bool>,
    /// Pages of the site to test the config on.
    pub test_url: Vec<String>,
}

/// Something in a site config that forest skipped (unknown or unsupported directive, a line
/// that is not `name: value`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// 1-based line number.
    pub line: usize,
    /// What was skipped and why.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Directives of Full-Text RSS and graby that forest reads past with a warning.
const UNSUPPORTED: &[&str] = &[
    "autodetect_on_failure",
    "convert_double_br_tags",
    "dissolve",
    "find_string",
    "footnotes",
    "http_header",
    "if_page_contains",
    "insert_detected_image",
    "login_extra_fields",
    "login_password_field",
    "login_uri",
    "login_username_field",
    "move_into",
    "native_ad_clue",
    "next_page_link",
    "not_logged_in_xpath",
    "parser",
    "replace_string",
    "requires_login",
    "single_page_link",
    "single_page_link_in_feed",
    "skip_id_or_class",
    "skip_json_ld",
    "src_lazy_load_attr",
    "strip_attr",
    "strip_comments",
    "test_contains",
    "wrap_in",
];

impl SiteConfig {
    /// Read a site config from `text`; `file` names it in errors.
    ///
    /// One directive per line, `name: value` (split at the first `:` after the name, or after
    /// a parenthesized argument as in `http_header(user-agent): …`); blank lines and `#`
    /// comments are skipped; a byte-order mark, CRLF line ends and spaces around values are
    /// fine (a lone carriage return is a space). Values are trimmed. Unknown directives, directives forest does not support
    /// (`replace_string`, `single_page_link`, …) and lines without `:` give a [`Warning`].
    ///
    /// # Errors
    /// [`Error::SiteConfig`] naming the file and line of a `body`, `title`, `date`, `author` or
    /// `strip` XPath that does not compile, or of the directive past the limits
    /// ([`MAX_CONFIG_BYTES`], [`MAX_CONFIG_XPATHS`], [`MAX_CONFIG_VALUES`]).
    ///
    /// # Example
    /// ```
    /// let text = "# example.com\nbody: //article\nstrip: //div[@class='share']\nnext_page_link: //a[@rel='next']\n";
    /// let (cfg, warnings) = forest::ftr::SiteConfig::parse(text, "example.com.txt")?;
    /// assert_eq!(cfg.body, ["//article"]);
    /// assert_eq!(warnings[0].message, "ignored: forest does not support next_page_link");
    /// let err = forest::ftr::SiteConfig::parse("body: //div[", "x.txt").unwrap_err();
    /// assert!(err.to_string().starts_with("x.txt:1: body: XPath"));
    /// # Ok::<(), forest::Error>(())
    /// ```
    pub fn parse(text: &str, file: &str) -> Result<(SiteConfig, Vec<Warning>)> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if text.len() as u64 > MAX_CONFIG_BYTES {
            let message = format!("the site config is larger than {MAX_CONFIG_BYTES} bytes (site configs are a few kilobytes)");
            return Err(Error::SiteConfig { file: file.to_string(), line: 1, message });
        }
        let mut cfg = SiteConfig::default();
        let mut warnings = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let (xpaths, names) = (
                cfg.body.len() + cfg.title.len() + cfg.date.len() + cfg.author.len() + cfg.strip.len(),
                cfg.strip_id_or_class.len() + cfg.strip_image_src.len() + cfg.test_url.len(),
            );
            if xpaths > MAX_CONFIG_XPATHS || names > MAX_CONFIG_VALUES {
                let message = format!(
                    "more than {MAX_CONFIG_XPATHS} XPaths or {MAX_CONFIG_VALUES} other values: each runs on every page, so a config this large would cost every page of its site seconds"
                );
                return Err(Error::SiteConfig { file: file.to_string(), line, message });
            }
            // A carriage return inside a line is a space, as the written form has it (found by
            // fuzzing: `# a\rb` read back as `a b`); for XPaths both are white space.
            let raw = raw.replace('\r', " ");
            let trimmed = raw.trim();
            if trimmed.is_empty() {
                continue;
            }
            if let Some(c) = trimmed.strip_prefix('#') {
                cfg.comments.push(c.strip_prefix(' ').unwrap_or(c).to_string());
                continue;
            }
            let mut warn = |message: String| warnings.push(Warning { line, message });
            let Some((name, arg, value)) = split_directive(trimmed) else {
                warn("not a `name: value` line, ignored".to_string());
                continue;
            };
            let lower = name.to_ascii_lowercase();
            if arg.is_none() {
                let list = match lower.as_str() {
                    "body" => Some(&mut cfg.body),
                    "title" => Some(&mut cfg.title),
                    "date" => Some(&mut cfg.date),
                    "author" => Some(&mut cfg.author),
                    "strip" => Some(&mut cfg.strip),
                    _ => None,
                };
                if let Some(list) = list {
                    if value.is_empty() {
                        warn(format!("empty {lower}, ignored"));
                    } else if let Err(e) = crate::xpath::Program::compile(value) {
                        let message = format!("{lower}: {e}");
                        return Err(Error::SiteConfig { file: file.to_string(), line, message });
                    } else {
                        list.push(value.to_string());
                    }
                    continue;
                }
                let list = match lower.as_str() {
                    "strip_id_or_class" => Some(&mut cfg.strip_id_or_class),
                    "strip_image_src" => Some(&mut cfg.strip_image_src),
                    "test_url" => Some(&mut cfg.test_url),
                    _ => None,
                };
                if let Some(list) = list {
                    if value.is_empty() {
                        warn(format!("empty {lower}, ignored"));
                    } else {
                        list.push(value.to_string());
                    }
                    continue;
                }
                if lower == "prune" || lower == "tidy" {
                    match yes_no(value) {
                        Some(on) => {
                            if on {
                                warn(format!("ignored: forest does not support {lower}"));
                            }
                            *(if lower == "prune" { &mut cfg.prune } else { &mut cfg.tidy }) = Some(on);
                        }
                        None => warn(format!("{lower} takes yes or no, not {value:?}; ignored")),
                    }
                    continue;
                }
                if lower == "autodetect_on_failure" && yes_no(value) == Some(true) {
                    continue; // what forest does anyway
                }
            }
            if UNSUPPORTED.contains(&lower.as_str()) {
                warn(format!("ignored: forest does not support {lower}"));
            } else {
                let full = match arg {
                    Some(a) => format!("{name}({a})"),
                    None => name.to_string(),
                };
                warn(format!("unknown directive {full}, ignored"));
            }
        }
        Ok((cfg, warnings))
    }

    /// Read the site config file at `path` (see [`SiteConfig::parse`]).
    ///
    /// # Errors
    /// [`Error::Io`] when unreadable; [`Error::TooLarge`] past [`MAX_CONFIG_BYTES`];
    /// [`Error::SiteConfig`] as for [`SiteConfig::parse`].
    pub fn load(path: &Path) -> Result<(SiteConfig, Vec<Warning>)> {
        let bytes = crate::fetch::read_file_within(path, MAX_CONFIG_BYTES)?;
        SiteConfig::parse(&String::from_utf8_lossy(&bytes), &path.display().to_string())
    }
}

/// Largest site config read (1 MiB): the FiveFilters configs are a few kilobytes.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;
/// Most XPaths (`body`, `title`, `date`, `author`, `strip`) a site config holds.
pub const MAX_CONFIG_XPATHS: usize = 1_000;
/// Most other values (`strip_id_or_class`, `strip_image_src`, `test_url`) a site config holds.
pub const MAX_CONFIG_VALUES: usize = 10_000;

/// `name: value`, `name(arg): value` → (name, arg, trimmed value); `None` when there is no `:`.
fn split_directive(line: &str) -> Option<(&str, Option<&str>, &str)> {
    let name_end = line.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(line.len());
    if name_end == 0 {
        return None;
    }
    let name = &line[..name_end];
    let mut rest = &line[name_end..];
    let mut arg = None;
    if let Some(inner) = rest.strip_prefix('(') {
        // The argument ends at the first `)` that a `:` follows (it may hold both).
        let close = inner.match_indices(')').map(|(j, _)| j).find(|&j| inner[j + 1..].trim_start().starts_with(':'))?;
        arg = Some(&inner[..close]);
        rest = &inner[close + 1..];
    }
    let value = rest.trim_start().strip_prefix(':')?;
    Some((name, arg, value.trim()))
}

fn yes_no(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "yes" | "true" | "1" => Some(true),
        "no" | "false" | "0" => Some(false),
        _ => None,
    }
}

/// The value on one line (a line break would end the directive).
fn one_line(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

impl fmt::Display for SiteConfig {
    /// The config as a site config file: comments, then `body`, `title`, `date`, `author`,
    /// `strip`, `strip_id_or_class`, `strip_image_src`, `prune`, `tidy`, `test_url`, one per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.comments {
            if c.is_empty() {
                writeln!(f, "#")?;
            } else {
                writeln!(f, "# {}", one_line(c))?;
            }
        }
        let lists: [(&str, &Vec<String>); 7] = [
            ("body", &self.body),
            ("title", &self.title),
            ("date", &self.date),
            ("author", &self.author),
            ("strip", &self.strip),
            ("strip_id_or_class", &self.strip_id_or_class),
            ("strip_image_src", &self.strip_image_src),
        ];
        let any = lists.iter().any(|(_, v)| !v.is_empty())
            || self.prune.is_some()
            || self.tidy.is_some()
            || !self.test_url.is_empty();
        if any && !self.comments.is_empty() {
            writeln!(f)?;
        }
        for (name, values) in lists {
            for v in values {
                writeln!(f, "{name}: {}", one_line(v))?;
            }
        }
        for (name, v) in [("prune", self.prune), ("tidy", self.tidy)] {
            if let Some(on) = v {
                writeln!(f, "{name}: {}", if on { "yes" } else { "no" })?;
            }
        }
        for v in &self.test_url {
            writeln!(f, "test_url: {}", one_line(v))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REALISTIC: &str = "\u{feff}# Site config for example.com\r\n\
        # maintained by hand\r\n\
        \r\n\
        title: //h1[@class='headline']\r\n\
        body: //div[@class='article-body']   \r\n\
        body: //article\r\n\
        author: //span[@class='byline']/a\r\n\
        date: string(//time/@datetime)\r\n\
        strip: //div[@class='share']\r\n\
        strip: //p[contains(., 'Read more: ')]\r\n\
        strip_id_or_class: related\r\n\
        strip_image_src: pixel.gif\r\n\
        tidy: no\r\n\
        prune: no\r\n\
        autodetect_on_failure: yes\r\n\
        single_page_link: //a[@class='print']\r\n\
        replace_string(<p class=\"x\">): <p>\r\n\
        http_header(user-agent): Mozilla/5.0 (X11; Linux x86_64)\r\n\
        find_string: <br><br>\r\n\
        make_coffee: yes\r\n\
        this line has no colon\r\n\
        test_url: https://example.com/2024/03/a-story.html\r\n";

    #[test]
    fn a_site_config_past_the_limits_is_refused_naming_the_line() {
        let many: String = (0..2_000).map(|i| format!("strip: //div[@id='x{i}']\n")).collect();
        let started = std::time::Instant::now();
        let err = SiteConfig::parse(&many, "big.txt").unwrap_err().to_string();
        assert!(err.starts_with("big.txt:1002: more than 1000 XPaths"), "{err}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
        let huge = "# x\n".repeat(300_000);
        assert!(SiteConfig::parse(&huge, "huge.txt").unwrap_err().to_string().contains("larger than"));
        let fine: String = (0..1000).map(|i| format!("strip: //div[@id='x{i}']\n")).collect();
        assert_eq!(SiteConfig::parse(&fine, "fine.txt").unwrap().0.strip.len(), 1000);
    }

    #[test]
    fn parses_a_realistic_config() {
        let (cfg, warnings) = SiteConfig::parse(REALISTIC, "example.com.txt").unwrap();
        assert_eq!(cfg.comments, ["Site config for example.com", "maintained by hand"]);
        assert_eq!(cfg.body, ["//div[@class='article-body']", "//article"]);
        assert_eq!(cfg.title, ["//h1[@class='headline']"]);
        assert_eq!(cfg.author, ["//span[@class='byline']/a"]);
        assert_eq!(cfg.date, ["string(//time/@datetime)"]);
        assert_eq!(cfg.strip, ["//div[@class='share']", "//p[contains(., 'Read more: ')]"]);
        assert_eq!(cfg.strip_id_or_class, ["related"]);
        assert_eq!(cfg.strip_image_src, ["pixel.gif"]);
        assert_eq!((cfg.prune, cfg.tidy), (Some(false), Some(false)));
        assert_eq!(cfg.test_url, ["https://example.com/2024/03/a-story.html"]);
        let got: Vec<(usize, &str)> = warnings.iter().map(|w| (w.line, w.message.as_str())).collect();
        assert_eq!(
            got,
            [
                (16, "ignored: forest does not support single_page_link"),
                (17, "ignored: forest does not support replace_string"),
                (18, "ignored: forest does not support http_header"),
                (19, "ignored: forest does not support find_string"),
                (20, "unknown directive make_coffee, ignored"),
                (21, "not a `name: value` line, ignored"),
            ]
        );
    }

    #[test]
    fn a_bad_xpath_is_an_error_naming_file_and_line() {
        let err = SiteConfig::parse("# x\nbody: //article\nstrip: //div[@class='a'\n", "example.com.txt").unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("example.com.txt:3: strip: XPath"), "{msg}");
        assert!(matches!(err, Error::SiteConfig { line: 3, .. }));
        // Strings that are not XPaths are not compiled.
        assert!(SiteConfig::parse("strip_id_or_class: a[b\ntest_url: http://x/?a=[1]\n", "f").is_ok());
    }

    #[test]
    fn directives_split_at_the_right_colon() {
        assert_eq!(split_directive("body: //div[@id='a:b']"), Some(("body", None, "//div[@id='a:b']")));
        assert_eq!(split_directive("http_header(user-agent): x: y"), Some(("http_header", Some("user-agent"), "x: y")));
        assert_eq!(split_directive("replace_string(<a href=\"http://x\">(1)): b"), Some(("replace_string", Some("<a href=\"http://x\">(1)"), "b")));
        assert_eq!(split_directive("title :  //h1  "), Some(("title", None, "//h1")));
        assert_eq!(split_directive("no colon here"), None);
        assert_eq!(split_directive(": x"), None);
        assert_eq!(split_directive("wrap_in(div: x"), None);
    }

    #[test]
    fn display_round_trips() {
        let (cfg, _) = SiteConfig::parse(REALISTIC, "example.com.txt").unwrap();
        let text = cfg.to_string();
        assert!(text.starts_with("# Site config for example.com\n# maintained by hand\n\nbody: //div[@class='article-body']\n"), "{text}");
        let (again, warnings) = SiteConfig::parse(&text, "again.txt").unwrap();
        assert_eq!(again, cfg);
        assert!(warnings.is_empty(), "{warnings:?}");
        let odd = SiteConfig { comments: vec![String::new(), "  indented".into()], prune: Some(true), ..SiteConfig::default() };
        assert_eq!(SiteConfig::parse(&odd.to_string(), "f").unwrap().0, odd);
        assert_eq!(SiteConfig::default().to_string(), "");
    }
}
