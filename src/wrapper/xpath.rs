//! XPaths read from files (wrappers, FiveFilters site configs), checked and evaluated within a
//! budget.
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

use super::{MAX_XPATH_BYTES, MAX_XPATH_INNER_SCANS, MAX_XPATH_NESTING};
use std::cell::Cell;
use std::fmt;
use std::rc::Rc;
use std::time::Instant;
use sxd_document::XmlChar;
use sxd_xpath::nodeset::Node;
use sxd_xpath::{Context, Value, XPath};

/// The name of the metering function the written XPaths call.
const VISIT: &str = "forest-visit";

// ---------------------------------------------------------------------------------------------
// Syntax tree

/// An axis (§2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Axis {
    Ancestor,
    AncestorOrSelf,
    Attribute,
    Child,
    Descendant,
    DescendantOrSelf,
    Following,
    FollowingSibling,
    Namespace,
    Parent,
    Preceding,
    PrecedingSibling,
    SelfNode,
}

impl Axis {
    const ALL: [Axis; 13] = [
        Axis::Ancestor,
        Axis::AncestorOrSelf,
        Axis::Attribute,
        Axis::Child,
        Axis::Descendant,
        Axis::DescendantOrSelf,
        Axis::Following,
        Axis::FollowingSibling,
        Axis::Namespace,
        Axis::Parent,
        Axis::Preceding,
        Axis::PrecedingSibling,
        Axis::SelfNode,
    ];

    fn name(self) -> &'static str {
        match self {
            Axis::Ancestor => "ancestor",
            Axis::AncestorOrSelf => "ancestor-or-self",
            Axis::Attribute => "attribute",
            Axis::Child => "child",
            Axis::Descendant => "descendant",
            Axis::DescendantOrSelf => "descendant-or-self",
            Axis::Following => "following",
            Axis::FollowingSibling => "following-sibling",
            Axis::Namespace => "namespace",
            Axis::Parent => "parent",
            Axis::Preceding => "preceding",
            Axis::PrecedingSibling => "preceding-sibling",
            Axis::SelfNode => "self",
        }
    }

    fn from_name(name: &str) -> Option<Axis> {
        Axis::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Walks a tree (any number of nodes): metered. Self and parent give one node, attribute an
    /// element's attributes (capped by the cleaner), namespace none on cleaned pages.
    fn metered(self) -> bool {
        !matches!(self, Axis::SelfNode | Axis::Parent | Axis::Attribute | Axis::Namespace)
    }

    /// Counts towards [`MAX_XPATH_INNER_SCANS`] inside a predicate.
    fn scans(self) -> bool {
        matches!(
            self,
            Axis::Ancestor
                | Axis::AncestorOrSelf
                | Axis::Descendant
                | Axis::DescendantOrSelf
                | Axis::Following
                | Axis::FollowingSibling
                | Axis::Preceding
                | Axis::PrecedingSibling
        )
    }
}

/// A possibly prefixed name.
#[derive(Debug, Clone, PartialEq, Eq)]
struct QName {
    prefix: Option<String>,
    local: String,
}

impl fmt::Display for QName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.prefix {
            Some(p) => write!(f, "{p}:{}", self.local),
            None => f.write_str(&self.local),
        }
    }
}

/// A node test (§2.3). A name test's local part is `*` for a wildcard.
#[derive(Debug, Clone, PartialEq, Eq)]
enum NodeTest {
    Name(QName),
    Node,
    Text,
    Comment,
    ProcessingInstruction(Option<String>),
}

/// A location step; `//` is a `descendant-or-self::node()` step, `.` and `..` are `self::node()`
/// and `parent::node()`.
#[derive(Debug, Clone, PartialEq)]
struct Step {
    axis: Axis,
    test: NodeTest,
    predicates: Vec<Expr>,
}

/// Where a path starts.
#[derive(Debug, Clone, PartialEq)]
enum Start {
    /// `/…`
    Root,
    /// A relative location path.
    Context,
    /// `FilterExpr / RelativeLocationPath`.
    Filter(Box<Expr>),
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Or,
    And,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    Mul,
    Div,
    Mod,
    Union,
}

impl Op {
    fn text(self) -> &'static str {
        match self {
            Op::Or => "or",
            Op::And => "and",
            Op::Eq => "=",
            Op::Neq => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Plus => "+",
            Op::Minus => "-",
            Op::Mul => "*",
            Op::Div => "div",
            Op::Mod => "mod",
            Op::Union => "|",
        }
    }
}

/// An XPath expression.
#[derive(Debug, Clone, PartialEq)]
enum Expr {
    /// A left-associative chain of operators of one precedence level: `first op e1 op e2 …`.
    Chain(Box<Expr>, Vec<(Op, Expr)>),
    /// Unary minus.
    Negate(Box<Expr>),
    /// A string literal's content.
    Literal(String),
    /// A number as written.
    Number(String),
    Variable(QName),
    Call(QName, Vec<Expr>),
    /// A primary expression with at least one predicate: `(//p)[2]`.
    Filter(Box<Expr>, Vec<Expr>),
    Path(Start, Vec<Step>),
}

// ---------------------------------------------------------------------------------------------
// Lexer (§3.7)

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    LParen,
    RParen,
    LBracket,
    RBracket,
    Dot,
    DotDot,
    At,
    Comma,
    ColonColon,
    Slash,
    DoubleSlash,
    Op(Op),
    Literal(String),
    Number(String),
    /// A name test (local part `*` for wildcards).
    Name(QName),
    /// `node`, `text`, `comment` or `processing-instruction` before `(`.
    NodeType(&'static str),
    /// A name before `(` that is not a node type.
    Function(QName),
    /// A name before `::`.
    Axis(Axis),
    Variable(QName),
}

impl Tok {
    /// An Operator of §3.7 (`/`, `//`, `|`, `+`, `-`, comparisons, operator names, `*`).
    fn is_operator(&self) -> bool {
        matches!(self, Tok::Op(_) | Tok::Slash | Tok::DoubleSlash)
    }
}

/// A token and its byte span in the source.
type Spanned = (Tok, usize, usize);

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

struct Lexer<'s> {
    src: &'s str,
    pos: usize,
}

