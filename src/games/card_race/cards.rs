//! The cards of the card-race games: one set of card identities shared by every ruleset,
//! with each ruleset's names for them, and the reading of card names as players type them.

use serde::{Deserialize, Serialize};

/// A card. 1000 miles and 1000 Yards share these identities; only names differ
/// (1000 Yards' "Traffic" is the red light, its "Crossing guard" the right of way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Card {
    D25,
    D50,
    D75,
    D100,
    D200,
    /// Red light (1000 Yards: Traffic).
    Stop,
    /// Speed limit (Restriction).
    Limit,
    /// Out of gas (Hungry).
    OutOfGas,
    /// Flat tire.
    Flat,
    /// Accident.
    Accident,
    /// The counterflow variant's attack.
    Counterflow,
    /// Green light (Go).
    Go,
    /// 1000 Yards' Crosswalk, which fixes Traffic (in 1000 miles the green light does).
    StopFix,
    /// End of speed limit (End of restriction).
    EndOfLimit,
    /// Gas (Snack).
    Gas,
    /// Spare tire (Pump).
    Spare,
    /// Repairs (First aid).
    Repairs,
    EndOfCounterflow,
    /// Right of way (Crossing guard).
    RightOfWay,
    /// Extra tank (Meal).
    ExtraTank,
    /// Puncture-proof (New tire).
    PunctureProof,
    /// Driving ace (Training wheels).
    DrivingAce,
}

/// What a card does, broadly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Distance(u32),
    Attack,
    Remedy,
    Go,
    Safety,
}

impl Card {
    pub const ALL: [Card; 22] = [
        Card::D25,
        Card::D50,
        Card::D75,
        Card::D100,
        Card::D200,
        Card::Stop,
        Card::Limit,
        Card::OutOfGas,
        Card::Flat,
        Card::Accident,
        Card::Counterflow,
        Card::Go,
        Card::StopFix,
        Card::EndOfLimit,
        Card::Gas,
        Card::Spare,
        Card::Repairs,
        Card::EndOfCounterflow,
        Card::RightOfWay,
        Card::ExtraTank,
        Card::PunctureProof,
        Card::DrivingAce,
    ];

    pub const SAFETIES: [Card; 4] = [
        Card::RightOfWay,
        Card::ExtraTank,
        Card::PunctureProof,
        Card::DrivingAce,
    ];

    pub fn kind(self) -> Kind {
        match self {
            Card::D25 => Kind::Distance(25),
            Card::D50 => Kind::Distance(50),
            Card::D75 => Kind::Distance(75),
            Card::D100 => Kind::Distance(100),
            Card::D200 => Kind::Distance(200),
            Card::Stop
            | Card::Limit
            | Card::OutOfGas
            | Card::Flat
            | Card::Accident
            | Card::Counterflow => Kind::Attack,
            Card::Go => Kind::Go,
            Card::StopFix
            | Card::EndOfLimit
            | Card::Gas
            | Card::Spare
            | Card::Repairs
            | Card::EndOfCounterflow => Kind::Remedy,
            Card::RightOfWay | Card::ExtraTank | Card::PunctureProof | Card::DrivingAce => {
                Kind::Safety
            }
        }
    }

    pub fn distance(self) -> Option<u32> {
        match self.kind() {
            Kind::Distance(d) => Some(d),
            _ => None,
        }
    }

    pub fn is_attack(self) -> bool {
        self.kind() == Kind::Attack
    }

    pub fn is_safety(self) -> bool {
        self.kind() == Kind::Safety
    }

    /// Attacks that stop a car outright (the battle pile); the others only hamper it.
    pub fn is_battle_attack(self) -> bool {
        matches!(
            self,
            Card::Stop | Card::OutOfGas | Card::Flat | Card::Accident
        )
    }

