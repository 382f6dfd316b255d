//! Standing plays: rules a seat states in advance ("remedy a block at once", "attack the
//! leader"...) so that autopilot (`auto`) plays its card without asking when a rule
//! decides the turn. Rules are data: [`StandingPlays::parse`] reads them (syntax only, a
//! typed [`StandingError`]), [`StandingPlays::decide`] reads the board. The rulings are in
//! docs/rules/1000-miles.md and docs/rules/1000-yards.md, *Standing plays*.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::bot::keep_value;
use super::cards::{Card, Kind, normalise};
use super::{CardRace, Order, Phase};
use crate::engine::Seat;

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

/// What a seat's rules make of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// This rule decides: play this order.
    Play(Order, Rule),
    /// This rule applies but sees two equally good plays (a conflict): ask.
    Conflict(Rule),
    /// No rule covers the turn: ask.
    Uncovered,
}

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

    /// What these rules play for `seat` now. Only a seat's own turn is decided; a
    /// dirty-trick window and the extension are always asked.
    pub fn decide(&self, g: &CardRace, seat: Seat) -> Decision {
        if !matches!(g.phase(), Phase::Turn { seat: s } if *s == seat) {
            return Decision::Uncovered;
        }
        let legal = g.turn_orders(seat);
        for &rule in &self.0 {
            match apply(rule, g, seat, &legal) {
                Applies::Play(order) if legal.contains(&order) => {
                    return Decision::Play(order, rule);
                }
                Applies::Tie => return Decision::Conflict(rule),
                Applies::Play(_) | Applies::No => {}
            }
        }
        Decision::Uncovered
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

enum Applies {
    Play(Order),
    Tie,
    No,
}

fn play(card: Card) -> Applies {
    Applies::Play(Order::Play { card, target: None })
}

fn apply(rule: Rule, g: &CardRace, seat: Seat, legal: &[Order]) -> Applies {
    let Some(team) = g.team_of(seat) else {
        return Applies::No;
    };
    let plays: Vec<(Card, Option<u8>)> = legal
        .iter()
        .filter_map(|o| match *o {
            Order::Play { card, target } => Some((card, target)),
            _ => None,
        })
        .collect();
    let distances = || {
        plays
            .iter()
            .filter_map(|&(c, _)| c.distance().map(|v| (c, v)))
    };
    match rule {
        Rule::Finish if !team.counterflow() => distances()
            .find(|&(_, v)| team.distance.saturating_add(v) == g.target())
            .map_or(Applies::No, |(c, _)| play(c)),
        Rule::Remedy if !team.rolling() => {
            let remedy = plays.iter().find(|(c, _)| {
                c.kind() == Kind::Remedy
                    && c.fixes()
                        .is_some_and(|p| p.is_battle_attack() && team.has(p))
            });
            match remedy {
                Some(&(c, _)) => play(c),
                None if plays.iter().any(|&(c, _)| c == Card::Go) => play(Card::Go),
                None => Applies::No,
            }
        }
        Rule::Remedy
            if team.counterflow() && plays.iter().any(|&(c, _)| c == Card::EndOfCounterflow) =>
        {
            play(Card::EndOfCounterflow)
        }
        Rule::Attack => attack_leader(g, seat, &plays),
        Rule::Distance if !team.counterflow() => distances()
            .max_by_key(|&(_, v)| v)
            .map_or(Applies::No, |(c, _)| play(c)),
        Rule::Safety => plays
            .iter()
            .find(|(c, _)| c.is_safety())
            .map_or(Applies::No, |&(c, _)| play(c)),
        Rule::KeepSafety | Rule::Junk => junk(rule, g, seat, &plays),
        _ => Applies::No,
    }
}

/// The leader is the opposing team furthest on (then with the higher total); two teams
/// level on both are a tie. A stopping attack goes before a speed limit; between stopping
/// attacks, the one whose remedies are most seen on the table (fewer left to draw).
fn attack_leader(g: &CardRace, seat: Seat, plays: &[(Card, Option<u8>)]) -> Applies {
    let own = g.team_index(seat);
    let key = |t: u8| {
        g.team(t)
            .map(|x| (x.distance, x.total))
            .unwrap_or((0, i64::MIN))
    };
    let Some(best) = (0..g.teams().len() as u8)
        .filter(|&t| t != own)
        .map(key)
        .max()
    else {
        return Applies::No;
    };
    let leaders: Vec<u8> = (0..g.teams().len() as u8)
        .filter(|&t| t != own && key(t) == best)
        .collect();
    let on = |t: u8| -> Vec<Card> {
        plays
            .iter()
            .filter(|&&(_, target)| target == Some(t))
            .map(|&(c, _)| c)
            .collect()
    };
    let attackable: Vec<u8> = leaders
        .iter()
        .copied()
        .filter(|&t| !on(t).is_empty())
        .collect();
    let target = match attackable.as_slice() {
        [] => return Applies::No,
        [one] => *one,
        _ => return Applies::Tie,
    };
    let seen = |attack: Card| -> usize {
        let Some(remedy) = Card::remedy_for(attack) else {
            return 0;
        };
        let on_table: usize = g
            .teams()
            .iter()
            .map(|t| t.pile.iter().filter(|&&c| c == remedy).count())
            .sum();
        on_table + g.discard().iter().filter(|&&c| c == remedy).count()
    };
    let card = on(target)
        .into_iter()
        .max_by_key(|&c| (c.is_battle_attack(), seen(c), std::cmp::Reverse(c)));
    match card {
        Some(card) => Applies::Play(Order::Play {
            card,
            target: Some(target),
        }),
        None => Applies::No,
    }
}

/// Both junk rules apply only when nothing but an immunity can be played. `junk`: a card
/// that can never help (a remedy for a problem you are immune to, a distance past the
/// trip...), else the least useful duplicate; `keep-safety`: the least useful card that
/// is not an immunity.
fn junk(rule: Rule, g: &CardRace, seat: Seat, plays: &[(Card, Option<u8>)]) -> Applies {
    if plays.iter().any(|(c, _)| !c.is_safety()) {
        return Applies::No;
    }
    let hand = g.hand(seat);
    let least =
        |cards: &mut dyn Iterator<Item = Card>| cards.min_by_key(|&c| (keep_value(g, seat, c), c));
    let card =
        match rule {
            Rule::KeepSafety => {
                if !hand.iter().any(|c| c.is_safety()) {
                    return Applies::No;
                }
                least(&mut hand.iter().copied().filter(|c| !c.is_safety()))
            }
            _ => {
                let dead = least(
                    &mut hand
                        .iter()
                        .copied()
                        .filter(|&c| keep_value(g, seat, c) <= 2),
                );
                dead.or_else(|| {
                    least(&mut hand.iter().copied().filter(|&c| {
                        !c.is_safety() && hand.iter().filter(|&&d| d == c).count() > 1
                    }))
                })
            }
        };
    card.map_or(Applies::No, |card| Applies::Play(Order::Junk { card }))
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