impl<'s> Lexer<'s> {
    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.src[self.pos..].chars().nth(n)
    }

    /// The NCName at the current position, consumed.
    fn ncname(&mut self) -> &'s str {
        let rest = &self.src[self.pos..];
        let mut end = 0;
        for (i, c) in rest.char_indices() {
            let ok = if i == 0 { c.is_ncname_start_char() } else { c.is_ncname_char() };
            if !ok {
                break;
            }
            end = i + c.len_utf8();
        }
        self.pos += end;
        &rest[..end]
    }

    /// The next non-space characters, without consuming them.
    fn after_space(&self) -> &'s str {
        self.src[self.pos..].trim_start_matches(is_space)
    }

    fn error(&self, at: usize, what: &str) -> String {
        format!("at byte {at}: {what}")
    }

    fn tokens(mut self) -> Result<Vec<Spanned>, String> {
        let mut out: Vec<Spanned> = Vec::new();
        loop {
            while self.peek().is_some_and(is_space) {
                self.pos += 1;
            }
            let Some(c) = self.peek() else { break };
            let start = self.pos;
            // §3.7: after a token that is not one of @ :: ( [ , or an Operator, `*` multiplies
            // and a name is an operator name.
            let operator_expected = out.last().is_some_and(|(t, _, _)| {
                !matches!(t, Tok::At | Tok::ColonColon | Tok::LParen | Tok::LBracket | Tok::Comma) && !t.is_operator()
            });
            let next = self.peek_at(1);
            let (tok, len) = match c {
                '(' => (Tok::LParen, 1),
                ')' => (Tok::RParen, 1),
                '[' => (Tok::LBracket, 1),
                ']' => (Tok::RBracket, 1),
                '@' => (Tok::At, 1),
                ',' => (Tok::Comma, 1),
                '|' => (Tok::Op(Op::Union), 1),
                '+' => (Tok::Op(Op::Plus), 1),
                '-' => (Tok::Op(Op::Minus), 1),
                '=' => (Tok::Op(Op::Eq), 1),
                '!' if next == Some('=') => (Tok::Op(Op::Neq), 2),
                '<' if next == Some('=') => (Tok::Op(Op::Le), 2),
                '<' => (Tok::Op(Op::Lt), 1),
                '>' if next == Some('=') => (Tok::Op(Op::Ge), 2),
                '>' => (Tok::Op(Op::Gt), 1),
                '/' if next == Some('/') => (Tok::DoubleSlash, 2),
                '/' => (Tok::Slash, 1),
                ':' if next == Some(':') => (Tok::ColonColon, 2),
                '.' if next == Some('.') => (Tok::DotDot, 2),
                '.' if !next.is_some_and(|d| d.is_ascii_digit()) => (Tok::Dot, 1),
                '*' if operator_expected => (Tok::Op(Op::Mul), 1),
                '*' => (Tok::Name(QName { prefix: None, local: "*".into() }), 1),
                '\'' | '"' => {
                    let body = &self.src[start + 1..];
                    let Some(end) = body.find(c) else {
                        return Err(self.error(start, "string literal without its closing quote"));
                    };
                    (Tok::Literal(body[..end].to_string()), end + 2)
                }
                '.' | '0'..='9' => {
                    let rest = &self.src.as_bytes()[start..];
                    let mut n = rest.iter().take_while(|b| b.is_ascii_digit()).count();
                    if rest.get(n) == Some(&b'.') {
                        n += 1;
                        n += rest[n..].iter().take_while(|b| b.is_ascii_digit()).count();
                    }
                    (Tok::Number(self.src[start..start + n].to_string()), n)
                }
                '$' => {
                    self.pos += 1;
                    match self.qname_after_ncname_start()? {
                        Some(q) if q.local != "*" => (Tok::Variable(q), 0),
                        _ => return Err(self.error(start, "`$` without a variable name")),
                    }
                }
                c if c.is_ncname_start_char() => {
                    if operator_expected {
                        let name = self.ncname();
                        let op = match name {
                            "and" => Op::And,
                            "or" => Op::Or,
                            "div" => Op::Div,
                            "mod" => Op::Mod,
                            _ => return Err(self.error(start, &format!("expected an operator, found `{name}`"))),
                        };
                        (Tok::Op(op), 0)
                    } else {
                        let Some(name) = self.qname_after_ncname_start()? else {
                            return Err(self.error(start, "expected a name"));
                        };
                        let after = self.after_space();
                        let tok = if after.starts_with("::") {
                            match (&name.prefix, Axis::from_name(&name.local)) {
                                (None, Some(axis)) => Tok::Axis(axis),
                                _ => return Err(self.error(start, &format!("`{name}` is not an axis"))),
                            }
                        } else if after.starts_with('(') {
                            match (&name.prefix, name.local.as_str()) {
                                (None, "node") => Tok::NodeType("node"),
                                (None, "text") => Tok::NodeType("text"),
                                (None, "comment") => Tok::NodeType("comment"),
                                (None, "processing-instruction") => Tok::NodeType("processing-instruction"),
                                _ if name.local == "*" => Tok::Name(name),
                                _ => Tok::Function(name),
                            }
                        } else {
                            Tok::Name(name)
                        };
                        (tok, 0)
                    }
                }
                c => return Err(self.error(start, &format!("unexpected character `{c}`"))),
            };
            self.pos += len;
            out.push((tok, start, self.pos));
        }
        Ok(out)
    }

    /// A QName or `prefix:*` at the position (which holds an NCName start character, or not:
    /// then none).
    fn qname_after_ncname_start(&mut self) -> Result<Option<QName>, String> {
        if !self.peek().is_some_and(|c| c.is_ncname_start_char()) {
            return Ok(None);
        }
        let first = self.ncname().to_string();
        if self.peek() == Some(':') && self.peek_at(1) != Some(':') {
            let colon = self.pos;
            self.pos += 1;
            let local = if self.peek() == Some('*') {
                self.pos += 1;
                "*".to_string()
            } else if self.peek().is_some_and(|c| c.is_ncname_start_char()) {
                self.ncname().to_string()
            } else {
                return Err(self.error(colon, &format!("`{first}:` without a name after it")));
            };
            return Ok(Some(QName { prefix: Some(first), local }));
        }
        Ok(Some(QName { prefix: None, local: first }))
    }
}

// ---------------------------------------------------------------------------------------------
// Parser (§3.1–3.5, §2)

struct Parser<'s> {
    src: &'s str,
    toks: Vec<Spanned>,
    at: usize,
    depth: usize,
}

/// The binary operator levels, loosest first (the union is parsed below unary minus).
const LEVELS: [&[Op]; 6] = [
    &[Op::Or],
    &[Op::And],
    &[Op::Eq, Op::Neq],
    &[Op::Lt, Op::Le, Op::Gt, Op::Ge],
    &[Op::Plus, Op::Minus],
    &[Op::Mul, Op::Div, Op::Mod],
];

