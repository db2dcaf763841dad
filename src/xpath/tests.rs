use super::{meter::*, syntax::*, write::*, *};
use sxd_xpath::nodeset::Node;
use sxd_xpath::{Context, Value};
use std::time::Instant;
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
        // `forest-chars(x)` back to `x`, and `f(forest-chars())` back to `f()`.
        Expr::Call(name, args) => {
            let args = all(args)
                .into_iter()
                .filter_map(|a| match a {
                    Expr::Call(n, mut inner) if n.prefix.is_none() && n.local == CHARS => inner.pop(),
                    a => Some(a),
                })
                .collect();
            Expr::Call(name, args)
        }
        // `(x)[forest-read()]` back to `x`.
        Expr::Filter(primary, preds)
            if matches!(preds.as_slice(), [Expr::Call(n, a)] if n.prefix.is_none() && n.local == READ && a.is_empty()) =>
        {
            unmeter(*primary)
        }
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
            Err(e) => assert!(e.to_string().contains(reason), "{expr:?}: {e} (wanted {reason:?})"),
        }
    }
    let long = format!("//p[@class='{}']", "x".repeat(MAX_XPATH_BYTES));
    assert!(Program::compile(&long).unwrap_err().to_string().contains("longer than"));
    // The limits themselves pass.
    assert!(Program::compile("//a[b[c[d[e[f[g[h[i]]]]]]]]").is_ok());
    assert!(Program::compile("//*[.//*[.//*[.//*]]]").is_ok());
    assert!(Program::compile("count(//p) + count(//a//b//c//d)").is_ok());
}

#[test]
fn deep_or_long_input_is_refused_or_evaluated_without_overflow() {
    for deep in [format!("{}1{}", "(".repeat(2000), ")".repeat(2000)), format!("{}1", "-".repeat(4000)), format!("p{}", "[p".repeat(2000))] {
        assert!(Program::compile(&deep).unwrap_err().to_string().contains("nested"));
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
    assert!(Program::compile(&nested).unwrap_err().to_string().contains("nested"));
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

#[test]
fn node_sets_turned_into_strings_or_numbers_are_read_by_the_meter() {
    // Each element compares (or adds) the whole page's text: quadratic in the page, so it must
    // stop at the budget, and quickly.
    let text = "word ".repeat(40);
    let xml = format!("<html><body>{}</body></html>", format!("<p>{text}</p>").repeat(3000));
    let package = xml::parse(&xml).unwrap();
    let doc = package.as_document();
    for expr in ["//*[/ = 'x']", "//*[/ != /]", "//*[. < 1]", "//*[/ + 1 > 0]", "//*[-/ = 0]", "//*[number(/) = 1]", "//*[sum(//p) > 0]"] {
        let program = Program::compile(expr).unwrap_or_else(|e| panic!("{expr}: {e}"));
        let meter = Meter::new(200_000, None);
        let started = Instant::now();
        let result = program.evaluate(&context(&meter), doc.root());
        assert!(matches!(result, Err(EvalError::Budget(Stop::Characters(_)))), "{expr}: {result:?}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{expr}: {:?}", started.elapsed());
    }
    // On a small page they run, and select what sxd-xpath selects unmetered.
    let small = xml::parse("<html><body><p>1</p><p>x</p></body></html>").unwrap();
    let doc = small.as_document();
    for (expr, n) in [("//p[. = 'x']", 1), ("//p[. + 1 = 2]", 1), ("//p[number(.) = 1]", 1), ("//*[sum(//p[1]) = 1]", 4)] {
        let found = Program::compile(expr).unwrap().evaluate(&context(&Meter::default()), doc.root()).unwrap();
        let Value::Nodeset(found) = found else { panic!("{expr}: not a node-set") };
        assert_eq!(found.size(), n, "{expr}");
    }
}

/// What metering costs: run with
/// `cargo test --release --lib xpath::tests::metering_cost -- --ignored --nocapture`.
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
            Err(e) => assert!(e.to_string().contains("scans inside predicates") || e.to_string().contains("nested"), "{s:?}: {e}"),
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
            Err(e) => assert!(!e.to_string().contains("the evaluator refused"), "{s:?}: {e}"),
        }
    }
    eprintln!("{compiled} compiled, {compared} compared");
    assert!(compiled > 500 && compared > 300, "{compiled} compiled, {compared} compared");
}

