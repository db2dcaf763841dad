//! Distinct strings, each kept once and numbered in the order first met ([`Strings`]).

use rustc_hash::FxBuildHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// No string.
const NONE: u32 = u32::MAX;

/// Distinct strings, each kept once, end to end in one buffer, and numbered in the order first
/// met: the `id` and `class` values of a sample's pages ([`super::Shape::shared_in`]), the tokens
/// of its text, its template's paths and texts. A string costs its bytes and about 20 more,
/// where a `String` in a map costs its own allocation and 40.
#[derive(Debug, Clone, Default)]
pub struct Strings {
    /// The strings end to end, and where each ends.
    text: String,
    ends: Vec<u32>,
    /// While strings are added: the newest string of each hash, and per string the one before
    /// it with the same hash ([`NONE`]: none). The keys are SipHash values already, so the
    /// map mixes them with Fx only.
    newest: HashMap<u64, u32, FxBuildHasher>,
    older: Vec<u32>,
}

impl Strings {
    /// The number of `s`, added when new; `None` once the table holds 4 GiB, or after
    /// [`Strings::freeze`] when `s` is new.
    pub fn id(&mut self, s: &str) -> Option<u32> {
        let mut h = std::hash::DefaultHasher::new();
        s.hash(&mut h);
        let h = h.finish();
        let mut at = self.newest.get(&h).copied().unwrap_or(NONE);
        while at != NONE {
            if self.get(at) == Some(s) {
                return Some(at);
            }
            at = self.older.get(at as usize).copied().unwrap_or(NONE);
        }
        if self.older.len() < self.ends.len() {
            return None; // frozen
        }
        let end = u32::try_from(self.text.len() + s.len()).ok()?;
        let id = self.ends.len() as u32;
        self.text.push_str(s);
        self.ends.push(end);
        self.older.push(self.newest.insert(h, id).unwrap_or(NONE));
        Some(id)
    }

    /// String number `n`.
    pub fn get(&self, n: u32) -> Option<&str> {
        let end = *self.ends.get(n as usize)? as usize;
        let start = match n.checked_sub(1) {
            Some(p) => *self.ends.get(p as usize)? as usize,
            None => 0,
        };
        self.text.get(start..end)
    }

    /// How many strings.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Is the table empty?
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The table, done with adding: what adding needed is let go (and [`Strings::id`] finds
    /// no string after).
    pub fn freeze(mut self) -> Strings {
        self.newest = HashMap::default();
        self.older = Vec::new();
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_numbered_as_first_met_and_kept_once() {
        let mut s = Strings::default();
        let words = ["main", "", "x y", "main", "ü", "x y", ""];
        let ids: Vec<Option<u32>> = words.iter().map(|w| s.id(w)).collect();
        assert_eq!(ids, [0, 1, 2, 0, 3, 2, 1].map(Some));
        assert_eq!(s.len(), 4);
        assert_eq!((0..5).map(|n| s.get(n)).collect::<Vec<_>>(), [Some("main"), Some(""), Some("x y"), Some("ü"), None]);
        let mut frozen = s.freeze();
        assert_eq!((frozen.id("main"), frozen.id("new"), frozen.get(3)), (None, None, Some("ü")));
    }
}