fn parse(src: &str) -> Result<Expr, String> {
    if src.len() > MAX_XPATH_BYTES {
        return Err(format!("longer than {MAX_XPATH_BYTES} bytes"));
    }
    let toks = Lexer { src, pos: 0 }.tokens()?;
    if toks.is_empty() {
        return Err("empty XPath".into());
    }
    let mut p = Parser { src, toks, at: 0, depth: 0 };
    let e = p.expr()?;
    if p.at < p.toks.len() {
        return Err(p.unexpected("an operator or the end"));
    }
    Ok(e)
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|(t, _, _)| t)
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek() == Some(tok) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn unexpected(&self, wanted: &str) -> String {
        match self.toks.get(self.at) {
            Some((_, s, e)) => format!("at byte {s}: expected {wanted}, found `{}`", &self.src[*s..*e]),
            None => format!("expected {wanted} at the end"),
        }
    }

    fn expect(&mut self, tok: &Tok, wanted: &str) -> Result<(), String> {
        if self.eat(tok) {
            Ok(())
        } else {
            Err(self.unexpected(wanted))
        }
    }

    /// One level deeper: refused past [`MAX_XPATH_NESTING`], which bounds the recursion.
    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_XPATH_NESTING {
            return Err(format!("nested more than {MAX_XPATH_NESTING} deep (parentheses, predicates, function arguments, unary minus)"));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn expr(&mut self) -> Result<Expr, String> {
        self.binary(0)
    }

    fn binary(&mut self, level: usize) -> Result<Expr, String> {
        let operand = |p: &mut Self| if level + 1 < LEVELS.len() { p.binary(level + 1) } else { p.unary() };
        let first = operand(self)?;
        let mut rest = Vec::new();
        while let Some(&Tok::Op(op)) = self.peek() {
            if !LEVELS[level].contains(&op) {
                break;
            }
            self.at += 1;
            rest.push((op, operand(self)?));
        }
        Ok(if rest.is_empty() { first } else { Expr::Chain(Box::new(first), rest) })
    }

    fn unary(&mut self) -> Result<Expr, String> {
        if self.eat(&Tok::Op(Op::Minus)) {
            self.enter()?;
            let e = self.unary()?;
            self.leave();
            return Ok(Expr::Negate(Box::new(e)));
        }
        let first = self.path_expr()?;
        let mut rest = Vec::new();
        while self.eat(&Tok::Op(Op::Union)) {
            rest.push((Op::Union, self.path_expr()?));
        }
        Ok(if rest.is_empty() { first } else { Expr::Chain(Box::new(first), rest) })
    }

    fn starts_step(tok: Option<&Tok>) -> bool {
        matches!(tok, Some(Tok::Axis(_) | Tok::At | Tok::Dot | Tok::DotDot | Tok::Name(_) | Tok::NodeType(_)))
    }

    fn path_expr(&mut self) -> Result<Expr, String> {
        match self.peek() {
            Some(Tok::Slash) => {
                self.at += 1;
                let mut steps = Vec::new();
                if Self::starts_step(self.peek()) {
                    self.relative(&mut steps)?;
                }
                Ok(Expr::Path(Start::Root, steps))
            }
            Some(Tok::DoubleSlash) => {
                self.at += 1;
                let mut steps = vec![descendant_or_self()];
                self.relative(&mut steps)?;
                Ok(Expr::Path(Start::Root, steps))
            }
            t if Self::starts_step(t) => {
                let mut steps = Vec::new();
                self.relative(&mut steps)?;
                Ok(Expr::Path(Start::Context, steps))
            }
            _ => {
                let primary = self.primary()?;
                let predicates = self.predicates()?;
                let filter = if predicates.is_empty() { primary } else { Expr::Filter(Box::new(primary), predicates) };
                let mut steps = Vec::new();
                match self.peek() {
                    Some(Tok::Slash) => self.at += 1,
                    Some(Tok::DoubleSlash) => {
                        self.at += 1;
                        steps.push(descendant_or_self());
                    }
                    _ => return Ok(filter),
                }
                self.relative(&mut steps)?;
                Ok(Expr::Path(Start::Filter(Box::new(filter)), steps))
            }
        }
    }

    /// RelativeLocationPath: steps separated by `/` or `//`.
    fn relative(&mut self, steps: &mut Vec<Step>) -> Result<(), String> {
        loop {
            steps.push(self.step()?);
            match self.peek() {
                Some(Tok::Slash) => self.at += 1,
                Some(Tok::DoubleSlash) => {
                    self.at += 1;
                    steps.push(descendant_or_self());
                }
                _ => return Ok(()),
            }
        }
    }

    fn step(&mut self) -> Result<Step, String> {
        let axis = match self.peek() {
            // `.[…]` is not XPath 1.0 but sxd-xpath and XPath 2 take it, and it means one thing.
            Some(Tok::Dot) => {
                self.at += 1;
                return Ok(Step { axis: Axis::SelfNode, test: NodeTest::Node, predicates: self.predicates()? });
            }
            Some(Tok::DotDot) => {
                self.at += 1;
                return Ok(Step { axis: Axis::Parent, test: NodeTest::Node, predicates: self.predicates()? });
            }
            Some(Tok::At) => {
                self.at += 1;
                Axis::Attribute
            }
            Some(&Tok::Axis(axis)) => {
                self.at += 1;
                self.expect(&Tok::ColonColon, "`::`")?;
                axis
            }
            _ => Axis::Child,
        };
        let test = match self.peek().cloned() {
            Some(Tok::Name(q)) => {
                self.at += 1;
                NodeTest::Name(q)
            }
            Some(Tok::NodeType(kind)) => {
                self.at += 1;
                self.expect(&Tok::LParen, "`(`")?;
                let test = match kind {
                    "node" => NodeTest::Node,
                    "text" => NodeTest::Text,
                    "comment" => NodeTest::Comment,
                    _ => match self.peek().cloned() {
                        Some(Tok::Literal(l)) => {
                            self.at += 1;
                            NodeTest::ProcessingInstruction(Some(l))
                        }
                        _ => NodeTest::ProcessingInstruction(None),
                    },
                };
                self.expect(&Tok::RParen, "`)`")?;
                test
            }
            _ => return Err(self.unexpected("a node test")),
        };
        Ok(Step { axis, test, predicates: self.predicates()? })
    }

    fn predicates(&mut self) -> Result<Vec<Expr>, String> {
        let mut out = Vec::new();
        while self.eat(&Tok::LBracket) {
            self.enter()?;
            out.push(self.expr()?);
            self.leave();
            self.expect(&Tok::RBracket, "`]`")?;
        }
        Ok(out)
    }

    fn primary(&mut self) -> Result<Expr, String> {
        let e = match self.peek().cloned() {
            Some(Tok::Literal(l)) => Expr::Literal(l),
            Some(Tok::Number(n)) => Expr::Number(n),
            Some(Tok::Variable(v)) => Expr::Variable(v),
            Some(Tok::LParen) => {
                self.at += 1;
                self.enter()?;
                let e = self.expr()?;
                self.leave();
                self.expect(&Tok::RParen, "`)`")?;
                return Ok(e);
            }
            Some(Tok::Function(name)) => {
                self.at += 1;
                self.expect(&Tok::LParen, "`(`")?;
                self.enter()?;
                let mut args = Vec::new();
                if !self.eat(&Tok::RParen) {
                    loop {
                        args.push(self.expr()?);
                        if self.eat(&Tok::RParen) {
                            break;
                        }
                        self.expect(&Tok::Comma, "`,` or `)`")?;
                    }
                }
                self.leave();
                return Ok(Expr::Call(name, args));
            }
            _ => return Err(self.unexpected("an expression")),
        };
        self.at += 1;
        Ok(e)
    }
}

fn descendant_or_self() -> Step {
    Step { axis: Axis::DescendantOrSelf, test: NodeTest::Node, predicates: Vec::new() }
}

// ---------------------------------------------------------------------------------------------
// Checks

