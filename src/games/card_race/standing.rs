//! Standing plays: rules a seat states in advance ("remedy a block at once", "attack the
//! leader"...) so that autopilot (`auto`) plays its card without asking when a rule
//! decides the turn. Rules are data: [`StandingPlays::parse`] reads them (syntax only, a
//! typed [`StandingError`]); `decide.rs` reads the board (`StandingPlays::decide`). The rulings are in
//! docs/rules/1000-miles.md and docs/rules/1000-yards.md, *Standing plays*.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::cards::normalise;

/// One standing play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// Complete the trip when a distance card reaches it exactly.
    Finish,
    /// Stopped: play the remedy for the problem in force, or the green light.
    Remedy,
    /// Attack the opposing team furthest on, when an attack in hand may go on it.
    Attack,
    /// Play the largest distance that fits.
    Distance,
    /// Play an immunity as soon as you hold it (no dirty trick with it).
    Safety,
    /// Keep immunities for a dirty trick: with nothing else to play, junk instead.
    KeepSafety,
    /// With nothing to play, junk a card that can never help, else a duplicate.
    Junk,
}

impl Rule {
    pub const ALL: [Rule; 7] = [
        Rule::Finish,
        Rule::Remedy,
        Rule::Attack,
        Rule::Distance,
        Rule::Safety,
        Rule::KeepSafety,
        Rule::Junk,
    ];

    /// The word a player types.
    pub fn word(self) -> &'static str {
        match self {
            Rule::Finish => "finish",
            Rule::Remedy => "remedy",
            Rule::Attack => "attack",
            Rule::Distance => "distance",
            Rule::Safety => "safety",
            Rule::KeepSafety => "keep-safety",
            Rule::Junk => "junk",
        }
    }

    /// What the rule does, in a few words (1000 Yards calls immunities protections).
    pub fn explain(self, yards: bool) -> &'static str {
        match (self, yards) {
            (Rule::Finish, _) => "complete the trip when a card reaches it exactly",
            (Rule::Remedy, _) => "when stopped, play the remedy, then the green light",
            (Rule::Attack, _) => "attack the opposing team furthest on when you can",
            (Rule::Distance, _) => "play the largest distance that fits",
            (Rule::Safety, false) => "play an immunity as soon as you hold it",
            (Rule::Safety, true) => "play a protection as soon as you hold it",
            (Rule::KeepSafety, false) => {
                "keep immunities for a dirty trick: with nothing else to play, junk instead"
            }
            (Rule::KeepSafety, true) => {
                "keep protections for a counter: with nothing else to play, junk instead"
            }
            (Rule::Junk, _) => {
                "with nothing to play, junk a card that can never help you, else a duplicate"
            }
        }
    }

    fn read(phrase: &str) -> Option<Rule> {
        Some(match phrase {
            "finish" | "complete" | "complete the trip" | "finish the trip" => Rule::Finish,
            "remedy" | "remedies" | "fix" | "remedy a block" | "remedy a block at once" => {
                Rule::Remedy
            }
            "attack" | "attacks" | "attack the leader" | "attack leader" => Rule::Attack,
            "distance"
            | "largest"
            | "largest distance"
            | "play the largest distance"
            | "play the largest distance that fits"
            | "miles"
            | "yards" => Rule::Distance,
            "safety" | "safeties" | "safety early" | "immunity" | "protection" => Rule::Safety,
            "keep safety"
            | "keep safeties"
            | "keep immunity"
            | "keep protection"
            | "keep a safety"
            | "keep a safety for a dirty trick"
            | "keep" => Rule::KeepSafety,
            "junk" | "junk duplicates" | "junk duplicates first" | "discard" => Rule::Junk,
            _ => return None,
        })
    }
}

/// Standing-play text that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StandingError {
    #[error("write the standing plays you want, like `standing remedy, attack, distance`")]
    Empty,
    #[error(
        "`{0}` is not a standing play; they are finish, remedy, attack, distance, safety, keep-safety and junk (or `standing none`)"
    )]
    Unknown(String),
    #[error("`safety` and `keep-safety` contradict each other; choose one")]
    Contradiction,
}

/// What a standing-play text asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StandingText {
    /// Show the seat's standing plays (`standing`).
    Show,
    /// Set them (an empty list: none).
    Set(StandingPlays),
}

/// A seat's standing plays, in the order the seat wrote them: the first rule that applies
/// to a turn decides it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StandingPlays(pub Vec<Rule>);

/// Every seat's standing plays, by seat. A seat the list does not reach has none: a state
/// saved before standing plays existed holds an empty list, and means the same as one
/// holding an empty set for each seat, so the two compare equal.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Standings(Vec<StandingPlays>);

impl Standings {
    /// `n` seats, each starting with `plays`.
    pub fn every(n: usize, plays: StandingPlays) -> Standings {
        Standings(vec![plays; n])
    }

    /// The seat's plays (none past the end of the list).
    pub fn of(&self, index: usize) -> StandingPlays {
        self.0.get(index).cloned().unwrap_or_default()
    }

