//! The 36 racers: their names as players type them, and their powers in words.

use serde::{Deserialize, Serialize};

/// A racer's index in a race (turn order: seats from the first player, then pick order).
pub type Rid = usize;

/// A racer card (and its power).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Alchemist,
    BabaYaga,
    Banana,
    Blimp,
    Centaur,
    Cheerleader,
    Coach,
    Copycat,
    Dicemonger,
    Duelist,
    Egg,
    FlipFlop,
    Genius,
    Gunk,
    Hare,
    Heckler,
    HugeBaby,
    Hypnotist,
    Inchworm,
    Lackey,
    Leaptoad,
    Legs,
    LovableLoser,
    Magician,
    Mastermind,
    Mouth,
    PartyAnimal,
    RocketScientist,
    Romantic,
    Scoocher,
    Sisyphus,
    Skipper,
    Stickler,
    Suckerfish,
    ThirdWheel,
    Twin,
}

/// Every racer, in card order.
pub const ALL: [Kind; 36] = [
    Kind::Alchemist,
    Kind::BabaYaga,
    Kind::Banana,
    Kind::Blimp,
    Kind::Centaur,
    Kind::Cheerleader,
    Kind::Coach,
    Kind::Copycat,
    Kind::Dicemonger,
    Kind::Duelist,
    Kind::Egg,
    Kind::FlipFlop,
    Kind::Genius,
    Kind::Gunk,
    Kind::Hare,
    Kind::Heckler,
    Kind::HugeBaby,
    Kind::Hypnotist,
    Kind::Inchworm,
    Kind::Lackey,
    Kind::Leaptoad,
    Kind::Legs,
    Kind::LovableLoser,
    Kind::Magician,
    Kind::Mastermind,
    Kind::Mouth,
    Kind::PartyAnimal,
    Kind::RocketScientist,
    Kind::Romantic,
    Kind::Scoocher,
    Kind::Sisyphus,
    Kind::Skipper,
    Kind::Stickler,
    Kind::Suckerfish,
    Kind::ThirdWheel,
    Kind::Twin,
];