/// The XPath 1.0 core function library: name, fewest and most arguments, and whether its
/// argument must be a node-set.
const FUNCTIONS: [(&str, usize, usize, bool); 27] = [
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
const MISSING_FUNCTIONS: [&str; 2] = ["id", "lang"];

fn prefix_refused(prefix: &str) -> String {
    format!("namespace prefix \"{prefix}\": cleaned pages have no namespaces")
}

/// Whether an expression evaluates to a node-set (variables, refused anyway, count as one).
fn is_nodeset(e: &Expr) -> bool {
    match e {
        Expr::Path(..) | Expr::Filter(..) | Expr::Variable(_) => true,
        Expr::Chain(_, rest) => rest.first().is_some_and(|(op, _)| *op == Op::Union),
        Expr::Call(name, _) => name.prefix.is_none() && name.local == "id",
        _ => false,
    }
}

/// The reasons to refuse a parsed XPath, the first found.
fn check_tree(e: &Expr) -> Result<(), String> {
    let mut scans = 0;
    check_in(e, false, &mut scans)?;
    if scans > MAX_XPATH_INNER_SCANS {
        return Err(format!(
            "{scans} descendant or ancestor scans inside predicates (at most {MAX_XPATH_INNER_SCANS}): its cost grows as the page size to that power"
        ));
    }
    Ok(())
}

fn check_in(e: &Expr, in_predicate: bool, scans: &mut usize) -> Result<(), String> {
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

// ---------------------------------------------------------------------------------------------
// Writer

/// XPath text that selects what `e` selects, each tree-walking step metered by
/// `forest-visit()`. Operands are parenthesized; a chain of one precedence level stays flat
/// (both this parser and sxd-xpath read it left-associatively), so the text nests no deeper
/// than the source. Axes are always written out: sxd-xpath reads a name after `,` as an
/// operator (`concat(a, div)`), never an axis name.
fn write_metered(e: &Expr) -> String {
    let mut out = String::new();
    write_expr(e, &mut out);
    out
}

fn write_expr(e: &Expr, out: &mut String) {
    match e {
        Expr::Chain(first, rest) => {
            write_operand(first, out);
            for (op, e) in rest {
                out.push(' ');
                out.push_str(op.text());
                out.push(' ');
                write_operand(e, out);
            }
        }
        Expr::Negate(e) => {
            out.push('-');
            write_operand(e, out);
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
            out.push_str(&name.to_string());
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_expr(a, out);
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

fn write_operand(e: &Expr, out: &mut String) {
    write_between('(', e, ')', out);
}

fn write_between(open: char, e: &Expr, close: char, out: &mut String) {
    out.push(open);
    write_expr(e, out);
    out.push(close);
}

/// A FilterExpr's primary expression: parenthesized unless it is one token or a call.
fn write_primary(e: &Expr, out: &mut String) {
    match e {
        Expr::Literal(_) | Expr::Number(_) | Expr::Variable(_) | Expr::Call(..) | Expr::Filter(..) => write_expr(e, out),
        _ => write_operand(e, out),
    }
}

fn write_predicate(e: &Expr, out: &mut String) {
    write_between('[', e, ']', out);
}

fn write_test(t: &NodeTest, out: &mut String) {
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

fn write_step(s: &Step, out: &mut String) {
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

// ---------------------------------------------------------------------------------------------
// Runtime

/// Why a metered evaluation stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// It visited more nodes than this limit.
    Visits(u64),
    /// It ran past its deadline.
    Deadline,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Visits(n) => write!(f, "visited more than {n} nodes"),
            Stop::Deadline => f.write_str("ran past its deadline"),
        }
    }
}

#[derive(Debug)]
struct MeterState {
    limit: u64,
    deadline: Option<Instant>,
    visits: Cell<u64>,
    stop: Cell<Option<Stop>>,
}

/// A budget of node visits and a deadline, shared by every evaluation in the contexts made
/// with it ([`context`]). Once spent it stays spent: later evaluations stop at once.
#[derive(Debug, Clone)]
pub struct Meter(Rc<MeterState>);

/// The default node-visit budget ([`crate::clean::MAX_XPATH_VISITS`]), no deadline.
impl Default for Meter {
    fn default() -> Meter {
        Meter::new(crate::clean::MAX_XPATH_VISITS, None)
    }
}

thread_local! {
    /// The stop of the last meter that refused a visit on this thread: how
    /// [`Program::evaluate`] tells a spent budget from other failures (the context hides the
    /// meter, and sxd-xpath's errors are opaque).
    static LAST_STOP: Cell<Option<Stop>> = const { Cell::new(None) };
}

impl Meter {
    /// A meter that stops evaluations after `max_visits` node visits, or at the first visit
    /// checked past `deadline` (checked every 16 visits).
    pub fn new(max_visits: u64, deadline: Option<Instant>) -> Meter {
        Meter(Rc::new(MeterState { limit: max_visits, deadline, visits: Cell::new(0), stop: Cell::new(None) }))
    }

    /// A page's meter: its node-visit budget and its deadline.
    pub fn for_page(page: &crate::Page) -> Meter {
        Meter::new(page.budget.max_xpath_visits, page.deadline)
    }

    /// Nodes visited so far (the refused visit included).
    pub fn visits(&self) -> u64 {
        self.0.visits.get()
    }

    /// Why the meter stopped, if it did.
    pub fn stopped(&self) -> Option<Stop> {
        self.0.stop.get()
    }

    fn visit(&self) -> Result<(), Stop> {
        let s = &self.0;
        let stop = match s.stop.get() {
            Some(stop) => Some(stop),
            None => {
                let n = s.visits.get().saturating_add(1);
                s.visits.set(n);
                if n > s.limit {
                    Some(Stop::Visits(s.limit))
                } else if n % 16 == 1 && s.deadline.is_some_and(|d| Instant::now() >= d) {
                    Some(Stop::Deadline)
                } else {
                    None
                }
            }
        };
        match stop {
            None => Ok(()),
            Some(stop) => {
                s.stop.set(Some(stop));
                LAST_STOP.with(|l| l.set(Some(stop)));
                Err(stop)
            }
        }
    }
}

/// `forest-visit()`: one node visited.
struct Visit(Meter);

impl sxd_xpath::function::Function for Visit {
    fn evaluate<'c, 'd>(
        &self,
        _context: &sxd_xpath::context::Evaluation<'c, 'd>,
        _args: Vec<Value<'d>>,
    ) -> Result<Value<'d>, sxd_xpath::function::Error> {
        match self.0.visit() {
            Ok(()) => Ok(Value::Boolean(true)),
            Err(stop) => Err(sxd_xpath::function::Error::Other(stop.to_string())),
        }
    }
}

/// An evaluation context (the core functions) with `forest-visit()` counting against `meter`:
/// the context [`Program::evaluate`] needs.
pub fn context<'d>(meter: &Meter) -> Context<'d> {
    let mut c = Context::new();
    c.set_function(VISIT, Visit(meter.clone()));
    c
}

/// Why an evaluation failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EvalError {
    /// The meter stopped it.
    Budget(Stop),
    /// sxd-xpath failed (e.g. a context made without [`context`]).
    Failed(String),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::Budget(stop) => write!(f, "XPath evaluation stopped: it {stop}"),
            EvalError::Failed(e) => write!(f, "XPath evaluation failed: {e}"),
        }
    }
}

impl std::error::Error for EvalError {}

/// An XPath from a file, checked and compiled with its tree-walking steps metered.
///
/// # Example
/// ```
/// use forest::wrapper::xpath::{self, EvalError, Meter, Program, Stop};
/// let package = sxd_document::parser::parse("<html><body><p>a</p><p>b</p></body></html>").unwrap();
/// let doc = package.as_document();
///
/// let program = Program::compile("//p[2]").unwrap();
/// let meter = Meter::new(10_000, None);
/// let value = program.evaluate(&xpath::context(&meter), doc.root()).unwrap();
/// assert_eq!(value.string(), "b");
/// assert!(meter.visits() < 20);
///
/// // A small budget stops it.
/// let meter = Meter::new(3, None);
/// let stopped = program.evaluate(&xpath::context(&meter), doc.root());
/// assert_eq!(stopped.unwrap_err(), EvalError::Budget(Stop::Visits(3)));
///
/// // Refused before it runs, with a reason.
/// assert!(Program::compile("//svg:path").unwrap_err().contains("namespace prefix"));
/// ```
#[derive(Debug)]
pub struct Program {
    source: String,
    metered_text: String,
    xpath: XPath,
}

