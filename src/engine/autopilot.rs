//! Autopilot: the order a seat set to `auto` plays without being asked, and why.
//!
//! An order is played for a seat only when it is **forced** (the prompt lists every legal
//! choice, and there is one) or **obvious** by the game's own documented rule
//! ([`super::Preferences::obvious_order`], written in `docs/rules/<game>.md`). Everything
//! else is a decision that matters, and the seat is asked, unless the seat's own
//! **standing plays** decide it ([`super::Preferences::standing_order`]: the card races'
//! `standing` rules).

use serde::{Deserialize, Serialize};

use super::game::{Game, Preferences};
use super::seat::Seat;

/// A seat's autopilot setting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Autopilot {
    /// Every decision is asked.
    Ask,
    /// Forced and obvious orders are played; the rest is asked.
    #[default]
    Auto,
    /// The built-in bot plays the seat.
    Bot,
}

impl Autopilot {
    pub const ALL: [Autopilot; 3] = [Autopilot::Ask, Autopilot::Auto, Autopilot::Bot];

    pub fn name(self) -> &'static str {
        match self {
            Autopilot::Ask => "ask",
            Autopilot::Auto => "auto",
            Autopilot::Bot => "bot",
        }
    }

    pub fn parse(text: &str) -> Option<Autopilot> {
        match text.trim().to_ascii_lowercase().as_str() {
            "ask" | "manual" => Some(Autopilot::Ask),
            "auto" | "autopilot" | "on" => Some(Autopilot::Auto),
            "bot" => Some(Autopilot::Bot),
            _ => None,
        }
    }
}

/// Why an order was played without asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Autoplay {
    /// The only legal order.
    Forced,
    /// The game's documented obvious rule.
    Obvious,
    /// The seat's own standing plays.
    Standing,
}

impl Autoplay {
    pub fn name(self) -> &'static str {
        match self {
            Autoplay::Forced => "forced",
            Autoplay::Obvious => "obvious",
            Autoplay::Standing => "standing",
        }
    }
}

/// The only legal order of `seat`, when its prompt lists every legal choice and there is
/// exactly one (a choice that does not read back as a legal order counts as none).
pub fn forced_order<G: Game>(game: &G, seat: Seat) -> Option<G::Order> {
    if !game.pending().includes(seat) {
        return None;
    }
    let prompt = game.prompt(seat);
    if !prompt.complete {
        return None;
    }
    let mut orders: Vec<G::Order> = Vec::new();
    for choice in &prompt.choices {
        let order = game.parse_order(seat, &choice.order).ok()?;
        game.validate(seat, &order).ok()?;
        if !orders.contains(&order) {
            orders.push(order);
        }
    }
    match orders.as_slice() {
        [only] => Some(only.clone()),
        _ => None,
    }
}

/// The order `auto` plays for `seat` without asking, and why; `None`: ask.
pub fn autopilot<G: Preferences>(game: &G, seat: Seat) -> Option<(G::Order, Autoplay)> {
    autopilot_note(game, seat).map(|(order, why, _)| (order, why))
}

/// As [`autopilot()`], with a note for the seat's DM: "the only legal order", "obvious",
/// or "by your standing play `attack`".
pub fn autopilot_note<G: Preferences>(
    game: &G,
    seat: Seat,
) -> Option<(G::Order, Autoplay, String)> {
    if let Some(order) = forced_order(game, seat) {
        return Some((order, Autoplay::Forced, "the only legal order".into()));
    }
    // Obvious and standing orders are still orders: never play one that would not validate.
    if let Some(order) = game.obvious_order(seat)
        && game.validate(seat, &order).is_ok()
    {
        return Some((order, Autoplay::Obvious, "obvious (docs/rules)".into()));
    }
    let (order, rule) = game.standing_order(seat)?;
    game.validate(seat, &order).ok()?;
    Some((
        order,
        Autoplay::Standing,
        format!("by your standing play `{rule}`"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_back_as_written() {
        for a in Autopilot::ALL {
            assert_eq!(Autopilot::parse(a.name()), Some(a));
        }
        assert_eq!(Autopilot::parse(" AUTO "), Some(Autopilot::Auto));
        assert_eq!(Autopilot::parse("sometimes"), None);
        assert_eq!(Autopilot::default(), Autopilot::Auto);
    }
}
