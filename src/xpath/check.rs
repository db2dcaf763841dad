//! Checks on a parsed XPath: only the core function library (with the right arguments), no
//! namespace prefixes or variables, and at most [`super::MAX_XPATH_INNER_SCANS`] scans inside
//! predicates, each of which can multiply the nodes visited by the size of the page.

use super::syntax::*;
use super::MAX_XPATH_INNER_SCANS;


/// The XPath 1.0 core function library: name, fewest and most arguments, and whether its
/// argument must be a node-set.
pub(super) const FUNCTIONS: [(&str, usize, usize, bool); 27] = [
    ("last", 0, 0, false),
    ("position", 0, 0, false),
    ("count", 1, 1, true),
    ("id", 1, 1, false),
    ("local-name", 0, 1, true),
    ("namespace-uri", 0, 1, true),
    ("name", 0, 1, true),
    ("string", 0, 1, false),
    ("concat", 2, usize::MAX, false),
    ("starts-with", 2, 2, false),
    ("contains", 2, 2, false),
    ("substring-before", 2, 2, false),
    ("substring-after", 2, 2, false),
    ("substring", 2, 3, false),
    ("string-length", 0, 1, false),
    ("normalize-space", 0, 1, false),
    ("translate", 3, 3, false),
    ("boolean", 1, 1, false),
    ("not", 1, 1, false),
    ("true", 0, 0, false),
    ("false", 0, 0, false),
    ("lang", 1, 1, false),
    ("number", 0, 1, false),
    ("sum", 1, 1, true),
    ("floor", 1, 1, false),
    ("ceiling", 1, 1, false),
    ("round", 1, 1, false),
];

/// Core functions sxd-xpath 0.4 does not implement: it fails on every page with them.
pub(super) const MISSING_FUNCTIONS: [&str; 2] = ["id", "lang"];

pub(super) fn prefix_refused(prefix: &str) -> String {
    format!("namespace prefix \"{prefix}\": cleaned pages have no namespaces")
}

/// Whether an expression evaluates to a node-set (variables, refused anyway, count as one).
pub(super) fn is_nodeset(e: &Expr) -> bool {
    match e {
        Expr::Path(..) | Expr::Filter(..) | Expr::Variable(_) => true,
        Expr::Chain(_, rest) => rest.first().is_some_and(|(op, _)| *op == Op::Union),
        Expr::Call(name, _) => name.prefix.is_none() && name.local == "id",
        _ => false,
    }
}

/// The reasons to refuse a parsed XPath, the first found.
pub(super) fn check_tree(e: &Expr) -> Result<(), String> {
    let mut scans = 0;
    check_in(e, false, &mut scans)?;
    if scans > MAX_XPATH_INNER_SCANS {
        return Err(format!(
            "{scans} descendant or ancestor scans inside predicates (at most {MAX_XPATH_INNER_SCANS}): its cost grows as the page size to that power"
        ));
    }
    Ok(())
}

pub(super) fn check_in(e: &Expr, in_predicate: bool, scans: &mut usize) -> Result<(), String> {
    match e {
        Expr::Chain(first, rest) => {
            let union = rest.first().is_some_and(|(op, _)| *op == Op::Union);
            for operand in std::iter::once(&**first).chain(rest.iter().map(|(_, e)| e)) {
                if union && !is_nodeset(operand) {
                    return Err("`|` joins node-sets only".into());
                }
                check_in(operand, in_predicate, scans)?;
            }
            Ok(())
        }
        Expr::Negate(e) => check_in(e, in_predicate, scans),
        Expr::Literal(_) | Expr::Number(_) => Ok(()),
        Expr::Variable(name) => Err(format!("variable ${name}: no variables are defined (the evaluator would fail on it)")),
        Expr::Call(name, args) => {
            if let Some(p) = &name.prefix {
                return Err(prefix_refused(p));
            }
            let Some(&(_, min, max, nodeset)) = FUNCTIONS.iter().find(|f| f.0 == name.local) else {
                return Err(format!("unknown function {name}(): only the XPath 1.0 core functions are available"));
            };
            if MISSING_FUNCTIONS.contains(&name.local.as_str()) {
                return Err(format!("function {name}() is not implemented by the XPath evaluator (sxd-xpath 0.4)"));
            }
            let n = args.len();
            if n < min || n > max {
                let takes = match (min, max) {
                    (a, b) if a == b => format!("{a} argument{}", if a == 1 { "" } else { "s" }),
                    (a, usize::MAX) => format!("at least {a} arguments"),
                    (a, b) => format!("{a} to {b} arguments"),
                };
                return Err(format!("{name}() takes {takes}, found {n}"));
            }
            for a in args {
                if nodeset && !is_nodeset(a) {
                    return Err(format!("{name}() takes a node-set"));
                }
                check_in(a, in_predicate, scans)?;
            }
            Ok(())
        }
        Expr::Filter(primary, predicates) => {
            if !is_nodeset(primary) {
                return Err("predicates apply to node-sets only".into());
            }
            check_in(primary, in_predicate, scans)?;
            predicates.iter().try_for_each(|p| check_in(p, true, scans))
        }
        Expr::Path(start, steps) => {
            if let Start::Filter(f) = start {
                if !is_nodeset(f) {
                    return Err("a path continues a node-set only".into());
                }
                check_in(f, in_predicate, scans)?;
            }
            for s in steps {
                if let NodeTest::Name(QName { prefix: Some(p), .. }) = &s.test {
                    return Err(prefix_refused(p));
                }
                if in_predicate && s.axis.scans() {
                    *scans += 1;
                }
                for p in &s.predicates {
                    check_in(p, true, scans)?;
                }
            }
            Ok(())
        }
    }
}

