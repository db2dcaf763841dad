//! Tests of the single-page extractor's selection: each mechanism on a page made for it.

use super::*;

#[test]
fn a_shop_whose_products_stand_in_a_region_named_related_lists_them() {
    // A category page whose theme puts its product grid in `section.related-product`: with
    // nothing else on the page but navigation and a notice, the grid is what it lists (the
    // notice is not the article). A product page with its own description keeps the
    // related products out (they are other items).
    let card = |i: usize| format!("<div class=item><a href=/p{i}><h3>Mower model {i} for lawns of an acre</h3></a><span>$ {i},099.99</span></div>");
    let cards: String = (0..20).map(card).collect();
    let nav = "<nav><a href=/>Home</a> <a href=/shop>Shop</a> <a href=/dealers>Dealers</a> <a href=/help>Help</a></nav>";
    let shop = format!("<html><head><title>Robotic mowers</title></head><body>{nav}<h1>Robotic mowers</h1><section class=related-product>{cards}</section>\
         <div><p>Leave your email, and we will let you know when a dealer opens near you.</p></div></body></html>");
    let text = extract(&crate::clean::page(&shop)).text;
    assert!(text.contains("Mower model 0 for lawns") && text.contains("$ 19,099.99"), "{text}");
    let about = "The mower cuts a lawn of up to an acre on one charge, finds its way by satellite and returns to its dock. ".repeat(6);
    let product = shop.replace("<section", &format!("<div class=description><p>{about}</p></div><section"));
    let text = extract(&crate::clean::page(&product)).text;
    assert!(text.contains("finds its way by satellite") && !text.contains("Mower model 3"), "{text}");
}

#[test]
fn a_page_of_linked_cards_without_a_headline_is_a_listing() {
    // Every card is one link (headline and summary inside it): the page holds no
    // paragraph but the site's copyright line, which is not its article.
    let card = |i: usize| {
        format!(
            "<li><a href=/s{i}><h3>Storm number {i} reaches the northern coast tonight</h3>\
             <p>Residents were told to stay indoors as winds rose through the evening.</p></a></li>"
        )
    };
    let cards: String = (0..12).map(card).collect();
    let html = format!(
        "<html><head><title>News - Home</title></head><body><ul class=cards>{cards}</ul>\
         <div><p>Copyright 2026 The Gazette. All rights reserved. Read about our approach to external linking.</p></div></body></html>"
    );
    let text = extract(&crate::clean::page(&html)).text;
    assert!(text.contains("Storm number 3") && text.contains("Storm number 11"), "{text}");
    let off = extract_with(&crate::clean::page(&html), &Options::default().without("listing").unwrap()).text;
    assert!(off.starts_with("Copyright"), "{off}");
}

#[test]
fn a_list_that_is_nearly_all_of_its_headlines_section_is_a_listing() {
    let jobs: String = (0..30).map(|i| format!("<li><a href=/jobs/{i}>Senior engineer number {i} at Company {i}</a></li>")).collect();
    let intro = "Looking for a remote role? These companies are hiring engineers now.";
    let listing = format!(
        "<html><head><title>Remote engineering jobs</title></head><body><main>\
         <h1>Remote engineering jobs</h1><p>{intro}</p><ul>{jobs}</ul></main></body></html>"
    );
    let text = extract(&crate::clean::page(&listing)).text;
    assert!(text.contains("Senior engineer number 0") && text.contains("number 29"), "{text}");
    // The same list beside a short story and the rest of the page's text: links to
    // other stories, not the page's content.
    let story = "The council voted on Tuesday to repair the old bridge before winter comes. ".repeat(4);
    let rest: String = (0..120).map(|i| format!("<div>Town {i}: mild and dry</div>")).collect();
    let article = format!(
        "<html><head><title>Bridge to be repaired</title></head><body>\
         <h1>Bridge to be repaired</h1><p>{story}</p><ul>{jobs}</ul><div>{rest}</div></body></html>"
    );
    let text = extract(&crate::clean::page(&article)).text;
    assert!(text.contains("repair the old bridge") && !text.contains("Senior engineer"), "{text}");
}

