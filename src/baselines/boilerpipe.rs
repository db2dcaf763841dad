//! Boilerpipe's ArticleExtractor (placeholder until the full filter chain lands).

use crate::clean::Doc;

/// The article text of `doc`.
pub fn extract(doc: &Doc) -> String {
    doc.text(doc.body)
}
