//! Synthetic article pages for tests: prose whose words depend on a seed, with names of the
//! page's own, so every page has signifiers of its own as real articles do.

/// Words the prose is made of.
pub const WORDS: &[&str] = &[
    "river", "bridge", "council", "harvest", "orchard", "library", "festival", "station", "ferry", "market",
    "lantern", "meadow", "quarry", "harbor", "tunnel", "granary", "chapel", "foundry", "mill", "garden",
];

/// Prose of `n` paragraphs whose words depend on `seed`, with names of the page's own (so
/// every page has signifiers of its own, as real articles do).
pub fn prose(seed: usize, n: usize) -> String {
    (0..n)
        .map(|i| {
            let w = |k: usize| WORDS[(seed * 7 + i * 3 + k) % WORDS.len()];
            let name = |k: usize| format!("{}{}", ["Alder", "Birch", "Cedar", "Dunmore", "Elwood"][k % 5], ["ton", "ville", "field", "more"][(seed + k) % 4]);
            format!(
                "<p>The {} near the {} was rebuilt after the {} by the {} workers of {}, said {} of the {}.</p>",
                w(0), w(1), w(2), w(3), name(seed + i), name(seed * 3 + i), w(4)
            )
        })
        .collect()
}
