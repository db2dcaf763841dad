//! XPath: the one home of forest's XPath machinery. XPaths read from files (wrappers,
//! FiveFilters site configs) are checked and evaluated within a budget; the XPaths induction
//! writes run on the cleaned tree directly.
//!
//! - `syntax` parses XPath 1.0, `check` refuses what could run away, `write`
//!   writes a parsed XPath back metered, [`meter`](mod@meter) counts visits and compiles
//!   [`Program`]s;
//! - [`compiled`] runs the subset induction writes straight on a [`crate::clean::Doc`];
//! - [`sxd`] evaluates a [`Program`] on a cleaned page through sxd-xpath (the general
//!   evaluator, and the oracle the compiled subset is tested against).
//!
//! sxd-xpath has no limit of its own: `//*[../*]` on a page with a million siblings runs 10¹²
//! steps. So an XPath is parsed here (XPath 1.0, §3 of the recommendation), checked, and
//! written back as XPath text in which every location step that walks a tree (child,
//! descendant, ancestor, following, preceding and their variants) calls the function
//! `forest-visit()` once per node its axis visits:
//! `child::p[1]` becomes `child::node()[forest-visit()][self::p][1]`. Each predicate filters
//! the previous one's result in axis order, and `self::` has the element as principal node type
//! like those axes, so the text selects exactly what the original selects. `forest-visit()`
//! counts against a [`Meter`] and fails once its budget of visits or its deadline is spent,
//! which aborts sxd's evaluation.
//!
//! Parsing is recursive descent; its depth is the expression's nesting (parentheses,
//! predicates, function arguments, unary minus), capped at [`MAX_XPATH_NESTING`] while parsing,
//! and operator chains (`a or b or c`, `x | y | z`) are lists, so no input overflows the stack.

mod check;
pub mod compiled;
pub mod meter;
pub mod sxd;
mod syntax;
mod write;
#[cfg(test)]
mod tests;

pub use compiled::CompiledPath;
pub use meter::{context, EvalError, Meter, Program, Stop};

use crate::budget::Limit;
use crate::{Error, Result};

/// Longest XPath read from a wrapper or site config, in bytes.
pub const MAX_XPATH_BYTES: usize = 4096;
/// Deepest nesting of predicates and parentheses in such an XPath.
pub const MAX_XPATH_NESTING: usize = 8;
/// Most descendant steps (`//`, `descendant::`, `ancestor::`, …) inside predicates: each one
/// can multiply the nodes visited by the size of the page.
pub const MAX_XPATH_INNER_SCANS: usize = 3;

/// Refuse an XPath from a file whose evaluation could run away, or that cannot run on a
/// cleaned page: an XPath is data. It is parsed and checked: at most [`MAX_XPATH_BYTES`] long
/// and [`MAX_XPATH_NESTING`] deep; at most [`MAX_XPATH_INNER_SCANS`] descendant or ancestor
/// scans inside predicates (each multiplies the visits by the page size); no namespace prefix,
/// variable or function outside XPath 1.0's core. What passes still runs under a node-visit
/// budget ([`Meter`]).
///
/// # Errors
/// [`Error::XPath`] with the reason.
///
/// # Example
/// ```
/// use forest::xpath::check;
/// assert!(check("//div[@class='story']//p").is_ok());
/// assert!(check("//*[.//*[.//*[.//*[.//*]]]]").is_err());
/// assert!(check("/html/svg:path").is_err());
/// ```
pub fn check(expr: &str) -> Result<()> {
    syntax::parse(expr).and_then(|e| check::check_tree(&e)).map_err(|why| refused(expr, why))
}

/// The checked, metered text of an XPath.
fn metered(expr: &str) -> std::result::Result<String, String> {
    let ast = syntax::parse(expr)?;
    check::check_tree(&ast)?;
    Ok(write::write_metered(&ast))
}