#[test]
fn a_terminator_word_in_a_table_cell_or_code_is_data_not_the_end() {
    let para = format!("<p>{}</p>", "Every field of the product feed is described below with its type and use. ".repeat(3));
    let rows: String = ["Required", "Recommended", "Optional"].iter().map(|r| format!("<tr><td>colour_{r}</td><td>{r}</td></tr>")).collect();
    let html = format!(
        "<html><head><title>Feed fields</title></head><body><article><h1>Feed fields</h1>{para}{para}\
         <table>{rows}</table><pre>make feed\nrelated\nmake check</pre></article></body></html>"
    );
    let text = extract(&crate::clean::page(&html)).text;
    assert!(text.contains("colour_Optional") && text.contains("make check"), "{text}");
}

#[test]
fn a_dialog_is_never_given_back_as_the_article() {
    // A short product page under a long policy in a modal: the boilerplate regions leave
    // under 15% of the page's paragraphs outside them, so the largest is given back, but
    // not a dialog (shown over the page, never its content).
    let policy: String = (0..30).map(|i| format!("<p>Clause {i}: the buyer may return goods within thirty days of the order date.</p>")).collect();
    for dialog in ["role=dialog", "aria-modal=true"] {
        let html = format!(
            "<html><head><title>Wool Runner</title></head><body><nav><a href=/>Home</a></nav>\
             <div class=product><h1>Wool Runner</h1><p>A light everyday sneaker made of soft merino wool, machine washable.</p></div>\
             <div class='modal policy' {dialog}>{policy}</div><footer><p>Help center and contact details for all buyers in every country.</p></footer></body></html>"
        );
        let text = extract(&crate::clean::page(&html)).text;
        assert!(text.contains("merino wool") && !text.contains("Clause"), "{dialog}: {text}");
    }
}

#[test]
fn a_page_of_sections_gives_them_all() {
    // A landing page: a hero section, then rows of sections among lists of links (which
    // weigh against the blocks that hold them), so the best block is the hero, with under
    // half of the page's paragraphs.
    let section = |words: &str, n: usize| {
        let text: String = (0..n).map(|i| format!("{words} helps team number {i} ship its work on time. ")).collect();
        format!("<section><h2>{words}</h2><p>{text}</p></section>")
    };
    let links: String = (0..80).map(|i| format!("<li><a href=/l{i}>Our service number {i}</a></li>")).collect();
    let html = format!(
        "<html><head><title>Services</title></head><body><main><div class=hero>{}</div>\
         <div class=rows><div class=row>{}</div><ul>{links}</ul><div class=row>{}</div><div class=row>{}</div></div></main></body></html>",
        section("Planning", 12),
        section("Hosting", 6),
        section("Support", 6),
        section("Training", 6)
    );
    let doc = crate::clean::page(&html);
    let words = ["Planning", "Hosting", "Support", "Training"];
    let found = |text: &str| words.iter().filter(|w| text.contains(&format!("{w} helps team number 1 "))).count();
    let text = extract(&doc).text;
    assert_eq!(found(&text), 4, "{text}");
    // (The page's `main` landmark holds all four: the `main` mechanism, off here too, would
    // give them as well.)
    let one = extract_with(&doc, &Options::default().without("sections").and_then(|o| o.without("main")).unwrap()).text;
    assert_eq!(found(&one), 1, "{one}");
}

#[test]
fn a_list_between_the_paragraphs_of_an_article_is_part_of_it() {
    // A wiki page: a long introduction, then reading lists under headings with a short
    // paragraph between them. The introduction is the best block; the lists score low
    // (mostly links) but sit between paragraphs that join it.
    let items = |k: usize| (0..8).map(|i| format!("<li><a href=/g{k}{i}>Tuning the server for heavy loads, part {k}{i}</a> by Ann Lee</li>")).collect::<String>();
    let html = format!(
        "<html><head><title>Performance</title></head><body><nav><a href=/>Home</a></nav><div class=page><h1>Performance</h1>\
         <p>{}</p><h2>Guides</h2><ul>{}</ul><h2>Courses</h2><p>Courses on tuning are given by a number of companies each year, in many cities and online.</p>\
         <h2>Maintenance</h2><ul>{}</ul><p>Vacuum and analyze keep the statistics of the planner fresh, and the tables of the database small.</p></div>\
         <footer><p>Wiki footer</p></footer></body></html>",
        "Read the slow query log first, and read the plan of each query before you change a setting. ".repeat(5),
        items(1),
        items(2)
    );
    let doc = crate::clean::page(&html);
    let text = extract(&doc).text;
    assert!(text.contains("heavy loads, part 17") && text.contains("heavy loads, part 27"), "{text}");
}

