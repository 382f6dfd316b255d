//! The game in words for help and narration: its [`Presentation`], which reads the
//! racers' printed powers and the option docs.

use super::racers;
use super::{Event, MagicalAthlete, OPTION_DOCS, Options};
use crate::engine::{Glossary, Narration, OptionDoc, Presentation};

impl Presentation for MagicalAthlete {
    const CHANCE: Option<&'static str> = Some("every roll and every draw");

    fn narrate(&self, event: &Event) -> Narration {
        self.narration(event)
    }

    fn narrate_all(&self, events: &[Event]) -> Vec<Narration> {
        self.narrations(events)
    }

    fn rules_summary(_: &Options) -> &'static str {
        "Magical Athlete: draft a team of racers, then run four races (Mild, Wild, Mild, Wild). \
         Each race, everyone picks a racer in secret; on your turn roll a die and move (your \
         main move), and racers' powers go off all over the track. The first two across the \
         finish (space 30) take gold (3/4/4/5) and silver (1/2/2/3); stars and some powers give \
         bronze points. Most points after four races wins. Reply `roll` on your turn, or a \
         power's choice; set standing policies by DM so you need not be asked."
    }

    fn option_docs() -> &'static [OptionDoc] {
        OPTION_DOCS
    }

    fn preference_help(_: &Options) -> Option<&'static str> {
        Some(
            "Standing policies answer a power's question for you (you are not asked): \
             `magician reroll below 3`, `dicemonger reroll below 3`, `rocket at least 4` / \
             `rocket never`, `alchemist always`, `genius guess 4`, `legs always`, \
             `flipflop leader` / `flipflop gain 4` / `flipflop <racer>`, `hypnotist leader`, \
             `thirdwheel always`, `cheerleader when last`, `suckerfish forward`, \
             `duelist always`, `copycat prefer legs, magician`, `egg prefer legs`, \
             `twin prefer legs` / `twin never`, `mastermind predict me`, `order back`. \
             `<topic> ask` removes one; `clear` removes all.",
        )
    }

    /// Every racer's printed power.
    fn glossary() -> Option<Glossary> {
        Some(Glossary {
            title: "Racers and their powers",
            entries: racers::ALL
                .iter()
                .map(|r| (r.name().to_string(), r.power_text().to_string()))
                .collect(),
        })
    }
}