    /// Sets the seat's plays, giving every seat before it its slot.
    pub fn set(&mut self, index: usize, plays: StandingPlays) {
        if self.0.len() <= index {
            self.0
                .resize(index.saturating_add(1), StandingPlays::none());
        }
        if let Some(slot) = self.0.get_mut(index) {
            *slot = plays;
        }
    }
}

impl PartialEq for Standings {
    fn eq(&self, other: &Standings) -> bool {
        let n = self.0.len().max(other.0.len());
        (0..n).all(|i| self.of(i) == other.of(i))
    }
}

impl Eq for Standings {}

impl StandingPlays {
    /// The set a new seat starts with (race option `standing-plays`, on by default).
    pub fn conservative() -> StandingPlays {
        StandingPlays(vec![
            Rule::Finish,
            Rule::Remedy,
            Rule::Attack,
            Rule::Distance,
            Rule::KeepSafety,
            Rule::Junk,
        ])
    }

    pub fn none() -> StandingPlays {
        StandingPlays(Vec::new())
    }

    pub fn rules(&self) -> &[Rule] {
        &self.0
    }

    /// The text that sets these plays again.
    pub fn text(&self) -> String {
        if self.0.is_empty() {
            return "standing none".into();
        }
        let words: Vec<&str> = self.0.iter().map(|r| r.word()).collect();
        format!("standing {}", words.join(", "))
    }

    /// Whether `text` is meant as standing plays (it starts with `standing` or `plays`).
    pub fn is_standing_text(text: &str) -> bool {
        strip_prefix(&normalise(text)).is_some()
    }

    /// Reads `standing remedy, attack, distance`, `standing none`, `standing default`, or
    /// `standing` alone (show). Syntax only: nothing here looks at the board.
    pub fn parse(text: &str) -> Result<StandingText, StandingError> {
        let t = normalise(text);
        let rest = strip_prefix(&t).unwrap_or(&t).trim();
        let rest = rest.trim_start_matches([':', '=']).trim();
        match rest {
            "" | "show" | "list" | "help" => return Ok(StandingText::Show),
            "none" | "off" | "clear" | "ask" | "nothing" => {
                return Ok(StandingText::Set(StandingPlays::none()));
            }
            "default" | "defaults" | "on" | "conservative" => {
                return Ok(StandingText::Set(StandingPlays::conservative()));
            }
            _ => {}
        }
        let mut rules: Vec<Rule> = Vec::new();
        for phrase in rest
            .split([',', ';', '>', '\n'])
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let phrase = phrase.strip_prefix("then ").unwrap_or(phrase).trim();
            for rule in read_phrase(phrase)? {
                if !rules.contains(&rule) {
                    rules.push(rule);
                }
            }
        }
        if rules.is_empty() {
            return Err(StandingError::Empty);
        }
        if rules.contains(&Rule::Safety) && rules.contains(&Rule::KeepSafety) {
            return Err(StandingError::Contradiction);
        }
        Ok(StandingText::Set(StandingPlays(rules)))
    }
}

fn strip_prefix(t: &str) -> Option<&str> {
    ["standing plays", "standing play", "standing", "plays"]
        .iter()
        .find_map(|p| {
            t.strip_prefix(p)
                .filter(|r| r.is_empty() || r.starts_with([' ', ':', '=']))
        })
}

/// A phrase: one rule in words ("attack the leader"), or several single words
/// ("remedy attack distance", "keep safety junk").
fn read_phrase(phrase: &str) -> Result<Vec<Rule>, StandingError> {
    if let Some(r) = Rule::read(phrase) {
        return Ok(vec![r]);
    }
    let words: Vec<&str> = phrase.split_whitespace().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let two = words
            .get(i..i + 2)
            .map(|w| w.join(" "))
            .and_then(|w| Rule::read(&w));
        if let Some(r) = two {
            out.push(r);
            i += 2;
        } else if let Some(r) = words.get(i).and_then(|w| Rule::read(w)) {
            out.push(r);
            i += 1;
        } else {
            let word = words.get(i).copied().unwrap_or(phrase);
            return Err(StandingError::Unknown(word.chars().take(30).collect()));
        }
    }
    Ok(out)
}

/// Help for `/race help` and `standing help`: every rule, and how they combine.
pub fn help(yards: bool) -> String {
    let mut s = String::from(
        "Standing plays: on `auto`, a turn they decide is played for you. Write \
         `standing <rules>` in the order you want them tried (the first that applies plays): ",
    );
    let rules: Vec<String> = Rule::ALL
        .iter()
        .map(|r| format!("`{}` ({})", r.word(), r.explain(yards)))
        .collect();
    s.push_str(&rules.join("; "));
    s.push_str(
        ". A rule that sees two equally good plays (two leaders level) asks you, and so does \
         a turn no rule covers. `standing` shows yours, `standing default` restores the \
         starting set (finish, remedy, attack, distance, keep-safety, junk), `standing none` \
         asks every turn.",
    );
    s
}
