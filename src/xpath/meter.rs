//! Metered evaluation: the [`Meter`] (a budget of node visits and a deadline), the
//! `forest-visit()` function that counts against it, and [`Program`], an XPath from a file
//! parsed, checked, written back metered and compiled by sxd-xpath.

use super::syntax::{CHARS, READ, VISIT};
use std::cell::Cell;
use std::fmt;
use std::rc::Rc;
use std::time::Instant;
use sxd_xpath::nodeset::Node;
use sxd_xpath::{Context, Value, XPath};


/// Why a metered evaluation stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// It visited more nodes than this limit.
    Visits(u64),
    /// Its string functions read more than this many characters.
    Characters(u64),
    /// It ran past its deadline.
    Deadline,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Visits(n) => write!(f, "visited more than {n} nodes"),
            Stop::Characters(n) => write!(f, "read more than {n} characters in string functions"),
            Stop::Deadline => f.write_str("ran past its deadline"),
        }
    }
}

#[derive(Debug)]
struct MeterState {
    limit: u64,
    deadline: Option<Instant>,
    visits: Cell<u64>,
    chars: Cell<u64>,
    stop: Cell<Option<Stop>>,
}

/// Characters string functions may read per node visit of the budget: a node visit and a few
/// characters of string cost about the same.
pub const CHARS_PER_VISIT: u64 = 8;

/// A budget of node visits and a deadline, shared by every evaluation in the contexts made
/// with it ([`context`]). Once spent it stays spent: later evaluations stop at once.
#[derive(Debug, Clone)]
pub struct Meter(Rc<MeterState>);

/// The default node-visit budget ([`crate::budget::MAX_XPATH_VISITS`]), no deadline.
impl Default for Meter {
    fn default() -> Meter {
        Meter::new(crate::budget::MAX_XPATH_VISITS, None)
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
        Meter(Rc::new(MeterState { limit: max_visits, deadline, visits: Cell::new(0), chars: Cell::new(0), stop: Cell::new(None) }))
    }

    /// A page's meter: the node-visit budget of `budget`, stopping at `deadline`.
    pub fn within(budget: &crate::budget::Budget, deadline: Option<Instant>) -> Meter {
        Meter::new(budget.max_xpath_visits, deadline)
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
        self.stopped_by(stop)
    }

    /// `n` characters read by a string function; the deadline is checked on every call.
    fn read(&self, n: usize) -> Result<(), Stop> {
        let s = &self.0;
        let stop = match s.stop.get() {
            Some(stop) => Some(stop),
            None => {
                let total = s.chars.get().saturating_add(n as u64);
                s.chars.set(total);
                let limit = s.limit.saturating_mul(CHARS_PER_VISIT);
                if total > limit {
                    Some(Stop::Characters(limit))
                } else if s.deadline.is_some_and(|d| Instant::now() >= d) {
                    Some(Stop::Deadline)
                } else {
                    None
                }
            }
        };
        self.stopped_by(stop)
    }

    fn stopped_by(&self, stop: Option<Stop>) -> Result<(), Stop> {
        let s = &self.0;
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

/// `forest-chars(x)`: `x` as a string, its characters counted; `forest-chars()`: the context
/// node's string value, counted.
struct Chars(Meter);

impl sxd_xpath::function::Function for Chars {
    fn evaluate<'c, 'd>(
        &self,
        context: &sxd_xpath::context::Evaluation<'c, 'd>,
        args: Vec<Value<'d>>,
    ) -> Result<Value<'d>, sxd_xpath::function::Error> {
        let s = match args.into_iter().next() {
            Some(v) => v.string(),
            None => context.node.string_value(),
        };
        match self.0.read(s.chars().count()) {
            Ok(()) => Ok(Value::String(s)),
            Err(stop) => Err(sxd_xpath::function::Error::Other(stop.to_string())),
        }
    }
}

/// `forest-read()`: the context node's string value read, its characters counted; true.
struct Read(Meter);

impl sxd_xpath::function::Function for Read {
    fn evaluate<'c, 'd>(
        &self,
        context: &sxd_xpath::context::Evaluation<'c, 'd>,
        _args: Vec<Value<'d>>,
    ) -> Result<Value<'d>, sxd_xpath::function::Error> {
        match self.0.read(context.node.string_value().chars().count()) {
            Ok(()) => Ok(Value::Boolean(true)),
            Err(stop) => Err(sxd_xpath::function::Error::Other(stop.to_string())),
        }
    }
}

/// An evaluation context (the core functions) with `forest-visit()` and `forest-chars()`
/// counting against `meter`: the context [`Program::evaluate`] needs.
pub fn context<'d>(meter: &Meter) -> Context<'d> {
    let mut c = Context::new();
    c.set_function(VISIT, Visit(meter.clone()));
    c.set_function(CHARS, Chars(meter.clone()));
    c.set_function(READ, Read(meter.clone()));
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
/// use forest::xpath::{self, EvalError, Meter, Program, Stop};
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
/// assert!(Program::compile("//svg:path").unwrap_err().to_string().contains("namespace prefix"));
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
    /// wrong arguments, or more than [`super::MAX_XPATH_INNER_SCANS`] scans inside predicates.
    pub fn compile(expr: &str) -> crate::Result<Program> {
        let metered_text = super::metered(expr).map_err(|why| super::refused(expr, why))?;
        let xpath = match sxd_xpath::Factory::new().build(&metered_text) {
            Ok(Some(x)) => x,
            Ok(None) => return Err(super::refused(expr, "empty XPath".into())),
            Err(e) => return Err(super::refused(expr, format!("the evaluator refused it: {e}"))),
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
