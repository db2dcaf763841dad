//! XPath 1.0 syntax: tokens, the expression tree, and a recursive-descent parser (§3 of the
//! recommendation). Parsing depth is the expression's nesting (parentheses, predicates,
//! function arguments, unary minus), capped at [`super::MAX_XPATH_NESTING`] while parsing, and
//! operator chains (`a or b or c`, `x | y | z`) are lists, so no input overflows the stack.

use super::{MAX_XPATH_BYTES, MAX_XPATH_NESTING};
use std::fmt;
use sxd_document::XmlChar;

/// The name of the metering function the written XPaths call.
pub(super) const VISIT: &str = "forest-visit";

/// The function the written XPaths call on each string argument of a string function: it
/// counts the argument's characters against the meter and returns it as a string.
pub(super) const CHARS: &str = "forest-chars";

/// The function the written XPaths call, as a predicate, on each node of a node-set that an
/// operator or a number function turns into strings or numbers: it counts the node's string
/// value against the meter and is true.
pub(super) const READ: &str = "forest-read";

/// Does an operator turn its node-set operands into strings or numbers (every comparison and
/// arithmetic operator; `and`, `or` and `|` do not)?
pub(super) fn converts(op: Op) -> bool {
    !matches!(op, Op::Or | Op::And | Op::Union)
}

/// Does a core function read the string values of its node-set arguments (as numbers)? The
/// string functions' arguments are counted by [`CHARS`].
pub(super) fn reads_nodes(function: &str) -> bool {
    matches!(function, "number" | "sum" | "floor" | "ceiling" | "round")
}

/// Which arguments of a core function are read as strings (first and how many; `usize::MAX`:
/// all from the first), and whether its form without arguments reads the context node's string.
pub(super) fn string_args(function: &str) -> Option<(usize, usize, bool)> {
    Some(match function {
        "string" | "normalize-space" | "string-length" => (0, 1, true),
        "substring" => (0, 1, false),
        "concat" | "starts-with" | "contains" | "substring-before" | "substring-after" | "translate" => (0, usize::MAX, false),
        _ => return None,
    })
}

// ---------------------------------------------------------------------------------------------
// Syntax tree