impl Program {
    /// Parse, check and compile an XPath.
    ///
    /// # Errors
    /// The reason, for the user: too long or too nested, a syntax error, a namespace prefix, a
    /// variable, a function outside the core library (or one sxd-xpath lacks: `id`, `lang`),
    /// wrong arguments, or more than [`MAX_XPATH_INNER_SCANS`] scans inside predicates.
    pub fn compile(expr: &str) -> Result<Program, String> {
        let metered_text = metered(expr)?;
        let xpath = match sxd_xpath::Factory::new().build(&metered_text) {
            Ok(Some(x)) => x,
            Ok(None) => return Err("empty XPath".into()),
            Err(e) => return Err(format!("the evaluator refused it: {e}")),
        };
        Ok(Program { source: expr.to_string(), metered_text, xpath })
    }

    /// The XPath as given.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The metered XPath text that runs (for debugging).
    pub fn metered(&self) -> &str {
        &self.metered_text
    }

    /// Evaluate from `node` in a context made by [`context`].
    ///
    /// # Errors
    /// [`EvalError::Budget`] when the context's meter stopped it (now or in an earlier
    /// evaluation), else [`EvalError::Failed`] with sxd-xpath's error.
    pub fn evaluate<'d>(&self, context: &Context<'d>, node: impl Into<Node<'d>>) -> Result<Value<'d>, EvalError> {
        LAST_STOP.with(|l| l.set(None));
        self.xpath.evaluate(context, node).map_err(|e| match LAST_STOP.with(Cell::take) {
            Some(stop) => EvalError::Budget(stop),
            None => EvalError::Failed(e.to_string()),
        })
    }
}

/// Parse and check an XPath without compiling it (the reason when it is refused).
///
/// # Errors
/// As [`Program::compile`].
pub fn check(expr: &str) -> Result<(), String> {
    check_tree(&parse(expr)?)
}

