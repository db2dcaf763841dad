//! Element and attribute names, interned.

use html5ever::LocalName;
use std::fmt;

/// A lower-case, XML-safe element or attribute name ([`super::xml_name`]), interned: the names
/// HTML defines are built in (no allocation, compared as one integer), and any other name is
/// stored once and shared by every element that has it. It reads as a `str`.
///
/// # Example
/// ```
/// let doc = forest::clean::page("<div class=x><p>Hi</p></div>");
/// let forest::clean::NodeData::Element(e) = &doc.nodes[0].data else { unreachable!() };
/// assert_eq!(e.name, "html");
/// assert!(e.name.starts_with("ht"));
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Name(LocalName);

impl Name {
    /// The name `s`, as it is (a name read from markup is made XML-safe first: [`super::xml_name`]).
    pub fn new(s: &str) -> Name {
        Name(LocalName::from(s))
    }

    /// A name from the parser made XML-safe ([`super::xml_name`]): the parser's own interned
    /// name when it is already safe, as nearly all are.
    pub(crate) fn xml(name: &LocalName) -> Name {
        if super::plain_xml_name(name) {
            Name(name.clone())
        } else {
            Name::new(&super::xml_name(name))
        }
    }

    /// Is this the parser's name `name`? One integer compared for the names HTML defines.
    pub(crate) fn is(&self, name: &LocalName) -> bool {
        self.0 == *name
    }

    /// The name as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    /// By the names' text.
    fn cmp(&self, other: &Name) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name::new(s)
    }
}

impl From<Name> for String {
    fn from(n: Name) -> String {
        n.as_str().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_compare_as_their_text_and_unsafe_ones_are_made_safe() {
        let div = Name::xml(&LocalName::from("div"));
        assert_eq!(div, "div");
        assert_eq!(div, Name::new("div"));
        assert_eq!("div", div);
        assert_eq!(Name::xml(&LocalName::from("v-on:click")), "v-on_click");
        assert_eq!(Name::xml(&LocalName::from("@click")), "_click");
        assert_eq!(Name::xml(&LocalName::from("my-widget")), "my-widget");
        assert!(Name::new("a") < Name::new("b"));
        assert_eq!(format!("{div} {div:?}"), "div \"div\"");
    }
}