    /// The attack a remedy fixes (the green light is handled apart: it also fixes a red
    /// light where the ruleset says so).
    pub fn fixes(self) -> Option<Card> {
        match self {
            Card::StopFix => Some(Card::Stop),
            Card::EndOfLimit => Some(Card::Limit),
            Card::Gas => Some(Card::OutOfGas),
            Card::Spare => Some(Card::Flat),
            Card::Repairs => Some(Card::Accident),
            Card::EndOfCounterflow => Some(Card::Counterflow),
            _ => None,
        }
    }

    /// The remedy for an attack, other than a green light.
    pub fn remedy_for(attack: Card) -> Option<Card> {
        Card::ALL.into_iter().find(|c| c.fixes() == Some(attack))
    }

    /// The attacks a safety protects against.
    pub fn protects(self) -> &'static [Card] {
        match self {
            Card::RightOfWay => &[Card::Stop, Card::Limit],
            Card::ExtraTank => &[Card::OutOfGas],
            Card::PunctureProof => &[Card::Flat],
            // The counterflow variant: the driving ace is immune to counterflow too.
            Card::DrivingAce => &[Card::Accident, Card::Counterflow],
            _ => &[],
        }
    }

    /// The safety that protects against an attack.
    pub fn safety_for(attack: Card) -> Option<Card> {
        Card::SAFETIES
            .into_iter()
            .find(|s| s.protects().contains(&attack))
    }

    /// The card's name in 1000 miles (`yards` false) or 1000 Yards.
    pub fn name(self, yards: bool) -> &'static str {
        let (miles, yds) = match self {
            Card::D25 => ("25", "25"),
            Card::D50 => ("50", "50"),
            Card::D75 => ("75", "75"),
            Card::D100 => ("100", "100"),
            Card::D200 => ("200", "200"),
            Card::Stop => ("red light", "traffic"),
            Card::Limit => ("speed limit", "restriction"),
            Card::OutOfGas => ("out of gas", "hungry"),
            Card::Flat => ("flat tire", "flat tire"),
            Card::Accident => ("accident", "accident"),
            Card::Counterflow => ("counterflow", "wrong way"),
            Card::Go => ("green light", "go"),
            Card::StopFix => ("crosswalk", "crosswalk"),
            Card::EndOfLimit => ("end of speed limit", "end of restriction"),
            Card::Gas => ("gas", "snack"),
            Card::Spare => ("spare tire", "pump"),
            Card::Repairs => ("repairs", "first aid"),
            Card::EndOfCounterflow => ("end of counterflow", "end of wrong way"),
            Card::RightOfWay => ("right of way", "crossing guard"),
            Card::ExtraTank => ("extra tank", "meal"),
            Card::PunctureProof => ("puncture-proof", "new tire"),
            Card::DrivingAce => ("driving ace", "training wheels"),
        };
        if yards { yds } else { miles }
    }
}

/// Every name a player may type for a card, in either game, normalised (lowercase,
/// hyphens as spaces). Distances are read apart.
const ALIASES: &[(&str, Card)] = &[
    ("red light", Card::Stop),
    ("red", Card::Stop),
    ("stop", Card::Stop),
    ("stoplight", Card::Stop),
    ("traffic", Card::Stop),
    ("speed limit", Card::Limit),
    ("limit", Card::Limit),
    ("restriction", Card::Limit),
    ("out of gas", Card::OutOfGas),
    ("empty tank", Card::OutOfGas),
    ("hungry", Card::OutOfGas),
    ("flat tire", Card::Flat),
    ("flat tyre", Card::Flat),
    ("flat", Card::Flat),
    ("puncture", Card::Flat),
    ("accident", Card::Accident),
    ("crash", Card::Accident),
    ("counterflow", Card::Counterflow),
    ("counter flow", Card::Counterflow),
    ("wrong way", Card::Counterflow),
    ("green light", Card::Go),
    ("green", Card::Go),
    ("go", Card::Go),
    ("roll", Card::Go),
    ("crosswalk", Card::StopFix),
    ("end of speed limit", Card::EndOfLimit),
    ("end of limit", Card::EndOfLimit),
    ("end limit", Card::EndOfLimit),
    ("end of restriction", Card::EndOfLimit),
    ("end restriction", Card::EndOfLimit),
    ("gas", Card::Gas),
    ("gasoline", Card::Gas),
    ("fuel", Card::Gas),
    ("snack", Card::Gas),
    ("spare tire", Card::Spare),
    ("spare tyre", Card::Spare),
    ("spare", Card::Spare),
    ("pump", Card::Spare),
    ("repairs", Card::Repairs),
    ("repair", Card::Repairs),
    ("first aid", Card::Repairs),
    ("end of counterflow", Card::EndOfCounterflow),
    ("end counterflow", Card::EndOfCounterflow),
    ("end of wrong way", Card::EndOfCounterflow),
    ("right of way", Card::RightOfWay),
    ("priority", Card::RightOfWay),
    ("crossing guard", Card::RightOfWay),
    ("extra tank", Card::ExtraTank),
    ("tank", Card::ExtraTank),
    ("meal", Card::ExtraTank),
    ("puncture proof", Card::PunctureProof),
    ("new tire", Card::PunctureProof),
    ("new tyre", Card::PunctureProof),
    ("driving ace", Card::DrivingAce),
    ("ace", Card::DrivingAce),
    ("training wheels", Card::DrivingAce),
];

