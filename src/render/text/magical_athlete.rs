//! Magical Athlete in text.
use crate::games::magical_athlete::{PrivateView, PublicView};
pub fn track(_v: &PublicView) -> String {
    String::new()
}
pub fn alt(_v: &PublicView) -> String {
    String::new()
}
pub fn private(_v: &PrivateView) -> String {
    String::new()
}