impl Kind {
    /// The name on the card.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Alchemist => "Alchemist",
            Kind::BabaYaga => "Baba Yaga",
            Kind::Banana => "Banana",
            Kind::Blimp => "Blimp",
            Kind::Centaur => "Centaur",
            Kind::Cheerleader => "Cheerleader",
            Kind::Coach => "Coach",
            Kind::Copycat => "Copycat",
            Kind::Dicemonger => "Dicemonger",
            Kind::Duelist => "Duelist",
            Kind::Egg => "Egg",
            Kind::FlipFlop => "Flip Flop",
            Kind::Genius => "Genius",
            Kind::Gunk => "Gunk",
            Kind::Hare => "Hare",
            Kind::Heckler => "Heckler",
            Kind::HugeBaby => "Huge Baby",
            Kind::Hypnotist => "Hypnotist",
            Kind::Inchworm => "Inchworm",
            Kind::Lackey => "Lackey",
            Kind::Leaptoad => "Leaptoad",
            Kind::Legs => "Legs",
            Kind::LovableLoser => "Lovable Loser",
            Kind::Magician => "Magician",
            Kind::Mastermind => "Mastermind",
            Kind::Mouth => "M.O.U.T.H.",
            Kind::PartyAnimal => "Party Animal",
            Kind::RocketScientist => "Rocket Scientist",
            Kind::Romantic => "Romantic",
            Kind::Scoocher => "Scoocher",
            Kind::Sisyphus => "Sisyphus",
            Kind::Skipper => "The Skipper",
            Kind::Stickler => "Stickler",
            Kind::Suckerfish => "Suckerfish",
            Kind::ThirdWheel => "Third Wheel",
            Kind::Twin => "Twin",
        }
    }

    /// The one-word name used in orders and policies: `flipflop`, `mouth`, `skipper`.
    pub fn slug(self) -> String {
        let s = squash(self.name());
        match s.strip_prefix("the") {
            Some(rest) => rest.to_string(),
            None => s,
        }
    }

    /// Reads a racer's name as a player might type it ("Flip Flop", "flip-flop", "mouth",
    /// "the skipper", "rocket").
    pub fn parse(text: &str) -> Option<Kind> {
        let t = squash(text);
        let t = t
            .strip_prefix("the")
            .filter(|s| !s.is_empty())
            .unwrap_or(&t);
        if t.is_empty() {
            return None;
        }
        if let Some(k) = ALL.iter().find(|k| k.slug() == t) {
            return Some(*k);
        }
        let alias = match t {
            "baba" | "yaga" => Some(Kind::BabaYaga),
            "flip" | "flipflop" => Some(Kind::FlipFlop),
            "baby" | "huge" => Some(Kind::HugeBaby),
            "loser" | "lovable" | "loveableloser" => Some(Kind::LovableLoser),
            "rocket" | "scientist" => Some(Kind::RocketScientist),
            "party" | "animal" => Some(Kind::PartyAnimal),
            "wheel" | "thirdwheel" => Some(Kind::ThirdWheel),
            "sisyphos" => Some(Kind::Sisyphus),
            _ => None,
        };
        alias.or_else(|| {
            // A unique prefix of at least four letters.
            let hits: Vec<Kind> = ALL
                .iter()
                .copied()
                .filter(|k| t.len() >= 4 && k.slug().starts_with(t))
                .collect();
            match hits.as_slice() {
                [one] => Some(*one),
                _ => None,
            }
        })
    }

    /// The power as printed on the card.
    pub fn power_text(self) -> &'static str {
        match self {
            Kind::Alchemist => "When I roll a 1 or 2 for my Main Move, I can move 4 instead.",
            Kind::BabaYaga => {
                "Trip any racer that stops on my space, or when I stop on their space."
            }
            Kind::Banana => "I trip any racer that passes me.",
            Kind::Blimp => {
                "When I start my turn before the second corner, I get +3 to my Main Move. On or after that corner, I get -1."
            }
            Kind::Centaur => "When I pass a racer, they move -2.",
            Kind::Cheerleader => {
                "Before my Main Move, I can make the racer(s) in last place move 2. If I do, I move 1."
            }
            Kind::Coach => "Everyone on my space gets +1 to their Main Move, including me.",
            Kind::Copycat => {
                "I have the power of the racer currently in the lead. If there's a tie, I pick."
            }
            Kind::Dicemonger => {
                "Anyone can reroll their Main Move once per turn. When another racer does it, I move 1."
            }
            Kind::Duelist => {
                "Whenever a racer shares my space, I can shout \"Duel\". We roll and whoever rolls highest moves 2. I win ties."
            }
            Kind::Egg => {
                "Before my race, draw 2 new racers from the deck and pick one. I have its powers."
            }
            Kind::FlipFlop => {
                "I can skip rolling for my Main Move and swap spaces with another racer instead."
            }
            Kind::Genius => {
                "I can guess what I'll roll for my Main Move. If I'm right, I take another turn after this one."
            }
            Kind::Gunk => "Other racers get -1 to their Main Move.",
            Kind::Hare => {
                "I get +2 to my Main Move. When I start my turn alone in the lead, I skip my Main Move."
            }
            Kind::Heckler => {
                "When a racer ends their turn within 1 space of where they started, I move 2."
            }
            Kind::HugeBaby => {
                "No one can ever be on my space besides the Start. Whenever that would happen, put the racer on the space behind me instead."
            }
            Kind::Hypnotist => "Before my Main Move, I can warp a racer to my space.",
            Kind::Inchworm => {
                "When another racer rolls a 1 for their Main Move, they skip that move and I move 1."
            }
            Kind::Lackey => {
                "When another racer rolls a 6 for their Main Move, I move 2 before they move."
            }
            Kind::Leaptoad => "While moving, I skip spaces with other racers on them.",
            Kind::Legs => "I can skip rolling for my Main Move and move 5 instead.",
            Kind::LovableLoser => {
                "Before my Main Move, I get 1 bronze point chip if I'm alone in last place."
            }
            Kind::Magician => "I can reroll my Main Move up to twice per turn.",
            Kind::Mastermind => {
                "At the start of my first turn, I predict which racer will win. If I'm right, the race ends immediately and I finish 2nd."
            }
            Kind::Mouth => {
                "When I stop on a space with exactly one other racer, they're eliminated from the race."
            }
            Kind::PartyAnimal => {
                "Before my Main Move, all racers move a space towards me. Each other racer on my space gives me +1 to my Main Move."
            }
            Kind::RocketScientist => {
                "When I roll for my Main Move, I can double that number. If I do, I trip."
            }
            Kind::Romantic => {
                "When anyone stops on a space with exactly one other racer, I move 2."
            }
            Kind::Scoocher => "When another racer's power happens, I move 1.",
            Kind::Sisyphus => {
                "Before my race, I take 4 bronze point chips. When I roll a 6 for my Main Move, instead of moving, I warp to the Start and lose 1 point chip."
            }
            Kind::Skipper => "When anyone rolls a 1 for their Main Move, I go next in turn order.",
            Kind::Stickler => {
                "Other racers can only cross the finish line by moving the exact amount they need. If they overshoot, they don't move."
            }
            Kind::Suckerfish => "When a racer on my space moves, I can move to their new space.",
            Kind::ThirdWheel => {
                "Before my Main Move, I can warp to any space with exactly 2 racers on it."
            }
            Kind::Twin => {
                "Before my race, I can pick a racer who won a previous race and race with their powers."
            }
        }
    }

    /// Powers that act "before my race": Copycat never copies them.
    pub fn acts_before_race(self) -> bool {
        matches!(self, Kind::Egg | Kind::Twin | Kind::Sisyphus)
    }
}

/// Lower case, letters and digits only: "M.O.U.T.H." -> "mouth".
pub fn squash(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_racer_reads_back_from_its_name_and_slug() {
        for k in ALL {
            assert_eq!(Kind::parse(k.name()), Some(k), "{k:?}");
            assert_eq!(Kind::parse(&k.slug()), Some(k), "{k:?}");
            assert!(!k.power_text().is_empty());
        }
        let mut slugs: Vec<String> = ALL.iter().map(|k| k.slug()).collect();
        slugs.sort();
        slugs.dedup();
        assert_eq!(slugs.len(), 36);
    }

    #[test]
    fn aliases_and_prefixes() {
        assert_eq!(Kind::parse("flip-flop"), Some(Kind::FlipFlop));
        assert_eq!(Kind::parse("M.O.U.T.H."), Some(Kind::Mouth));
        assert_eq!(Kind::parse("the skipper"), Some(Kind::Skipper));
        assert_eq!(Kind::parse("skipper"), Some(Kind::Skipper));
        assert_eq!(Kind::parse("rocket"), Some(Kind::RocketScientist));
        assert_eq!(Kind::parse("magi"), Some(Kind::Magician));
        assert_eq!(Kind::parse("ma"), None);
        assert_eq!(Kind::parse(""), None);
        assert_eq!(Kind::parse("zebra"), None);
    }
}
