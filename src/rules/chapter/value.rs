//! A chapter's own value (an action, a refusal, an event) as the core carries it inside its
//! enums (`Action::Chapter`, `Refusal::Chapter`, `GameEvent::Chapter`): the chapter's typed
//! value, compared through its type and read back by a downcast (`ChapterValue::get`). It
//! becomes canonical RON text only where the game meets a file or a hash: it is written as a
//! RON string (the shape saves and replays always had), and a value read from a file is kept
//! as that text until the game takes it, when the chapter's type reads it (`resolve`, at
//! `submit` and when a save is restored).

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What a chapter's value can be: any of its serialisable, comparable types.
pub trait Value:
    Serialize + DeserializeOwned + PartialEq + fmt::Debug + Send + Sync + 'static
{
}

impl<T: Serialize + DeserializeOwned + PartialEq + fmt::Debug + Send + Sync + 'static> Value for T {}

/// A value of some chapter type, type-erased.
trait Erased: Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn same(&self, other: &dyn Erased) -> bool;
    fn ron(&self) -> String;
}

impl<T: Value> Erased for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same(&self, other: &dyn Erased) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn ron(&self) -> String {
        ron::to_string(self).unwrap_or_default()
    }
}

#[derive(Clone)]
enum Inner {
    Typed(Arc<dyn Erased>),
    /// Read from a file, not yet taken by the game: its text as written.
    Text(Arc<str>),
}

/// A chapter's value, typed in memory, RON text at the edge.
#[derive(Clone)]
pub struct ChapterValue(Inner);

impl ChapterValue {
    /// The chapter's value `v`.
    pub fn new<T: Value>(v: T) -> ChapterValue {
        ChapterValue(Inner::Typed(Arc::new(v)))
    }

    /// A value as a file writes it (a save, a replay, a scenario): typed when the game takes
    /// it.
    pub fn text(text: impl Into<Arc<str>>) -> ChapterValue {
        ChapterValue(Inner::Text(text.into()))
    }

    /// The value as a `T`, if it is one. A value still as its file wrote it is read here (a
    /// value the game took was typed already).
    pub fn get<T: Value + Clone>(&self) -> Option<T> {
        match &self.0 {
            Inner::Typed(v) => v.as_any().downcast_ref::<T>().cloned(),
            Inner::Text(t) => read::<T>(t).ok(),
        }
    }

    /// The value as a `T`: borrowed where it is one, read from its text where a file wrote it
    /// (bounded); the reason where it is not a `T`.
    pub fn typed<T: Value + Clone>(&self) -> Result<std::borrow::Cow<'_, T>, String> {
        match &self.0 {
            Inner::Typed(v) => v
                .as_any()
                .downcast_ref::<T>()
                .map(std::borrow::Cow::Borrowed)
                .ok_or_else(|| format!("not a {}", std::any::type_name::<T>())),
            Inner::Text(t) => read::<T>(t).map(std::borrow::Cow::Owned),
        }
    }

    /// The value as a `T`, borrowed, if it is a typed `T`.
    pub fn as_ref<T: Value>(&self) -> Option<&T> {
        match &self.0 {
            Inner::Typed(v) => v.as_any().downcast_ref::<T>(),
            Inner::Text(_) => None,
        }
    }

    /// Whether it is still the text a file wrote.
    pub fn is_text(&self) -> bool {
        matches!(self.0, Inner::Text(_))
    }

    /// The value typed as a `T` (its text read, bounded: a file is untrusted); the reason
    /// when the text is not a `T`.
    pub fn resolve<T: Value>(&self) -> Result<ChapterValue, String> {
        match &self.0 {
            Inner::Typed(_) => Ok(self.clone()),
            Inner::Text(t) => read::<T>(t).map(ChapterValue::new),
        }
    }

    /// Its canonical RON text (what files and hashes hold).
    pub fn ron(&self) -> String {
        match &self.0 {
            Inner::Typed(v) => v.ron(),
            Inner::Text(t) => t.to_string(),
        }
    }
}

/// Longest chapter value read from a file (saves and replays are untrusted).
pub const MAX_VALUE_TEXT: usize = 16 * 1024;

fn read<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    if text.len() > MAX_VALUE_TEXT {
        return Err(format!("{} bytes, over {MAX_VALUE_TEXT}", text.len()));
    }
    ron::from_str(text).map_err(|e| e.to_string())
}

impl PartialEq for ChapterValue {
    fn eq(&self, other: &ChapterValue) -> bool {
        match (&self.0, &other.0) {
            (Inner::Typed(a), Inner::Typed(b)) => a.same(&**b),
            (Inner::Text(a), Inner::Text(b)) => a == b,
            _ => self.ron() == other.ron(),
        }
    }
}

impl Eq for ChapterValue {}

impl fmt::Debug for ChapterValue {
    /// As the RON text it is written as (logs and test messages read as they always did).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.ron(), f)
    }
}

impl fmt::Display for ChapterValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.ron())
    }
}

impl Serialize for ChapterValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.ron())
    }
}

impl<'de> Deserialize<'de> for ChapterValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ChapterValue, D::Error> {
        String::deserialize(d).map(ChapterValue::text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    enum Move {
        Go { to: u8 },
        Stay,
    }

    /// Typed values compare by their type; one written to a file reads back equal, and is
    /// written as the same RON string a chapter's value always was.
    #[test]
    fn a_value_is_typed_in_memory_and_ron_at_the_edge() {
        let go = ChapterValue::new(Move::Go { to: 3 });
        assert_eq!(go, ChapterValue::new(Move::Go { to: 3 }));
        assert_ne!(go, ChapterValue::new(Move::Stay));
        assert_eq!(go.as_ref::<Move>(), Some(&Move::Go { to: 3 }));
        assert_eq!(go.as_ref::<u8>(), None, "another type is not it");
        let text = ron::to_string(&go).expect("writes");
        assert_eq!(text, "\"Go(to:3)\"");
        let back: ChapterValue = ron::from_str(&text).expect("reads");
        assert!(back.is_text());
        assert_eq!(back, go, "the text and the value it reads as are equal");
        let typed = back.resolve::<Move>().expect("a Move");
        assert!(!typed.is_text());
        assert_eq!(typed.as_ref::<Move>(), Some(&Move::Go { to: 3 }));
        assert!(ChapterValue::text("Fly").resolve::<Move>().is_err());
        let long = "x".repeat(MAX_VALUE_TEXT + 1);
        assert!(ChapterValue::text(long).resolve::<Move>().is_err());
    }
}