/// [`Error::XPath`] for an XPath refused before it runs.
fn refused(expr: &str, why: String) -> Error {
    Error::XPath { xpath: expr.to_string(), message: format!("refused: {why}") }
}

/// A metered evaluation's failure as the crate's error: a spent budget is
/// [`Error::OverBudget`] (the page is skipped, the run goes on).
pub fn eval_error(expr: &str, e: EvalError) -> Error {
    let short: String = expr.chars().take(80).collect();
    match e {
        EvalError::Budget(Stop::Visits(n)) => {
            Error::OverBudget { what: format!("the XPath {short:?} visited over {n} nodes"), limit: Limit::XPathVisits }
        }
        EvalError::Budget(Stop::Characters(n)) => Error::OverBudget {
            what: format!("the XPath {short:?} read over {n} characters in string functions"),
            limit: Limit::XPathVisits,
        },
        EvalError::Budget(Stop::Deadline) => {
            Error::OverBudget { what: format!("the page's time ran out evaluating the XPath {short:?}"), limit: Limit::Time }
        }
        EvalError::Failed(message) => Error::XPath { xpath: expr.to_string(), message },
    }
}

/// An XPath 1.0 string literal for any string (`concat` when it holds both quote kinds).
pub fn literal(s: &str) -> String {
    if !s.contains('\'') {
        format!("'{s}'")
    } else if !s.contains('"') {
        format!("\"{s}\"")
    } else {
        let parts: Vec<String> = s.split('\'').map(|p| format!("'{p}'")).collect();
        format!("concat({})", parts.join(", \"'\", "))
    }
}

#[cfg(test)]
mod literal_tests {
    use super::literal;

    #[test]
    fn literals_quote_safely() {
        assert_eq!(literal("a"), "'a'");
        assert_eq!(literal("it's"), "\"it's\"");
        assert_eq!(literal("a'b\"c"), "concat('a', \"'\", 'b\"c')");
    }
}

/// An XPath made ready to select elements on any page: compiled to run on the cleaned tree
/// directly when it is of the subset induction writes ([`CompiledPath`]), else checked now and
/// evaluated by sxd-xpath on the page's XML within a [`Meter`] (its program cannot be shared
/// between threads, so it is compiled again for the page that needs it).
#[derive(Debug, Clone)]
pub struct Selector {
    xpath: String,
    compiled: Option<CompiledPath>,
}

impl Selector {
    /// Ready `xpath`.
    ///
    /// # Errors
    /// [`Error::XPath`] when it is outside the compiled subset and does not parse or is
    /// refused ([`Program::compile`]).
    pub fn new(xpath: &str) -> Result<Selector> {
        let compiled = CompiledPath::parse(xpath);
        if compiled.is_none() {
            Program::compile(xpath)?;
        }
        Ok(Selector { xpath: xpath.to_string(), compiled })
    }

    /// The XPath.
    pub fn source(&self) -> &str {
        &self.xpath
    }

    /// The elements selected on `doc`, nested ones merged into the outermost, in document order.
    ///
    /// # Errors
    /// [`Error::XPath`] when evaluation fails, [`Error::OverBudget`] when `meter` runs out
    /// (the general evaluator only).
    pub fn elements(&self, doc: &crate::clean::Doc, meter: &Meter) -> Result<Vec<crate::clean::NodeId>> {
        match &self.compiled {
            Some(c) => Ok(doc.outermost(c.select(doc))),
            None => self.elements_with_sxd(doc, meter),
        }
    }

    /// As [`Selector::elements`], always by sxd-xpath (the oracle the compiled subset is
    /// tested against).
    ///
    /// # Errors
    /// As [`Selector::elements`].
    pub fn elements_with_sxd(&self, doc: &crate::clean::Doc, meter: &Meter) -> Result<Vec<crate::clean::NodeId>> {
        let package = sxd::parse(doc)?;
        let program = Program::compile(&self.xpath)?;
        sxd::Evaluator::within(doc, &package, meter).elements(&program)
    }
}
