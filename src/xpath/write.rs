//! The metered writer: XPath text that selects what a parsed expression selects, each
//! tree-walking step calling `forest-visit()` once per node its axis visits.

use super::syntax::*;


/// XPath text that selects what `e` selects, each tree-walking step metered by
/// `forest-visit()`. Operands are parenthesized; a chain of one precedence level stays flat
/// (both this parser and sxd-xpath read it left-associatively), so the text nests no deeper
/// than the source. Axes are always written out: sxd-xpath reads a name after `,` as an
/// operator (`concat(a, div)`), never an axis name.
pub(super) fn write_metered(e: &Expr) -> String {
    let mut out = String::new();
    write_expr(e, &mut out);
    out
}

pub(super) fn write_expr(e: &Expr, out: &mut String) {
    match e {
        Expr::Chain(first, rest) => {
            // A chain is of one precedence level: its operators all convert, or none does.
            let counted = rest.first().is_some_and(|(op, _)| converts(*op));
            write_converted(first, counted, out);
            for (op, e) in rest {
                out.push(' ');
                out.push_str(op.text());
                out.push(' ');
                write_converted(e, counted, out);
            }
        }
        Expr::Negate(e) => {
            out.push('-');
            write_converted(e, true, out);
        }
        Expr::Literal(l) => {
            let q = if l.contains('\'') { '"' } else { '\'' };
            out.push(q);
            out.push_str(l);
            out.push(q);
        }
        Expr::Number(n) => out.push_str(n),
        Expr::Variable(v) => {
            out.push('$');
            out.push_str(&v.to_string());
        }
        Expr::Call(name, args) => {
            // A string function's string arguments go through `forest-chars()`, which counts
            // their characters: `string(/)` on a big page costs its length, not one step.
            // Literals are as long as the XPath at most, and what another string function
            // returns is no longer than the arguments it counted, so neither is wrapped.
            let strings = if name.prefix.is_none() { string_args(&name.local) } else { None };
            let numbers = name.prefix.is_none() && reads_nodes(&name.local);
            out.push_str(&name.to_string());
            out.push('(');
            if args.is_empty() && strings.is_some_and(|(_, _, context)| context) {
                out.push_str(CHARS);
                out.push_str("()");
            }
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let counted = strings.is_some_and(|(first, n, _)| i >= first && i - first < n)
                    && !matches!(a, Expr::Literal(_))
                    && !matches!(a, Expr::Call(f, _) if f.prefix.is_none() && string_args(&f.local).is_some());
                if counted {
                    out.push_str(CHARS);
                    out.push('(');
                }
                if numbers && node_set(a) {
                    write_read(a, out);
                } else {
                    write_expr(a, out);
                }
                if counted {
                    out.push(')');
                }
            }
            out.push(')');
        }
        Expr::Filter(primary, predicates) => {
            write_primary(primary, out);
            for p in predicates {
                write_predicate(p, out);
            }
        }
        Expr::Path(start, steps) => {
            match start {
                Start::Root => out.push('/'),
                Start::Context => {}
                Start::Filter(f) => {
                    write_primary(f, out);
                    out.push('/');
                }
            }
            for (i, s) in steps.iter().enumerate() {
                if i > 0 {
                    out.push('/');
                }
                write_step(s, out);
            }
        }
    }
}

pub(super) fn write_operand(e: &Expr, out: &mut String) {
    write_between('(', e, ')', out);
}

/// Is `e` surely a node-set (a path, a union, a filter of one)?
fn node_set(e: &Expr) -> bool {
    match e {
        Expr::Path(..) => true,
        Expr::Chain(_, rest) => rest.iter().all(|(op, _)| *op == Op::Union),
        Expr::Filter(primary, _) => node_set(primary),
        _ => false,
    }
}

/// An operand, its nodes' string values counted (`(e)[forest-read()]`) when it is a node-set
/// that the operator turns into strings or numbers (`converted`): `//*[/ = 'x']` reads the
/// whole page's text once per element, and the meter sees each read.
fn write_converted(e: &Expr, converted: bool, out: &mut String) {
    if converted && node_set(e) {
        write_read(e, out);
    } else {
        write_operand(e, out);
    }
}

/// `(e)[forest-read()]`: the node-set `e`, each node's string value counted.
fn write_read(e: &Expr, out: &mut String) {
    write_operand(e, out);
    out.push('[');
    out.push_str(READ);
    out.push_str("()]");
}

pub(super) fn write_between(open: char, e: &Expr, close: char, out: &mut String) {
    out.push(open);
    write_expr(e, out);
    out.push(close);
}

/// A FilterExpr's primary expression: parenthesized unless it is one token or a call.
pub(super) fn write_primary(e: &Expr, out: &mut String) {
    match e {
        Expr::Literal(_) | Expr::Number(_) | Expr::Variable(_) | Expr::Call(..) | Expr::Filter(..) => write_expr(e, out),
        _ => write_operand(e, out),
    }
}

pub(super) fn write_predicate(e: &Expr, out: &mut String) {
    write_between('[', e, ']', out);
}

pub(super) fn write_test(t: &NodeTest, out: &mut String) {
    match t {
        NodeTest::Name(q) => out.push_str(&q.to_string()),
        NodeTest::Node => out.push_str("node()"),
        NodeTest::Text => out.push_str("text()"),
        NodeTest::Comment => out.push_str("comment()"),
        NodeTest::ProcessingInstruction(None) => out.push_str("processing-instruction()"),
        NodeTest::ProcessingInstruction(Some(l)) => {
            out.push_str("processing-instruction(");
            write_expr(&Expr::Literal(l.clone()), out);
            out.push(')');
        }
    }
}

pub(super) fn write_step(s: &Step, out: &mut String) {
    out.push_str(s.axis.name());
    out.push_str("::");
    if s.axis.metered() {
        out.push_str("node()[");
        out.push_str(VISIT);
        out.push_str("()]");
        if s.test != NodeTest::Node {
            out.push_str("[self::");
            write_test(&s.test, out);
            out.push(']');
        }
    } else {
        write_test(&s.test, out);
    }
    for p in &s.predicates {
        write_predicate(p, out);
    }
}

