//! What every picture shares: its width, its margins and the header with the title and
//! where the race stands.

use super::canvas::{Align, Canvas};
use super::font::Weight;
use super::palette::{INK, MUTED, RULE};

/// Drawn at twice the width of a phone's preview, so text halves to a readable size.
pub const WIDTH: f32 = 800.0;
pub const MARGIN: f32 = 24.0;
/// The header's height, rule included.
pub const HEADER: f32 = 64.0;

/// The title at the left, the status at the right (cut short if need be), a rule below.
pub fn header(c: &mut Canvas, title: &str, status: &str) {
    let title = c.fit(Weight::Bold, 30.0, title, c.width() - 2.0 * MARGIN);
    c.text(MARGIN, 42.0, &title, 30.0, Weight::Bold, INK, Align::Left);
    let room = c.width() - 2.0 * MARGIN - c.measure(Weight::Bold, 30.0, &title) - 24.0;
    let status = c.fit(Weight::Regular, 24.0, status, room);
    c.text(
        c.width() - MARGIN,
        42.0,
        &status,
        24.0,
        Weight::Regular,
        MUTED,
        Align::Right,
    );
    c.rect(MARGIN, HEADER - 6.0, c.width() - 2.0 * MARGIN, 2.0, RULE);
}