#[test]
fn a_thin_page_whose_main_text_is_hidden_until_a_script_shows_it_gives_that_text() {
    // A shop page whose product copy sits in `main` under `display:none` until a script
    // lifts it: the visible promotion line is not the article.
    let copy = "<p>Our dark roast is grown on small farms and roasted slowly in small batches for a smooth, bold cup.</p>".repeat(6);
    let html = format!(
        "<html><head><title>Dark Roast</title></head><body><div class=promo><p>Save ten percent on your first order today.</p></div>\
         <main><div class=lockdown style='display:none'><h1>Dark Roast</h1><div class=description>{copy}</div></div></main></body></html>"
    );
    let text = extract(&crate::clean::page(&html)).text;
    assert!(text.contains("roasted slowly"), "{text}");
    // A short post beside a hidden sidebar outside its landmark keeps the post.
    let sidebar = "<li>Read the archives of this blog for every month of every year since it began.</li>".repeat(12);
    let html = format!(
        "<html><head><title>Two deadlines</title></head><body><article><h1>Two deadlines</h1>\
         <p>The application deadline for the summer seminar is Friday morning.</p></article>\
         <div class=side style='display:none'><ul>{sidebar}</ul></div></body></html>"
    );
    let text = extract(&crate::clean::page(&html)).text;
    assert!(text.contains("seminar") && !text.contains("archives"), "{text}");
}

#[test]
fn customer_reviews_are_not_the_product() {
    // A product page with customer reviews beside its description: the reviews are the
    // readers' words, as comments are, not the page's.
    let review = |i: usize| format!("<div class=customer-review><p>Played it for {i} months on stage and it still stays in tune.</p></div>");
    let reviews: String = (0..3).map(review).collect();
    let html = format!(
        "<html><head><title>Player Strat</title></head><body><main><h1>Player Strat</h1>\
         <div class=product-text><p>An alder body with a maple neck and a rosewood fingerboard with white dot inlays.</p>\
         <p>Three single coil pickups with one volume and two tone controls, wired for classic tones.</p>\
         <p>A two point tremolo with bent steel saddles and vintage style tuners keeps it stable.</p></div>\
         <div class=product-reviews><h2>Reviews</h2>{reviews}</div>\
         <div class=shipping><p>Orders ship within two days from our warehouse, with free returns.</p></div></main></body></html>"
    );
    let text = extract(&crate::clean::page(&html)).text;
    assert!(text.contains("white dot inlays") && !text.contains("stays in tune"), "{text}");
}

#[test]
fn a_hidden_panel_the_reader_opens_is_content_a_hidden_copy_is_not() {
    let para = |w: &str| format!("<p>{}</p>", format!("{w} plans cover every team and every project we run. ").repeat(4));
    let html = format!(
        "<body><h1>Plans</h1><div role=tablist><button>Teams</button><button>Enterprise</button></div>\
         <div role=tabpanel aria-labelledby=t1>{}</div>\
         <div role=tabpanel aria-labelledby=t2 hidden>{}</div>\
         <div role=region aria-labelledby=q1 aria-hidden=true>{}</div>\
         <h3>Can I pay monthly?</h3><div class='c-accordion__panel' style='display: none'>{}</div>\
         <button aria-controls='faq-2 faq-3'>Do you ship abroad?</button><div id=faq-3 hidden>{}</div>\
         <div><a aria-expanded=false>How the price is set</a></div> <div class=hide>{}</div>\
         <div class=modal aria-hidden=true aria-labelledby=m1>{}</div></body>",
        para("Team"),
        para("Enterprise"),
        para("Yearly"),
        para("Monthly"),
        para("Shipping"),
        para("Pricing"),
        para("Newsletter")
    );
    let doc = crate::clean::page(&html);
    let text = extract(&doc).text;
    assert!(text.contains("Team plans") && text.contains("Enterprise plans") && text.contains("Yearly plans"), "{text}");
    assert!(text.contains("Monthly plans"), "an accordion's closed panel is content: {text}");
    assert!(text.contains("Shipping plans"), "so is what a control names as what it opens: {text}");
    assert!(text.contains("Pricing plans"), "and what follows a control marked expandable: {text}");
    assert!(!text.contains("Newsletter"), "{text}");
    let off = extract_with(&doc, &Options::default().without("panels").unwrap()).text;
    assert!(!off.contains("Enterprise plans") && !off.contains("Shipping plans") && !off.contains("Pricing plans"), "{off}");
}