/// The checked, metered text of an XPath.
fn metered(expr: &str) -> Result<String, String> {
    let ast = parse(expr)?;
    check_tree(&ast)?;
    Ok(write_metered(&ast))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sxd_document::parser as xml;
    use sxd_document::Package;

    const DOCS: [&str; 3] = [
        r#"<html><head><title>T</title></head><body><div id="main" class="story x" dfs="78"><h1>Head</h1><p>one</p><p class="x">two<b>bold</b> it's</p><!--c--><?pi data?><div class="x"><p>three</p><a href="u">link</a></div></div><aside><div class="story"><p>aside p</p></div></aside><div class="x  y" dfs="82"><p n="3">3</p><p n="10">10</p><a-b>dash</a-b><div><div>dd</div></div><mod>7</mod><mod>2</mod></div></body></html>"#,
        r#"<r><s>1</s><s>2</s><s><s>3</s><t>4</t></s><t>5</t><div><div><div>6</div></div></div><a><b><a><b>x</b></a></b></a></r>"#,
        r#"<doc> text <p>a</p> <p>b<p>c</p></p> <!-- x --> tail </doc>"#,
    ];

    /// The equivalence corpus: the grammar, the wrappers' own forms, the tricky lexemes.
    const EXPRESSIONS: &[&str] = &[
        "p",
        "p[1]",
        "p[last()]",
        "p[position() > 1]",
        "*",
        "*[2]",
        "node()",
        "text()",
        "comment()",
        "processing-instruction()",
        "processing-instruction('pi')",
        ".",
        "..",
        "../*",
        "@class",
        "@*",
        "/",
        "//p",
        "//p[1]",
        "//p[2]",
        "(//p)[2]",
        "(//p)[last()]",
        "//a//b",
        "//div//p",
        "//div[@class='x']/p",
        "//div[@class='x']//p",
        "/html/body/div[1]/p[2]",
        "//*[../*]",
        "ancestor::div[1]",
        "ancestor::*[2]",
        "ancestor-or-self::*[last()]",
        "preceding-sibling::*[2]",
        "preceding-sibling::*[1]",
        "following-sibling::p[1]",
        "following::p[1]",
        "following::*[last()]",
        "preceding::p[1]",
        "preceding::*[3]",
        "descendant::p[2]",
        "descendant-or-self::*[3]",
        "//b/ancestor::*[1]",
        "//p | //h1",
        "//h1 | //p[1] | //b",
        "id('x')",
        "count(//p)",
        "string(//h1)",
        "string(.)",
        "1 + 2 * 3 - 4 div 2 mod 3",
        "10 - 2 - 3",
        "-1 + 2",
        "- - 3",
        "-(1 + 2)",
        "2 * -3",
        "a-b",
        "a - b",
        "div div div",
        "* * *",
        "mod mod mod",
        "mod*mod",
        "//*[contains(concat(' ',normalize-space(@class),' '),' story ')]",
        "//div[substring-before(concat(normalize-space(@class),' '),' ')='story' and (@dfs='78' or @dfs='82')]",
        "//p[@n > 3]",
        "//p[@n >= 3]",
        "//p[@n < 10]",
        "//p[@n <= 3]",
        "//p[@n != 3]",
        "3 > 2 = 1 < 2",
        "1 = 1 != 0",
        "not(ancestor::aside)",
        "//p[not(ancestor::aside)]",
        "//*[self::p or self::h1][2]",
        "//div[p][1]",
        "//div[count(p) = 2]",
        "//p[string-length(.) > 3]",
        "sum(//p/@n)",
        "//p[. = 'two' or . = '10']",
        "//p[contains(., \"it's\")]",
        "//p/text()",
        "//text()[2]",
        "//comment()",
        "//*[local-name() = 'a-b']",
        "name(/*)",
        "true() and false() or true()",
        "//p[position() = last() - 1]",
        "(//div)[2]/p",
        "(//div)[2]//p[1]",
        "(//p | //b)[3]",
        "//div/p[@class][1]",
        "//p[1][@class]",
        "//p[@class][1]",
        "substring('abcdef', 2, 3)",
        "translate('abc', 'b', 'B')",
        "//div[@id=\"main\"]",
        "//@class",
        "//p/@n",
        "//p/..",
        "//p/../..",
        "child::p",
        "self::node()",
        "self::p",
        "parent::*",
        "//attribute::class",
        "//namespace::*",
        "(//p)[1]/following-sibling::p",
        "//a[@href]/..",
        ".//p[1]",
        "boolean(//q)",
        "number('12')",
        "floor(2.5) + ceiling(2.5) + round(2.5)",
        "1.5 + .5 + 2.",
        "//s[s][1]/t",
        "//div[div/div]",
        "//*[count(ancestor::*) > 2][1]",
    ];

    fn all_nodes<'d>(package: &'d Package) -> Vec<Node<'d>> {
        let doc = package.as_document();
        let mut nodes = vec![Node::Root(doc.root())];
        let all = sxd_xpath::Factory::new().build("//node() | //@*").unwrap().unwrap();
        if let Ok(Value::Nodeset(ns)) = all.evaluate(&Context::new(), doc.root()) {
            nodes.extend(ns.document_order());
        }
        nodes
    }

    fn same<'d>(a: &Value<'d>, b: &Value<'d>) -> bool {
        match (a, b) {
            // Namespace nodes have no stable document order in sxd: those compare as sets.
            (Value::Nodeset(a), Value::Nodeset(b)) => {
                let set = |n: &sxd_xpath::nodeset::Nodeset<'d>| n.iter().collect::<std::collections::HashSet<_>>();
                let ordered = |n: &sxd_xpath::nodeset::Nodeset<'d>| {
                    n.document_order().into_iter().filter(|n| !matches!(n, Node::Namespace(_))).collect::<Vec<_>>()
                };
                set(a) == set(b) && ordered(a) == ordered(b)
            }
            (Value::Number(a), Value::Number(b)) => a == b || (a.is_nan() && b.is_nan()),
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Boolean(a), Value::Boolean(b)) => a == b,
            _ => false,
        }
    }

    /// Evaluate `source` as sxd reads it and as metered, from every node of every document;
    /// None when sxd cannot parse the source.
    fn compare(source: &str, metered_text: &str) -> Option<()> {
        let original = sxd_xpath::Factory::new().build(source).ok()??;
        let metered_xpath = match sxd_xpath::Factory::new().build(metered_text) {
            Ok(Some(x)) => x,
            other => panic!("sxd refuses the metered text of {source:?}: {metered_text}: {other:?}"),
        };
        for text in DOCS {
            let package = xml::parse(text).unwrap();
            let plain = Context::new();
            let meter = Meter::new(u64::MAX, None);
            let ctx = context(&meter);
            for node in all_nodes(&package) {
                let a = original.evaluate(&plain, node);
                let b = metered_xpath.evaluate(&ctx, node);
                let ok = match (&a, &b) {
                    (Ok(a), Ok(b)) => same(a, b),
                    (Err(_), Err(_)) => true,
                    _ => false,
                };
                assert!(ok, "{source:?} from {node:?}:\n  original {a:?}\n  metered {b:?}\n  as {metered_text}");
            }
            assert_eq!(meter.stopped(), None);
        }
        Some(())
    }

    /// The tree of a metered text without its meters: `axis::node()[forest-visit()][self::T]`
    /// back to `axis::T`.
    fn unmeter(e: Expr) -> Expr {
        let all = |v: Vec<Expr>| v.into_iter().map(unmeter).collect::<Vec<_>>();
        match e {
            Expr::Chain(first, rest) => Expr::Chain(Box::new(unmeter(*first)), rest.into_iter().map(|(op, e)| (op, unmeter(e))).collect()),
            Expr::Negate(e) => Expr::Negate(Box::new(unmeter(*e))),
            Expr::Call(name, args) => Expr::Call(name, all(args)),
            Expr::Filter(primary, preds) => Expr::Filter(Box::new(unmeter(*primary)), all(preds)),
            Expr::Path(start, steps) => {
                let start = match start {
                    Start::Filter(f) => Start::Filter(Box::new(unmeter(*f))),
                    s => s,
                };
                let steps = steps
                    .into_iter()
                    .map(|mut s| {
                        if s.axis.metered() {
                            let visit = s.predicates.remove(0);
                            assert_eq!(visit, Expr::Call(QName { prefix: None, local: VISIT.into() }, vec![]));
                            if let Some(Expr::Path(Start::Context, test)) = s.predicates.first() {
                                if let [Step { axis: Axis::SelfNode, test, predicates }] = test.as_slice() {
                                    if predicates.is_empty() {
                                        s.test = test.clone();
                                        s.predicates.remove(0);
                                    }
                                }
                            }
                        }
                        Step { predicates: all(s.predicates), ..s }
                    })
                    .collect();
                Expr::Path(start, steps)
            }
            e => e,
        }
    }

    #[test]
    fn metered_text_selects_what_the_original_selects() {
        for &source in EXPRESSIONS {
            let ast = parse(source).unwrap_or_else(|e| panic!("{source:?}: {e}"));
            let text = write_metered(&ast);
            // The written text reads back to the same tree, once its meters are taken out.
            assert_eq!(parse(&text).map(unmeter).as_ref(), Ok(&ast), "{source:?} as {text}");
            assert!(compare(source, &text).is_some(), "sxd cannot parse {source:?}");
        }
    }

    #[test]
    fn lexemes_follow_the_disambiguation_rules() {
        let name = |s: &str| Expr::Path(Start::Context, vec![Step { axis: Axis::Child, test: NodeTest::Name(QName { prefix: None, local: s.into() }), predicates: vec![] }]);
        let chain = |a: Expr, op: Op, b: Expr| Expr::Chain(Box::new(a), vec![(op, b)]);
        assert_eq!(parse("div div div"), Ok(chain(name("div"), Op::Div, name("div"))));
        assert_eq!(parse("* * *"), Ok(chain(name("*"), Op::Mul, name("*"))));
        assert_eq!(parse("mod mod mod"), Ok(chain(name("mod"), Op::Mod, name("mod"))));
        assert_eq!(parse("a-b"), Ok(name("a-b")));
        assert_eq!(parse("a -b"), Ok(chain(name("a"), Op::Minus, name("b"))));
        assert_eq!(parse("and"), Ok(name("and")));
        assert_eq!(parse("count (p)"), Ok(Expr::Call(QName { prefix: None, local: "count".into() }, vec![name("p")])));
        assert_eq!(parse("child :: p"), Ok(name("p")));
        assert_eq!(parse("1 - -2"), Ok(chain(Expr::Number("1".into()), Op::Minus, Expr::Negate(Box::new(Expr::Number("2".into()))))));
        assert_eq!(parse("'a\"b'"), Ok(Expr::Literal("a\"b".into())));
        assert_eq!(write_metered(&Expr::Literal("it's".into())), "\"it's\"");
        assert_eq!(write_metered(&parse("a or b and c").unwrap()), format!(
            "(child::node()[{VISIT}()][self::a]) or ((child::node()[{VISIT}()][self::b]) and (child::node()[{VISIT}()][self::c]))"
        ));
        assert_eq!(write_metered(&parse("(//p)[1]/@class").unwrap()), format!(
            "(/descendant-or-self::node()[{VISIT}()]/child::node()[{VISIT}()][self::p])[1]/attribute::class"
        ));
        assert_eq!(write_metered(&parse("../.[1]").unwrap()), "parent::node()/self::node()[1]");
        assert_eq!(write_metered(&parse("1 - 2 - 3").unwrap()), "(1) - (2) - (3)");
        // sxd-xpath reads a name after `,` as an operator: the written axes avoid it.
        let package = xml::parse("<r><div>d</div><x>x</x></r>").unwrap();
        let doc = package.as_document();
        assert!(sxd_xpath::Factory::new().build("concat('a', div, *)").is_err());
        let program = Program::compile("concat('a', div, *)").unwrap();
        let meter = Meter::new(100, None);
        assert_eq!(program.evaluate(&context(&meter), doc.root().children()[0]).unwrap().string(), "add");
    }

    #[test]
    fn refused_with_a_reason() {
        let cases: &[(&str, &str)] = &[
            ("/html/bo:y", "namespace prefix \"bo\""),
            ("//svg:*", "namespace prefix \"svg\""),
            ("//p[fn:concat('a','b')='ab']", "namespace prefix \"fn\""),
            ("$x", "variable $x"),
            ("//p[@id = $id]", "variable $id"),
            ("foo()", "unknown function foo()"),
            ("//p[forest-visit()]", "unknown function"),
            ("//p[matches(., 'x')]", "unknown function"),
            ("id('x')", "not implemented"),
            ("//p[lang('en')]", "not implemented"),
            ("count()", "takes 1 argument"),
            ("count(1)", "node-set"),
            ("concat('a')", "at least 2"),
            ("substring('a')", "2 to 3"),
            ("true(1)", "takes 0 arguments"),
            ("'x' | //p", "node-sets only"),
            ("'x'[1]", "node-sets only"),
            ("1/p", "node-set only"),
            ("//*[.//*[.//*[.//*[.//*]]]]", "scans inside predicates"),
            ("//p[ancestor::a and preceding::b and following::c and descendant::d]", "scans inside predicates"),
            ("//a[b[c[d[e[f[g[h[i[j]]]]]]]]]", "nested"),
            ("((((((((((1))))))))))", "nested"),
            ("- - - - - - - - - 1", "nested"),
            ("", "empty"),
            ("   ", "empty"),
            ("//", "node test"),
            ("/p/", "node test"),
            ("p[", "expression"),
            ("p]", "the end"),
            ("p[]", "expression"),
            ("(", "expression"),
            (")", "expression"),
            ("1 +", "expression"),
            ("a b", "operator"),
            ("//p[@x orb]", "operator"),
            ("@", "node test"),
            ("child::", "node test"),
            ("foo::p", "not an axis"),
            ("'unterminated", "closing quote"),
            ("!", "unexpected character"),
            ("a:", "without a name"),
            ("$", "variable name"),
            ("node(1)", "`)`"),
            ("text('x')", "`)`"),
            ("concat(,)", "expression"),
            ("1..2", "the end"),
            ("p | | q", "expression"),
            ("@@a", "node test"),
            ("a::b", "not an axis"),
            ("p[1", "`]`"),
            ("#", "unexpected character"),
        ];
        for (expr, reason) in cases {
            match Program::compile(expr) {
                Ok(p) => panic!("{expr:?} compiled as {}", p.metered()),
                Err(e) => assert!(e.contains(reason), "{expr:?}: {e} (wanted {reason:?})"),
            }
        }
        let long = format!("//p[@class='{}']", "x".repeat(MAX_XPATH_BYTES));
        assert!(Program::compile(&long).unwrap_err().contains("longer than"));
        // The limits themselves pass.
        assert!(Program::compile("//a[b[c[d[e[f[g[h[i]]]]]]]]").is_ok());
        assert!(Program::compile("//*[.//*[.//*[.//*]]]").is_ok());
        assert!(Program::compile("count(//p) + count(//a//b//c//d)").is_ok());
    }

    #[test]
    fn deep_or_long_input_is_refused_or_evaluated_without_overflow() {
        for deep in [format!("{}1{}", "(".repeat(2000), ")".repeat(2000)), format!("{}1", "-".repeat(4000)), format!("p{}", "[p".repeat(2000))] {
            assert!(Program::compile(&deep).unwrap_err().contains("nested"));
        }
        let package = xml::parse(DOCS[0]).unwrap();
        let doc = package.as_document();
        let meter = Meter::new(u64::MAX, None);
        let ctx = context(&meter);
        let long = [
            (format!("1{}", "+1".repeat(2000)), "2001"),
            (format!("//h1{}", "|//h1".repeat(800)), "Head"),
            (format!("/*{}", "/..".repeat(1300)), ""),
            (format!("//h1{}", "[1]".repeat(1300)), "Head"),
        ];
        for (expr, want) in long {
            assert!(expr.len() <= MAX_XPATH_BYTES);
            let program = Program::compile(&expr).unwrap();
            assert_eq!(program.evaluate(&ctx, doc.root()).unwrap().string(), want);
        }
        // Every operator level at every nesting level.
        let mut nested = "//p".to_string();
        for _ in 0..MAX_XPATH_NESTING {
            nested = format!("(1 or 1 and 1 = 1 < 1 + 1 * count({nested}|//a))");
        }
        assert!(Program::compile(&nested).unwrap_err().contains("nested"));
        let mut nested = "1".to_string();
        for _ in 0..MAX_XPATH_NESTING {
            nested = format!("(0 or 1 and 1 = 1 < 1 + 1 * {nested} | //a)");
        }
        let nested = nested.replace("| //a", "");
        let program = Program::compile(&nested).unwrap();
        assert_eq!(program.evaluate(&ctx, doc.root()).unwrap().string(), "true");
    }

    fn siblings(n: usize) -> String {
        format!("<html><body>{}</body></html>", "<p/>".repeat(n))
    }

    #[test]
    fn the_meter_stops_runaway_evaluations() {
        let program = Program::compile("//*[../*]").unwrap();
        let package = xml::parse(&siblings(2000)).unwrap();
        let doc = package.as_document();
        let meter = Meter::new(100_000, None);
        let ctx = context(&meter);
        assert_eq!(program.evaluate(&ctx, doc.root()), Err(EvalError::Budget(Stop::Visits(100_000))));
        assert_eq!(meter.stopped(), Some(Stop::Visits(100_000)));
        assert_eq!(meter.visits(), 100_001);
        // Spent stays spent.
        let small = Program::compile("/html").unwrap();
        assert_eq!(small.evaluate(&ctx, doc.root()), Err(EvalError::Budget(Stop::Visits(100_000))));

        // 20 siblings: descendant-or-self visits the root, html, body and the 20 p (23), the
        // child steps their 22 children, and each of the 22 elements its parent's children:
        // html 1, body 1, each p 20.
        let package = xml::parse(&siblings(20)).unwrap();
        let doc = package.as_document();
        let meter = Meter::new(100_000, None);
        let found = program.evaluate(&context(&meter), doc.root()).unwrap();
        let Value::Nodeset(found) = found else { panic!("not a node-set") };
        assert_eq!(found.size(), 22);
        assert_eq!(meter.visits(), 23 + 22 + 1 + 1 + 20 * 20);
        assert_eq!(meter.stopped(), None);

        let past = Instant::now();
        let meter = Meter::new(u64::MAX, Some(past));
        assert_eq!(program.evaluate(&context(&meter), doc.root()), Err(EvalError::Budget(Stop::Deadline)));
        assert_eq!(meter.stopped(), Some(Stop::Deadline));

        // Without forest-visit() registered it fails, and says why.
        match program.evaluate(&Context::new(), doc.root()) {
            Err(EvalError::Failed(e)) => assert!(e.contains("forest-visit"), "{e}"),
            other => panic!("{other:?}"),
        }
    }

    /// What metering costs: run with
    /// `cargo test --release --lib wrapper::xpath::tests::metering_cost -- --ignored --nocapture`.
    #[test]
    #[ignore = "a timing, not a test"]
    fn metering_cost() {
        // 250 sections: a div in a div holding 5 p (each with a b) and a span; 3,252 elements.
        let section = |i: usize| format!("<div class='{}'><div>{}<span>s</span></div></div>", if i % 2 == 0 { "x" } else { "y" }, "<p>a <b>b</b> c</p>".repeat(5));
        let xml = format!("<html><body>{}</body></html>", (0..250).map(section).collect::<String>());
        let package = xml::parse(&xml).unwrap();
        let doc = package.as_document();
        let plain = Context::new();
        for expr in ["//div[@class='x']//p", "//p[1]", "//*[@class='y']/div/p[last()]/b", "count(//b)"] {
            let original = sxd_xpath::Factory::new().build(expr).unwrap().unwrap();
            let program = Program::compile(expr).unwrap();
            let merged = program.metered().replace(&format!("{VISIT}()][self::"), &format!("{VISIT}() and self::"));
            let merged = sxd_xpath::Factory::new().build(&merged).unwrap().unwrap();
            let meter = Meter::new(u64::MAX, None);
            let ctx = context(&meter);
            const ROUNDS: u32 = 20;
            fn time<'d>(f: impl Fn() -> Value<'d>) -> (std::time::Duration, Value<'d>) {
                let want = f();
                let t = Instant::now();
                for _ in 0..ROUNDS {
                    assert!(same(&f(), &want));
                }
                (t.elapsed() / ROUNDS, want)
            }
            let (t_original, a) = time(|| original.evaluate(&plain, doc.root()).unwrap());
            let (t_metered, b) = time(|| program.evaluate(&ctx, doc.root()).unwrap());
            let (t_merged, c) = time(|| merged.evaluate(&ctx, doc.root()).unwrap());
            assert!(same(&a, &b) && same(&a, &c));
            let visits = meter.visits() / (2 * u64::from(ROUNDS) + 2);
            println!("{expr}: original {t_original:?}, metered {t_metered:?} ({visits} visits), one predicate {t_merged:?}");
        }
    }

    /// xorshift64*: a deterministic stream for the fuzz test.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
        }
    }

    /// A random expression of nesting at most `depth`, from the grammar.
    fn random_expr(rng: &mut Rng, depth: usize) -> String {
        let pick = |rng: &mut Rng, from: &[&str]| from[rng.below(from.len())].to_string();
        let kind = if depth == 0 { rng.below(3) } else { rng.below(9) };
        match kind {
            0 | 1 => random_path(rng, depth),
            2 => pick(rng, &["1", "2", "0.5", "'one'", "'3'", "''", "last()", "position()", "true()"]),
            3 | 4 => {
                let op = pick(rng, &["or", "and", "=", "!=", "<", "<=", ">", ">=", "+", "-", "*", "div", "mod"]);
                format!("{} {op} {}", random_expr(rng, depth - 1), random_expr(rng, depth - 1))
            }
            5 => format!("{} | {}", random_path(rng, depth - 1), random_path(rng, depth - 1)),
            6 => format!("-{}", random_expr(rng, depth - 1)),
            7 => format!("({})", random_expr(rng, depth - 1)),
            _ => {
                let f = pick(rng, &["count", "string", "not", "contains", "concat", "normalize-space", "name", "sum", "boolean", "number"]);
                let args = match f.as_str() {
                    "count" | "sum" | "name" => random_path(rng, depth - 1),
                    "contains" | "concat" => format!("{}, {}", random_expr(rng, depth - 1), random_expr(rng, depth - 1)),
                    _ => random_expr(rng, depth - 1),
                };
                format!("{f}({args})")
            }
        }
    }

    fn random_path(rng: &mut Rng, depth: usize) -> String {
        const AXES: &[&str] = &[
            "", "", "", "@", "ancestor::", "ancestor-or-self::", "attribute::", "child::", "descendant::", "descendant-or-self::",
            "following::", "following-sibling::", "parent::", "preceding::", "preceding-sibling::", "self::",
        ];
        const TESTS: &[&str] = &["p", "div", "a", "b", "s", "t", "class", "n", "*", "*", "node()", "text()", "comment()"];
        const POSITIONS: &[&str] = &["1", "2", "3", "last()", "last() - 1", "position() > 1", "position() mod 2 = 0"];
        let mut out = match rng.below(6) {
            0 => "/".to_string(),
            1 => "//".to_string(),
            2 if depth > 0 => format!("({})[{}]/", random_path(rng, depth - 1), POSITIONS[rng.below(POSITIONS.len())]),
            _ => String::new(),
        };
        for i in 0..1 + rng.below(3) {
            if i > 0 {
                out.push_str(if rng.below(3) == 0 { "//" } else { "/" });
            }
            match rng.below(10) {
                0 => out.push('.'),
                1 => out.push_str(".."),
                _ => {
                    out.push_str(AXES[rng.below(AXES.len())]);
                    out.push_str(TESTS[rng.below(TESTS.len())]);
                    for _ in 0..rng.below(3) {
                        let pred = if depth > 0 && rng.below(2) == 0 {
                            random_expr(rng, depth - 1)
                        } else {
                            POSITIONS[rng.below(POSITIONS.len())].to_string()
                        };
                        out.push_str(&format!("[{pred}]"));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn random_expressions_from_the_grammar_agree_with_sxd() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let (mut compiled, mut compared) = (0, 0);
        for _ in 0..1_500 {
            let s = random_expr(&mut rng, 3);
            match Program::compile(&s) {
                Ok(p) => {
                    compiled += 1;
                    if compare(&s, p.metered()).is_some() {
                        compared += 1;
                    }
                }
                Err(e) => assert!(e.contains("scans inside predicates") || e.contains("nested"), "{s:?}: {e}"),
            }
        }
        eprintln!("{compiled} compiled, {compared} compared");
        assert!(compared > 1_000, "{compiled} compiled, {compared} compared");
    }

    #[test]
    fn random_token_strings_never_panic_and_compiled_ones_agree_with_sxd() {
        const TOKENS: &[&str] = &[
            "/", "//", "(", ")", "[", "]", "@", "::", ":", ".", "..", ",", "|", "+", "-", "=", "!=", "<", "<=", ">", ">=", "*", " ",
            "and", "or", "div", "mod", "p", "div", "a", "b", "s", "t", "a-b", "x:y", "$x", "'lit'", "'two'", "\"it's\"", "'", "\"",
            "1", "2", "2.5", ".5", "3.", "node()", "text()", "comment()", "processing-instruction('pi')", "processing-instruction",
            "child::", "descendant::", "ancestor::", "following-sibling::", "preceding-sibling::", "following::", "preceding::",
            "self::", "parent::", "attribute::", "descendant-or-self::", "ancestor-or-self::", "namespace::", "count(", "concat(",
            "not(", "last()", "position()", "contains(", "string(", "name(", "sum(", "id(", "foo(", "é", "!", "#", "\u{0}", "[1]",
            "[last()]", "@class", "@n", "(//p)", "//p", "//*",
        ];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut compiled, mut compared) = (0, 0);
        for _ in 0..20_000 {
            let len = 1 + rng.below(12);
            let s: String = (0..len).map(|_| TOKENS[rng.below(TOKENS.len())]).collect();
            match Program::compile(&s) {
                Ok(p) => {
                    compiled += 1;
                    if compare(&s, p.metered()).is_some() {
                        compared += 1;
                    }
                }
                Err(e) => assert!(!e.starts_with("the evaluator refused"), "{s:?}: {e}"),
            }
        }
        eprintln!("{compiled} compiled, {compared} compared");
        assert!(compiled > 500 && compared > 300, "{compiled} compiled, {compared} compared");
    }
}
