//! `forest.Article`: what forest found on a page, the library's [`forest::Article`] with the
//! format it was asked for.

use forest::article::Format;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The article of a page: its text and metadata, every output format, how it was found.
#[pyclass(module = "forest", frozen)]
pub struct Article {
    pub(crate) inner: forest::Article,
    pub(crate) format: Format,
}

#[pymethods]
impl Article {
    /// The page's URL: where it was fetched from, else the canonical URL it declares.
    #[getter]
    fn url(&self) -> Option<&str> {
        self.inner.url.as_deref()
    }
    /// Where it was read from, as given (a path or a URL; empty for HTML without a URL).
    #[getter]
    fn source(&self) -> &str {
        &self.inner.source
    }
    /// The host of `url`.
    #[getter]
    fn host(&self) -> Option<&str> {
        self.inner.host.as_deref()
    }
    /// The headline.
    #[getter]
    fn title(&self) -> &str {
        &self.inner.title
    }
    /// The author(s), when the page declares them.
    #[getter]
    fn byline(&self) -> Option<&str> {
        self.inner.byline.as_deref()
    }
    /// The publication date, as declared.
    #[getter]
    fn published(&self) -> Option<&str> {
        self.inner.published.as_deref()
    }
    /// The language code, as declared, else detected from the text.
    #[getter]
    fn lang(&self) -> Option<&str> {
        self.inner.lang.as_deref()
    }
    /// The article's readable text, paragraphs separated by blank lines.
    #[getter]
    fn text(&self) -> &str {
        &self.inner.text
    }
    /// The article's elements as an HTML fragment (links resolved against `url`).
    #[getter]
    fn html(&self) -> String {
        self.inner.html()
    }
    /// The article as CommonMark.
    #[getter]
    fn markdown(&self) -> String {
        self.inner.markdown()
    }
    /// The XPath of the rules that extracted it (empty for the single-page extractor).
    #[getter]
    fn xpath(&self) -> &str {
        &self.inner.xpath
    }
    /// The rule that selected it (`exact`, `same-type`, …, `single-page`).
    #[getter]
    fn rule(&self) -> String {
        self.inner.rule.name()
    }
    /// The kind of page it came from (`article`, `forum`, `product`, `collection`,
    /// `documentation`), as the page declares it or its URL shows; `None` when nothing says.
    #[getter]
    fn page_type(&self) -> Option<&'static str> {
        self.inner.page_type.map(forest::metadata::PageType::name)
    }
    /// Each author, in order (`byline` names them on one line).
    #[getter]
    fn authors(&self) -> Vec<String> {
        self.inner.meta.authors.clone()
    }
    /// When it was last changed, in ISO 8601 when it reads as a date.
    #[getter]
    fn modified(&self) -> Option<&str> {
        self.inner.meta.modified.as_deref()
    }
    /// The site's name, as the page declares it.
    #[getter]
    fn site_name(&self) -> Option<&str> {
        self.inner.meta.site_name.as_deref()
    }
    /// Its summary, as the page declares it (its description).
    #[getter]
    fn description(&self) -> Option<&str> {
        self.inner.meta.description.as_deref()
    }
    /// Its lead image's URL.
    #[getter]
    fn image(&self) -> Option<&str> {
        self.inner.meta.image.as_deref()
    }
    /// Its tags (keywords).
    #[getter]
    fn tags(&self) -> Vec<String> {
        self.inner.meta.tags.clone()
    }
    /// Its sections or categories.
    #[getter]
    fn categories(&self) -> Vec<String> {
        self.inner.meta.categories.clone()
    }
    /// The page's reader comments, when asked for (`comments=True`): a text per region of
    /// comments, a line per block; never part of `text`.
    #[getter]
    fn comments(&self) -> Vec<String> {
        self.inner.comments.clone()
    }
    /// The canonical URL the page declares (absolute).
    #[getter]
    fn canonical_url(&self) -> Option<&str> {
        self.inner.meta.canonical_url.as_deref()
    }
    /// An estimate of its F1 against the page's true article, in [0, 1]: below 0.5, the
    /// article may be wrong or partial.
    #[getter]
    fn confidence(&self) -> f64 {
        self.inner.confidence
    }
    /// The format asked for (`text`, `markdown`, `html`, `xml`, `json`, `jsonl`).
    #[getter]
    fn format(&self) -> &'static str {
        Format::ALL.iter().find(|(_, f)| *f == self.format).map_or("text", |(n, _)| n)
    }
    /// The article in the format asked for, exactly as `forest apply --format FORMAT` prints
    /// it for one page (also `str(article)`).
    #[getter]
    fn output(&self) -> String {
        self.inner.render(self.format)
    }

    /// The article in `format`, as `forest apply --format FORMAT` prints it for one page.
    fn render(&self, format: &str) -> PyResult<String> {
        Ok(self.inner.render(Format::named(format).map_err(crate::errors::to_py)?))
    }

    /// The JSON object of `forest apply --format json` (`pretty`) or `jsonl`, without the
    /// newline.
    #[pyo3(signature = (pretty = false))]
    fn to_json(&self, pretty: bool) -> String {
        self.inner.to_json(pretty)
    }

    /// The fields of the JSON output as a dict (`url`, `source`, `host`, `title`, `byline`,
    /// `published`, `lang`, `text`, `html`, `xpath`, `rule`, `confidence`, `page_type`,
    /// `authors`, `modified`, `site_name`, `description`, `image`, `tags`, `categories`,
    /// `canonical_url`, and `comments` when asked for), plus `markdown`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let json = py.import("json")?;
        let d = json.call_method1("loads", (self.inner.to_json(false),))?.cast_into::<PyDict>()?;
        d.set_item("markdown", self.inner.markdown())?;
        Ok(d)
    }

    fn __str__(&self) -> String {
        self.output()
    }

    fn __repr__(&self) -> String {
        let title: String = self.inner.title.chars().take(60).collect();
        let url = self.inner.url.as_deref().unwrap_or(&self.inner.source);
        format!("Article(title={title:?}, url={url:?}, rule={:?}, {} chars)", self.inner.rule.name(), self.inner.text.len())
    }
}