#[test]
fn aria_hidden_hides_a_closed_drawer_not_the_copy_the_page_shows() {
    let card = |w: &str| format!("<div class=card><h3>{w}</h3><div aria-hidden=true><p>{}</p></div></div>", format!("{w} keeps every service of the firm running day and night. ").repeat(3));
    let html = format!(
        "<body><h1>Services</h1><main><p>{}</p><div class=grid>{}{}{}</div></main>\
         <aside class=bag aria-hidden=true><p>{}</p></aside></body>",
        "Our firm serves companies of every size in every country of the world. ".repeat(2),
        card("Audit"),
        card("Consulting"),
        card("Tax"),
        "Your bag is empty, but you still look good: shop all our products today. ".repeat(3)
    );
    let text = extract(&crate::clean::page(&html)).text;
    assert!(text.contains("Audit keeps") && text.contains("Consulting keeps") && text.contains("Tax keeps"), "{text}");
    assert!(!text.contains("Your bag"), "{text}");
}

#[test]
fn a_selection_under_half_of_the_main_landmark_gives_the_landmark_unless_it_is_an_article() {
    // A section front: an introduction, then groups of short items (a name over a line of
    // detail, each under a paragraph's length), all inside `main`. The introduction is the
    // best block and holds under half of the landmark's text; the groups are what the page
    // lists.
    let sentence = "This week our reporters look at how small towns rebuild their bridges, roads and water systems. ";
    let intro = format!("<h1>Infrastructure</h1><div class=intro><p>{}</p></div>", sentence.repeat(8));
    let group = |name: &str| {
        let items: String = (0..12).map(|i| format!("<li><h3>{name} item {i}</h3><div>Open until May {i}</div></li>")).collect();
        format!("<section><h2>{name}</h2><ul>{items}</ul></section>")
    };
    let page = |head: &str, intro: &str| {
        format!(
            "<html><head><title>Infrastructure</title>{head}</head><body><nav><a href=/>Home</a></nav><main>\
             {intro}{}{}{}{}</main><footer>Gazette</footer></body></html>",
            group("Bridges"),
            group("Roads"),
            group("Water"),
            group("Power")
        )
    };
    let html = page("", &intro);
    let doc = crate::clean::page(&html);
    let listed = |text: &str| ["Bridges", "Roads", "Water", "Power"].iter().filter(|g| text.contains(&format!("{g} item 3\n"))).count();
    let text = extract(&doc).text;
    assert!(text.contains("small towns rebuild") && listed(&text) == 4, "{text}");
    let off = extract_with(&doc, &Options::default().without("main").unwrap()).text;
    assert!(off.contains("small towns rebuild") && listed(&off) == 0, "{off}");
    // A selection that holds the page's headline is the article it heads: not widened.
    let story = format!("<div class=story><h1>Infrastructure</h1><p>{}</p><p>{}</p></div>", sentence.repeat(4), sentence.repeat(4));
    let text = extract(&crate::clean::page(&page("", &story))).text;
    assert!(text.contains("small towns rebuild") && listed(&text) == 0, "{text}");
    // The same page declared an article: its article is not widened to the landmark.
    let declared = page(r#"<script type="application/ld+json">{"@type":"NewsArticle","headline":"Infrastructure"}</script>"#, &intro);
    let article = crate::Page::from_html("front.html", &declared).unwrap();
    assert_eq!(article.kind(), Some(crate::metadata::PageType::Article));
    let text = crate::extract::SinglePage::default().extract_as(&article, crate::Rule::SinglePage).text;
    assert!(text.contains("small towns rebuild") && listed(&text) == 0, "{text}");
}