const UNITS: &[&str] = &["miles", "mile", "mi", "yards", "yard", "yds", "yd"];

/// Lowercase, hyphens and underscores as spaces, single spaces.
pub fn normalise(text: &str) -> String {
    text.to_lowercase()
        .replace(['-', '_'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn distance_card(n: u32) -> Option<Card> {
    match n {
        25 => Some(Card::D25),
        50 => Some(Card::D50),
        75 => Some(Card::D75),
        100 => Some(Card::D100),
        200 => Some(Card::D200),
        _ => None,
    }
}

/// Reads a card name at the start of normalised `text`; returns the card and the rest.
/// The longest name wins, so "end of speed limit" is not read as "end".
pub fn read_card(text: &str) -> Option<(Card, &str)> {
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    if !digits.is_empty() {
        let card = digits.parse().ok().and_then(distance_card)?;
        let mut rest = text.get(digits.len()..).unwrap_or("").trim_start();
        for unit in UNITS {
            if let Some(r) = word_prefix(rest, unit) {
                rest = r;
                break;
            }
        }
        return Some((card, rest));
    }
    ALIASES
        .iter()
        .filter_map(|(alias, card)| word_prefix(text, alias).map(|rest| (alias.len(), *card, rest)))
        .max_by_key(|(len, _, _)| *len)
        .map(|(_, card, rest)| (card, rest))
}

/// `text` without the leading word(s) `prefix`, if it starts with them as whole words.
fn word_prefix<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = text.strip_prefix(prefix)?;
    if rest.is_empty() {
        Some(rest)
    } else if rest.starts_with(' ') || rest.starts_with('@') {
        Some(rest.trim_start())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_in_both_games() {
        for card in Card::ALL {
            for yards in [false, true] {
                let name = normalise(card.name(yards));
                let (read, rest) = read_card(&name).unwrap_or_else(|| panic!("{name}"));
                assert_eq!((read, rest), (card, ""), "{name}");
            }
        }
    }

    #[test]
    fn longest_name_wins_and_units_are_optional() {
        assert_eq!(read_card("end of limit"), Some((Card::EndOfLimit, "")));
        assert_eq!(read_card("100 miles"), Some((Card::D100, "")));
        assert_eq!(read_card("200yds"), Some((Card::D200, "")));
        assert_eq!(read_card("200 yds @bob"), Some((Card::D200, "@bob")));
        assert_eq!(read_card("stop bob"), Some((Card::Stop, "bob")));
        assert_eq!(read_card("stopper"), None);
        assert_eq!(read_card("30"), None);
    }

    #[test]
    fn every_attack_has_a_remedy_and_a_safety() {
        for a in Card::ALL.into_iter().filter(|c| c.is_attack()) {
            assert!(Card::safety_for(a).is_some(), "{a:?}");
            if a != Card::Stop {
                assert!(Card::remedy_for(a).is_some(), "{a:?}");
            }
        }
    }
}