/// An axis (§2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Axis {
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

    pub(super) fn name(self) -> &'static str {
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

    pub(super) fn from_name(name: &str) -> Option<Axis> {
        Axis::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Walks a tree (any number of nodes): metered. Self and parent give one node, attribute an
    /// element's attributes (capped by the cleaner), namespace none on cleaned pages.
    pub(super) fn metered(self) -> bool {
        !matches!(self, Axis::SelfNode | Axis::Parent | Axis::Attribute | Axis::Namespace)
    }

    /// Counts towards [`MAX_XPATH_INNER_SCANS`] inside a predicate.
    pub(super) fn scans(self) -> bool {
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
pub(super) struct QName {
    pub(super) prefix: Option<String>,
    pub(super) local: String,
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
pub(super) enum NodeTest {
    Name(QName),
    Node,
    Text,
    Comment,
    ProcessingInstruction(Option<String>),
}

/// A location step; `//` is a `descendant-or-self::node()` step, `.` and `..` are `self::node()`
/// and `parent::node()`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Step {
    pub(super) axis: Axis,
    pub(super) test: NodeTest,
    pub(super) predicates: Vec<Expr>,
}

/// Where a path starts.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Start {
    /// `/…`
    Root,
    /// A relative location path.
    Context,
    /// `FilterExpr / RelativeLocationPath`.
    Filter(Box<Expr>),
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
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
    pub(super) fn text(self) -> &'static str {
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
pub(super) enum Expr {
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
pub(super) enum Tok {
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
    pub(super) fn is_operator(&self) -> bool {
        matches!(self, Tok::Op(_) | Tok::Slash | Tok::DoubleSlash)
    }
}

/// A token and its byte span in the source.
type Spanned = (Tok, usize, usize);

pub(super) fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

pub(super) struct Lexer<'s> {
    src: &'s str,
    pos: usize,
}

impl<'s> Lexer<'s> {
    pub(super) fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    pub(super) fn peek_at(&self, n: usize) -> Option<char> {
        self.src[self.pos..].chars().nth(n)
    }

    /// The NCName at the current position, consumed.
    pub(super) fn ncname(&mut self) -> &'s str {
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
    pub(super) fn after_space(&self) -> &'s str {
        self.src[self.pos..].trim_start_matches(is_space)
    }

    pub(super) fn error(&self, at: usize, what: &str) -> String {
        format!("at byte {at}: {what}")
    }

    pub(super) fn tokens(mut self) -> Result<Vec<Spanned>, String> {
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
    pub(super) fn qname_after_ncname_start(&mut self) -> Result<Option<QName>, String> {
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

pub(super) struct Parser<'s> {
    src: &'s str,
    toks: Vec<Spanned>,
    at: usize,
    depth: usize,
}

/// The binary operator levels, loosest first (the union is parsed below unary minus).
pub(super) const LEVELS: [&[Op]; 6] = [
    &[Op::Or],
    &[Op::And],
    &[Op::Eq, Op::Neq],
    &[Op::Lt, Op::Le, Op::Gt, Op::Ge],
    &[Op::Plus, Op::Minus],
    &[Op::Mul, Op::Div, Op::Mod],
];

pub(super) fn parse(src: &str) -> Result<Expr, String> {
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
    pub(super) fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|(t, _, _)| t)
    }

    pub(super) fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek() == Some(tok) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn unexpected(&self, wanted: &str) -> String {
        match self.toks.get(self.at) {
            Some((_, s, e)) => format!("at byte {s}: expected {wanted}, found `{}`", &self.src[*s..*e]),
            None => format!("expected {wanted} at the end"),
        }
    }

    pub(super) fn expect(&mut self, tok: &Tok, wanted: &str) -> Result<(), String> {
        if self.eat(tok) {
            Ok(())
        } else {
            Err(self.unexpected(wanted))
        }
    }

    /// One level deeper: refused past [`MAX_XPATH_NESTING`], which bounds the recursion.
    pub(super) fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_XPATH_NESTING {
            return Err(format!("nested more than {MAX_XPATH_NESTING} deep (parentheses, predicates, function arguments, unary minus)"));
        }
        Ok(())
    }

    pub(super) fn leave(&mut self) {
        self.depth -= 1;
    }

    pub(super) fn expr(&mut self) -> Result<Expr, String> {
        self.binary(0)
    }

    pub(super) fn binary(&mut self, level: usize) -> Result<Expr, String> {
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

    pub(super) fn unary(&mut self) -> Result<Expr, String> {
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

    pub(super) fn starts_step(tok: Option<&Tok>) -> bool {
        matches!(tok, Some(Tok::Axis(_) | Tok::At | Tok::Dot | Tok::DotDot | Tok::Name(_) | Tok::NodeType(_)))
    }

    pub(super) fn path_expr(&mut self) -> Result<Expr, String> {
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
    pub(super) fn relative(&mut self, steps: &mut Vec<Step>) -> Result<(), String> {
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

    pub(super) fn step(&mut self) -> Result<Step, String> {
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

    pub(super) fn predicates(&mut self) -> Result<Vec<Expr>, String> {
        let mut out = Vec::new();
        while self.eat(&Tok::LBracket) {
            self.enter()?;
            out.push(self.expr()?);
            self.leave();
            self.expect(&Tok::RBracket, "`]`")?;
        }
        Ok(out)
    }

    pub(super) fn primary(&mut self) -> Result<Expr, String> {
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

pub(super) fn descendant_or_self() -> Step {
    Step { axis: Axis::DescendantOrSelf, test: NodeTest::Node, predicates: Vec::new() }
}

